"""Compact JSON for the live widgets (docs/javascripts/), cut from the trained experiments.

The widgets draw these numbers; they never compute them. Every file names its source.

data/hero.json         home: the 3-layer stack's lamp levels per word (probe 1)
data/lenses.json       §02: each layer's states on probe 1 + linear-probe accuracy per layer
data/live_stack.json   §06: the 2-layer LSTM's h and mean |h| per word, both probes
data/vanishing.json    §09: measured gradient norm per layer relative to the top layer, every
                       cell x variant x depth (last step), beside the toy model's definition
                       and the widget's slider ranges
data/depth_data.json   §10: train / held-out loss and agreement error, [depth][size] mean and std
data/verdict.json      §10: 1x512 vs 3x256 LSTM (x = 300) counts from stacklib + the toy-scale
                       training comparison at equal parameters

and the tables the pages set beside those widgets, cut from the same files:

partials/live_probes.md    §06: linear-probe accuracy per layer of the 2-layer model
partials/live_channels.md  §06: which channels of each layer hold the subject's number from
                           subject to verb, and which follow each noun's own number (probes)
partials/same_budget.md    §10: the toy-scale wide-vs-deep training result at one budget

Schemas of the experiment files: the docstrings of stacklib/experiments/*.py. A file whose
experiment is missing is not written (its widget then shows an inline message).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gen_common import (
    NBSP,
    fmt_int,
    fmt_num,
    header_comment,
    load_experiment,
    md_table,
    write_json,
    write_text,
)

NAME = "widget_data"
INPUTS = ["docs/generated/experiments/*.json", "stacklib/params.py", "scripts/gen_examples.py"]
CONFIG = {"digits": 4, "verdict": {"cell": "lstm", "input_size": 300,
                                   "options": [["wide", 1, 512], ["deep", 3, 256]]},
          "vanishing": {"factor": {"min": 0.05, "max": 1.0, "step": 0.05}}}  # the γ slider


def _r(values, digits: int = CONFIG["digits"]):
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
            "probe_layers": acc["layers"], "accuracy": acc["accuracy"],
            "features": {k: {"kind": v["kind"], "majority": v["majority"], "n_test": v["n_test"]}
                         for k, v in probes["features"].items()}}


def live_stack(stacks: dict) -> dict:
    model = stacks["models"]["live"]
    return {"source": "experiments/stacks.json: models.live",
            "num_layers": model["num_layers"], "hidden_size": model["hidden_size"],
            "probes": [{**_probe_meta(meta), "h": _r(run["h"], 3),
                        "mean_abs_h": _r(run["mean_abs_h"]), "verb": run["verb"]}
                       for meta, run in zip(stacks["probes"], model["probes"], strict=True)]}


def vanishing(flow: dict | None) -> dict:
    from gen_examples import CONFIG as EXAMPLES
    from gen_examples import gradient_model

    model, max_layers = gradient_model(), EXAMPLES["gradient_model"]["max_layers"]
    out = {"model": model["model"], "factor": model["factor"], "num_layers": model["num_layers"],
           "max_layers": max_layers, "measured": None,
           "sliders": {**CONFIG["vanishing"], "num_layers": {"min": 1, "max": max_layers}}}
    if flow is None:
        return out
    measured: dict = {}
    for run in flow["runs"]:
        top = run["last_step"][-1]
        cell = measured.setdefault(run["cell"], {}).setdefault(run["variant"], {})
        cell[str(run["depth"])] = [v / top for v in run["last_step"]]
    out.update(measured=measured, cells=flow["cells"], variants=flow["variants"],
               depths=flow["depths"], seq_len=flow["seq_len"], hidden_size=flow["hidden_size"],
               factors=flow["factors"],
               source="experiments/gradient_flow.json: last_step / last_step[top], per run")
    return out


def depth_data(data: dict) -> dict:
    s = data["summary"]
    return {"source": "experiments/depth_data.json: summary", "depths": data["depths"],
            "sizes": data["sizes"], "seeds": len(data.get("seeds", [])) or 1,
            "metrics": {m: {split: s[f"{split}_{m}"] for split in ("train", "heldout", "gap")}
                        for m in ("error", "loss")}}


def verdict(dw: dict | None) -> dict:
    from stacklib import count_params

    cfg = CONFIG["verdict"]
    cell, x = cfg["cell"], cfg["input_size"]
    options = [{"key": key, "layers": layers, "hidden": hidden,
                "params": {fw: count_params(cell, x, hidden, layers, framework=fw)
                           for fw in ("keras", "torch")}}
               for key, layers, hidden in cfg["options"]]
    out = {"cell": cell, "input_size": x, "options": options, "trained": None}
    if dw is not None:
        tr = dw["training"]
        out["trained"] = {k: {"layers": tr[k]["layers"], "hidden": tr[k]["hidden"],
                              "params": dw["params"][k], "agreement": tr[k]["mean"],
                              "agreement_std": tr[k]["std"], "steps_to_90": tr[k]["steps_to_90"],
                              "seeds": len(tr[k]["heldout_agreement"])} for k in ("wide", "deep")}
        out["trained_source"] = "experiments/depth_width.json: training"
    return out


PROPERTY = {"pos": "part of speech", "word_number": "the word's own number",
            "subject_number": "the subject's number, at every word between subject and verb",
            "subject_number_mismatch": "the subject's number, at mismatched attractors only"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}{NBSP}%"


def live_probes_md(probes: dict) -> str:
    model, feats = probes["models"]["live"], probes["features"]
    header = ["Property", "kind", "majority-class baseline",
              *[name.replace("embedding", "word vector (input)") for name in model["layers"]]]
    rows = [[PROPERTY[f], "surface" if feats[f]["kind"] == "surface" else "structure",
             _pct(feats[f]["majority"]), *map(_pct, acc)]
            for f, acc in ((f, model["accuracy"][f]) for f in PROPERTY)]
    note = ("\nHeld-out accuracy of a logistic-regression probe per layer of the trained "
            f"{model['num_layers']}-layer LSTM; the baseline always guesses the most common "
            "answer (`stacklib.experiments.probes`).\n")
    return header_comment(NAME) + md_table(header, rows, "llrrrr") + note


def channel_roles(stacks: dict) -> list[dict]:
    """Per layer of the live model, read off its two probes (whose subjects differ in number):
    channels keeping one sign at every word from the subject up to the verb, opposite in the two
    probes ("holds"), and channels whose sign at both subjects and both first attractors is set
    by that noun's own number ("follows"). Channels count from 1, like the figure's rows."""
    metas, runs = stacks["probes"], stacks["models"]["live"]["probes"]
    states = [np.asarray(run["h"]) for run in runs]                  # (layers, words, H)
    subject_numbers = {m["number"][m["subject_index"]] for m in metas}
    if subject_numbers != {"sg", "pl"}:
        raise ValueError("stacks.json: the two probes' subjects must differ in number")
    spans = [h[:, m["subject_index"]:m["verb_index"]] for m, h in zip(metas, states, strict=True)]
    # each noun's state, signed so that a channel set by the noun's number reads the same
    nouns = [h[:, i] * (1 if m["number"][i] == "pl" else -1)
             for m, h in zip(metas, states, strict=True)
             for i in (m["subject_index"], m["attractors"][0])]        # (layers, H) each
    roles = []
    for layer in range(states[0].shape[0]):
        a, b = np.sign(spans[0][layer]), np.sign(spans[1][layer])   # (span words, H)
        holds = np.all(a == a[0], axis=0) & np.all(b == b[0], axis=0) & (a[0] == -b[0])
        signs = np.sign([n[layer] for n in nouns])                     # (nouns, H)
        follows = np.all(signs == signs[0], axis=0) & (signs[0] != 0)
        roles.append({
            "layer": layer + 1,
            "holds": [{"channel": int(k) + 1,
                       "ranges": [(float(s[layer][:, k].min()), float(s[layer][:, k].max()))
                                  for s in spans]} for k in np.flatnonzero(holds)],
            "follows": [int(k) + 1 for k in np.flatnonzero(follows)]})
    return roles


def live_channels_md(stacks: dict) -> str:
    metas = stacks["probes"]
    spans = [" ".join(m["words"][m["subject_index"]:m["verb_index"]]) for m in metas]

    def held(entry):
        parts = [f"“{span}”: {fmt_num(lo, 2)} to {fmt_num(hi, 2)}"
                 for span, (lo, hi) in zip(spans, entry["ranges"], strict=True)]
        return f"channel {entry['channel']} (" + "; ".join(parts) + ")"

    rows = [[f"layer {r['layer']}", "; ".join(map(held, r["holds"])) or "none",
             ", ".join(f"channel {k}" for k in r["follows"]) or "none"]
            for r in channel_roles(stacks)]
    header = ["Layer", "keeps one sign from subject to verb, opposite in the two probes",
              "sign set by each noun's own number (both subjects, both attractors)"]
    note = ("\nRead off the two probe sentences above, whose subjects differ in number. Channels "
            "count from 1: rows from the top in the printed heat maps, bars from the left in the "
            "interactive version.\n")
    return header_comment(NAME) + md_table(header, rows, "lll") + note


def same_budget_md(dw: dict) -> str:
    tr, params = dw["training"], dw["params"]
    label = {"wide": "Shallow & wide", "deep": "Deep & narrow"}
    rows = [[label[k], f"{tr[k]['layers']}{NBSP}×{NBSP}{tr[k]['hidden']}", fmt_int(params[k]),
             _pct(tr[k]["mean"]), _pct(tr[k]["mean_mismatch"]),
             ", ".join(fmt_int(s) for s in tr[k]["steps_to_90"])] for k in ("wide", "deep")]
    header = ["Same budget, toy scale", "layers × units", "parameters",
              "held-out agreement", "at mismatched attractors", f"steps to 90{NBSP}%, per seed"]
    steps = tr["deep"]["curve"]["step"][::2]  # every other evaluation keeps the table narrow
    curve = {k: dict(zip(tr[k]["curve"]["step"], tr[k]["curve"]["heldout_agreement_mean"],
                         strict=True)) for k in ("wide", "deep")}
    during = md_table(["Held-out agreement after … steps", *map(fmt_int, steps)],
                      [[label[k], *(_pct(curve[k][n]) for n in steps)] for k in ("wide", "deep")])
    cfg = dw["config"]["deep"]
    note = (f"\nNext-word LSTMs on the synthetic agreement language (word vectors of size "
            f"{cfg['embed_size']}, no residual connections), {len(dw['config']['seeds'])} seeds "
            f"each, trained until held-out agreement reached {100 * cfg['stop_at']:.0f}{NBSP}% "
            "or for at most "
            f"{fmt_int(cfg['steps'])} steps; agreement is the mean over seeds, parameters count "
            "the recurrent layers in PyTorch's convention (`stacklib.experiments.depth_width`). "
            f"During training, agreement is scored on a smaller held-out sample "
            f"({fmt_int(cfg['n_curve'])} sentences), and a run that had already stopped counts "
            "with its last value.\n")
    return header_comment(NAME) + md_table(header, rows, "llrrrl") + "\n" + during + note


def run(out: Path) -> list[str]:
    stacks, probes = load_experiment(out, "stacks"), load_experiment(out, "probes")
    flow, data = load_experiment(out, "gradient_flow"), load_experiment(out, "depth_data")
    dw = load_experiment(out, "depth_width")
    written = [write_json(out, "data/vanishing.json", vanishing(flow)),
               write_json(out, "data/verdict.json", verdict(dw))]
    if dw is not None:
        written.append(write_text(out, "partials/same_budget.md", same_budget_md(dw)))
    if stacks is not None:
        written += [write_json(out, "data/hero.json", hero(stacks)),
                    write_json(out, "data/live_stack.json", live_stack(stacks)),
                    write_text(out, "partials/live_channels.md", live_channels_md(stacks))]
        if probes is not None:
            written += [write_json(out, "data/lenses.json", lenses(stacks, probes)),
                        write_text(out, "partials/live_probes.md", live_probes_md(probes))]
    if data is not None:
        written.append(write_json(out, "data/depth_data.json", depth_data(data)))
    return written
