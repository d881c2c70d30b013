"""§09 gradient decay and §10 depth vs data (helpers of gen_fig_trained, same data rules).

gradient_decay reads experiments/gradient_flow.json (optional: the toy model is drawn anyway);
depth_vs_data reads experiments/depth_data.json (skipped without it). Schemas: the docstrings
of stacklib/experiments/gradient_flow.py and depth_data.py.
"""

from __future__ import annotations

import math
from pathlib import Path

from gen_common import GREY, INK, LAYER_COLORS, layer_color, load_experiment, mpl, save_svg

MEASURED_CELLS = ("rnn", "lstm")
CELL_TITLES = {"rnn": "tanh RNN", "gru": "GRU", "lstm": "LSTM"}
VARIANT_STYLE = {  # colour, line style, label
    "plain": (GREY, "--", "plain stack"),
    "residual": (LAYER_COLORS[2], "-", "residual from layer 2"),
    "layer_norm": (LAYER_COLORS[1], ":", "layer norm"),
    "residual_layer_norm": (LAYER_COLORS[0], "-.", "residual + layer norm"),
}


# Sizes in points for figures shown at the page's content width (~688 px) from ~8.5 in wide:
# about 1.1 px per point, so the smallest text (8.5 pt) stays near 9-10 px on screen and in print.
TICK, LABEL, TITLE, SMALL = 9, 9.5, 10.5, 8.5


def _toy_panel(ax, factor: float, L: int) -> None:
    layers = list(range(1, L + 1))
    plain = [factor ** (L - layer) for layer in layers]
    ax.bar([x - 0.2 for x in layers], plain, width=0.38,
           color=[layer_color(x, L) for x in layers], label=f"no residual: {factor:.2f}$^{{L-l}}$")
    ax.bar([x + 0.2 for x in layers], [1.0] * L, width=0.38, color="none", edgecolor=INK,
           hatch="//", label="residual: identity path keeps 1")
    for x, v in zip(layers, plain, strict=True):
        ax.text(x - 0.2, v + 0.015, f"{v:.3f}", ha="center", fontsize=SMALL, color=INK)
    ax.set_xticks(layers, [f"layer {x}" + ("\n(top)" if x == L else "") for x in layers])
    ax.tick_params(labelsize=TICK)
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("gradient reaching layer l (top = 1)", fontsize=LABEL)
    ax.legend(loc="upper left", fontsize=10)  # 10 pt: its superscript stays ~8 px
    ax.set_title(f"Toy model, L = {L}:\nfactor {factor:.2f} per layer", fontsize=TITLE)


def _measured_panel(ax, flow: dict, cell: str) -> None:
    """Depth profile at the last step of the deepest stack, normalised to its top layer."""
    depth = max(flow["depths"])
    lows, highs = [], []
    for variant in flow["variants"]:
        run = next((r for r in flow["runs"] if r["cell"] == cell and r["variant"] == variant
                    and r["depth"] == depth), None)
        if run is None:
            continue
        color, ls, label = VARIANT_STYLE.get(variant, (INK, "-", variant))
        top = run["last_step"][-1]
        xs = list(range(1, depth + 1))
        ys = [v / top for v in run["last_step"]]
        lows.append(min(ys))
        highs.append(max(ys))
        factor = run.get("layer_factor")
        suffix = f" (factor {factor:.2f})" if factor is not None else ""
        ax.plot(xs, ys, marker="o", ms=3.5, lw=2, ls=ls, color=color, label=label + suffix)
    ax.set_yscale("log")
    if lows:  # room under the lowest line for the legend (lower right)
        ax.set_ylim(min(lows) / 10 ** (0.45 * math.log10(max(highs) / min(lows)) + 0.3),
                    max(highs) * 2.5)
    ax.set_xticks(range(1, depth + 1))
    ax.tick_params(axis="x", labelsize=TICK)
    ax.tick_params(axis="y", labelsize=10.5)  # 10^k: the exponent is 70 % of this
    ax.set_ylabel("gradient norm at layer l,\nlast step (top layer = 1)",
                  fontsize=LABEL)
    ax.legend(fontsize=SMALL, loc="lower right")
    ax.set_title(f"Measured at initialisation: {CELL_TITLES.get(cell, cell)}", fontsize=TITLE)


def gradient_decay(out: Path) -> str:
    """Toy model g^[l] = factor^(L-l) vs the residual identity path; measured norms if present.

    Toy model on the left; the measured panels (if any) stacked on the right, sharing layer axis.
    """
    from gen_examples import CONFIG as EXAMPLES

    plt = mpl()
    cfg = EXAMPLES["gradient_model"]
    flow = load_experiment(out, "gradient_flow")
    cells = [c for c in MEASURED_CELLS if flow and c in flow.get("cells", [])]
    rows = max(1, len(cells))
    fig = plt.figure(figsize=(8.4 if cells else 4.6, 1.0 + 3.0 * rows))
    grid = fig.add_gridspec(rows, 2 if cells else 1, width_ratios=[1, 1.25] if cells else None,
                            left=0.09, right=0.98, top=1 - 0.82 / (1.0 + 3.0 * rows),
                            bottom=0.55 / (1.0 + 3.0 * rows), wspace=0.3,
                            hspace=0.42)
    _toy_panel(fig.add_subplot(grid[:, 0]), cfg["factor"], cfg["num_layers"])
    measured = []
    for r, cell in enumerate(cells):
        ax = fig.add_subplot(grid[r, 1], sharex=measured[0] if measured else None)
        _measured_panel(ax, flow, cell)
        measured.append(ax)
    for ax in measured[:-1]:
        ax.tick_params(labelbottom=False)
    if measured:
        depth = max(flow["depths"])
        measured[-1].set_xlabel(f"layer l of the {depth}-layer stack (1 = bottom)",
                                fontsize=LABEL)
    fig.suptitle("The depth path: how much gradient reaches each layer", fontweight="bold",
                 fontsize=11.5, y=0.995)
    return save_svg(fig, out, "figures/gradient_decay.svg", "Gradient decay down the stack")


def depth_vs_data(out: Path) -> str | None:
    """Train vs held-out loss and agreement error against depth, one column per dataset size."""
    data = load_experiment(out, "depth_data")
    if data is None:
        return None
    from matplotlib.patches import Patch

    plt = mpl()
    depths, sizes, summary = data["depths"], data["sizes"], data["summary"]
    rows = [("loss", "next-word loss\n(nats/word)"), ("error", "agreement error")]
    fig, axes = plt.subplots(len(rows), len(sizes), figsize=(1.55 * len(sizes) + 0.9, 5.6),
                             sharex=True, sharey="row", squeeze=False,
                             gridspec_kw={"left": 0.12, "right": 0.99, "top": 0.8,
                                          "bottom": 0.1, "wspace": 0.12, "hspace": 0.14})
    handles = []
    for r, (metric, ylabel) in enumerate(rows):
        for c, n in enumerate(sizes):
            ax = axes[r, c]
            for split, color, marker in (("train", LAYER_COLORS[0], "o"),
                                         ("heldout", LAYER_COLORS[2], "s")):
                stats = summary[f"{split}_{metric}"]
                mean = [stats["mean"][d][c] for d in range(len(depths))]
                std = [stats["std"][d][c] for d in range(len(depths))]
                label = "training" if split == "train" else "held-out"
                line = ax.errorbar(depths, mean, yerr=std, marker=marker, ms=4, lw=2, capsize=3,
                                   color=color, label=label)
                if r == 0 and c == 0:
                    handles.append(line)
            train = [summary[f"train_{metric}"]["mean"][d][c] for d in range(len(depths))]
            held = [summary[f"heldout_{metric}"]["mean"][d][c] for d in range(len(depths))]
            ax.fill_between(depths, train, held, color=GREY, alpha=0.18, lw=0)
            ax.tick_params(labelsize=TICK)
            if r == 0:
                ax.set_title(f"{n:,} sentences", fontsize=LABEL)
            if r == len(rows) - 1:
                ax.set_xticks(depths)
            if c == 0:
                ax.set_ylabel(ylabel, fontsize=LABEL)
    handles.append(Patch(color=GREY, alpha=0.18, lw=0, label="the gap"))
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.925), ncol=3,
               fontsize=LABEL, handlelength=2.2)
    fig.supxlabel("layers L", fontsize=LABEL, y=0.02)
    seeds = len(data.get("seeds", [])) or 1
    fig.suptitle(f"Depth vs data: training vs held-out error by training-set size\n"
                 f"(mean ± std over {seeds} seeds; shaded = the gap)", fontweight="bold",
                 fontsize=TITLE, y=0.995)
    return save_svg(fig, out, "figures/depth_vs_data.svg", "Depth vs dataset size")
