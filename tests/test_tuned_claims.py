"""§10's sentences about the tuned study's search, held to its generated data
(docs/generated/data/tuned_search.json, from scripts/study/tuned_summary.py)."""

from __future__ import annotations

import pytest
from claim_sources import generated

from scripts.study import tuned
from scripts.study.plan import base_job


@pytest.fixture(scope="module")
def search() -> dict:
    return generated("data/tuned_search.json")


def _stage(search: dict, stage: str, shape: str) -> list[dict]:
    return [t for t in search["trials"]
            if t["stage"] == stage and t["shape"] == shape and t["planned"]]


def test_the_search_kept_the_recipe_and_moved_the_rate(search):
    recipe = base_job(77)
    for w in search["winners"].values():
        assert w["dropout"] == recipe.model.dropout == 0
        assert w["forget_bias"] is None and recipe.model.forget_bias is None
        assert w["lr"] != recipe.train.lr


def test_the_residual_stack_took_the_lowest_rate_and_trains_over_the_widest_range(search):
    lr = {shape: w["lr"] for shape, w in search["winners"].items()}
    assert lr[tuned.RESIDUAL] < min(lr[tuned.WIDE], lr[tuned.PLAIN])
    near = {shape: len(rates) for shape, rates in search["near_best"].items()}
    assert near[tuned.RESIDUAL] > near[tuned.WIDE] > near[tuned.PLAIN]


def test_the_plain_stack_lies_above_both_at_every_rate(search):
    def by_rate(shape):
        rates: dict[float, float] = {}
        for t in _stage(search, "A", shape):
            rates[t["lr"]] = min(rates.get(t["lr"], t["val_bpc"]), t["val_bpc"])
        return rates

    plain, wide, residual = by_rate(tuned.PLAIN), by_rate(tuned.WIDE), by_rate(tuned.RESIDUAL)
    assert plain.keys() == wide.keys() == residual.keys()
    assert all(plain[r] > max(wide[r], residual[r]) for r in plain)


def test_more_dropout_scored_worse_for_both_shapes(search):
    """§10's note, and §12's recipe: "every level of dropout the search tried scored worse than
    none, for the wide layer and for the residual stack"."""
    for shape in (tuned.WIDE, tuned.RESIDUAL):
        scores = [t["val_bpc"] for t in sorted(_stage(search, "B", shape),
                                               key=lambda t: t["dropout"])]
        assert len(scores) == len(search["space"]["dropouts"])
        assert scores == sorted(scores) and len(set(scores)) == len(scores)
        assert 0 in search["space"]["dropouts"]


def test_the_notes_counts_are_the_plans():
    """"the two shapes the verdict compares have five seeds each, the plain stack three",
    fresh; "The winner tries four levels of dropout"."""
    search = tuned.Search()
    assert len(search.final_seeds) == 5 and len(search.few_seeds) == 3
    assert not set(search.final_seeds) & {search.seed}
    assert len(search.dropouts) == 4


def test_the_searchs_closest_call_lies_within_the_seeds_spread(search):
    """"Its closest call, the residual stack's best three settings in A2, lies within the
    spread of its final runs' validation scores over seeds"."""
    spans = {}
    for shape in search["winners"]:
        best = sorted(t["val_bpc"] for t in _stage(search, "A2", shape))[:3]
        spans[shape] = best[-1] - best[0]
    assert min(spans, key=spans.get) == tuned.RESIDUAL
    finals = generated("data/tuned_verdict.json")["budgets"]
    seeds = next(b for b in finals if b["group"] == "x1")["shapes"][tuned.RESIDUAL]
    assert spans[tuned.RESIDUAL] < max(seeds["val_bpc"]["values"]) - min(seeds["val_bpc"]["values"])


def test_a_forget_bias_of_one_ran_to_a2_for_every_shape_and_lost_there(search):
    """"A forget-gate bias of one also ran to 4,000 steps in A2, for every shape, and lost
    there too"."""
    for shape, w in search["winners"].items():
        a2 = _stage(search, "A2", shape)
        one = [t["val_bpc"] for t in a2 if t["forget_bias"] == 1.0]
        assert one and w["forget_bias"] is None
        assert min(one) > min(t["val_bpc"] for t in a2)


def test_the_rates_were_chosen_with_dropout_and_kept_without_it(search):
    """"The rates were chosen with dropout 0.1 and kept when B chose none"."""
    for shape, w in search["winners"].items():
        a2 = _stage(search, "A2", shape)
        assert {t["dropout"] for t in a2} == {search["space"]["probe_dropout"]} == {0.1}
        assert min(a2, key=lambda t: t["val_bpc"])["lr"] == w["lr"] and w["dropout"] == 0
