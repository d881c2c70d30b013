"""The figures' shared style: layer and cell colours, a deterministic matplotlib, SVG saving."""

from __future__ import annotations

from scripts.generation.write import Output

# Layer colours, layer 1 -> 3: teal -> sky -> violet, the light scheme's --lamp-1..3 of
# docs/stylesheets/lecture.css (tests/site/test_elements.py checks they agree).
LAYER_COLORS = ("#0d9488", "#0284c7", "#7c3aed")
CELL_COLORS = {"rnn": "#64748b", "gru": "#0ea5e9", "lstm": "#7c3aed"}
GREY = "#94a3b8"
INK = "#1f2937"
# Text sizes in points for figures shown at the page's content width (~688 px) from ~8.5 in wide:
# about 1.1 px per point, so the smallest text (8.5 pt) stays near 9-10 px on screen and in print.
TICK, LABEL, TITLE, SMALL = 9, 9.5, 10.5, 8.5
# A phone layout (NAME.phone.svg beside NAME.svg; hooks/img_size.py serves it to phones) is drawn
# PHONE_WIDTH inches wide and shown in a ~328 px column, about 1.15 px per point: the sizes above
# stay >= 9.5 px there, and text with a sub- or superscript (70 % of its size) needs SCRIPT pt.
PHONE_WIDTH = 3.9
SCRIPT = 11.5


def layer_ramp(num_layers: int) -> list[tuple[int, float]]:
    """The layer colours of a stack of `num_layers`, bottom to top, as (lamp, t): lamp n
    (1 teal, 2 sky, 3 violet) mixed with the fraction t of lamp n + 1. Three layers or fewer
    take the lamps themselves; a deeper stack spreads evenly from teal through sky to violet.
    The widgets read the same ramp (generated/data/layer_colours.json) and mix the page's lamps,
    so their colours follow the light and dark schemes."""
    ramp = []
    for k in range(num_layers):
        pos = 2 * k / (num_layers - 1) if num_layers > 3 else float(k)  # 0 .. 2: teal -> violet
        i = min(int(pos), 1)
        ramp.append((i + 1, round(pos - i, 4)) if pos - i < 1 else (i + 2, 0.0))
    return ramp


def layer_color(layer: int, num_layers: int = 3) -> str:
    """Colour of layer `layer` (1-based) of `num_layers` in the light scheme (``layer_ramp``)."""
    from matplotlib.colors import to_hex, to_rgb

    if num_layers <= 3:
        return LAYER_COLORS[(layer - 1) % 3]
    lamp, t = layer_ramp(num_layers)[layer - 1]
    if not t:
        return LAYER_COLORS[lamp - 1]
    a, b = to_rgb(LAYER_COLORS[lamp - 1]), to_rgb(LAYER_COLORS[lamp])
    return to_hex(tuple(x + (y - x) * t for x, y in zip(a, b, strict=True)))


def mpl():
    """matplotlib.pyplot on Agg, configured so the same figure gives the same SVG bytes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({
        "svg.hashsalt": "depth-lecture",  # element ids from a fixed salt, not a random one
        "svg.fonttype": "none",  # text stays text: searchable, selectable, small
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans"],
        "font.size": 10,
        "axes.edgecolor": INK,
        "axes.labelcolor": INK,
        "axes.titlesize": 11,
        "axes.titleweight": "bold",
        "axes.spines.top": False,
        "axes.spines.right": False,
        "xtick.color": INK,
        "ytick.color": INK,
        "text.color": INK,
        "legend.frameon": False,
        "figure.facecolor": "white",
        "savefig.facecolor": "white",
        "path.simplify": False,
    })
    return plt


def save_svg(fig, out: Output, rel: str, title: str) -> None:
    """Save a figure as SVG without a date, with a <title> (its accessible name), then close it."""
    import matplotlib.pyplot as plt

    path = out.path(rel)
    fig.savefig(path, format="svg", metadata={"Date": None, "Title": title, "Creator": None},
                bbox_inches="tight", pad_inches=0.08)
    plt.close(fig)
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    path.write_text(text, encoding="utf-8", newline="\n")


def save_layouts(draw, out: Output, rel: str, title: str) -> None:
    """Save `draw(phone=False)` as `rel` (desktop and print) and `draw(phone=True)` as its phone
    layout beside it (`x.svg` -> `x.phone.svg`)."""
    save_svg(draw(phone=False), out, rel, title)
    save_svg(draw(phone=True), out, rel.removesuffix(".svg") + ".phone.svg", title)
