"""Static diagrams of the stack: the §03 blueprint and the §04 follow-the-signal steps.

generated/figures/blueprint.svg          three layers over two timesteps, every wire labelled
generated/figures/walkthrough_steps.svg  the full diagram lit, then the climb in five steps
Pure drawing (no stacklib numbers): the structure is the stack's semantics. Each has a phone
layout beside it (NAME.phone.svg, scripts/generation/figures.py): larger math in roomier boxes.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

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

LAYERS = 3
DOT = "#f59e0b"  # the glowing dot riding the live data path


@dataclass(frozen=True)
class Geometry:
    """Sizes in drawing units (boxes, spacing, wires) and font sizes in points (labels)."""

    box_w: float  # a cell's box
    box_h: float
    dy: float  # from one layer to the next
    wire: float  # length of a memory wire's arrow
    token_r: float  # radius of the x and y circles
    text_dy: float  # "Cell^[l]" above a box's centre, "W^[l]" below it
    sub_dy: float
    box: float  # "Cell^[l]"
    sub: float  # "W^[l]" under it
    token: float  # x_t, y_t
    climb: float  # h_t^[l] beside a vertical wire
    label: float  # a memory wire's h and c


WIDE = Geometry(box_w=1.7, box_h=0.9, dy=1.55, wire=1.0, token_r=0.33, text_dy=0.12,
                sub_dy=0.22, box=10, sub=8, token=10, climb=9, label=8)
# Nearly every label has a sub- or superscript: on a phone each one is SCRIPT, so the boxes
# and the spacing grow to keep them apart.
PHONE = Geometry(box_w=1.5, box_h=1.0, dy=2.0, wire=0.8, token_r=0.5, text_dy=0.17, sub_dy=0.25,
                 box=SCRIPT, sub=SCRIPT, token=SCRIPT, climb=SCRIPT, label=SCRIPT)

# (title, lit elements, dot position as (layer height in dy units, x offset))
STEPS = [
    ("Overview · full diagram", {"all"}, None),
    ("① The input enters", {"x", "x->1"}, (0.5, 0.0)),
    ("② Layer 1 fires", {"1", "mem-in-1"}, (1.0, 0.62)),
    ("③ The climb: h_t^[1] goes up", {"1->2"}, (1.5, 0.0)),
    ("④ Layers 2 → 3 fire", {"2", "mem-in-2", "2->3", "3", "mem-in-3"}, (2.5, 0.0)),
    ("⑤ Output + handoff to t+1", {"3->y", "y", "mem-out-1", "mem-out-2", "mem-out-3"},
     (3.5, 0.0)),
]


def _arrow(ax, start, end, color, lw=1.8, alpha=1.0, style="-|>"):
    from matplotlib.patches import FancyArrowPatch

    ax.add_patch(FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=12, lw=lw,
                                 color=color, alpha=alpha, shrinkA=0, shrinkB=0))


def _box(ax, g: Geometry, cx, cy, text, color, lit=True, sub=None):
    from matplotlib.patches import FancyBboxPatch

    face = color if lit else "#f1f5f9"
    ax.add_patch(FancyBboxPatch((cx - g.box_w / 2, cy - g.box_h / 2), g.box_w, g.box_h,
                                boxstyle="round,pad=0.02,rounding_size=0.15", lw=1.6,
                                edgecolor=color if lit else GREY, facecolor=face,
                                alpha=1.0 if lit else 0.9))
    ax.text(cx, cy + (g.text_dy if sub else 0), text, ha="center", va="center",
            fontsize=g.box, color="white" if lit else GREY, fontweight="bold")
    if sub:
        ax.text(cx, cy - g.sub_dy, sub, ha="center", va="center", fontsize=g.sub,
                color="white" if lit else GREY)


def _token(ax, g: Geometry, cx, cy, text, lit=True):
    from matplotlib.patches import Circle

    ax.add_patch(Circle((cx, cy), g.token_r, facecolor="white", edgecolor=INK if lit else GREY,
                        lw=1.5))
    ax.text(cx, cy, text, ha="center", va="center", fontsize=g.token, color=INK if lit else GREY)


def draw_column(ax, g: Geometry, cx, t: str, layers: int, lit: set[str], *, mem_in: bool,
                mem_out: bool, emit: bool, labels: bool = True):
    """One timestep column: token x at the bottom, `layers` cells, y at the top."""
    def on(key: str) -> bool:
        return "all" in lit or key in lit

    x_y, top = 0.0, g.dy * layers + g.dy
    _token(ax, g, cx, x_y, f"$x_{{{t}}}$", on("x"))
    for layer in range(1, layers + 1):
        color, cy = LAYER_COLORS[(layer - 1) % len(LAYER_COLORS)], g.dy * layer
        below = x_y + g.token_r if layer == 1 else g.dy * (layer - 1) + g.box_h / 2
        key = "x->1" if layer == 1 else f"{layer - 1}->{layer}"
        up_color = LAYER_COLORS[(layer - 2) % 3] if layer > 1 else INK
        _arrow(ax, (cx, below), (cx, cy - g.box_h / 2), up_color if on(key) else GREY,
               lw=2.4 if on(key) and "all" not in lit else 1.8)
        if labels and layer > 1:
            ax.text(cx + 0.08, (below + cy - g.box_h / 2) / 2, f"$h_{{{t}}}^{{[{layer - 1}]}}$",
                    fontsize=g.climb, va="center", ha="left",
                    color=up_color if on(key) else GREY)
        _box(ax, g, cx, cy, f"Cell$^{{[{layer}]}}$", color, on(str(layer)),
             sub=f"$W^{{[{layer}]}}$")
        if mem_in:
            k = f"mem-in-{layer}"
            _arrow(ax, (cx - g.box_w / 2 - g.wire, cy), (cx - g.box_w / 2, cy),
                   color if on(k) else GREY, lw=2.4 if on(k) and "all" not in lit else 1.8)
        if mem_out:
            k = f"mem-out-{layer}"
            _arrow(ax, (cx + g.box_w / 2, cy), (cx + g.box_w / 2 + g.wire, cy),
                   color if on(k) else GREY, lw=2.4 if on(k) and "all" not in lit else 1.8)
    if emit:
        top_color = LAYER_COLORS[(layers - 1) % 3]
        start = g.dy * layers + g.box_h / 2
        _arrow(ax, (cx, start), (cx, top - g.token_r), top_color if on("3->y") else GREY)
        _token(ax, g, cx, top, f"$y_{{{t}}}$", on("y"))


def blueprint(phone: bool):
    """Two timesteps of the stack, every wire labelled. On a phone the wires between the
    columns carry h above and c below, and the layers' memory labels become one note."""
    plt = mpl()
    g, layers = PHONE if phone else WIDE, LAYERS
    fig, ax = plt.subplots(figsize=(PHONE_WIDTH, 6.0) if phone else (7.6, 5.6))
    t1 = 4.0 if phone else 3.6  # the second column's centre
    left = -g.box_w / 2 - (g.wire + 0.05)  # where the incoming wires start
    for i, (cx, t) in enumerate([(0.0, "t-1"), (t1, "t")]):
        draw_column(ax, g, cx, t, layers, {"all"}, mem_in=True, mem_out=i == 1, emit=True)
    for layer in range(1, layers + 1):  # memory wires between the two columns
        cy, color = g.dy * layer, LAYER_COLORS[layer - 1]
        h, c = f"h_{{t-1}}^{{[{layer}]}}", f"c_{{t-1}}^{{[{layer}]}}"
        # above its wire, ending at the box on a phone (the label is longer than the wire)
        ax.text(-g.box_w / 2 - 0.08 if phone else left, cy + 0.16, f"$h_{{t-2}}^{{[{layer}]}}$",
                fontsize=g.label, ha="right" if phone else "left", color=color)
        if phone:
            ax.text(t1 / 2, cy + 0.12, f"${h}$", fontsize=g.label, ha="center", va="bottom",
                    color=color)
            ax.text(t1 / 2, cy - 0.12, f"${c}$", fontsize=g.label, ha="center", va="top",
                    color=color)
        else:
            ax.text(t1 / 2, cy + 0.16, f"${h}, {c}$", fontsize=g.label, ha="center", color=color)
        ax.text(t1 + g.box_w / 2 + 0.08, cy + 0.16, f"$h_{{t}}^{{[{layer}]}}$",
                fontsize=g.label, ha="left", color=color)
        if not phone:
            ax.text(6.0, cy, f"layer {layer}\nown memory", fontsize=8.5, va="center",
                    color=color)
    ax.annotate("vertical = same timestep", xy=(t1 - 0.1, g.dy * 2 - 0.8),
                xytext=(t1 / 2, -0.8 if phone else -0.55), fontsize=9 if phone else 8.5,
                ha="center", color=INK,
                arrowprops={"arrowstyle": "-", "color": GREY, "lw": 0.8})
    emits = "only the top emits: $y_t = h_t^{[L]}$"
    top = g.dy * layers + g.dy
    if phone:  # the notes go under the drawing: there is no room beside it
        ax.text(t1 / 2, -1.25, f"{emits}\neach layer's horizontal wire\nis its own memory",
                ha="center", va="top", fontsize=SCRIPT, color=INK, linespacing=1.5)
        ax.set_xlim(left - 0.25, t1 + g.box_w / 2 + g.wire + 0.15)
        ax.set_ylim(-2.6, top + 0.6)
    else:
        ax.text(t1 + 0.5, top, emits, ha="left", va="center", fontsize=9, color=INK)
        ax.set_xlim(-2.1, 7.2)
        ax.set_ylim(-0.9, top + 0.55)
    ax.set_aspect("equal")
    ax.axis("off")
    title = "Blueprint of a 3-layer recurrent stack over two timesteps"
    ax.set_title(title.replace(" stack ", " stack\n") if phone else title)
    return fig


def walkthrough_steps(phone: bool):
    """The overview and the five steps: 2 rows of 3, or 3 rows of 2 on a phone."""
    plt = mpl()
    g, layers = PHONE if phone else WIDE, LAYERS
    fig, axes = plt.subplots(*((3, 2) if phone else (2, 3)),
                             figsize=(PHONE_WIDTH, 12.4) if phone else (9.6, 7.4))
    for ax, (title, lit, dot) in zip(axes.flat, STEPS, strict=True):
        draw_column(ax, g, 0.0, "t", layers, lit, mem_in=True, mem_out=True, emit=True,
                    labels=True)
        if dot is not None:
            from matplotlib.patches import Circle

            level, dx = dot
            ax.add_patch(Circle((dx, g.dy * level), 0.14,
                                facecolor=DOT, edgecolor="white", lw=1.2, zorder=5))
        half = g.box_w / 2 + g.wire + 0.2 if phone else 2.4
        ax.set_xlim(-half, half)
        ax.set_ylim(-0.6, g.dy * layers + g.dy + 0.5)
        ax.set_aspect("equal")
        ax.axis("off")
        title = title.replace("h_t^[1]", "$h_t^{[1]}$")
        ax.set_title(textwrap.fill(title, 16) if phone else title,
                     fontsize=SCRIPT if phone and "$" in title else 9.5)
    title = "Follow the signal up the stack: one climb per timestep"
    fig.suptitle(title.replace(": ", ":\n") if phone else title, fontweight="bold")
    fig.tight_layout()
    return fig


def run(out: Output) -> None:
    save_layouts(blueprint, out, "generated/figures/blueprint.svg",
                 "Blueprint of a three-layer stack")
    save_layouts(walkthrough_steps, out, "generated/figures/walkthrough_steps.svg",
                 "Follow the signal up the stack")
