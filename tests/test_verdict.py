"""The one comparison every claim about shapes uses (scripts/study/verdict.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scripts.study.verdict import compare, slope, t_cdf, t_quantile


@pytest.mark.parametrize("p, df, value", [
    (0.975, 1, 12.7062047362), (0.975, 4, 2.7764451052), (0.975, 10, 2.2281388520),
    (0.95, 8, 1.8595480375), (0.975, 1e6, 1.9599663), (0.025, 4, -2.7764451052),
    (0.95, 2, 2.9199855804), (0.95, 3, 2.3533634348)])
def test_t_quantiles_match_the_tables(p, df, value):
    assert t_quantile(p, df) == pytest.approx(value, abs=2e-6)
    assert t_cdf(t_quantile(p, df), df) == pytest.approx(p, abs=1e-9)


def test_real_degrees_of_freedom_lie_between_their_neighbours():
    assert t_quantile(0.95, 3) < t_quantile(0.95, 2.5) < t_quantile(0.95, 2)


def test_welch_interval_by_hand():
    # x = 1..5 (var 2.5), y = 2, 4, .., 10 (var 10): se^2 = 0.5 + 2, df = 6.25 / 1.0625
    c = compare([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    assert c.diff == -3.0 and c.df == pytest.approx(6.25 / 1.0625)
    half = t_quantile(0.975, 6.25 / 1.0625) * math.sqrt(2.5)
    assert c.ci95 == pytest.approx((-3 - half, -3 + half))
    assert c.ci90[0] > c.ci95[0] and c.ci90[1] < c.ci95[1]
    assert c.verdict == "not resolved"


def test_the_words_follow_the_intervals():
    rng = np.random.default_rng(0)
    noise = rng.standard_normal(5) * 0.005
    base = 2.0 + noise
    assert compare(base - 0.05, base).verdict == "ahead"        # fewer bits: ahead
    assert compare(base + 0.05, base).verdict == "behind"
    same = compare(base, base[::-1])
    assert same.ci95[0] < 0 < same.ci95[1] and same.verdict == "equivalent"
    wide = compare(base * 1.0 + rng.standard_normal(5) * 0.05, base)
    assert wide.ci95[0] < 0 < wide.ci95[1] and wide.verdict == "not resolved"
    # the margin is what makes "equivalent": the same seeds, a margin below the interval
    assert compare(base, base[::-1], margin=1e-4).verdict == "not resolved"


def test_sample_sds_not_population_sds():
    c = compare([0.0, 1.0], [0.0, 1.0])
    # sample variance 0.5 each (population 0.25): se = sqrt(0.5 / 2 + 0.5 / 2), df = 2
    assert c.df == pytest.approx(2.0)
    assert c.ci95[1] == pytest.approx(t_quantile(0.975, 2) * math.sqrt(0.5))


@pytest.mark.parametrize("a, b, name", [([1.0], [1.0, 2.0], "a"), ([1.0, 2.0], [3.0], "b"),
                                        ([1.0, math.nan], [1.0, 2.0], "a")])
def test_bad_samples_are_named(a, b, name):
    with pytest.raises(ValueError, match=f"^{name}: "):
        compare(a, b)


def test_slope_per_doubling():
    rng = np.random.default_rng(1)
    budgets = [0.25, 0.5, 1.0, 2.0]
    steady = [compare(2 + rng.standard_normal(5) * 0.004 - 0.02, 2 + rng.standard_normal(5) * 0.004)
              for _ in budgets]
    flat = slope(budgets, steady)
    assert flat["ci95"][0] < 0 < flat["ci95"][1] and not flat["resolved"]
    rising = [compare(2 + rng.standard_normal(5) * 0.004 + 0.03 * k,
                      2 + rng.standard_normal(5) * 0.004) for k in range(4)]
    up = slope(budgets, rising)
    assert up["per_doubling"] == pytest.approx(0.03, abs=0.006) and up["resolved"]
    with pytest.raises(ValueError, match="budgets"):
        slope([1.0], steady[:1])
