"""The pages' sentences about the tuned study's verdict, held to its generated data
(docs/generated/data/tuned_verdict.json: scripts/study/tuned_summary.py, through the lecture's
one comparison, scripts/study/verdict.py)."""

from __future__ import annotations

import pytest
from claim_sources import generated

from scripts.study import tuned


@pytest.fixture(scope="module")
def verdict() -> dict:
    return generated("data/tuned_verdict.json")


def _at(verdict: dict, group: str) -> dict:
    return next(b for b in verdict["budgets"] if b["group"] == group)


def test_tuned_at_the_reference_budget_residual_depth_is_ahead_and_plain_depth_behind(verdict):
    """§10 "Each shape tuned": "three residual layers were ahead of one wide layer [...] Three
    plain layers were behind it"; the same on the home page, §10's opening and §12's verdict
    card and first rule (the numbers are registered)."""
    x1 = _at(verdict, "x1")["versus_wide"]
    assert x1[tuned.RESIDUAL]["verdict"] == "ahead"
    assert x1[tuned.PLAIN]["verdict"] == "behind"


def test_under_one_recipe_the_same_two_shapes_were_not_told_apart(study):
    """§10 "Each shape tuned", its note: "The sections below use one recipe for every shape
    [...]; under it, the seeds could not tell the residual stack from the wide layer at this
    budget"."""
    x1 = next(b for b in study["scale"]["lstm"] if b["scale"] == 1.0)
    assert x1["versus_wide"][tuned.RESIDUAL]["verdict"] == "not resolved"


def test_the_seeds_are_the_plans(verdict):
    """"fresh seeds: five each for the wide layer and the residual stack, three for the plain
    stack"."""
    shapes = _at(verdict, "x1")["shapes"]
    search = tuned.Search()
    assert [len(shapes[s]["seeds"]) for s in (tuned.WIDE, tuned.RESIDUAL, tuned.PLAIN)] == [
        len(search.final_seeds), len(search.final_seeds), len(search.few_seeds)] == [5, 5, 3]


def test_only_the_reference_budget_is_in(verdict):
    """"at one budget" (home, §10, §12); "The tuned runs at the other budgets, and of eight
    layers, are still training": when more land, the pages' verdict is due again."""
    assert [b["group"] for b in verdict["budgets"]] == ["x1"] and verdict["deep"] == {}


def test_once_depth_trains_the_shapes_differ_by_a_few_hundredths_at_most(study, verdict):
    """§10 "How far this reaches": "once depth trains, the shapes differ by little, a few
    hundredths of a bit per character at most" (the residual stack against the wide layer, in
    both studies, at every budget)."""
    gaps = [b["versus_wide"][tuned.RESIDUAL]["diff"]
            for b in [*study["scale"]["lstm"], *verdict["budgets"]]]
    assert len(gaps) == 4 + len(verdict["budgets"]) and max(abs(g) for g in gaps) < 0.05
