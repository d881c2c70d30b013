"""The live Shakespeare stack's static figure: each feature's most selective cell in each layer,
read over a passage, as a text heat map (what prints, and what shows before the widget starts).

Under each row of the passage, one strip per (feature, layer): the cell's activation under each
character, in colour (blue below zero, red above) and as a line through the strip (above its
middle for a positive value), so that the value does not rest on colour alone. Each cell is
signed so that up and red mean more of its feature (for the character class: more like the
class the cell is highest on).
"""

from __future__ import annotations

import numpy as np

from scripts.generation.figures import INK, PHONE_WIDTH, SMALL, TICK, mpl

NEWLINE = "\u21b5"   # how a line break is shown
STRIP, GAP, GROUP = 1.0, 0.12, 0.9   # strip height, gap between strips and between features
UNIT = 0.1                            # inches per unit of height (a strip)


def strip_values(hidden: list[np.ndarray], cell: dict, layer: int) -> np.ndarray:
    return np.clip(cell["sign"] * hidden[layer][:, cell["unit"]], -1, 1)


def _feature_name(feature: dict, phone: bool) -> str:
    """The feature's label; for the character class, the class each layer's cell is highest
    on (layer 1 first)."""
    classes = [cell["highest"] for cell in feature["cells"] if cell.get("highest")]
    if not classes:
        return feature["label"]
    return feature["label"] + (" " if phone else "\n") + f"(on: {', '.join(classes)})"


def _rows(text: str, per_row: int) -> list[tuple[int, int]]:
    """Rows of at most ``per_row`` characters, each ending after a line break if one lies in
    its second half, else after a space."""
    rows, lo = [], 0
    while lo < len(text):
        hi = min(lo + per_row, len(text))
        if hi < len(text):
            piece = text[lo:hi]
            cut = piece.rfind("\n")
            cut = cut if cut >= per_row // 2 else piece.rfind(" ")
            hi = lo + cut + 1 if cut > 0 else hi
        rows.append((lo, hi))
        lo = hi
    return rows


def draw_cells(text: str, hidden: list[np.ndarray], features: list[dict], phone: bool):
    """The figure: ``hidden`` is every layer's h (T, H) over ``text`` (T characters)."""
    plt = mpl()
    per_row = 38 if phone else 56
    label_w = 0 if phone else 15          # character widths left of the text for labels
    layers = len(hidden)
    group_h = layers * (STRIP + GAP) + (1.1 if phone else 0) + GROUP
    block_h = 1.6 + len(features) * group_h
    rows = _rows(text, per_row)
    height = len(rows) * block_h + 1.8
    fig_w = PHONE_WIDTH if phone else 8.5
    fig = plt.figure(figsize=(fig_w, height * UNIT))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-label_w - 2, per_row)
    ax.set_ylim(height, 0)
    ax.axis("off")
    mono = {"family": "DejaVu Sans Mono", "size": SMALL if phone else 10}
    cmap = plt.get_cmap("RdBu_r")
    y = 0.0
    for lo, hi in rows:
        for k, ch in enumerate(text[lo:hi]):
            shown = NEWLINE if ch == "\n" else ch
            ax.text(k + 0.5, y + 1.0, shown, ha="center", va="baseline", fontdict=mono,
                    color=INK if ch != "\n" else "#64748b")
        y += 1.6
        for feature in features:
            if phone:
                ax.text(-2, y + 0.8, _feature_name(feature, phone), fontsize=SMALL, va="baseline")
                y += 1.1
            else:
                ax.text(-label_w - 2, y + layers * (STRIP + GAP) / 2, _feature_name(feature, phone),
                        fontsize=SMALL, va="center")
            for layer in range(layers):
                values = strip_values(hidden, feature["cells"][layer], layer)[lo:hi]
                top = y + layer * (STRIP + GAP)
                ax.imshow(values[None], cmap=cmap, vmin=-1, vmax=1, aspect="auto",
                          interpolation="nearest", extent=(0, hi - lo, top + STRIP, top))
                steps = np.repeat(values, 2)
                xs = np.repeat(np.arange(hi - lo + 1), 2)[1:-1]
                ax.plot(xs, top + STRIP / 2 - 0.42 * STRIP * steps, color=INK, lw=0.5)
                ax.text(-0.4, top + STRIP / 2, f"{layer + 1}", ha="right", va="center",
                        fontsize=SMALL, color="#475569")
            y += layers * (STRIP + GAP) + GROUP
    bar = fig.add_axes((0.55 if not phone else 0.3, 0.012, 0.3 if not phone else 0.5, 0.008))
    scale = fig.colorbar(plt.cm.ScalarMappable(cmap=cmap, norm=plt.Normalize(-1, 1)), cax=bar,
                         orientation="horizontal")
    scale.set_ticks([-1, 0, 1])
    scale.ax.tick_params(labelsize=TICK)
    scale.set_label("cell activation, signed: more of the feature is up and red",
                    fontsize=SMALL)
    return fig
