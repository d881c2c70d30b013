"""The tuned study's plan: the same search for every shape, stage after stage, then the final
runs on fresh seeds under a cap fixed from the search (scripts/study/tuned.py)."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from tuned_scores import complete, search_bpc

from scripts.study import tuned
from scripts.study.plan import base_job

VOCAB = 77
SEARCH = tuned.Search()


def _land(runs, records, score):
    """Records for every planned run without one: ``score(run)`` as its validation bpc."""
    for run in runs:
        if run.name not in records:
            records[run.name] = {"val_bpc": score(run), "steps": 4000}
    return records


def _by(runs, group):
    return [r for r in runs if r.group == group]


def test_stage_a_is_the_same_grid_for_every_shape_on_validation_only():
    runs, decided = tuned.plan(VOCAB, {})
    a = _by(runs, "A")
    assert len(a) == len(runs) == 3 * 5 * 2      # 3 shapes x 5 rates x 2 forget biases
    grids = {}
    for run in a:
        m, t = run.job.model, run.job.train
        grids.setdefault(m.num_layers * 10 + m.residual, set()).add((t.lr, m.forget_bias))
        assert m.dropout == SEARCH.probe_dropout and t.max_steps == SEARCH.a_steps
        assert t.seed == SEARCH.seed and run.job.test is False
    assert len(set(map(frozenset, grids.values()))) == 1   # one grid, every shape
    rates = sorted({lr for lr, _ in next(iter(grids.values()))})
    assert rates[0] == pytest.approx(1.5e-3) and rates[-1] == pytest.approx(9e-3)
    assert all(b / a == pytest.approx(rates[1] / rates[0], rel=0.05)
               for a, b in pairwise(rates))   # log-spaced
    assert decided == {"winners": dict.fromkeys(tuned.shapes(base_job(VOCAB), SEARCH)),
                       "cap": None, "checked": {}}


@pytest.mark.parametrize("fourth, kept", [(0.019, 4), (0.021, 3)])
def test_a2_continues_the_best_three_and_a_fourth_within_the_margin(fourth, kept):
    runs, _ = tuned.plan(VOCAB, {})
    residual = [r.name for r in _by(runs, "A") if "L3-h128-res" in r.name]
    order = {name: k for k, name in enumerate(residual)}
    # the best three 2.000, 2.001, 2.002; the fourth ``fourth`` behind the best; the rest far
    scores = {name: 2.0 + 0.001 * k if k < 3 else 2.5 for name, k in order.items()}
    fourth_name = next(n for n, k in order.items() if k == 3)
    scores[fourth_name] = 2.0 + fourth
    records = _land(runs, {}, lambda r: scores.get(r.name, 3.0))
    runs, _ = tuned.plan(VOCAB, records)
    a2 = [r for r in _by(runs, "A2") if "L3-h128-res" in r.name]
    assert len(a2) == kept
    assert all(r.job.train.max_steps == SEARCH.a2_steps and not r.job.test for r in a2)
    assert {r.name.removeprefix("A2-") for r in a2} <= {n.removeprefix("A-") for n in order}


def _search_done(b_steps=(6000, 7000, 8000, 9000, 10000, 11000, 12000, 20000)):
    """Records of the whole search: rate 9e-3 and forget bias 1 win A and A2; dropout 0.2
    wins B for both shapes; B stops at ``b_steps``."""
    steps = iter(b_steps)
    return complete(lambda run: {"val_bpc": search_bpc(run), "steps": next(steps)
                                 if run.group == "B" else run.job.train.max_steps},
                    VOCAB, ("A", "A2", "B"))[1]


def test_b_searches_dropout_from_a2s_winner_and_the_plain_stack_takes_the_residual_dropout():
    runs, decided = tuned.plan(VOCAB, _search_done())
    b = _by(runs, "B")
    assert len(b) == 2 * len(SEARCH.dropouts)                 # the wide and the residual stack
    assert {r.job.model.dropout for r in b} == set(SEARCH.dropouts)
    assert all(r.job.train.max_steps == SEARCH.search_cap and r.job.train.lr == 9e-3
               and r.job.model.forget_bias == 1.0 and not r.job.test for r in b)
    assert all(w == {"lr": 9e-3, "forget_bias": 1.0, "dropout": 0.2}
               for w in decided["winners"].values())


def test_the_final_cap_is_fixed_from_b_before_any_final_run():
    # the 90th percentile of 6,000..12,000 and 20,000 is 14,400; x 1.3 = 18,720 -> 18,750
    _, decided = tuned.plan(VOCAB, _search_done())
    assert decided["cap"] == 18_750
    assert tuned.final_cap([1000] * 10, SEARCH, 250) == 1500   # 1,300 up to a whole score


CHECKS = tuple(f"C{scale:g}" for scale in SEARCH.budgets)


def _checks_done(records, score=search_bpc):
    """``records`` plus every budget's check, each scored ``score(run)``."""
    return complete(lambda run: {"val_bpc": score(run), "steps": run.job.train.max_steps},
                    VOCAB, CHECKS, records=records)[1]


def test_final_runs_use_fresh_seeds_the_winners_and_the_stated_dropout_rule():
    runs, decided = tuned.plan(VOCAB, _checks_done(_search_done()))
    finals = [r for r in runs if r.group not in ("A", "A2", "B", *CHECKS)]
    search_seeds = {r.job.train.seed for r in runs if r.group in ("A", "A2", "B")}
    assert all(r.job.test and r.job.train.max_steps == decided["cap"] for r in finals)
    assert all(r.analyse == ("plays",) for r in finals)   # each test play scored apart
    assert not search_seeds & {r.job.train.seed for r in finals}
    x1 = _by(finals, "x1")
    assert sorted(len([r for r in x1 if r.name.startswith(p)]) for p in
                  ("L1-h268-", "L3-h128-res-", "L3-h128-s")) == [3, 5, 5]
    deep = _by(finals, "deep")
    assert {r.job.model.num_layers for r in deep} == {8}
    assert {r.job.model.forget_bias for r in deep} == {1.0} and len(deep) == 6
    for scale in SEARCH.budgets:
        group = _by(finals, f"x{scale:g}")
        assert len(group) == 10 and {r.job.model.num_layers for r in group} == {1, 3}
        # the check's settings: the winner's rate and dropout score best at every budget
        assert {(r.job.model.dropout, r.job.train.lr) for r in group} == {(0.2, 9e-3)}
    assert tuned.dropout_at(0.2, 2.0, 0.1) == pytest.approx(0.3)
    assert tuned.dropout_at(0.2, 0.25, 0.1) == 0.0            # never below 0
    names = [r.name for r in runs]
    assert len(names) == len(set(names))


def test_at_every_other_budget_a_check_on_validation_sets_the_settings_first():
    records = _search_done()
    runs, decided = tuned.plan(VOCAB, records)
    assert not [r for r in runs if r.group.startswith("x") and r.group != "x1"]
    for scale, levels in ((2, [0.2, 0.3]), (4, [0.2, 0.3, 0.4]), (0.5, [0.2, 0.1]),
                          (0.25, [0.2, 0.1, 0.0])):
        check = _by(runs, f"C{scale:g}")   # first the dropouts, at the winner's rate
        assert len(check) == 2 * len(levels)               # the wide and the residual stack
        for shape in (tuned.WIDE, tuned.RESIDUAL):
            assert [(r.job.train.lr, r.job.model.dropout) for r in check if r.shape == shape] == [
                (decided["winners"][shape]["lr"], d) for d in levels]
        assert {(r.job.train.seed, r.job.test, r.job.train.max_steps) for r in check} == {
            (SEARCH.seed, False, decided["cap"])}

    def prefers(run, wide, residual):   # each shape's check prefers its own (rate, dropout)
        lr, dropout = wide if run.shape == tuned.WIDE else residual
        return 3.0 + abs(run.job.model.dropout - dropout) + abs(math.log(run.job.train.lr / lr))

    def score(run):
        return prefers(run, (5.8e-3, 0.3), (9e-3, 0.2))

    staged = dict(records)
    for run in _by(tuned.plan(VOCAB, staged)[0], "C2"):
        staged[run.name] = {"val_bpc": score(run), "steps": 4000}
    runs, _ = tuned.plan(VOCAB, staged)      # then the rates either side, at the best dropout
    rates = [r for r in _by(runs, "C2") if r.name not in staged]
    assert sorted((r.shape, r.job.train.lr, r.job.model.dropout) for r in rates) == sorted([
        (tuned.WIDE, 5.8e-3, 0.3), (tuned.WIDE, 1.4e-2, 0.3),
        (tuned.RESIDUAL, 5.8e-3, 0.2), (tuned.RESIDUAL, 1.4e-2, 0.2)])
    assert not _by(runs, "x2")
    half = _checks_done(dict(records), score)
    del half[next(r.name for r in rates if r.shape == tuned.RESIDUAL)]
    assert not _by(tuned.plan(VOCAB, half)[0], "x2")     # one shape's check is not in yet
    runs, decided = tuned.plan(VOCAB, _checks_done(dict(records), score))
    assert decided["checked"]["x2"] == {tuned.WIDE: {"lr": 5.8e-3, "dropout": 0.3},
                                        tuned.RESIDUAL: {"lr": 9e-3, "dropout": 0.2}}
    # the wide layer's best rate sat at the lower edge of those tried: one step further
    assert sorted(r.job.train.lr for r in _by(runs, "C2") if r.shape == tuned.WIDE) == [
        3.7e-3, 5.8e-3, 9e-3, 9e-3, 1.4e-2]
    assert len(_by(runs, "C2")) == 2 * 2 + 2 * 2 + 1
    x2 = _by(runs, "x2")
    assert {(r.shape, r.job.train.lr, r.job.model.dropout) for r in x2} == {
        (tuned.WIDE, 5.8e-3, 0.3), (tuned.RESIDUAL, 9e-3, 0.2)}
    assert {r.name.rsplit("-s", 1)[0] for r in x2} == {"L1-h395-lr0.0058-d0.3",
                                                       "L3-h185-res-lr0.009-d0.2"}


def test_a_checks_rate_moves_on_at_most_three_steps_past_the_first_neighbours():
    def score(run):                      # every shape prefers a far lower rate
        return 3.0 + abs(run.job.model.dropout - 0.2) + abs(math.log(run.job.train.lr / 1e-4))

    runs, decided = tuned.plan(VOCAB, _checks_done(_search_done(), score))
    wide = sorted(r.job.train.lr for r in _by(runs, "C2") if r.shape == tuned.WIDE)
    assert wide == [1.5e-3, 2.3e-3, 3.7e-3, 5.8e-3, 9e-3, 9e-3, 1.4e-2]
    assert decided["checked"]["x2"][tuned.WIDE] == {"lr": 1.5e-3, "dropout": 0.2}


def test_a_checks_rates_are_the_grids_neighbours_and_one_step_past_an_edge():
    grid = [1.5e-3, 2.3e-3, 3.7e-3]
    assert tuned._neighbours(2.3e-3, grid, SEARCH.rate_step) == [1.5e-3, 3.7e-3]
    assert tuned._neighbours(3.7e-3, grid, SEARCH.rate_step) == [2.3e-3, 5.8e-3]
    assert tuned._neighbours(1.5e-3, grid, SEARCH.rate_step) == [9.6e-4, 2.3e-3]


def test_final_runs_come_stage_by_stage_seed_by_seed_the_verdicts_pair_first():
    runs, _ = tuned.plan(VOCAB, _checks_done(_search_done()))
    finals = [r for r in runs if r.group not in ("A", "A2", "B")]
    groups = [r.group for r in finals]
    order = ["x1", "deep", "C2", "x2", "C0.5", "x0.5", "C0.25", "x0.25", "C4", "x4"]
    assert groups == sorted(groups, key=order.index)
    x1 = [(r.shape, r.job.train.seed) for r in _by(finals, "x1")]
    pair = [(shape, s) for s in SEARCH.final_seeds for shape in (tuned.WIDE, tuned.RESIDUAL)]
    assert x1 == pair + [(tuned.PLAIN, s) for s in SEARCH.few_seeds]
    for group in ("deep", "x2"):
        seeds = [r.job.train.seed for r in _by(finals, group)]
        assert seeds == sorted(seeds)                        # each seed for both shapes


def test_a_run_that_diverged_before_its_first_score_ranks_last():
    runs, _ = tuned.plan(VOCAB, {})
    records = _land(runs, {}, lambda r: None if r.job.train.lr == 9e-3 else 2.5 - r.job.train.lr)
    runs, _ = tuned.plan(VOCAB, records)
    assert all(r.job.train.lr != 9e-3 for r in _by(runs, "A2"))


@pytest.mark.parametrize("best, added", [
    (3.7e-3, ()),                          # inside the grid: nothing added
    (9e-3, (0.014,)),                      # on the top edge, then inside
    (1.0, (0.014, 0.022, 0.034)),          # past the top: three steps at most
    (1e-5, (0.00096, 0.00061, 0.00039)),   # past the bottom
])
def test_the_rate_grid_grows_at_an_edge_for_every_shape(best, added):
    def score(run):   # only the wide layer's best rate is ``best``; the others win at 3.7e-3
        return {"val_bpc": search_bpc(run, best if run.shape == tuned.WIDE else 3.7e-3),
                "steps": 6000}

    runs, _, decided = complete(score, VOCAB, ("A", "A2"))
    grids = {}
    for run in _by(runs, "A"):
        grids.setdefault(run.shape, set()).add(run.job.train.lr)
    assert all(g == set(SEARCH.rates) | set(added) for g in grids.values())
    assert len(grids) == 3
    wide = decided["winners"][tuned.WIDE]["lr"]
    assert wide == (min(grids[tuned.WIDE], key=lambda r: abs(math.log(r / best))))
