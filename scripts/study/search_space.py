"""The tuned study's search space (scripts/study/tuned.py): its knobs and grid, the shapes it
compares at each budget, and how its trials rank (by validation bpc only)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from scripts.study.plan import REFERENCE_LAYERS, budget_shapes, variant
from stacklib.charlm.jobs import Job

WIDE, RESIDUAL, PLAIN = "1 wide layer", "3 residual layers", "3 plain layers"


def two_digits(rate: float) -> float:
    return float(f"{rate:.2g}")


@dataclass(frozen=True)
class Search:
    """The search's grid and lengths, and the final runs' seeds and budgets."""

    rates: tuple = tuple(two_digits(r) for r in np.geomspace(1.5e-3, 9e-3, 5))
    rate_step: float = 6 ** 0.25         # the rates' log-spacing, for a grid grown at an edge
    extensions: int = 3                  # how far the grid may grow each way
    forget_biases: tuple = (None, 1.0)   # None: torch's draw (the summed bias starts near 0)
    probe_dropout: float = 0.1           # A and A2's fixed dropout
    dropouts: tuple = (0.0, 0.1, 0.2, 0.3)
    a_steps: int = 1500
    a2_steps: int = 4000
    keep: int = 3                        # A's best configurations continued in A2
    keep_within: float = 0.02            # ... and one more when it is this close to the best
    search_cap: int = 30_000
    cap_quantile: float = 90.0
    cap_factor: float = 1.3
    seed: int = 0
    final_seeds: tuple = (1, 2, 3, 4, 5)
    few_seeds: tuple = (1, 2, 3)         # the plain stacks and depth 8
    deep_layers: int = 8
    deep_forget_bias: float = 1.0
    dropout_per_doubling: float = 0.1
    budgets: tuple = (2.0, 0.5, 0.25, 4.0)  # after the reference budget, in this order
    if_compute_allows: tuple = (4.0,)    # of those, the budgets the verdict can stand without
    tolerance: float = 0.02              # how closely a budget's shapes match in parameters

    @classmethod
    def quick(cls) -> Search:
        """Every stage's code path in a few steps (tests)."""
        return cls(rates=(9e-3,), extensions=0, dropouts=(0.0, 0.1), a_steps=8, a2_steps=12, keep=1,
                   search_cap=40,
                   final_seeds=(1, 2), few_seeds=(1,), deep_layers=4, budgets=(2.0,),
                   if_compute_allows=(),
                   tolerance=0.5)  # tiny models: the readout dominates (plan.quick_plan)


@cache  # matching a budget scans every width: once per (base, search, scale)
def shapes(base: Job, search: Search, scale: float = 1.0) -> dict:
    """The shapes compared at ``scale`` times the reference budget, by the pages' names (the
    plain stack at the reference budget only)."""
    reference = variant(base, layers=REFERENCE_LAYERS).model
    plain = (REFERENCE_LAYERS,) if scale == 1.0 else ()
    return budget_shapes(reference, scale, plain=plain, tolerance=search.tolerance)


def dropout_at(dropout: float, scale: float, per_doubling: float) -> float:
    """The stated rule: ``per_doubling`` more dropout per doubling of the budget, never < 0."""
    return round(max(0.0, dropout + per_doubling * math.log2(scale)), 6)


def fb_label(forget_bias) -> str:
    return "0" if forget_bias is None else f"{forget_bias:g}"


def trial_job(base: Job, model, *, lr, dropout, forget_bias, steps, seed, test) -> Job:
    model = model.replace(dropout=dropout, forget_bias=forget_bias)
    train = dataclasses.replace(base.train, lr=lr, max_steps=steps, seed=seed)
    return Job(model, train, test=test)


def val_score(records: dict, name: str) -> float:
    """A run's best validation bpc; a run that diverged before its first score ranks last."""
    value = records[name]["val_bpc"]
    return math.inf if value is None else value


def best_of(records: dict, names: list[str]) -> str | None:
    """The name with the lowest validation bpc, once every one of ``names`` has a record."""
    if any(n not in records for n in names):
        return None
    return min(names, key=lambda n: (val_score(records, n), n))
