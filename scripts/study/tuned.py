"""The tuned study: every shape gets the same search, then the verdict's runs on fresh seeds.

One recipe family with three knobs: the learning rate, dropout on the connections that do not
run through time (``stacklib.lm.model``: the embedding, each layer's output; in a residual stack
the branch, never the skip path) and the forget gate's starting bias (torch's draw, about 0, or
1). The rest is the study's recipe (``plan.base_job``): Adam, batches of 32 x 100 characters,
clipping at 1, a score on the validation plays every 250 steps, the rate halved after a score
without a new best, and a stop after three such scores.

The search, the same for each shape at the reference budget (one wide layer, three residual
layers, three plain layers), on seed 0, reads the validation plays only:

A    5 learning rates x forget bias {torch's, 1}, dropout fixed at 0.1, 1,500 steps each: which
     settings train at all. (Dropout is not searched here: so short a run cannot rank it.)
A2   the best 3 of A (4 when the 4th is within 0.02 bpc of the best) again, to 4,000 steps.
     While any shape's A2 winner sits on the rate grid's edge, the grid grows one log-step
     there (at most three) and every shape runs the new rates in A, then A2 again.
B    A2's winner with dropout 0, 0.1, 0.2 and 0.3, each to the stopping rule (under a cap of
     ``search_cap`` steps). The plain stack takes the residual stack's dropout.

A trial that a grown grid moves out of a stage keeps its record, named by its settings.

The final runs' step cap is fixed from B before any of them starts: 1.3 times the 90th
percentile of B's stopping steps, rounded up to a whole number of scores. The final runs use
fresh seeds, each shape its own winner, in this order (within a stage, seed by seed across
the shapes it compares, so a study cut short has the same seeds on each side):

x1      the reference budget: the wide layer and three residual layers, 5 seeds each; three
        plain layers, 3 seeds
deep    eight plain and eight residual layers of 128, forget bias 1, 3 seeds each
x2      twice the budget, 5 seeds, after its check (C2, below)
x0.5    half, then a quarter of the budget, 5 seeds, each after its check
x0.25
x4      four times the budget, where the compute allows

At the other budgets each shape carries its rate and forget bias, and dropout follows a rule
stated before any final run: 0.1 more per doubling of the budget, 0.1 less per halving, never
below 0. At each of those budgets the carried settings are checked before its final runs
(stage C2 for 2x, C0.5 for half the budget, ...), on the search's seed, each run to the
stopping rule under the final cap: first every dropout from the winner's to the rule's, in
steps of 0.1, at the winner's rate; then, at the best of those, the rates one grid step below
and above the winner's, one step further while the best sits at an edge of the rates tried
(at most three steps, as in the search). The lowest validation bpc picks the final runs' rate
and dropout, which their names then carry ("L1-h395-lr0.0058-d0-s1").
"""

from __future__ import annotations

import math
from itertools import zip_longest

import numpy as np

from scripts.study.plan import Run, base_job, quick_base, shape_name, variant
from scripts.study.search_space import (
    PLAIN,
    RESIDUAL,
    WIDE,
    Search,
    best_of,
    dropout_at,
    fb_label,
    shapes,
    trial_job,
    two_digits,
    val_score,
)
from stacklib.charlm.jobs import Job


def _rate_stages(search: Search, base: Job, records: dict, rates: tuple):
    """Stages A and A2 of every shape over the learning rates ``rates``: (runs, winners)."""
    runs, winners = [], {}
    for shape, model in shapes(base, search).items():
        def trial(stage, lr, fb, steps, model=model, shape=shape):
            job = trial_job(base, model, lr=lr, dropout=search.probe_dropout, forget_bias=fb,
                       steps=steps, seed=search.seed, test=False)
            return Run(f"{stage}-{shape_name(model)}-lr{lr:g}-fb{fb_label(fb)}", stage, job,
                       shape=shape)

        a = {(lr, fb): trial("A", lr, fb, search.a_steps)
             for lr in rates for fb in search.forget_biases}
        runs += a.values()
        winners[shape] = None
        if best_of(records, [r.name for r in a.values()]) is None:
            continue
        ranked = sorted(a, key=lambda k: (val_score(records, a[k].name), a[k].name))
        scores = [val_score(records, a[k].name) for k in ranked]
        n = search.keep + (len(ranked) > search.keep
                           and scores[search.keep] - scores[0] <= search.keep_within)
        a2 = {k: trial("A2", *k, search.a2_steps) for k in ranked[:n]}
        runs += a2.values()
        best = best_of(records, [r.name for r in a2.values()])
        if best is None:
            continue
        lr, fb = next(k for k, r in a2.items() if r.name == best)
        winners[shape] = {"lr": lr, "forget_bias": fb, "dropout": None}
    return runs, winners


def rate_grid(search: Search, base: Job, records: dict) -> tuple:
    """The learning rates searched: ``search.rates``, one log-step wider at an edge while any
    shape's A2 winner sits on it (at most ``search.extensions`` steps each way). Every shape
    runs every added rate, so the search stays the same for all."""
    rates, up, down = tuple(search.rates), 0, 0
    while True:
        _, winners = _rate_stages(search, base, records, rates)
        won = {w["lr"] for w in winners.values() if w is not None}
        grow_up = rates[-1] in won and up < search.extensions
        grow_down = rates[0] in won and down < search.extensions
        if not (grow_up or grow_down):
            return rates
        if grow_up:
            rates, up = (*rates, two_digits(rates[-1] * search.rate_step)), up + 1
        if grow_down:
            rates, down = (two_digits(rates[0] / search.rate_step), *rates), down + 1


def _search_runs(search: Search, base: Job, records: dict):
    """The search's runs that can be planned now, and each shape's winner once known:
    {shape: {"lr", "forget_bias", "dropout"} or None}."""
    at_one = shapes(base, search)
    runs, winners = _rate_stages(search, base, records, rate_grid(search, base, records))
    for shape in (WIDE, RESIDUAL):
        if winners[shape] is None:
            continue
        model, w = at_one[shape], winners[shape]
        # named by the settings too: a winner that changes as records land leaves its trials
        b = [Run(f"B-{shape_name(model)}-lr{w['lr']:g}-fb{fb_label(w['forget_bias'])}-d{d:g}", "B",
                 trial_job(base, model, lr=w["lr"], dropout=d, forget_bias=w["forget_bias"],
                      steps=search.search_cap, seed=search.seed, test=False), shape=shape)
             for d in search.dropouts]
        runs += b
        best = best_of(records, [r.name for r in b])
        if best is not None:
            w["dropout"] = next(r.job.model.dropout for r in b if r.name == best)
    if winners[PLAIN] is not None and winners[RESIDUAL] is not None:
        winners[PLAIN]["dropout"] = winners[RESIDUAL]["dropout"]
    return runs, winners


def final_cap(stopping_steps: list[int], search: Search, eval_every: int) -> int:
    """The final runs' step cap: ``cap_factor`` times the ``cap_quantile`` percentile of the
    search's stopping steps, rounded up to a whole number of scores."""
    raw = search.cap_factor * float(np.percentile(stopping_steps, search.cap_quantile))
    return int(math.ceil(raw / eval_every) * eval_every)


def plan(vocab_size: int, records: dict, search: Search | None = None, base: Job | None = None
         ) -> tuple[list[Run], dict]:
    """Every run that can be planned from ``records`` (name -> record of the runs done), in
    the study's order, and what the search decided so far: {"winners", "cap", "checked"}
    ("checked": budget group -> shape -> the rate and dropout its check chose). Call it again
    as records land: each stage appears once the one before it is complete."""
    search, base = search or Search(), base or base_job(vocab_size)
    runs, winners = _search_runs(search, base, records)
    decided = {"winners": winners, "cap": None, "checked": {}}
    b_names = [r.name for r in runs if r.group == "B"]
    if (any(w is None or w["dropout"] is None for w in winners.values())
            or any(n not in records for n in b_names)):
        return runs, decided
    cap = final_cap([records[n]["steps"] for n in b_names], search, base.train.eval_every)
    decided["cap"] = cap

    def finals(group, shape, model, w, seeds, *, dropout, forget_bias, suffix=""):
        return [Run(f"{shape_name(model, suffix)}-s{s}", group,
                    trial_job(base, model, lr=w["lr"], dropout=dropout, forget_bias=forget_bias,
                         steps=cap, seed=s, test=True), analyse=("plays",), shape=shape)
                for s in seeds]

    # Seed by seed across the shapes compared, so a study cut short has the same seeds on
    # each side; at the reference budget the plain stack comes after the verdict's pair.
    at_one = shapes(base, search)
    pair = [finals("x1", shape, model, winners[shape], search.final_seeds,
                   dropout=winners[shape]["dropout"], forget_bias=winners[shape]["forget_bias"])
            for shape, model in at_one.items() if shape != PLAIN]
    runs += _seed_by_seed(pair)
    if PLAIN in at_one:
        w = winners[PLAIN]
        runs += finals("x1", PLAIN, at_one[PLAIN], w, search.few_seeds, dropout=w["dropout"],
                       forget_bias=w["forget_bias"])
    deep = []
    for residual, shape in ((False, PLAIN), (True, RESIDUAL)):
        w = winners[shape]
        model = variant(base, layers=search.deep_layers, residual=residual).model
        name = f"{search.deep_layers} {'residual' if residual else 'plain'} layers"
        deep.append(finals("deep", name, model, w, search.few_seeds, dropout=w["dropout"],
                           forget_bias=search.deep_forget_bias))
    runs += _seed_by_seed(deep)
    grid = sorted({run.job.train.lr for run in runs if run.group == "A"})
    for scale in search.budgets:
        check, settings = checked_settings(search, base, records, winners, grid, scale, cap)
        runs += check
        if any(c is None for c in settings.values()):
            continue  # the budget's final runs wait for every shape's check
        decided["checked"][f"x{scale:g}"] = settings
        budget = []
        for shape, model in shapes(base, search, scale).items():
            c = settings[shape]
            budget.append(finals(f"x{scale:g}", shape, model, {**winners[shape], "lr": c["lr"]},
                                 search.final_seeds, dropout=c["dropout"],
                                 forget_bias=winners[shape]["forget_bias"],
                                 suffix=f"-lr{c['lr']:g}-d{c['dropout']:g}"))
        runs += _seed_by_seed(budget)
    names = [run.name for run in runs]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"search: two runs would share a name: {twice}")
    return runs, decided


def _neighbours(lr: float, grid: list[float], step: float) -> list[float]:
    """The rates one step below and above ``lr`` on the search's ``grid`` (one log-step past
    its edge when ``lr`` sits on it)."""
    i = grid.index(lr)
    return [grid[i - 1] if i > 0 else two_digits(lr / step),
            grid[i + 1] if i + 1 < len(grid) else two_digits(lr * step)]


def checked_settings(search: Search, base: Job, records: dict, winners: dict, grid: list[float],
                     scale: float, cap: int) -> tuple[list[Run], dict]:
    """Each shape's learning rate and dropout at ``scale`` times the budget: (the check's runs,
    {shape: {"lr", "dropout"}, or None while its check is incomplete}): what the check picks
    on validation (the module's docstring)."""
    runs, chosen = [], {}
    stage = f"C{scale:g}"
    for shape, model in shapes(base, search, scale).items():
        w = winners[shape]
        rule = dropout_at(w["dropout"], scale, search.dropout_per_doubling)

        def trial(lr, dropout, model=model, shape=shape, w=w):
            return Run(f"{stage}-{shape_name(model)}-lr{lr:g}-fb{fb_label(w['forget_bias'])}"
                       f"-d{dropout:g}", stage,
                       trial_job(base, model, lr=lr, dropout=dropout, forget_bias=w["forget_bias"],
                            steps=cap, seed=search.seed, test=False), shape=shape)

        # the winner's dropout, then each level on to the rule's (up above the reference
        # budget, down below it)
        per = search.dropout_per_doubling
        levels = round(abs(rule - w["dropout"]) / per)
        toward = per if rule >= w["dropout"] else -per
        dropouts = [trial(w["lr"], round(w["dropout"] + k * toward, 6)) for k in range(levels + 1)]
        runs += dropouts
        chosen[shape] = None
        best = best_of(records, [r.name for r in dropouts])
        if best is None:
            continue
        dropout = next(r.job.model.dropout for r in dropouts if r.name == best)
        tried = {w["lr"]: best}
        for lr in _neighbours(w["lr"], grid, search.rate_step):
            rate = trial(lr, dropout)
            runs.append(rate)
            tried[lr] = rate.name
        # as in the search: while the best rate sits at an edge of those tried, one step on
        for _ in range(search.extensions + 1):
            best = best_of(records, list(tried.values()))
            if best is None:
                break
            lr = next(lr for lr, name in tried.items() if name == best)
            down, up = _neighbours(lr, sorted({*grid, *tried}), search.rate_step)
            step = down if lr == min(tried) else up if lr == max(tried) else None
            if step is None or len(tried) >= 3 + search.extensions:
                chosen[shape] = {"lr": lr, "dropout": dropout}
                break
            rate = trial(step, dropout)
            runs.append(rate)
            tried[step] = rate.name
    return runs, chosen


def _seed_by_seed(groups: list[list[Run]]) -> list[Run]:
    """Runs of several shapes, one seed of each shape after another."""
    return [run for seed in zip_longest(*groups) for run in seed if run is not None]


def settle(lookup, vocab_size: int, planner=plan) -> tuple[list[Run], dict, dict]:
    """The plan as far as the records take it: (runs, records, decided), drawn again as long
    as ``lookup(run)`` (the run's record, or None) extends it. ``records`` holds the planned
    runs' only: a trial that a later stage's records set aside is not among them."""
    records: dict = {}
    while True:
        runs, decided = planner(vocab_size, records)
        found = {r.name: rec for r in runs if r.name not in records
                 and (rec := lookup(r)) is not None}
        if not found:
            return runs, {r.name: records[r.name] for r in runs if r.name in records}, decided
        records.update(found)


def where_compute_allows(search: Search | None = None) -> set[str]:
    """The stages run only where the compute allows: the check and final runs of each budget in
    ``search.if_compute_allows``."""
    search = search or Search()
    return {f"{stage}{scale:g}" for scale in search.if_compute_allows for stage in ("C", "x")}


def quick_plan(vocab_size: int, records: dict) -> tuple[list[Run], dict]:
    """The tuned study's every code path with tiny models and a few steps (tests)."""
    return plan(vocab_size, records, Search.quick(), quick_base(vocab_size))
