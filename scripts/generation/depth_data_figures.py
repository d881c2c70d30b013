"""§10's depth × data figure: training vs held-out error by depth, per training-set size.

generated/figures/depth_vs_data.svg        next-word loss and agreement error against depth, one
                                           column per dataset size (desktop and print)
generated/figures/depth_vs_data.phone.svg  the same panels transposed, one row per dataset size,
                                           two columns: its text stays readable on a phone
                                           (hooks/img_size.py serves it below 36em)

Both read experiments/depth_data.json (schema: the docstring of stacklib/experiments/depth_data.py).
"""

from __future__ import annotations

from scripts.generation.figures import (
    GREY,
    LABEL,
    LAYER_COLORS,
    TICK,
    TITLE,
    mpl,
    save_layouts,
)
from scripts.generation.write import Output
from scripts.study import toy

DATA = ["docs/generated/experiments/depth_data.json"]
METRICS = [("loss", "next-word loss\n(nats/word)"), ("error", "agreement error")]
ALT = "Depth vs dataset size"


def _panel(ax, data: dict, metric: str, c: int) -> list:
    """Training and held-out mean ± std against depth for size index c, the gap shaded."""
    lines, depths, means = [], data["depths"], {}
    for split, color, marker in (("train", LAYER_COLORS[0], "o"),
                                 ("heldout", LAYER_COLORS[2], "s")):
        stats = toy.grid(data, split, metric)
        means[split], std = ([row[c] for row in stats[key]] for key in ("mean", "sd"))
        label = "training" if split == "train" else "held-out"
        lines.append(ax.errorbar(depths, means[split], yerr=std, marker=marker, ms=4, lw=2,
                                 capsize=3, color=color, label=label))
    ax.fill_between(depths, means["train"], means["heldout"], color=GREY, alpha=0.18, lw=0)
    ax.tick_params(labelsize=TICK)
    return lines


def draw(data: dict, phone: bool):
    """The figure: metrics down and sizes across (wide), or sizes down and metrics across."""
    from matplotlib.patches import Patch

    plt = mpl()
    depths, sizes = data["depths"], data["sizes"]
    shape = (len(sizes), len(METRICS)) if phone else (len(METRICS), len(sizes))
    size = (3.9, 1.25 * len(sizes) + 1.3) if phone else (1.55 * len(sizes) + 0.9, 5.6)
    grid = ({"left": 0.17, "right": 0.98, "top": 0.86, "bottom": 0.07, "wspace": 0.32,
             "hspace": 0.32} if phone else
            {"left": 0.12, "right": 0.99, "top": 0.8, "bottom": 0.1, "wspace": 0.12,
             "hspace": 0.14})
    fig, axes = plt.subplots(*shape, figsize=size, sharex=True, sharey="col" if phone else "row",
                             squeeze=False, gridspec_kw=grid)
    handles = []
    for m, (metric, ylabel) in enumerate(METRICS):
        for c, n in enumerate(sizes):
            ax = axes[c, m] if phone else axes[m, c]
            lines = _panel(ax, data, metric, c)
            handles = handles or lines
            if phone:
                if c == 0:
                    ax.set_title(ylabel.replace("\n", " "), fontsize=LABEL)
                if m == 0:
                    ax.set_ylabel(f"{n:,}\nsentences", fontsize=LABEL)
                if c == len(sizes) - 1:
                    ax.set_xticks(depths)
            else:
                if m == 0:
                    ax.set_title(f"{n:,} sentences", fontsize=LABEL)
                if m == len(METRICS) - 1:
                    ax.set_xticks(depths)
                if c == 0:
                    ax.set_ylabel(ylabel, fontsize=LABEL)
    handles = [*handles, Patch(color=GREY, alpha=0.18, lw=0, label="the gap")]
    seeds = len(data.get("seeds", [])) or 1
    if phone:
        fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=3,
                   fontsize=TICK, handlelength=1.6, columnspacing=1.0)
        fig.supxlabel("layers L", fontsize=LABEL, y=0.01)
        fig.suptitle(f"Depth vs data: training vs held-out\n(mean ± std over {seeds} seeds)",
                     fontweight="bold", fontsize=TITLE, y=0.998)
    else:
        fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.925), ncol=3,
                   fontsize=LABEL, handlelength=2.2)
        fig.supxlabel("layers L", fontsize=LABEL, y=0.02)
        fig.suptitle(f"Depth vs data: training vs held-out error by training-set size\n"
                     f"(mean ± std over {seeds} seeds; shaded = the gap)", fontweight="bold",
                     fontsize=TITLE, y=0.995)
    return fig


def run(out: Output) -> None:
    data = out.read_json(DATA[0])
    save_layouts(lambda phone: draw(data, phone), out, "generated/figures/depth_vs_data.svg",
                 ALT)
