"""The tables the pages set beside the trained models' widgets, cut from the experiments.

generated/partials/live_probes.md    §06: linear-probe accuracy per layer of the 2-layer model,
                                     over its trained seeds, and the subject rows per seed
generated/partials/live_channels.md  §06: which channels of each layer hold the subject's number
                                     from subject to verb, and which follow each noun's own
                                     number (read off the two probes)
generated/partials/same_budget.md    §10: the toy-scale wide-vs-deep training result at one budget

Schemas of the experiment files: the docstrings of stacklib/experiments/*.py.
"""

from __future__ import annotations

import numpy as np

from scripts.generation.markdown import NBSP, PM, fmt_int, fmt_num, header_comment, md_table
from scripts.generation.write import Output
from scripts.study import toy

EXPERIMENTS = "docs/generated/experiments"
DATA = [f"{EXPERIMENTS}/{name}.json" for name in ("stacks", "probes", "depth_width")]


PROPERTY = {"pos": "part of speech", "word_number": "the word's own number",
            "subject_number": "the subject's number, at every word between subject and verb",
            "subject_number_mismatch": "the subject's number, at mismatched attractors only"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}{NBSP}%"


def _pct_sd(mean: float, sd: float) -> str:
    """Mean ± standard deviation over seeds, as percentages."""
    return f"{100 * mean:.1f}{PM}{100 * sd:.1f}{NBSP}%"


def live_probes_md(probes: dict) -> str:
    """The mean ± SD table over the seeds, then the subject's number per seed: the rows where
    the seeds disagree about which layer reads it best."""
    model, feats = probes["models"]["live"], probes["features"]
    acc, sd, seeds = model["accuracy"], toy.probe_sd(model), model["seeds"]
    layers = [name.replace("embedding", "word vector (input)") for name in model["layers"]]
    header = ["Property", "kind", "majority-class baseline", *layers]
    rows = [[PROPERTY[f], "surface" if feats[f]["kind"] == "surface" else "structure",
             _pct(feats[f]["majority"]),
             *map(_pct_sd, acc[f], sd[f])]
            for f in PROPERTY]
    per_seed = model["accuracy_per_seed"]
    subject = ("subject_number", "subject_number_mismatch")
    seed_rows = [[f"seed {seed}",
                  *(_pct(per_seed[f][i][layer]) for f in subject
                    for layer in range(1, len(layers)))]
                 for i, seed in enumerate(seeds)]
    seed_header = ["The subject's number, per trained model",
                   *(f"{where}: {layer}" for where in ("between subject and verb",
                                                       "at mismatched attractors")
                     for layer in model["layers"][1:])]
    note = ("\nHeld-out accuracy of a logistic-regression probe per layer of the "
            f"{model['num_layers']}-layer LSTM, trained {len(seeds)} times with different seeds "
            "(`stacklib.experiments.probes`). The first table gives the "
            f"mean{PM}standard deviation over the {len(seeds)} trained models (the population "
            "formula), the second the structural rows model by model. The baseline always "
            "guesses the most common answer. The figure above shows the "
            f"seed-{seeds[0]} model. How far each layer's state moves per word (mean "
            "\\|Δh\\| over held-out sentences), layer 1 → layer 2: "
            + "; ".join(f"seed {seed} {fmt_num(a, 3)} → {fmt_num(b, 3)} (×{b / a:.2f})"
                        for seed, (a, b) in zip(seeds, model["mean_abs_dh"], strict=True))
            + ".\n")
    return (header_comment(__name__) + md_table(header, rows, "llrrrr") + "\n"
            + md_table(seed_header, seed_rows) + note)


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
    header = ["Layer", "keeps one sign from the subject until the verb, opposite in the two probes",
              "sign set by each noun's own number (both subjects, both attractors)"]
    note = ("\nRead off the two probe sentences above, whose subjects differ in number. Channels "
            "count from 1: rows from the top in the printed heat maps, bars from the left in the "
            "interactive version.\n")
    return header_comment(__name__) + md_table(header, rows, "lll") + note


def same_budget_md(dw: dict) -> str:
    tr, params = dw["training"], dw["params"]
    label = {"wide": "Shallow & wide", "deep": "Deep & narrow"}
    rows = [[label[k], f"{tr[k]['layers']}{NBSP}×{NBSP}{tr[k]['hidden']}", fmt_int(params[k]),
             *(_pct_sd(a["mean"], a["sd"]) for a in toy.agreement(tr[k]).values()),
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
            f"or for at most {fmt_int(cfg['steps'])} steps (`stacklib.experiments.depth_width`). "
            f"Agreement is the mean{PM}standard deviation over seeds (the population formula); "
            "parameters count the recurrent layers in PyTorch's convention. "
            f"During training, agreement is scored on a smaller held-out sample "
            f"({fmt_int(cfg['n_curve'])} sentences), and a run that had already stopped counts "
            "with its last value.\n")
    return header_comment(__name__) + md_table(header, rows, "llrrrl") + "\n" + during + note


def run(out: Output) -> None:
    stacks, probes, dw = (out.read_json(rel) for rel in DATA)
    out.text("generated/partials/live_probes.md", live_probes_md(probes))
    out.text("generated/partials/live_channels.md", live_channels_md(stacks))
    out.text("generated/partials/same_budget.md", same_budget_md(dw))
