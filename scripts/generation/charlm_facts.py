"""What the prose states about the Shakespeare studies (one recipe for every shape, and each
shape tuned), computed from their records and plans: the functions behind ``prose_numbers``'
registry entries for §06, §09, §10, §10b and §12. Each returns a result or its literal."""

from __future__ import annotations

import math

import numpy as np

from scripts.generation import shakespeare_records, shakespeare_scale, tuned_records
from scripts.generation.write import Output
from scripts.study.plan import SHAPES
from scripts.study.tuned_summary import check_summary, complete, deep_summary, verdict_summary
from scripts.study.verdict import compare

WIDE, RESIDUAL, PLAIN3, _ = SHAPES
DATA = [*shakespeare_records.DATA, *tuned_records.DATA]
# The studies' records, loaded once per generator run through its Output.
_READ: dict = {}


def read_through(out: Output) -> None:
    """Read the records through ``out`` (which allows only DATA files), afresh."""
    _READ.clear()
    _READ["out"] = out


def one_recipe_study() -> shakespeare_records.Study:
    if "study" not in _READ:
        _READ["study"] = shakespeare_records.load(_READ["out"])
    return _READ["study"]


def one_recipe() -> dict:
    return one_recipe_study().summary


def plan_constant(name: str):
    from scripts.study import plan as study

    return getattr(study, name)


def one_recipe_base():
    from scripts.study.plan import base_job

    return base_job(len(corpus().vocab))


def data_params_ratio() -> float:
    """§10b: the three-layer stack's parameters over the one layer's (both of width 128)."""
    params = {cfg["layers"]: cfg["params"] for cfg in one_recipe()["data"].values()}
    return params[3] / params[1]


def corpus():
    from stacklib.corpus import shakespeare

    return shakespeare()


def timescale_config():
    from stacklib.charlm.analysis import TimescaleConfig

    return TimescaleConfig()


def deep_grad_every() -> int:
    steps = next(iter(one_recipe()["deep"].values()))["gradients"]["steps"]
    return steps[1] - steps[0]


def deep_layers() -> int:
    return {cfg["layers"] for cfg in one_recipe()["deep"].values()}.pop()


def budget_curves() -> dict[int, dict]:
    return {cfg["layers"]: cfg["curve"] for cfg in one_recipe()["budget"].values()}


def late_gap_bound(which) -> str:
    """The wide layer vs the 3-layer stack at one budget, from a third of training on: the gap's
    lowest value rounded down (min) or highest rounded up (max), to 0.01 bpc."""
    curves = budget_curves()
    wide, deep = curves[1], curves[3]
    gaps = [deep["mean"][deep["step"].index(s)] - m for s, m in zip(wide["step"], wide["mean"],
                                                                    strict=True)
            if s in deep["step"] and s >= one_recipe_base().train.max_steps // 3]
    rounding = np.floor if which is min else np.ceil
    return f"{rounding(which(gaps) * 100) / 100:.2f}"


def scale_gaps(shape: str) -> list[float]:
    return shakespeare_scale.gaps(one_recipe(), shape)


def tuned_study():
    """The tuned study's records and plan (``tuned_records.load``), read once per run."""
    if "tuned" not in _READ:
        _READ["tuned"] = tuned_records.load(_READ["out"])
    return _READ["tuned"]


def tuned_deep() -> dict:
    """The tuned study's depth 8 (§09 "Eight layers, trained to the end")."""
    study = tuned_study()
    return deep_summary(study.runs, study.records)


def plain_deep_layer1_ceiling() -> str:
    """The power of ten that layer 1's weight-gradient norm stayed below, in every recorded step
    of the tuned eight plain layers."""
    plain = next(d for d in tuned_deep()["shapes"].values() if not d["residual"])
    return str(math.ceil(math.log10(max(w[0] for h in plain["curves"]
                                        for w in h["weight_grad"]))))


def adam_eps_exponent() -> str:
    """The training loop's Adam keeps torch's default ε (stacklib.lm.train passes none)."""
    import inspect

    import torch

    return str(round(math.log10(inspect.signature(torch.optim.Adam).parameters["eps"].default)))


def scale_versus_wide(scale: float, shape: str) -> dict:
    """§10: the one-recipe study's ``shape`` against the wide layer at ``scale`` x the budget."""
    return next(b for b in one_recipe()["scale"]["lstm"]
                if b["scale"] == scale)["versus_wide"][shape]


def plain_two_vs_one():
    """§10 "More layers, same width": two plain layers of 128 against one, by the one rule."""
    depth = one_recipe()["depth"]
    return compare(depth["L2-h128"]["test_bpc"]["values"], depth["L1-h128"]["test_bpc"]["values"])


def residual_trend() -> dict:
    """§10 "Four budgets, one recipe": the residual stack's difference from the wide layer per
    doubling."""
    return one_recipe()["scale"]["trend"][RESIDUAL]


def largest_model() -> int:
    return shakespeare_scale.largest_model(one_recipe())


def _ceil3(x: float) -> str:
    return f"{np.ceil(x * 1000) / 1000:.3f}"


def late_gain_below(scale: float) -> str:
    """§10 "How the budgets were run": the most that any run's best validation bpc fell in its
    last ``LATE_WINDOW`` steps at the budgets below ``scale``, rounded up."""
    return _ceil3(max(shakespeare_scale.late_gains(one_recipe(), scale)))


def largest_budget_last_stop() -> int:
    """The most steps any run took at the one-recipe study's largest budget."""
    return max(shakespeare_scale.largest_budget_steps(one_recipe()))


def scale_gain_past_cap(shape: str) -> str:
    """§10 "Four budgets, one recipe": the mean fall in best validation bpc past the usual step
    cap."""
    gains = shakespeare_scale.gain_past(one_recipe_study().records, one_recipe(), shape,
                                        one_recipe_base().train.max_steps)
    return f"{np.mean(gains):.3f}"


def last_budget_swap() -> int:
    from scripts.study.summary import crossing

    curves = list(budget_curves().values())
    return max(crossing(a, b) or 0 for i, a in enumerate(curves) for b in curves[i + 1:])


def tuned_verdict() -> dict:
    """The tuned study's verdict at the budgets §10 shows (``tuned_summary.verdict_summary``)."""
    if "verdict" not in _READ:
        study = tuned_study()
        shown = complete(study.runs, study.records, tuned_records.SHOWN)
        _READ["verdict"] = verdict_summary(study.runs, study.records, shown)
    return _READ["verdict"]


def tuned_final(shape: str, group: str = "x1") -> dict:
    """The tuned study at budget ``group``: ``shape``'s final runs (``tuned_summary.final``)."""
    return next(b for b in tuned_verdict()["budgets"] if b["group"] == group)["shapes"][shape]


def one_recipe_final(shape: str, scale: float = 1.0) -> dict:
    """The one-recipe study at ``scale`` x the budget: ``shape``'s runs."""
    return next(b for b in one_recipe()["scale"]["lstm"] if b["scale"] == scale)["shapes"][shape]


def tuned_versus_wide(shape: str, group: str = "x1") -> dict:
    """The tuned study at budget ``group``: ``shape`` against the one wide layer."""
    return next(b for b in tuned_verdict()["budgets"]
                if b["group"] == group)["versus_wide"][shape]


def tuned_trend() -> dict:
    """§10 "Each shape tuned": the residual stack's difference from the wide layer per doubling
    of the budget, over the budgets shown."""
    return tuned_verdict()["trend"]


def tuned_check(group: str, shape: str) -> dict:
    """The check of ``shape``'s carried settings at budget ``group`` (``check_summary``)."""
    if "checks" not in _READ:
        study = tuned_study()
        _READ["checks"] = check_summary(study.runs, study.records, study.decided, study.every)
    return _READ["checks"][group]["shapes"][shape]


def check_dropout_cost(group: str, shape: str) -> float:
    """§10's note on the check: how much the rule's dropout raised ``shape``'s validation bpc
    over the search's (the dropout tried farthest from it), both at the carried rate; below
    zero, the rule's dropout helped."""
    c = tuned_check(group, shape)
    rule = c["rule"]
    at_rate = {t["dropout"]: t["val_bpc"] for t in c["trials"] if t["lr"] == rule["lr"]}
    searched = max(at_rate, key=lambda d: abs(d - rule["dropout"]))
    return at_rate[rule["dropout"]] - at_rate[searched]


def check_misfit(group: str, shape: str) -> tuple[str, str]:
    """§10's note on the check: how much worse ``shape``'s carried rate scored than the better
    of its neighbours (the nearest rates tried either side), and how far apart the other rates'
    scores lay (rounded up), at the rule's dropout."""
    c = tuned_check(group, shape)
    scores = {t["lr"]: t["val_bpc"] for t in c["trials"] if t["dropout"] == c["rule"]["dropout"]}
    rates, rule = sorted(scores), c["rule"]["lr"]
    i = rates.index(rule)
    neighbours = [scores[r] for r in rates[max(i - 1, 0):i + 2] if r != rule]
    others = [v for r, v in scores.items() if r != rule]
    return f"{scores[rule] - max(neighbours):.2f}", _ceil3(max(others) - min(others))
