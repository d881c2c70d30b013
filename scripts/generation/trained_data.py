"""Compact JSON for the live widgets (docs/javascripts/), cut from the trained experiments.

The widgets draw these numbers; they never compute them. Every file names its source.

generated/data/hero.json        home: the 3-layer stack's lamp levels per word (probe 1)
generated/data/lenses.json      §02: each layer's states on probe 1 + probe accuracy per layer
                                (mean and SD over the trained seeds)
generated/data/live_stack.json  §06: the 2-layer LSTM's h and mean |h| per word, both probes
generated/data/vanishing.json   §09: measured gradient norm per layer relative to the top
                                layer, every cell x variant x depth (last step), beside the toy
                                model's definition, the widget's slider ranges, the cells'
                                names (stacklib's) and the one it opens on
generated/data/depth_data.json  §10: train / held-out loss and agreement error, mean and std
generated/data/verdict.json     §10: 1x512 vs 3x256 LSTM (x = 300) counts from stacklib + the
                                toy-scale training comparison at equal parameters

Schemas of the experiment files: the docstrings of stacklib/experiments/*.py.
"""

from __future__ import annotations

from scripts.generation.write import Output
from scripts.study import toy
from stacklib.config import CELLS
from stacklib.lecture import (
    DEPTH_VS_WIDTH,
    GRADIENT_FACTOR_SLIDER,
    GRADIENT_MODEL,
    GRADIENT_WIDGET_CELL,
)

EXPERIMENTS = "docs/generated/experiments"
DATA = [f"{EXPERIMENTS}/{name}.json"
        for name in ("stacks", "probes", "gradient_flow", "depth_data", "depth_width")]
DIGITS = 4  # display data, not results: no more digits than a widget shows


def _r(values, digits: int = DIGITS):
    """Round nested lists of floats to `digits` decimals (display data, not results)."""
    if isinstance(values, list):
        return [_r(v, digits) for v in values]
    return round(float(values), digits)


def _probe_meta(probe: dict) -> dict:
    return {k: probe[k] for k in ("text", "words", "subject_index", "verb_index")}


def hero(stacks: dict) -> dict:
    model = stacks["models"]["hero"]
    probe = model["probes"][0]
    return {"source": "experiments/stacks.json: models.hero, probe 1",
            "num_layers": model["num_layers"], "hidden_size": model["hidden_size"],
            **_probe_meta(stacks["probes"][0]), "lamp": _r(probe["lamp"]),
            "mean_abs_h": _r(probe["mean_abs_h"]), "verb": probe["verb"]}


def lenses(stacks: dict, probes: dict) -> dict:
    model, acc = stacks["models"]["hero"], probes["models"]["hero"]
    return {"source": "experiments/stacks.json models.hero (probe 1) + experiments/probes.json",
            "num_layers": model["num_layers"], "hidden_size": model["hidden_size"],
            **_probe_meta(stacks["probes"][0]), "h": _r(model["probes"][0]["h"], 3),
            "probe_layers": acc["layers"], "seeds": len(acc["seeds"]),
            "accuracy": acc["accuracy"], "accuracy_sd": toy.probe_sd(acc),
            "features": {k: {"kind": v["kind"], "majority": v["majority"], "n_test": v["n_test"]}
                         for k, v in probes["features"].items()}}


def live_stack(stacks: dict) -> dict:
    model = stacks["models"]["live"]
    return {"source": "experiments/stacks.json: models.live",
            "num_layers": model["num_layers"], "hidden_size": model["hidden_size"],
            "probes": [{**_probe_meta(meta), "h": _r(run["h"], 3),
                        "mean_abs_h": _r(run["mean_abs_h"]), "verb": run["verb"]}
                       for meta, run in zip(stacks["probes"], model["probes"], strict=True)]}


def vanishing(flow: dict) -> dict:
    from scripts.generation.example_tables import gradient_model

    model, max_layers = gradient_model(), GRADIENT_MODEL["max_layers"]
    out = {"model": model["model"], "factor": model["factor"], "num_layers": model["num_layers"],
           "max_layers": max_layers,
           "sliders": {"factor": GRADIENT_FACTOR_SLIDER,
                       "num_layers": {"min": 1, "max": max_layers}}}
    measured: dict = {}
    for run in flow["runs"]:
        top = run["last_step"][-1]
        cell = measured.setdefault(run["cell"], {}).setdefault(run["variant"], {})
        cell[str(run["depth"])] = [v / top for v in run["last_step"]]
    out.update(measured=measured, cells=flow["cells"], variants=flow["variants"],
               cell_names={cell: CELLS[cell].label() for cell in flow["cells"]},
               cell=GRADIENT_WIDGET_CELL,
               depths=flow["depths"], seq_len=flow["seq_len"], hidden_size=flow["hidden_size"],
               factors=flow["factors"],
               source="experiments/gradient_flow.json: last_step / last_step[top], per run")
    return out


def depth_data(data: dict) -> dict:
    def over_seeds(split, metric):
        g = toy.grid(data, split, metric)
        return {"mean": g["mean"], "std": g["sd"]}

    return {"source": "experiments/depth_data.json: runs", "depths": data["depths"],
            "sizes": data["sizes"], "seeds": len(data.get("seeds", [])) or 1,
            "metrics": {m: {split: over_seeds(split, m) for split in ("train", "heldout", "gap")}
                        for m in ("error", "loss")}}


def verdict(dw: dict) -> dict:
    from stacklib.params import count_params

    cell, x = DEPTH_VS_WIDTH["cell"], DEPTH_VS_WIDTH["input_size"]
    options = [{"key": key, "layers": layers, "hidden": hidden,
                "params": {fw: count_params(cell, x, hidden, layers, framework=fw)
                           for fw in ("keras", "torch")}}
               for key in ("wide", "deep") for layers, hidden in [DEPTH_VS_WIDTH[key]]]
    tr = dw["training"]
    trained = {k: {"layers": tr[k]["layers"], "hidden": tr[k]["hidden"],
                   "params": dw["params"][k], "agreement": tr[k]["mean"],
                   "agreement_std": toy.agreement(tr[k])["all"]["sd"],
                   "steps_to_90": tr[k]["steps_to_90"],
                   "seeds": len(tr[k]["heldout_agreement"])} for k in ("wide", "deep")}
    return {"cell": cell, "cell_name": CELLS[cell].name, "input_size": x, "options": options,
            "trained": trained,
            "trained_source": "experiments/depth_width.json: training"}


def run(out: Output) -> None:
    stacks, probes, flow, data, dw = (out.read_json(rel) for rel in DATA)
    out.json("generated/data/hero.json", hero(stacks))
    out.json("generated/data/lenses.json", lenses(stacks, probes))
    out.json("generated/data/live_stack.json", live_stack(stacks))
    out.json("generated/data/vanishing.json", vanishing(flow))
    out.json("generated/data/depth_data.json", depth_data(data))
    out.json("generated/data/verdict.json", verdict(dw))
