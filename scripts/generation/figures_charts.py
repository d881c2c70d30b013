"""Charts computed by stacklib alone (no trained models).

generated/figures/pricing_vs_layers.svg  total parameters vs L, stacked RNN / GRU / LSTM (§05)
generated/figures/depth_vs_width.svg     1×512 vs 3×256 LSTM: shapes, budgets, firings (§10)
"""

from __future__ import annotations

from scripts.generation.figures import CELL_COLORS, GREY, INK, LAYER_COLORS, mpl, save_svg
from scripts.generation.markdown import fmt_int
from scripts.generation.names import CELL_NAMES, CELLS
from scripts.generation.write import Output
from stacklib.lecture import DEPTH_VS_WIDTH, PRICE_DEFAULTS, PRICE_MAX_LAYERS


def pricing_vs_layers(out: Output) -> None:
    from stacklib import GATES, count_params

    plt = mpl()
    d = PRICE_DEFAULTS
    x, h, default_L = d["input_size"], d["hidden_size"], d["num_layers"]
    layers = list(range(1, PRICE_MAX_LAYERS + 1))
    fig, ax = plt.subplots(figsize=(7.2, 4.4))
    for cell in CELLS:
        counts = [count_params(cell, x, h, n) for n in layers]
        ax.plot(layers, counts, marker="o", ms=4, lw=2, color=CELL_COLORS[cell],
                label=f"{CELL_NAMES[cell]} ({GATES[cell]} matri{'x' if GATES[cell] == 1 else 'ces'}"
                      " / layer)")
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
    ax.legend(loc="upper left", fontsize=8.5)
    ax.set_title(f"The price of depth: parameters grow linearly with L (H = {h}, D = {x})")
    save_svg(fig, out, "generated/figures/pricing_vs_layers.svg", "Parameters vs number of layers")


def depth_vs_width(out: Output) -> None:
    from matplotlib.patches import FancyBboxPatch

    from stacklib import count_params

    plt = mpl()
    cfg = DEPTH_VS_WIDTH
    cell, x = cfg["cell"], cfg["input_size"]
    variants = [("Shallow & wide", *cfg["wide"]), ("Deep & narrow", *cfg["deep"])]
    fig, ax = plt.subplots(figsize=(8.6, 4.8))
    scale = 2.6 / 256  # drawing width per hidden unit
    centers = [2.6, 7.6]
    for (label, L, h), cx in zip(variants, centers, strict=True):
        keras = count_params(cell, x, h, L, framework="keras")
        torch = count_params(cell, x, h, L)
        width, height, gap = h * scale, 0.62, 0.28
        for layer in range(L):
            y0 = 0.4 + layer * (height + gap)
            color = LAYER_COLORS[layer % 3]
            ax.add_patch(FancyBboxPatch((cx - width / 2, y0), width, height,
                                        boxstyle="round,pad=0.02,rounding_size=0.1",
                                        facecolor=color, edgecolor=color))
            ax.text(cx, y0 + height / 2, f"{cell.upper()} layer {layer + 1} · H = {h}",
                    ha="center", va="center", color="white", fontsize=9, fontweight="bold")
            if layer:
                ax.annotate("", (cx, y0), (cx, y0 - gap),
                            arrowprops={"arrowstyle": "-|>", "color": LAYER_COLORS[layer - 1]})
        ax.annotate("", (cx, 0.4), (cx, 0.05), arrowprops={"arrowstyle": "-|>", "color": INK})
        ax.text(cx, -0.05, f"$x_t$ (D = {x})", ha="center", va="top", fontsize=9)
        ax.text(cx, 3.75, f"{label} · {L}×{h}", ha="center", fontsize=11, fontweight="bold")
        ax.text(cx, 3.5, f"{fmt_int(keras)} parameters (Keras)\n{fmt_int(torch)} (PyTorch)",
                ha="center", va="top", fontsize=9)
        firings = "1 cell firing / word" if L == 1 else f"{L} sequential cell firings / word"
        paths = "gradient: time only" if L == 1 else "gradient: time + depth"
        ax.text(cx, -0.42, f"{firings} · {paths}", ha="center", va="top", fontsize=8.5,
                color=INK)
    ax.set_xlim(-0.4, 10.4)
    ax.set_ylim(-0.8, 4.0)
    ax.axis("off")
    ax.set_title(f"Same budget, two shapes: one wide {cell.upper()} layer or three narrow ones "
                 f"(D = {x})")
    save_svg(fig, out, "generated/figures/depth_vs_width.svg", "Depth vs width at the same budget")


def run(out: Output) -> None:
    pricing_vs_layers(out)
    depth_vs_width(out)
