"""The Shakespeare study's learning curves, small enough for a page (javascripts/curves.js).

generated/data/shakespeare_curves.json   per group ("depth": 1-4 layers of 128, plain and
                                         residual; "budget": 1-4 layers at one parameter
                                         budget) the evaluation steps and per model its
                                         validation bpc per seed at each step (null after a
                                         seed stopped), their mean, its parameter count and
                                         its final test bpc per seed and their mean

The same numbers as the static figures (shakespeare_figures.py) and the same y range, rounded
to DIGITS decimals: the widget shows three.
"""

from __future__ import annotations

from scripts.generation import shakespeare_records
from scripts.generation.shakespeare_figures import BPC_AXIS
from scripts.generation.write import Output

DATA = shakespeare_records.DATA
DIGITS = 4


def _r(values: list) -> list:
    return [None if v is None else round(float(v), DIGITS) for v in values]


def model(name: str, c: dict, steps: list[int]) -> dict:
    """One configuration's curves on the group's steps (null where it was not scored)."""
    at = [c["curve"]["step"].index(s) if s in c["curve"]["step"] else None for s in steps]

    def on_steps(values):
        return _r([None if i is None else values[i] for i in at])

    return {"name": name, "layers": c["layers"], "hidden": c["hidden"],
            "residual": c["residual"], "params": c["params"],
            "val_bpc": [on_steps(seed) for seed in c["curve"]["val_bpc"]],
            "mean": on_steps(c["curve"]["mean"]),
            "test_bpc": _r(c["test_bpc"]["values"]), "test_mean": _r([c["test_bpc"]["mean"]])[0]}


def group(configs: dict) -> dict:
    """A group's models, shallowest first (plain before residual), on the union of its steps."""
    steps = sorted({s for c in configs.values() for s in c["curve"]["step"]})
    order = sorted(configs, key=lambda n: (configs[n]["residual"], configs[n]["layers"]))
    return {"steps": steps, "models": [model(n, configs[n], steps) for n in order]}


def curves(summary: dict) -> dict:
    seeds = {tuple(c["seeds"]) for g in ("depth", "budget") for c in summary[g].values()}
    if len(seeds) != 1:
        raise ValueError(f"summary: the depth and budget models were trained with different "
                         f"seeds {sorted(seeds)}; one list is expected")
    return {"source": "experiments/shakespeare/L*.json via scripts.study.summary",
            "seeds": list(seeds.pop()), "bpc_axis": list(BPC_AXIS),
            "depth": group(summary["depth"]), "budget": group(summary["budget"])}


def run(out: Output) -> None:
    summary = shakespeare_records.load(out).summary
    out.json("generated/data/shakespeare_curves.json", curves(summary))
