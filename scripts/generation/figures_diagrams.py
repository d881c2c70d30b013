"""Static diagrams of the stack: the §03 blueprint and the §04 follow-the-signal steps.

generated/figures/blueprint.svg          three layers over two timesteps, every wire labelled
generated/figures/walkthrough_steps.svg  the full diagram lit, then the climb in five steps
Pure drawing (no stacklib numbers): the structure is the stack's semantics.
"""

from __future__ import annotations

from scripts.generation.figures import GREY, INK, LAYER_COLORS, mpl, save_svg
from scripts.generation.write import Output

LAYERS = 3

BOX_W, BOX_H, DY = 1.7, 0.9, 1.55  # cell box size, vertical spacing between layers
DOT = "#f59e0b"  # the glowing dot riding the live data path
# (title, lit elements, dot position as (layer height in DY units, x offset))
STEPS = [
    ("Overview · full diagram", {"all"}, None),
    ("① The input enters", {"x", "x->1"}, (0.5, 0.0)),
    ("② Layer 1 fires", {"1", "mem-in-1"}, (1.0, 0.62)),
    ("③ The climb: h_t^[1] goes up", {"1->2"}, (1.5, 0.0)),
    ("④ Layers 2 → 3 fire", {"2", "mem-in-2", "2->3", "3", "mem-in-3"}, (2.5, 0.0)),
    ("⑤ Output + handoff to t+1", {"3->y", "y", "mem-out-1", "mem-out-2", "mem-out-3"},
     (3.5, 0.0)),
]


def _layer_y(layer: int) -> float:
    return DY * layer


def _arrow(ax, start, end, color, lw=1.8, alpha=1.0, style="-|>"):
    from matplotlib.patches import FancyArrowPatch

    ax.add_patch(FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=12, lw=lw,
                                 color=color, alpha=alpha, shrinkA=0, shrinkB=0))


def _box(ax, cx, cy, text, color, lit=True, sub=None):
    from matplotlib.patches import FancyBboxPatch

    face = color if lit else "#f1f5f9"
    ax.add_patch(FancyBboxPatch((cx - BOX_W / 2, cy - BOX_H / 2), BOX_W, BOX_H,
                                boxstyle="round,pad=0.02,rounding_size=0.15", lw=1.6,
                                edgecolor=color if lit else GREY, facecolor=face,
                                alpha=1.0 if lit else 0.9))
    ax.text(cx, cy + (0.12 if sub else 0), text, ha="center", va="center", fontsize=10,
            color="white" if lit else GREY, fontweight="bold")
    if sub:
        ax.text(cx, cy - 0.22, sub, ha="center", va="center", fontsize=8,
                color="white" if lit else GREY)


def _token(ax, cx, cy, text, lit=True):
    from matplotlib.patches import Circle

    ax.add_patch(Circle((cx, cy), 0.33, facecolor="white", edgecolor=INK if lit else GREY,
                        lw=1.5))
    ax.text(cx, cy, text, ha="center", va="center", fontsize=10, color=INK if lit else GREY)


def draw_column(ax, cx, t: str, layers: int, lit: set[str], *, mem_in: bool, mem_out: bool,
                emit: bool, labels: bool = True):
    """One timestep column: token x at the bottom, `layers` cells, y at the top."""
    def on(key: str) -> bool:
        return "all" in lit or key in lit

    x_y, top = 0.0, _layer_y(layers) + DY
    _token(ax, cx, x_y, f"$x_{{{t}}}$", on("x"))
    for layer in range(1, layers + 1):
        color, cy = LAYER_COLORS[(layer - 1) % len(LAYER_COLORS)], _layer_y(layer)
        below = x_y + 0.33 if layer == 1 else _layer_y(layer - 1) + BOX_H / 2
        key = "x->1" if layer == 1 else f"{layer - 1}->{layer}"
        up_color = LAYER_COLORS[(layer - 2) % 3] if layer > 1 else INK
        _arrow(ax, (cx, below), (cx, cy - BOX_H / 2), up_color if on(key) else GREY,
               lw=2.4 if on(key) and "all" not in lit else 1.8)
        if labels and layer > 1:
            ax.text(cx + 0.08, (below + cy - BOX_H / 2) / 2, f"$h_{{{t}}}^{{[{layer - 1}]}}$",
                    fontsize=9, va="center", ha="left", color=up_color if on(key) else GREY)
        _box(ax, cx, cy, f"Cell$^{{[{layer}]}}$", color, on(str(layer)),
             sub=f"$W^{{[{layer}]}}$")
        if mem_in:
            k = f"mem-in-{layer}"
            _arrow(ax, (cx - BOX_W / 2 - 1.0, cy), (cx - BOX_W / 2, cy),
                   color if on(k) else GREY, lw=2.4 if on(k) and "all" not in lit else 1.8)
        if mem_out:
            k = f"mem-out-{layer}"
            _arrow(ax, (cx + BOX_W / 2, cy), (cx + BOX_W / 2 + 1.0, cy),
                   color if on(k) else GREY, lw=2.4 if on(k) and "all" not in lit else 1.8)
    if emit:
        top_color = LAYER_COLORS[(layers - 1) % 3]
        start = _layer_y(layers) + BOX_H / 2
        _arrow(ax, (cx, start), (cx, top - 0.33), top_color if on("3->y") else GREY)
        _token(ax, cx, top, f"$y_{{{t}}}$", on("y"))


def blueprint(out: Output) -> None:
    plt = mpl()
    layers = LAYERS
    fig, ax = plt.subplots(figsize=(7.6, 5.6))
    cols = [(0.0, "t-1"), (3.6, "t")]
    for i, (cx, t) in enumerate(cols):
        draw_column(ax, cx, t, layers, {"all"}, mem_in=True, mem_out=(i == len(cols) - 1),
                    emit=True)
    for layer in range(1, layers + 1):  # memory wires between the two columns
        cy, color = _layer_y(layer), LAYER_COLORS[layer - 1]
        ax.text(-BOX_W / 2 - 1.05, cy + 0.16, f"$h_{{t-2}}^{{[{layer}]}}$", fontsize=8,
                ha="left", color=color)
        ax.text(1.8, cy + 0.16, f"$h_{{t-1}}^{{[{layer}]}}, c_{{t-1}}^{{[{layer}]}}$",
                fontsize=8, ha="center", color=color)
        ax.text(3.6 + BOX_W / 2 + 0.08, cy + 0.16, f"$h_{{t}}^{{[{layer}]}}$", fontsize=8,
                ha="left", color=color)
        ax.text(6.0, cy, f"layer {layer}\nown memory", fontsize=8.5, va="center", color=color)
    ax.annotate("vertical = same timestep", xy=(3.6 - 0.1, _layer_y(2) - 0.8),
                xytext=(1.8, -0.55), fontsize=8.5, ha="center", color=INK,
                arrowprops={"arrowstyle": "-", "color": GREY, "lw": 0.8})
    ax.text(3.6 + 0.5, _layer_y(layers) + DY, "only the top emits: $y_t = h_t^{[L]}$",
            ha="left", va="center", fontsize=9, color=INK)
    ax.set_xlim(-2.1, 7.2)
    ax.set_ylim(-0.9, _layer_y(layers) + DY + 0.55)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Blueprint of a 3-layer recurrent stack over two timesteps")
    save_svg(fig, out, "generated/figures/blueprint.svg", "Blueprint of a three-layer stack")


def walkthrough_steps(out: Output) -> None:
    plt = mpl()
    layers = LAYERS
    fig, axes = plt.subplots(2, 3, figsize=(9.6, 7.4))
    for ax, (title, lit, dot) in zip(axes.flat, STEPS, strict=True):
        draw_column(ax, 0.0, "t", layers, lit, mem_in=True, mem_out=True, emit=True,
                    labels=True)
        if dot is not None:
            from matplotlib.patches import Circle

            level, dx = dot
            ax.add_patch(Circle((dx, DY * level), 0.14,
                                facecolor=DOT, edgecolor="white", lw=1.2, zorder=5))
        ax.set_xlim(-2.4, 2.4)
        ax.set_ylim(-0.6, _layer_y(layers) + DY + 0.5)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(title.replace("h_t^[1]", "$h_t^{[1]}$"), fontsize=9.5)
    fig.suptitle("Follow the signal up the stack: one climb per timestep", fontweight="bold")
    fig.tight_layout()
    save_svg(fig, out, "generated/figures/walkthrough_steps.svg", "Follow the signal up the stack")


def run(out: Output) -> None:
    blueprint(out)
    walkthrough_steps(out)
