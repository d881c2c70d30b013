"""Charts computed by stacklib alone (no trained models).

generated/figures/pricing_vs_layers.svg  total parameters vs L, stacked RNN / GRU / LSTM (§05)
generated/figures/depth_vs_width.svg     1×512 vs 3×256 LSTM: shapes, budgets, firings (§10),
                                         side by side (the phone layout: one above the other)
Each has a phone layout beside it (NAME.phone.svg, scripts/generation/figures.py).
"""

from __future__ import annotations

from scripts.generation.figures import (
    CELL_COLORS,
    GREY,
    INK,
    LAYER_COLORS,
    PHONE_WIDTH,
    SCRIPT,
    mpl,
    save_layouts,
)
from scripts.generation.markdown import fmt_int
from scripts.generation.write import Output
from stacklib.config import CELLS
from stacklib.lecture import DEPTH_VS_WIDTH, PRICE_CELLS, PRICE_DEFAULTS, PRICE_MAX_LAYERS


def pricing_vs_layers(phone: bool):
    from stacklib.params import count_params

    plt = mpl()
    d = PRICE_DEFAULTS
    x, h, default_L = d["input_size"], d["hidden_size"], d["num_layers"]
    layers = list(range(1, PRICE_MAX_LAYERS + 1))
    fig, ax = plt.subplots(figsize=(PHONE_WIDTH, 4.2) if phone else (7.2, 4.4))
    for cell in PRICE_CELLS:
        counts = [count_params(cell, x, h, n) for n in layers]
        gates = CELLS[cell].gates
        blocks = f"{gates} gate block{'s' if gates > 1 else ''}"
        ax.plot(layers, counts, marker="o", ms=4, lw=2, color=CELL_COLORS[cell],
                label=f"{CELLS[cell].title} ({blocks} / layer)")
        at = counts[default_L - 1]
        ax.annotate(fmt_int(at), (default_L, at), xytext=(8, -12),
                    textcoords="offset points", fontsize=8.5, color=CELL_COLORS[cell])
        ax.annotate(fmt_int(counts[-1]), (layers[-1], counts[-1]), xytext=(6, -3),
                    textcoords="offset points", fontsize=8.5, color=CELL_COLORS[cell])
    ax.axvline(default_L, color=GREY, lw=0.8, ls=":")
    ax.text(default_L - 0.08, 0.55, f"default L = {default_L}", fontsize=8.5, color=INK,
            ha="right", va="bottom", transform=ax.get_xaxis_transform())
    ax.set_xticks(layers)
    ax.set_xlim(0.6, layers[-1] + 1.3)
    ax.set_xlabel("Number of layers L")
    ax.set_ylabel("Parameters (PyTorch convention)")
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v / 1e6:.1f} M" if v else "0"))
    ax.set_ylim(bottom=0)
    ax.grid(axis="y", color="#e2e8f0", lw=0.8)
    if phone:  # below the axes: the narrow plot has no empty corner
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=8.5)
    else:
        ax.legend(loc="upper left", fontsize=8.5)
    title = f"The price of depth: parameters grow linearly with L (H = {h}, D = {x})"
    ax.set_title(title.replace(": ", ":\n").replace(" (", "\n(") if phone else title)
    return fig


def depth_vs_width(phone: bool):
    from matplotlib.patches import FancyBboxPatch

    from stacklib.params import count_params

    plt = mpl()
    cfg = DEPTH_VS_WIDTH
    cell, x = cfg["cell"], cfg["input_size"]
    variants = [("Shallow & wide", *cfg["wide"]), ("Deep & narrow", *cfg["deep"])]
    fig, ax = plt.subplots(figsize=(PHONE_WIDTH, 8.8) if phone else (8.6, 4.8))
    scale = 2.6 / 256  # drawing width per hidden unit
    # (x, y) of each drawing's origin: side by side, or one above the other on a phone
    origins = [(2.6, 5.5), (2.6, 0.0)] if phone else [(2.6, 0.0), (7.6, 0.0)]
    sep = "\n" if phone else " · "  # between two facts: a phone has room for one per line
    for (label, L, h), (cx, y) in zip(variants, origins, strict=True):
        keras = count_params(cell, x, h, L, framework="keras")
        torch = count_params(cell, x, h, L)
        width, height, gap = h * scale, 0.62, 0.28
        for layer in range(L):
            y0 = y + 0.4 + layer * (height + gap)
            color = LAYER_COLORS[layer % 3]
            ax.add_patch(FancyBboxPatch((cx - width / 2, y0), width, height,
                                        boxstyle="round,pad=0.02,rounding_size=0.1",
                                        facecolor=color, edgecolor=color))
            ax.text(cx, y0 + height / 2, f"{CELLS[cell].name} layer {layer + 1}"
                    f"{sep}H = {h}",
                    ha="center", va="center", color="white", fontsize=9, fontweight="bold")
            if layer:
                ax.annotate("", (cx, y0), (cx, y0 - gap),
                            arrowprops={"arrowstyle": "-|>", "color": LAYER_COLORS[layer - 1]})
        ax.annotate("", (cx, y + 0.4), (cx, y + 0.05),
                    arrowprops={"arrowstyle": "-|>", "color": INK})
        ax.text(cx, y - 0.05, f"$x_t$ (D = {x})", ha="center", va="top",
                fontsize=SCRIPT if phone else 9)
        # the heading above the stack: at a fixed height side by side, just above it on a phone
        top = y + L * (height + gap) + 1.0 if phone else 3.5
        ax.text(cx, top + 0.25, f"{label} · {L}×{h}", ha="center", fontsize=11,
                fontweight="bold")
        ax.text(cx, top, f"{fmt_int(keras)} parameters (Keras)\n{fmt_int(torch)} (PyTorch)",
                ha="center", va="top", fontsize=9)
        firings = "1 cell firing / word" if L == 1 else f"{L} sequential cell firings / word"
        paths = "gradient: time only" if L == 1 else "gradient: time + depth"
        ax.text(cx, y - (0.52 if phone else 0.42),
                f"{firings}{sep}{paths}", ha="center", va="top",
                fontsize=8.5, color=INK)
    ax.set_xlim(-0.4, 5.6 if phone else 10.4)
    ax.set_ylim(-1.0 if phone else -0.8, 8.1 if phone else 4.0)
    ax.axis("off")
    title = (f"Same budget, two shapes: one wide {CELLS[cell].name} layer or three narrow ones "
             f"(D = {x})")
    ax.set_title(title.replace(": ", ":\n").replace(" or ", "\nor ") if phone else title)
    return fig


def run(out: Output) -> None:
    save_layouts(pricing_vs_layers, out, "generated/figures/pricing_vs_layers.svg",
                 "Parameters vs number of layers")
    save_layouts(depth_vs_width, out, "generated/figures/depth_vs_width.svg",
                 "Depth vs width at the same budget")
