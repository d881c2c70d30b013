"""What trained stacks hold, word by word (experiments/stacks.json and probes.json; schemas:
the docstrings of stacklib/experiments/stacks.py and probes.py).

generated/figures/hero_lamps.svg  three lamps per word: the hero 3-layer LSTM reading probe 1
generated/figures/lenses.svg      §02: each layer's states on probe 1 + linear-probe accuracy
generated/figures/live_stack.svg  §06: the 2-layer LSTM's h per word for both probes
"""

from __future__ import annotations

import textwrap

from scripts.generation.figures import (
    GREY,
    INK,
    LAYER_COLORS,
    PHONE_WIDTH,
    SCRIPT,
    mpl,
    save_layouts,
)
from scripts.generation.write import Output
from scripts.study import toy

DATA = ["docs/generated/experiments/stacks.json", "docs/generated/experiments/probes.json"]
FEATURE_LABELS = {"pos": "part of speech (surface)", "word_number": "word's number (surface)",
                  "subject_number": "subject's number (structure)",
                  "subject_number_mismatch": "subject's number at a mismatched attractor"}
FEATURE_SHORT = {f: label.replace(" (", "\n(").replace(" at a ", " at a\n")
                 for f, label in FEATURE_LABELS.items()}  # two lines each, for the narrow figure


def _lamp_color(color: str, level: float):
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(color)
    level = max(0.06, min(1.0, level))
    return (1 - level * (1 - r), 1 - level * (1 - g), 1 - level * (1 - b))


def hero_lamps(stacks: dict, phone: bool):
    """A row of lamps per layer, a column per word; on a phone, a row per word."""
    plt = mpl()
    model, probe = stacks["models"]["hero"], stacks["probes"][0]
    lamps, words, L = model["probes"][0]["lamp"], probe["words"], model["num_layers"]
    W = len(words)

    def at(w: float, layer: float) -> tuple[float, float]:  # (word, layer) -> drawing x, y
        return (1.4 * layer, -w) if phone else (w, layer)  # room for "layer N" above each

    fig, ax = plt.subplots(figsize=(PHONE_WIDTH, 6.2) if phone else (9.0, 3.4))
    for layer in range(L):
        for w, level in enumerate(lamps[layer]):
            color = LAYER_COLORS[layer % 3]
            ax.add_patch(plt.Circle(at(w, layer), 0.34, facecolor=_lamp_color(color, level),
                                    edgecolor=color, lw=1.4))
        ax.text(*at(-0.7 if not phone else -0.75, layer), f"layer {layer + 1}",
                ha="center" if phone else "right", va="bottom" if phone else "center",
                fontsize=9.5, color=LAYER_COLORS[layer % 3], fontweight="bold")
    for w, word in enumerate(words):
        ax.text(*at(w, -0.75 if not phone else -0.7), word, ha="right" if phone else "center",
                va="center" if phone else "top", fontsize=10, color=INK,
                fontweight="bold" if w in (probe["subject_index"], probe["verb_index"]) else None)
    ax.annotate("", at(W - 0.35, L - 0.6), at(W - 0.35, -0.4),
                arrowprops={"arrowstyle": "-|>", "color": GREY})
    ax.text(*at(W - 0.2 if not phone else W - 0.05, (L - 1) / 2),
            "the climb, every word" if phone else "the climb,\nevery word", fontsize=8.5,
            ha="center" if phone else "left", va="top" if phone else "center", color=INK)
    if phone:
        ax.set_xlim(-2.6, 1.4 * L - 0.8)
        ax.set_ylim(-W - 0.4, 1.2)
    else:
        ax.set_xlim(-2.0, W + 1.3)
        ax.set_ylim(-1.3, L - 0.4)
    ax.set_aspect("equal")
    ax.axis("off")
    title = ("Three lamps per word: brightness = mean |h| of a trained 3-layer LSTM "
             "(per layer, scaled to its brightest word)")
    ax.set_title(title.replace(": ", ":\n").replace(" of ", "\nof ").replace(" (", "\n(")
                 if phone else title, fontsize=10)
    return fig


def _heatmap(ax, h, words, color, title, vmax=1.0, fontsize=8):
    import numpy as np

    data = np.asarray(h).T  # (H, W)
    im = ax.imshow(data, cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto",
                   interpolation="nearest")
    ax.set_xticks(range(len(words)), words, rotation=55, ha="right", fontsize=fontsize)
    ax.set_yticks([])
    ax.set_ylabel("channels", fontsize=max(fontsize, 8.5))
    ax.set_title(title, color=color, fontsize=fontsize + 1.5)
    for spine in ax.spines.values():
        spine.set_visible(True)
        spine.set_color(color)
    return im


def live_stack(stacks: dict, phone: bool):
    """Per probe, a heat map and a bar chart per layer: the layers side by side, or on a phone
    all of them in one column."""
    plt = mpl()
    model = stacks["models"]["live"]
    L = model["num_layers"]
    # A fixed grid, not constrained layout: its solver visits artists in an order that can
    # change between runs, which moved coordinates in the last digits of the SVG.
    n = len(stacks["probes"])
    top = max(max(max(r) for r in run["mean_abs_h"]) for run in model["probes"]) * 1.15
    if phone:  # one column; below each probe's last bars, room for the next one's sentence
        height = 2.0 + 3.0 * n * L
        ratios = [r for p in range(n) for layer in range(L)
                  for r in (4, 1.3, 2.8 if layer == L - 1 and p < n - 1 else 1.8)]
        fig = plt.figure(figsize=(PHONE_WIDTH, height))
        grid = fig.add_gridspec(3 * n * L, 1, height_ratios=ratios, left=0.16, right=0.98,
                                top=1 - 1.5 / height, bottom=0.45 / height, hspace=0.12)
    else:
        fig = plt.figure(figsize=(4.4 * L + 1.0, 4.6 * n))
        grid = fig.add_gridspec(3 * n, L, height_ratios=[4, 1.3, 1.1] * n, left=0.06,
                                right=0.9, top=0.89, bottom=0.02, hspace=0.12, wspace=0.12)

    def cell(p: int, layer: int, row: int):  # row 0: heat map, 1: bars
        return grid[3 * (p * L + layer) + row, 0] if phone else grid[3 * p + row, layer]

    small = 8.5 if phone else 8
    for p, (probe, run) in enumerate(zip(stacks["probes"], model["probes"], strict=True)):
        words = probe["words"]
        im = None
        for layer in range(L):
            color = LAYER_COLORS[layer % 3]
            reads = "reads the words" if layer == 0 else f"reads layer {layer}"
            heat = fig.add_subplot(cell(p, layer, 0))
            bar = fig.add_subplot(cell(p, layer, 1), sharex=heat)
            im = _heatmap(heat, run["h"][layer], words, color,
                          f"layer {layer + 1} · $h_t^{{[{layer + 1}]}}$ — {reads}",
                          fontsize=SCRIPT - 1.5 if phone else 8)
            heat.tick_params(labelbottom=False)
            bar.bar(range(len(words)), run["mean_abs_h"][layer], color=color, width=0.7)
            bar.set_xticks(range(len(words)), words, rotation=55, ha="right", fontsize=small)
            bar.set_ylim(0, top)
            bar.set_ylabel("mean |h|", fontsize=small)
            bar.tick_params(axis="y", labelsize=small if phone else 7)
            if layer == 0:
                sentence = f"“{probe['text']}”"
                heat.text(0, 1.2 if phone else 1.16,
                          textwrap.fill(sentence, 36) if phone else sentence,
                          transform=heat.transAxes, fontsize=10.5, fontweight="bold")
        if not phone:
            box = grid[3 * p, L - 1].get_position(fig)
            cax = fig.add_axes((0.915, box.y0, 0.012, box.height))
            fig.colorbar(im, cax=cax, label="$h$ value")
    if phone:  # every heat map has the same scale: one colour bar, under the last one
        cax = fig.add_axes((0.3, 0.18 / height, 0.55, 0.12 / height))
        fig.colorbar(im, cax=cax, orientation="horizontal")
        cax.set_title("$h$ value", fontsize=10, fontweight="normal", loc="left", x=-0.3, y=-0.6)
    title = f"A trained {L}-layer LSTM reads the two probes: every channel, every word"
    fig.suptitle(title.replace(": ", ":\n").replace("LSTM ", "LSTM\n") if phone else title,
                 fontweight="bold", fontsize=11.5, y=0.995 if phone else 0.985)
    return fig


def lenses(stacks: dict, probes: dict, phone: bool):
    """Per layer, its states (top) and what linear probes read from them (below): a column per
    layer; on a phone the layers go one under the other, each with its feature names."""
    plt = mpl()
    model, probe = stacks["models"]["hero"], stacks["probes"][0]
    probed, feats = probes["models"]["hero"], probes["features"]
    acc, sd = probed["accuracy"], toy.probe_sd(probed)
    L = model["num_layers"]
    # Shown at the page width (~688 px) from ~8.6 in: ~1.1 px per point, smallest text 8.5 pt.
    # A fixed grid (no tight_layout): room between panels so the 0-1 scales never touch.
    if phone:
        height = 1.5 + 3.6 * L
        fig = plt.figure(figsize=(PHONE_WIDTH, height))
        grid = fig.add_gridspec(2 * L, 1, height_ratios=[1.2, 1.6] * L, left=0.37, right=0.97,
                                top=1 - 0.95 / height, bottom=1.2 / height, hspace=0.7)
    else:
        fig = plt.figure(figsize=(2.35 * L + 1.55, 7.0))
        grid = fig.add_gridspec(2, L, height_ratios=[3, 2], left=1.55 / (2.35 * L + 1.55),
                                right=0.985, top=0.86, bottom=0.11, wspace=0.16, hspace=0.42)
    names = [f for f in FEATURE_LABELS if f in acc]
    bars = []
    for layer in range(L):
        color = LAYER_COLORS[layer % 3]
        src = "the words" if layer == 0 else f"layer {layer}'s states"
        heat = fig.add_subplot(grid[2 * layer, 0] if phone else grid[0, layer])
        _heatmap(heat, model["probes"][0]["h"][layer], probe["words"], color,
                 f"Layer {layer + 1}" + (" " if phone else "\n") + f"reads {src}", fontsize=8.5)
        if layer and not phone:
            heat.set_ylabel("")
        ax = fig.add_subplot(grid[2 * layer + 1, 0] if phone else grid[1, layer])
        bars.append(ax)
        values = [acc[f][layer + 1] for f in names]  # index 0 is the embedding baseline
        ys = range(len(names))
        ax.barh(ys, values, color=color, height=0.6)
        ax.errorbar(values, ys, xerr=[sd[f][layer + 1] for f in names], fmt="none", ecolor=INK,
                    elinewidth=1, capsize=2.5)
        ax.scatter([feats[f]["majority"] for f in names], ys, marker="|", s=170, color=INK,
                   linewidths=1.6, zorder=3)
        for y, v in zip(ys, values, strict=True):
            # left of the whisker, inside the bar
            ax.text(min(v, 0.97) - 0.08, y, f"{v:.2f}", va="center", ha="right", fontsize=8.5,
                    color="white")
        ax.set_yticks(list(ys), [FEATURE_SHORT[f] for f in names] if layer == 0 or phone
                      else [], fontsize=8.5)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"], fontsize=9)
    left, right = bars[0].get_position().x0, bars[-1].get_position().x1
    n = len(probed["seeds"])
    lines = (["held-out probe accuracy,", f"mean of {n} trained models ± 1 SD",
              "(black tick = majority-class baseline;", "heat maps: the first model)"]
             if phone else
             [f"held-out probe accuracy, mean of {n} trained models ± 1 SD",
              "(black tick = majority-class baseline; heat maps: the first model)"])
    fig.text((left + right) / 2, 0.012, "\n".join(lines), ha="center", va="bottom",
             fontsize=9.5)
    title = ("Same sentence, three lenses: what each layer holds,\nand what a linear probe "
             "can read from it")
    fig.suptitle(title.replace(": ", ":\n").replace(",\nand", "\nand") if phone else title,
                 fontweight="bold", fontsize=11, y=0.995)
    return fig


def run(out: Output) -> None:
    stacks, probes = (out.read_json(rel) for rel in DATA)
    save_layouts(lambda phone: hero_lamps(stacks, phone), out,
                 "generated/figures/hero_lamps.svg", "Three lamps per word")
    save_layouts(lambda phone: lenses(stacks, probes, phone), out,
                 "generated/figures/lenses.svg", "Three lenses on the probe sentence")
    save_layouts(lambda phone: live_stack(stacks, phone), out,
                 "generated/figures/live_stack.svg", "Live stack heat maps")
