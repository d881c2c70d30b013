"""Synthetic validation scores for the tuned study's search (scripts/study/tuned.py), shared by
the plan's and the summary's tests: the rate 9e-3 (the top of the first grid, so the grid grows
by one rate that scores worse) and forget bias 1 win stages A and A2, dropout 0.2 wins stage B."""

from __future__ import annotations

import math

BEST_RATE = 9e-3


def search_bpc(run, best_rate: float = BEST_RATE) -> float:
    """The validation bpc a search run scores: lower for a rate nearer ``BEST_RATE`` (on a log
    scale), for a forget bias, and for dropout nearer 0.2."""
    m, t = run.job.model, run.job.train
    return (3.0 + 0.1 * abs(math.log(t.lr / best_rate)) - 0.01 * (m.forget_bias or 0)
            + abs(m.dropout - 0.2))


def unrecorded(runs, records: dict) -> list:
    """The planned runs that have no record yet, in the plan's order."""
    return [run for run in runs if run.name not in records]


def complete(record, vocab: int, stages=None, search=None, records=None):
    """Draw the plan again and give every new run ``record(run)`` until nothing is left (or
    nothing of ``stages``): (runs, records, decided). ``records`` (kept) are the runs done."""
    from scripts.study import tuned

    records = dict(records or {})
    while True:
        runs, decided = tuned.plan(vocab, records, search or tuned.Search())
        todo = [r for r in unrecorded(runs, records) if stages is None or r.group in stages]
        if not todo:
            return runs, records, decided
        records.update((run.name, record(run)) for run in todo)
