"""The tuned study's run records, read for the pages (shared helper).

The runs are trained by ``python -m scripts.experiments.tuned`` into
docs/generated/experiments/tuned/<run>.json. A generator that shows the study declares
``DATA = tuned_records.DATA`` and reads the records through ``load``, which draws the study's
plan as far as they take it (``tuned.settle``): each generator then asks for the stages it shows
and fails when one is incomplete.
"""

from __future__ import annotations

from dataclasses import dataclass

from scripts.generation.write import Output

STUDY = "docs/generated/experiments/tuned"
DATA = [f"{STUDY}/*.json"]
# The budgets the pages show, each once every one of its runs is in (never in part)
SHOWN = ("x0.25", "x0.5", "x1", "x2")


@dataclass(frozen=True)
class Study:
    runs: list          # the runs planned so far (tuned.plan)
    records: dict       # name -> record, of those runs
    decided: dict       # the search's decisions so far (winners, cap)
    every: dict         # name -> record, every record in the folder (trials set aside too)


def load(out: Output) -> Study:
    from scripts.study import tuned

    records = {rel.rsplit("/", 1)[1].removesuffix(".json"): out.read_json(rel)
               for rel in sorted(out.data) if rel.startswith(f"{STUDY}/")}
    if not records:
        raise FileNotFoundError(f"{STUDY}: no runs; run `python -m scripts.experiments.tuned`")
    vocab = next(iter(records.values()))["config"]["model"]["vocab_size"]
    return Study(*tuned.settle(lambda run: records.get(run.name), vocab), records)
