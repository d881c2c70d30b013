"""§10's depth × data figure: training vs held-out error by depth, per training-set size.

generated/figures/depth_vs_data.svg  next-word loss and agreement error against depth, one column
                                     per dataset size (experiments/depth_data.json; schema: the
                                     docstring of stacklib/experiments/depth_data.py)
"""

from __future__ import annotations

from scripts.generation.figures import GREY, LABEL, LAYER_COLORS, TICK, TITLE, mpl, save_svg
from scripts.generation.write import Output

DATA = ["docs/generated/experiments/depth_data.json"]


def run(out: Output) -> None:
    from matplotlib.patches import Patch

    data = out.read_json(DATA[0])
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
    save_svg(fig, out, "generated/figures/depth_vs_data.svg", "Depth vs dataset size")
