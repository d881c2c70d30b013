"""Parameter pricing partials (§05, §10) and the price widget's data, from stacklib.params.

generated/partials/params_{rnn,gru,lstm}.md  per-layer breakdown, both conventions (L=3 H=128 D=100)
generated/partials/params_summary.md         the three cells side by side
generated/partials/depth_vs_width.md         §10's head-to-head table
generated/partials/params_bidirectional.md   §07: a stack that reads both ways, per layer and
                                             direction, beside the one-way stack
generated/data/params.json                   the price widget's data and slider ranges (the
                                             widget types no number of its own)
"""

from __future__ import annotations

from scripts.generation.markdown import fmt_int, header_comment, md_table
from scripts.generation.names import FRAMEWORKS
from scripts.generation.write import Output
from stacklib.config import CELLS
from stacklib.lecture import (
    DEPTH_VS_WIDTH,
    PRICE_CELLS,
    PRICE_DEFAULTS,
    PRICE_MAX_LAYERS,
    PRICE_MAX_SIZE,
)


def _breakdown_table(cell: str, x: int, h: int, L: int) -> str:
    from stacklib.params import param_breakdown

    torch_rows = param_breakdown(cell, x, h, L, framework="torch")
    keras_rows = param_breakdown(cell, x, h, L, framework="keras")
    header = ["Layer", "Fan-in", "Input weights", "Recurrent weights",
              "Biases (PyTorch)", "Layer total (PyTorch)", "Biases (Keras)", "Layer total (Keras)"]
    rows = []
    for t, k in zip(torch_rows, keras_rows, strict=True):
        fan = f"D = {t.fan_in}" if t.layer == 1 else f"H = {t.fan_in}"
        rows.append([t.layer, fan, fmt_int(t.input_weights), fmt_int(t.recurrent_weights),
                     fmt_int(t.biases), fmt_int(t.total), fmt_int(k.biases), fmt_int(k.total)])
    total_t, total_k = sum(r.total for r in torch_rows), sum(r.total for r in keras_rows)
    rows.append(["**Total**", "", fmt_int(sum(r.input_weights for r in torch_rows)),
                 fmt_int(sum(r.recurrent_weights for r in torch_rows)),
                 fmt_int(sum(r.biases for r in torch_rows)), f"**{fmt_int(total_t)}**",
                 fmt_int(sum(r.biases for r in keras_rows)), f"**{fmt_int(total_k)}**"])
    kind = CELLS[cell]
    options = ", ".join(f"{name}={value}" for name, value in kind.keras_options)
    caption = (f"{kind.title}, L = {L}, H = {h}, D = {x}: parameters per layer. "
               "PyTorch keeps two bias vectors per gate block (`bias_ih`, `bias_hh`); Keras keeps "
               + (f"two for `{kind.keras}({options})`." if kind.keras_biases == 2 else "one.")
               + " Layer 1's input weights use the input size D, every layer above uses H.")
    return header_comment(__name__) + md_table(header, rows, "lcrrrrrr") + "\n" + caption + "\n"


def _summary(x: int, h: int, L: int) -> str:
    from stacklib.params import count_params, param_breakdown

    header = ["Stack", "Gate blocks per layer", "Layer 1 (PyTorch)", "Each layer above (PyTorch)",
              f"Total, L = {L} (PyTorch)", f"Total, L = {L} (Keras)"]
    rows = []
    for cell in PRICE_CELLS:
        layers = param_breakdown(cell, x, h, L)
        upper = fmt_int(layers[1].total) if L > 1 else "—"
        rows.append([CELLS[cell].title, CELLS[cell].gates, fmt_int(layers[0].total), upper,
                     f"**{fmt_int(count_params(cell, x, h, L))}**",
                     fmt_int(count_params(cell, x, h, L, framework="keras"))])
    note = (f"Defaults of the price sliders: L = {L} layers, hidden size H = {h}, input size "
            f"D = {x}. \"Gate blocks per layer\" is G in the formula above: each block has an "
            "input matrix, a recurrent matrix and its bias vectors.")
    return header_comment(__name__) + md_table(header, rows, "lcrrrr") + "\n" + note + "\n"


def _pairs(n: int) -> str:
    """'one (h, c) pair', 'three (h, c) pairs': the states a stack of n layers carries."""
    words = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    count = words[n - 1] if 1 <= n <= len(words) else f"{n:,}"
    return f"{count} (h, c) pair{'s' if n > 1 else ''}"


def _depth_vs_width() -> str:
    from stacklib.params import count_params

    cell, x = DEPTH_VS_WIDTH["cell"], DEPTH_VS_WIDTH["input_size"]
    (lw, hw), (ld, hd) = DEPTH_VS_WIDTH["wide"], DEPTH_VS_WIDTH["deep"]
    keras_w, keras_d = (count_params(cell, x, hw, lw, framework="keras"),
                        count_params(cell, x, hd, ld, framework="keras"))
    torch_w, torch_d = count_params(cell, x, hw, lw), count_params(cell, x, hd, ld)
    diff = 100 * (keras_d - keras_w) / keras_w
    header = ["Aspect", f"Shallow & wide · {lw}×{hw}", f"Deep & narrow · {ld}×{hd}"]
    rows = [
        [f"Parameters ({CELLS[cell].name}, D = {x})",
         f"{fmt_int(keras_w)} (PyTorch: {fmt_int(torch_w)})",
         f"{fmt_int(keras_d)} (PyTorch: {fmt_int(torch_d)}) — same budget "
         f"({diff:+.1f} %)".replace("-", "\u2212")],
        ["Cell firings per word", f"{lw}", f"{ld}, one after another"],
        ["How far back it sees", "the whole past", "the whole past, no further"],
        ["What it computes per word (the field's reading)", "one round of features",
         "features of features, level by level"],
        ["Inference latency", "one cell per word",
         f"×{ld} against one {hd}-unit layer (each layer waits for the one below); "
         f"against {lw}×{hw}: measured below"],
        ["Gradient paths", "back through time", "back through time and down the stack"],
        ["States carried", _pairs(lw), f"{_pairs(ld)}, one per layer"],
        ["Where dropout goes", "on the output", "also between layers (PyTorch `dropout=`)"],
        ["Where it was used", "tagging, short texts, devices",
         "translation, speech, parsing (2013–2016 systems)"],
    ]
    note = ("Parameter counts computed by `stacklib.params.count_params` in Keras' convention "
            "(one bias vector per LSTM gate block), PyTorch's in parentheses (two bias vectors).")
    return header_comment(__name__) + md_table(header, rows, "lll") + "\n" + note + "\n"


def _bidirectional(x: int, h: int, L: int) -> str:
    from stacklib.params import bidirectional_params, param_breakdown

    cell = "lstm"
    one_way = param_breakdown(cell, x, h, L)
    both = {f: bidirectional_params(cell, x, h, L, framework=f) for f in FRAMEWORKS}
    header = ["Layer", "Fan-in, one way", "One way (PyTorch)", "Fan-in, both ways",
              "Both ways (PyTorch)", "Both ways (Keras)"]
    rows = [[k + 1, f"{'D' if k == 0 else 'H'} = {row.fan_in}", fmt_int(row.total),
             f"D = {x}" if k == 0 else f"2H = {2 * h}", fmt_int(2 * both["torch"][k]),
             fmt_int(2 * both["keras"][k])] for k, row in enumerate(one_way)]
    total_one, total_both = sum(r.total for r in one_way), 2 * sum(both["torch"])
    rows.append(["**Total**", "", f"**{fmt_int(total_one)}**", "",
                 f"**{fmt_int(total_both)}**", f"**{fmt_int(2 * sum(both['keras']))}**"])
    note = (f"{CELLS[cell].title}, L = {L}, H = {h}, D = {x}. Both ways, each layer holds two "
            "directions of the same shape. Above layer 1 each direction reads both states of "
            f"the layer below, so the bidirectional stack costs ×{total_both / total_one:.2f} "
            "the one-way stack, not ×2.")
    return header_comment(__name__) + md_table(header, rows, "lrrrrr") + "\n" + note + "\n"


def params_data() -> dict:
    from stacklib.params import bias_vectors, count_params, param_breakdown

    d = PRICE_DEFAULTS
    x, h, L = d["input_size"], d["hidden_size"], d["num_layers"]
    layers = range(1, PRICE_MAX_LAYERS + 1)
    return {
        "defaults": d,
        "sliders": {"num_layers": {"min": 1, "max": max(layers)},
                    **{k: {"min": 1, "max": PRICE_MAX_SIZE}
                       for k in ("hidden_size", "input_size")}},
        "cells": list(PRICE_CELLS),  # in the order shown
        "cell_names": {c: CELLS[c].name for c in PRICE_CELLS},
        "cell_titles": {c: CELLS[c].title for c in PRICE_CELLS},
        "gates": {c: CELLS[c].gates for c in PRICE_CELLS},
        "bias_vectors": {f: {c: bias_vectors(c, f) for c in PRICE_CELLS} for f in FRAMEWORKS},
        "formula": "layer 1: G*h*(x + h) + B*G*h; layer l >= 2: G*h*(h + h) + B*G*h",
        "at_defaults": {
            c: {f: {"total": count_params(c, x, h, L, framework=f),
                    "layers": [r.to_dict() for r in param_breakdown(c, x, h, L, framework=f)]}
                for f in FRAMEWORKS}
            for c in PRICE_CELLS},
        "vs_layers": {"num_layers": list(layers),
                      **{c: {f: [count_params(c, x, h, n, framework=f) for n in layers]
                             for f in FRAMEWORKS} for c in PRICE_CELLS}},
    }


def run(out: Output) -> None:
    d = PRICE_DEFAULTS
    x, h, L = d["input_size"], d["hidden_size"], d["num_layers"]
    for c in PRICE_CELLS:
        out.text(f"generated/partials/params_{c}.md", _breakdown_table(c, x, h, L))
    out.text("generated/partials/params_summary.md", _summary(x, h, L))
    out.text("generated/partials/depth_vs_width.md", _depth_vs_width())
    out.text("generated/partials/params_bidirectional.md", _bidirectional(x, h, L))
    out.json("generated/data/params.json", params_data())
