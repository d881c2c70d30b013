"""The Shakespeare study's run records, read and summarised for the pages (shared helper).

The runs are trained by ``python -m scripts.experiments.shakespeare`` into
docs/generated/experiments/shakespeare/<run>.json; the side-by-side timings into timing.json.
A generator that shows the study declares ``DATA = shakespeare_records.DATA`` and gets everything
through ``load``: every planned run of every group the pages show must be there (a partial
study is an error, never a partial figure).
"""

from __future__ import annotations

from dataclasses import dataclass

from scripts.generation.markdown import NBSP, PM
from scripts.generation.write import Output

STUDY = "docs/generated/experiments/shakespeare"
TIMING = f"{STUDY}/timing.json"
DATA = [f"{STUDY}/L*.json", TIMING]
RUN_IT = "run `python -m scripts.experiments.shakespeare`"
# The groups of the study the pages show: each must be complete.
SHOWN = ("depth", "budget", "data", "deep", "lr", "scale", "cell")


@dataclass(frozen=True)
class Study:
    records: list[dict]     # one per run, as the runner wrote it
    summary: dict           # scripts.study.summary.study_summary
    base: object            # the study's base Job (model and training)
    timing: dict            # timing.json


def load(out: Output) -> Study:
    from scripts.study.plan import base_job, layout, plan
    from scripts.study.summary import study_summary

    runs = sorted(rel for rel in out.data if rel.startswith(f"{STUDY}/L"))
    records = [out.read_json(rel) for rel in runs]
    if not records:
        raise FileNotFoundError(f"{STUDY}: no runs; {RUN_IT}")
    vocab = records[0]["config"]["model"]["vocab_size"]
    planned = {r.name for r in plan(vocab) if r.group in SHOWN}
    missing = sorted(planned - {r["name"] for r in records})
    records = [r for r in records if r["name"] in planned]
    if missing:
        shown = ", ".join(missing[:4]) + (", …" if len(missing) > 4 else "")
        raise FileNotFoundError(f"{STUDY}: {len(missing)} planned runs missing ({shown}); {RUN_IT}")
    base = base_job(vocab)
    return Study(records, study_summary(records, layout(base)), base, out.read_json(TIMING))


# -- how the study's pages write a configuration and its scores ------------------------------

def bpc(stats: dict, digits: int = 3) -> str:
    """Mean ± standard deviation over seeds."""
    return f"{stats['mean']:.{digits}f}{PM}{stats['sd']:.{digits}f}"


def shape(cfg: dict) -> str:
    plain = f"{cfg['layers']}{NBSP}×{NBSP}{cfg['hidden']}"
    return plain + (", residual" if cfg["residual"] else "")
