"""What each layer of the Shakespeare stacks holds: the probes' tables and figure.

generated/partials/shakespeare_probes.md          per feature and layer, the probe's score on
                                                  the test plays (mean ± standard deviation over
                                                  three seeds) for the residual and the plain
                                                  3 x 128 stacks, beside a probe that sees only
                                                  the character just read; which layer is best,
                                                  and which the seeds cannot tell from it
generated/partials/shakespeare_probes_untrained.md  the same stacks before training
generated/partials/shakespeare_probes_cells.md    each layer's most selective cell per feature
generated/figures/shakespeare_probes.svg          the scores, one panel per feature: the mean
                                                  over seeds and their range (trained), the
                                                  mean (untrained), the character-only probe

Read from docs/generated/experiments/shakespeare_probes.json (python -m
scripts.experiments.shakespeare_probes), summarised by scripts.study.probes.
"""

from __future__ import annotations

from scripts.generation.figures import (
    GREY,
    LABEL,
    PHONE_WIDTH,
    SMALL,
    TICK,
    TITLE,
    layer_color,
    mpl,
    save_layouts,
)
from scripts.generation.markdown import PM, header_comment, md_table
from scripts.generation.write import Output
from stacklib.charlm.probes import FEATURES

PROBES = "docs/generated/experiments/shakespeare_probes.json"
DATA = [PROBES]
STACKS = {"L3-h128-res": "3\u202f×\u202f128, residual", "L3-h128": "3\u202f×\u202f128, plain"}
ROWS = {"L3-h128-res": "residual", "L3-h128": "plain"}   # the stacks in the tables' rows
METRIC = {"class": "accuracy", "count": "R²"}


def score(stats: dict) -> str:
    return f"{stats['mean']:.3f}{PM}{stats['sd']:.3f}"


def marked(text: str, layer: int, ranked: dict | None) -> str:
    """A layer's score, in bold for the best layer and in italics for a layer the seeds cannot
    tell from it (``scripts.study.verdict.compare``: the 95 % interval of the difference
    includes 0): the best layer shows in the layers' own columns."""
    if ranked is None:
        return text
    if layer == ranked["best"]:
        return f"**{text}**"
    return f"*{text}*" if layer in ranked["ties"] else text


def scores_table(probes: dict, summaries: dict, state: str = "layers") -> str:
    """One row per feature and stack: the score of the probe that sees only the character (for
    the trained stacks), then each layer's."""
    layers = len(next(iter(next(iter(summaries.values())).values()))["layers"])
    trained = state == "layers"
    header = ["Feature (level; score)", "Stack", *(["Character only"] if trained else []),
              *[f"Layer {k}" for k in range(1, layers + 1)]]
    rows = []
    for name in FEATURES:
        feature = probes["features"][name]
        for config, label in ROWS.items():
            s = summaries[config][name]
            first = config == next(iter(STACKS))
            rows.append([f"{feature['label']} ({feature['level']}; {METRIC[feature['kind']]})"
                         if first else "", label,
                         *([f"{probes['baseline'][name]:.3f}"] if trained else []),
                         *[marked(score(v), k, s if trained else None)
                           for k, v in enumerate(s[state], 1)]])
    return md_table(header, rows, "ll" + "r" * (len(header) - 2))


def cells_table(probes: dict, cells: dict) -> str:
    """One row per feature and stack: each layer's best cell."""
    layers = len(next(iter(cells["L3-h128-res"].values())))
    header = ["Feature", "Stack", *[f"Layer {k}" for k in range(1, layers + 1)]]
    rows = [[probes["features"][name]["label"] if config == next(iter(STACKS)) else "", label,
             *[score(cells[config][name][k]) for k in range(layers)]]
            for name in FEATURES for config, label in ROWS.items()]
    return md_table(header, rows, "ll" + "r" * layers)


def draw(probes: dict, summaries: dict, phone: bool):
    plt = mpl()
    names = [name for name in FEATURES if name in probes["features"]]
    cols = 2 if phone else 4
    rows = -(-len(names) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(PHONE_WIDTH, 2.3 * rows) if phone
                             else (8.6, 2.5 * rows), squeeze=False)
    layers = range(1, len(summaries["L3-h128-res"][names[0]]["layers"]) + 1)
    styles = {"L3-h128-res": ("-", "o", "#7c3aed"), "L3-h128": ("--", "s", "#0284c7")}
    for ax, name in zip(axes.flat, names, strict=False):
        feature = probes["features"][name]
        for config, (ls, marker, color) in styles.items():
            s = summaries[config][name]
            means = [v["mean"] for v in s["layers"]]
            seeds = [(m - min(v["values"]), max(v["values"]) - m)       # the seeds' range
                     for m, v in zip(means, s["layers"], strict=True)]
            ax.errorbar(layers, means, yerr=list(zip(*seeds, strict=True)), marker=marker,
                        ls=ls, color=color, ms=4, capsize=3, lw=1.5,
                        label=f"{STACKS[config]}, trained")
            ax.plot(layers, [v["mean"] for v in s["untrained"]], ls=ls, marker=marker,
                    color=GREY, ms=3, lw=1, label=f"{STACKS[config]}, untrained")
        ax.axhline(probes["baseline"][name], color=layer_color(1), lw=1.2, ls=":",
                   label="character only")
        ax.set_title(feature["label"], fontsize=TITLE if not phone else LABEL)
        ax.set_ylabel(METRIC[feature["kind"]], fontsize=LABEL)
        ax.set_xticks(list(layers))
        ax.tick_params(labelsize=TICK)
        ax.grid(alpha=0.25)
    for ax in axes[-1]:
        ax.set_xlabel("layer", fontsize=LABEL)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    spare = axes.flat[len(names):]
    for ax in spare:
        ax.axis("off")
    where = spare[0] if len(spare) else fig
    where.legend(handles, labels, fontsize=SMALL, loc="center", frameon=False)
    fig.tight_layout()
    return fig


def run(out: Output) -> None:
    from scripts.study.probes import cells_summary, stack_summary

    probes = out.read_json(PROBES)
    summaries = {config: stack_summary(probes, config) for config in STACKS}
    cells = {config: cells_summary(probes, config) for config in STACKS}
    head = header_comment(__name__)
    out.text("generated/partials/shakespeare_probes.md", head + scores_table(probes, summaries))
    out.text("generated/partials/shakespeare_probes_untrained.md",
             head + scores_table(probes, summaries, "untrained"))
    out.text("generated/partials/shakespeare_probes_cells.md", head + cells_table(probes, cells))
    save_layouts(lambda phone: draw(probes, summaries, phone), out,
                 "generated/figures/shakespeare_probes.svg",
                 "Probe scores per layer for seven features of the text")
