"""Depth against width across four parameter budgets, on Shakespeare (the study's scale and cell
groups, beside the budget group at the reference budget).

generated/partials/shakespeare_scale.md   budget × shape: test bpc over the seeds, the
                                          difference from the wide layer with its 95 % interval
                                          and its word, training bpc, steps and how many
                                          seeds stopped early; then the GRU shapes at the
                                          reference budget
generated/figures/shakespeare_scale.svg   test bpc against whole-model parameters, one line per
                                          shape with its seeds' range; beside it each deeper
                                          shape's difference from the one wide layer at every
                                          budget, with its 95 % interval

The numbers are the summary's (``scripts.study.summary.scale_summary``), which also lands in
generated/data/shakespeare.json for the claim tests.
"""

from __future__ import annotations

import numpy as np

from scripts.generation import shakespeare_records
from scripts.generation.figures import (
    CELL_COLORS,
    GREY,
    LABEL,
    PHONE_WIDTH,
    SCRIPT,
    SMALL,
    TICK,
    TITLE,
    layer_color,
    mpl,
    save_layouts,
)
from scripts.generation.markdown import (
    NBSP,
    PM,
    fmt_int,
    fmt_signed,
    header_comment,
    md_table,
)
from scripts.generation.shakespeare_records import bpc
from scripts.generation.shakespeare_records import shape as model_label
from scripts.generation.write import Output
from scripts.study.plan import SEEDS, SHAPES

DATA = shakespeare_records.DATA
WIDE, RESIDUAL, PLAIN3, PLAIN2 = SHAPES
# Each shape's line: colour (the layer ramp, by depth) and style (plain stacks dashed).
STYLE = {WIDE: (layer_color(1, 3), "-", "o"),
         RESIDUAL: (layer_color(3, 3), "-", "s"),
         PLAIN3: (layer_color(3, 3), "--", "^"),
         PLAIN2: (layer_color(2, 3), "--", "v")}


def _steps(c: dict) -> str:
    """A configuration's mean steps over its seeds, and how many of them stopped early
    ("7,833 (3 early)"): when validation stopped improving, before the step cap."""
    unknown = set(c["stopped"]) - {"max_steps", "patience"}
    if unknown:
        raise ValueError(f"stopped: the scale table has no words for {sorted(unknown)}")
    early = sum(c["early"])
    return fmt_int(round(np.mean(c["steps"]))) + (f" ({early}{NBSP}early)" if early else "")



def half_width(comparison: dict) -> float:
    """Half the 95 % interval (Welch's interval is symmetric about the difference)."""
    lo, hi = comparison["ci95"]
    return (hi - lo) / 2


def _versus(c: dict) -> str:
    """"+0.141 ± 0.069, behind": the difference, its 95 % interval, the word it allows."""
    return f"{fmt_signed(c['diff'])}{PM}{half_width(c):.3f}, {c['verdict']}"


def _rows(budget: dict, label: str) -> list[list[str]]:
    rows = []
    for shape, c in budget["shapes"].items():
        versus = budget["versus_wide"].get(shape)
        rows.append([label, model_label(c), bpc(c["test_bpc"]),
                     "" if versus is None else _versus(versus),
                     f"{c['train_bpc']['mean']:.3f}", _steps(c)])
        label = ""
    return rows


def table_md(scale: dict, reference: dict) -> str:
    """The table, for the scale summary and the reference budget's model (its ``trained``),
    whose parameters are the unit of the budgets."""
    header = [f"Budget (× {fmt_int(reference['params'])})", "Layers × width", "Test bpc",
              "vs 1 wide layer", "Training bpc", "Steps"]
    rows = []
    for budget in scale["lstm"]:
        rows += _rows(budget, f"{budget['scale']:g}")
    gru = _rows(scale["gru"], "1, GRU")
    return (header_comment(__name__) + md_table(header, rows + gru)
            + f"\nTest bpc: mean ± sample standard deviation of {len(SEEDS)} seeds. *vs 1 wide "
              "layer*: the difference of the means ± its 95 % interval (Welch); below zero, "
              "depth needed fewer bits. Its word follows "
              "[§01's rule](01-testbeds.md#not-resolved). Steps, training bpc: the seeds' "
              "mean; *early*: seeds that validation stopped before the step cap.\n")


def scale_figure(plt, scale: dict, phone: bool):
    fig, axes = plt.subplots(*((2, 1) if phone else (1, 2)),
                             figsize=(PHONE_WIDTH, 7.4) if phone else (8.6, 3.6),
                             gridspec_kw={"hspace": 0.5} if phone else {"wspace": 0.3})
    ax, gap_ax = axes
    shapes = [s for s in STYLE if any(s in b["shapes"] for b in scale["lstm"])]
    for shape in shapes:
        color, ls, marker = STYLE[shape]
        points = [b["shapes"][shape] for b in scale["lstm"] if shape in b["shapes"]]
        x = [c["params"] for c in points]
        values = np.array([c["test_bpc"]["values"] for c in points])
        ax.fill_between(x, values.min(1), values.max(1), color=color, alpha=0.16, lw=0)
        ax.plot(x, values.mean(1), color=color, ls=ls, marker=marker, ms=4, lw=1.6,
                label=shape)
    for i, (shape, c) in enumerate(scale["gru"]["shapes"].items()):
        _, _, marker = STYLE[shape]
        # one legend entry for the GRU: the marker's shape names its stack, as for the LSTM
        ax.errorbar([c["params"]], [c["test_bpc"]["mean"]], yerr=[c["test_bpc"]["sd"]],
                    color=CELL_COLORS["gru"], marker=marker, ms=5, mfc="white", ls="none",
                    capsize=2, label="GRU (open markers)" if i == 0 else None)
    ax.set_xlabel("whole-model parameters", fontsize=LABEL)
    ax.set_ylabel("test bits per character", fontsize=LABEL)
    ax.set_title("test bpc against budget", fontsize=TITLE)

    budgets = [b["params"] for b in scale["lstm"]]
    deeper = [s for s in shapes if s != WIDE]
    offsets = np.linspace(-0.04, 0.04, len(deeper))  # side by side on the log axis
    gap_ax.axhline(0, color=GREY, lw=1)
    for shape, offset in zip(deeper, offsets, strict=True):
        color, ls, marker = STYLE[shape]
        points = [(b["params"], b["versus_wide"][shape]) for b in scale["lstm"]
                  if shape in b["versus_wide"]]
        x = [p * 10 ** offset for p, _ in points]
        gap_ax.errorbar(x, [g["diff"] for _, g in points],
                        yerr=[half_width(g) for _, g in points],
                        color=color, ls=ls, marker=marker, ms=4, lw=1.3, capsize=2)
        gru = scale["gru"]["versus_wide"].get(shape)
        if gru is not None:  # the GRU's difference at its one budget, beside the LSTM's
            gap_ax.errorbar([scale["gru"]["params"] * 10 ** (offset + 0.03)], [gru["diff"]],
                            yerr=[half_width(gru)], color=CELL_COLORS["gru"], marker=marker, ms=5,
                            mfc="white", ls="none", capsize=2)
    gap_ax.set_xlabel("budget (the wide layer's whole-model parameters)", fontsize=LABEL)
    gap_ax.set_ylabel("test bpc minus the wide layer's", fontsize=LABEL)
    gap_ax.set_title("below 0: depth beats width", fontsize=TITLE)
    for a in axes:
        a.set_xscale("log")
        a.set_xticks(budgets, [f"{p / 1000:.0f}k" for p in budgets])
        a.minorticks_off()
        a.tick_params(labelsize=TICK)
        a.grid(alpha=0.25)
        if phone:
            a.tick_params(axis="x", labelsize=SCRIPT)
    # One legend for both panels, below them: inside, it would cover the converging lines.
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=SMALL, loc="upper center", ncol=2 if phone else 5,
               bbox_to_anchor=(0.5, 0.02 if phone else 0.0), frameon=False)
    return fig


# ---------------------------------------------------------------- what the prose types
# (registered in prose_numbers.py, which ties each literal on the page to these)
def largest_model(summary: dict) -> int:
    return max(c["params"] for b in summary["scale"]["lstm"] for c in b["shapes"].values())


def gaps(summary: dict, shape: str) -> list[float]:
    """A deeper shape's difference from the wide layer at each budget it was trained at."""
    return [b["versus_wide"][shape]["diff"] for b in summary["scale"]["lstm"]
            if shape in b["versus_wide"]]


def late_gains(summary: dict, below: float) -> list[float]:
    """How much each run at the budgets below ``below`` improved late (``late_gain``)."""
    return [g for b in summary["scale"]["lstm"] if b["scale"] < below
            for c in b["shapes"].values() for g in c["late_gain"]]


def largest_budget_steps(summary: dict) -> list[int]:
    """How many steps each run at the largest budget trained before it stopped."""
    return [n for c in summary["scale"]["lstm"][-1]["shapes"].values() for n in c["steps"]]


def gain_past(records: list[dict], summary: dict, shape: str, step: int) -> list[float]:
    """At the largest budget: how much each seed of ``shape`` lowered its best validation bpc
    after ``step`` (the study's usual cap), until it stopped."""
    from scripts.study.summary import best_before

    name = summary["scale"]["lstm"][-1]["shapes"][shape]["name"]
    runs = [r for r in records if r["name"].rsplit("-s", 1)[0] == name]
    return [best_before(r, step) - best_before(r, r["steps"]) for r in runs]


TITLE_TEXT = ("Test bits per character against whole-model parameters at four budgets: one wide "
              "LSTM layer, three residual layers and plain stacks, GRU shapes at the reference "
              "budget; and each deeper stack's gap to the wide layer")


def run(out: Output) -> None:
    study = shakespeare_records.load(out)
    scale = study.summary["scale"]
    reference = study.summary["budget"][study.summary["reference"]]
    out.text("generated/partials/shakespeare_scale.md", table_md(scale, reference))
    plt = mpl()
    save_layouts(lambda phone: scale_figure(plt, scale, phone), out,
                 "generated/figures/shakespeare_scale.svg", TITLE_TEXT)
