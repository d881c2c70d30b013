"""§09's gradient figure: the toy model's decay down the stack beside the measured norms.

generated/figures/gradient_decay.svg  toy model factor^(L-l) vs the residual identity path, and
                                      the gradient measured at initialisation per layer
                                      (experiments/gradient_flow.json; schema: the docstring
                                      of stacklib/experiments/gradient_flow.py); its
                                      phone layout (.phone.svg): the panels in one column
"""

from __future__ import annotations

import math

from scripts.generation.figures import (
    GREY,
    INK,
    LABEL,
    LAYER_COLORS,
    PHONE_WIDTH,
    SCRIPT,
    SMALL,
    TICK,
    TITLE,
    layer_color,
    mpl,
    save_layouts,
)
from scripts.generation.write import Output
from stacklib.config import CELLS
from stacklib.lecture import GRADIENT_MODEL

DATA = ["docs/generated/experiments/gradient_flow.json"]

MEASURED_CELLS = ("rnn", "lstm")
VARIANT_STYLE = {  # colour, line style, label
    "plain": (GREY, "--", "plain stack"),
    "residual": (LAYER_COLORS[2], "-", "residual from layer 2"),
    "layer_norm": (LAYER_COLORS[1], ":", "layer norm"),
    "residual_layer_norm": (LAYER_COLORS[0], "-.", "residual + layer norm"),
}


def _toy_panel(ax, factor: float, L: int, phone: bool) -> None:
    layers = list(range(1, L + 1))
    plain = [factor ** (L - layer) for layer in layers]
    ax.bar([x - 0.2 for x in layers], plain, width=0.38,
           color=[layer_color(x, L) for x in layers], label=f"no residual: {factor:.2f}$^{{L-l}}$")
    ax.bar([x + 0.2 for x in layers], [1.0] * L, width=0.38, color="none", edgecolor=INK,
           hatch="//", label="residual: identity path" + ("\n" if phone else " ") + "keeps 1")
    for x, v in zip(layers, plain, strict=True):
        ax.text(x - 0.2, v + 0.015, f"{v:.3f}", ha="center", fontsize=SMALL, color=INK)
    ax.set_xticks(layers, [f"layer {x}" + ("\n(top)" if x == L else "") for x in layers])
    ax.tick_params(labelsize=TICK)
    ax.set_ylim(0, 1.9 if phone else 1.25)  # room above the bars for the legend
    if phone:
        ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.set_ylabel("gradient reaching layer l (top = 1)", fontsize=LABEL)
    # its superscript is 70 % of this: ~8 px at the page's width, ~9 px on a phone
    ax.legend(loc="upper left", fontsize=SCRIPT if phone else 10)
    ax.set_title(f"Toy model, L = {L}:\nfactor {factor:.2f} per layer", fontsize=TITLE)


def _measured_panel(ax, flow: dict, cell: str, phone: bool) -> None:
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
    ax.tick_params(axis="y", labelsize=SCRIPT if phone else 10.5)  # 10^k: exponent 70 %
    ax.set_ylabel("gradient norm at layer l,\nlast step (top layer = 1)",
                  fontsize=LABEL)
    ax.legend(fontsize=SMALL, loc="lower right")
    ax.set_title(f"Measured at initialisation: {CELLS[cell].label()}", fontsize=TITLE)


def draw(flow: dict, cells: list[str], phone: bool):
    """Toy model on the left, the measured panels stacked on the right sharing the layer axis;
    on a phone, all of them in one column."""
    plt = mpl()
    cfg = GRADIENT_MODEL
    rows = len(cells) + 1 if phone else len(cells)
    height = (1.5 + 2.9 * rows) if phone else 1.0 + 3.0 * len(cells)
    fig = plt.figure(figsize=(PHONE_WIDTH, height) if phone else (8.4, height))
    grid = (fig.add_gridspec(rows, 1, height_ratios=[1.25] + [1] * len(cells), left=0.2,
                             right=0.98, top=1 - 0.95 / height, bottom=0.5 / height,
                             hspace=0.45) if phone else
            fig.add_gridspec(len(cells), 2, width_ratios=[1, 1.25], left=0.09, right=0.98,
                             top=1 - 0.82 / height, bottom=0.55 / height, wspace=0.3,
                             hspace=0.42))
    _toy_panel(fig.add_subplot(grid[0, 0] if phone else grid[:, 0]), cfg["factor"],
               cfg["num_layers"], phone)
    measured = []
    for r, cell in enumerate(cells):
        ax = fig.add_subplot(grid[r + 1, 0] if phone else grid[r, 1],
                             sharex=measured[0] if measured else None)
        _measured_panel(ax, flow, cell, phone)
        measured.append(ax)
    for ax in measured[:-1]:
        ax.tick_params(labelbottom=False)
    measured[-1].set_xlabel(f"layer l of the {max(flow['depths'])}-layer stack (1 = bottom)",
                            fontsize=LABEL)
    title = "The depth path: how much gradient reaches each layer"
    fig.suptitle(title.replace(": ", ":\n") if phone else title, fontweight="bold",
                 fontsize=11.5, y=0.995)
    return fig


def run(out: Output) -> None:
    flow = out.read_json(DATA[0])
    cells = [c for c in MEASURED_CELLS if c in flow["cells"]]
    if not cells:
        raise ValueError(f"{DATA[0]} measures none of {MEASURED_CELLS}")
    save_layouts(lambda phone: draw(flow, cells, phone), out,
                 "generated/figures/gradient_decay.svg", "Gradient decay down the stack")
