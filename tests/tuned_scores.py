"""Synthetic validation scores for the tuned study's search (scripts/study/tuned.py), shared by
the plan's and the summary's tests: the highest rate and forget bias 1 win stages A and A2,
dropout 0.2 wins stage B."""

from __future__ import annotations


def search_bpc(run) -> float:
    """The validation bpc a search run scores: lower for a higher rate and a forget bias, and
    for dropout nearer 0.2."""
    m, t = run.job.model, run.job.train
    return 3.0 - t.lr - 0.01 * (m.forget_bias or 0) + abs(m.dropout - 0.2)


def unrecorded(runs, records: dict) -> list:
    """The planned runs that have no record yet, in the plan's order."""
    return [run for run in runs if run.name not in records]
