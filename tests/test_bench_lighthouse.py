"""The Lighthouse bench's calibration and verdict (scripts/benchmarks/calibration.py,
lighthouse.py). Lighthouse itself is never run here: the bench prints its scores."""

from __future__ import annotations

import pytest

from scripts.benchmarks import calibration
from scripts.benchmarks.lighthouse import median_run, verdict


def test_the_calculators_default_host_keeps_lighthouses_default_slowdown():
    assert calibration.multiplier(1533) == pytest.approx(4)


def test_a_host_twice_as_fast_takes_twice_the_slowdown():
    """Same phone from any host: slowdown over the host's task times is the same."""
    for index in (600, 1000, 1914):
        assert calibration.multiplier(2 * index) == pytest.approx(
            2 * calibration.multiplier(index))


def test_a_host_slower_than_the_phone_runs_unthrottled():
    assert calibration.multiplier(calibration.PHONE_INDEX / 2) == 1


@pytest.mark.parametrize("bad", [0, -5, float("nan")])
def test_a_benchmark_index_must_be_positive(bad):
    with pytest.raises(ValueError, match="benchmark_index"):
        calibration.multiplier(bad)


def test_the_host_summary_is_the_median_and_quartiles():
    s = calibration.summary([900, 1100, 1000, 2000, 950])
    assert (s["median"], s["min"], s["max"], s["n"]) == (1000, 900, 2000, 5)
    assert s["q1"] <= s["median"] <= s["q3"]


def run(perf, tbt=100, cls=0.0, a11y=100):
    return {"scores": {"performance": perf, "accessibility": a11y, "best-practices": 100,
                       "seo": 100}, "tbt_ms": tbt, "cls": cls, "weight_kib": 300}


def test_the_verdict_takes_the_median_of_the_runs():
    s = median_run([run(95, tbt=150), run(88, tbt=260), run(91, tbt=190)])
    assert s["scores"]["performance"] == 91 and s["range"]["performance"] == (88, 95)
    assert s["tbt_ms"] == 190 and verdict(s, "mobile") == []


def test_each_target_is_judged_on_mobile():
    misses = verdict(median_run([run(89, tbt=201, cls=0.02, a11y=98)]), "mobile")
    assert [m.split()[0] for m in misses] == ["performance", "accessibility", "TBT", "CLS"]


def test_desktop_is_judged_on_its_score_alone():
    assert verdict(median_run([run(99, tbt=900)]), "desktop") == ["performance 99 < 100"]
