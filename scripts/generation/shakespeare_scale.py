"""Depth against width across four parameter budgets, on Shakespeare (the study's scale and cell
groups, beside the budget group at the reference budget).

generated/partials/shakespeare_scale.md   budget × shape: whole-model parameters, test and
                                          training bpc over three seeds, steps, why training
                                          stopped; then the GRU shapes at the reference budget
generated/figures/shakespeare_scale.svg   test bpc against whole-model parameters, one line per
                                          shape with its seeds' range; beside it each deeper
                                          shape's gap to the one wide layer at every budget

The numbers are the summary's (``stacklib.charlm.summary.scale_summary``), which also lands in
generated/data/shakespeare.json for the claim tests.
"""

from __future__ import annotations

from collections import Counter

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
from scripts.generation.markdown import MINUS, NBSP, PM, fmt_int, header_comment, md_table
from scripts.generation.write import Output

DATA = shakespeare_records.DATA
WIDE = "1 wide layer"
# Each shape's line: colour (the layer ramp, by depth) and style (plain stacks dashed).
STYLE = {WIDE: (layer_color(1, 3), "-", "o"),
         "3 residual layers": (layer_color(3, 3), "-", "s"),
         "3 plain layers": (layer_color(3, 3), "--", "^"),
         "2 plain layers": (layer_color(2, 3), "--", "v")}


def _bpc(stats: dict, digits: int = 3) -> str:
    return f"{stats['mean']:.{digits}f}{PM}{stats['std']:.{digits}f}"


def _signed(x: float, digits: int = 3) -> str:
    return f"{x:+.{digits}f}".replace("-", MINUS)


def _stopped(reasons: list[str]) -> str:
    """"step cap ×2, patience ×1": why each seed's training ended."""
    names = {"max_steps": "step cap", "patience": "patience", "diverged": "diverged",
             "goal": "goal"}
    return ", ".join(f"{names[r]}{NBSP}×{n}" for r, n in sorted(Counter(reasons).items()))


def _shape_cell(c: dict) -> str:
    return f"{c['layers']}{NBSP}×{NBSP}{c['hidden']}" + (", residual" if c["residual"] else "")


def _rows(budget: dict, label: str) -> list[list[str]]:
    rows = []
    for shape, c in budget["shapes"].items():
        gap = budget["gap"].get(shape)
        rows.append([label, _shape_cell(c), fmt_int(c["params"]), _bpc(c["test_bpc"]),
                     "" if gap is None else f"{_signed(gap['mean'])}{PM}{gap['std']:.3f}",
                     _bpc(c["train_bpc"]), fmt_int(round(np.mean(c["steps"]))),
                     _stopped(c["stopped"])])
        label = ""
    return rows


def table_md(scale: dict, reference_params: int) -> str:
    header = ["Budget", "Layers × width", "Whole model", "Test bpc", "vs 1 wide layer",
              "Training bpc", "Steps", "Stopped by"]
    rows = []
    for budget in scale["lstm"]:
        rows += _rows(budget, f"{budget['scale']:g}{NBSP}×")
    gru = _rows(scale["gru"], f"1{NBSP}×, GRU")
    return (header_comment(__name__) + md_table(header, rows + gru)
            + f"\nBudgets in multiples of the reference model's {fmt_int(reference_params)} "
              "parameters (3 × 128 LSTM layers with embedding and readout). Each budget's "
              "stacks have LSTM (or GRU) parameters within 2 % of its 3-layer stack's; the "
              "whole models differ a little more, as the readout grows with the width. Test "
              "and training bpc: mean ± standard deviation over three seeds. *vs 1 wide "
              "layer*: the difference of the means, with the two spreads added in "
              "quadrature (negative: the deeper stack is better). *Steps* is the mean over "
              "the seeds; *stopped by* says how each seed's training ended.\n")


def scale_figure(plt, scale: dict, phone: bool):
    fig, axes = plt.subplots(*((2, 1) if phone else (1, 2)),
                             figsize=(PHONE_WIDTH, 6.4) if phone else (8.6, 3.6))
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
    for shape, c in scale["gru"]["shapes"].items():
        _, _, marker = STYLE[shape]
        ax.errorbar([c["params"]], [c["test_bpc"]["mean"]], yerr=[c["test_bpc"]["std"]],
                    color=CELL_COLORS["gru"], marker=marker, ms=5, mfc="white", ls="none",
                    capsize=2, label=f"GRU, {shape}")
    ax.set_xlabel("whole-model parameters", fontsize=LABEL)
    ax.set_ylabel("test bits per character", fontsize=LABEL)
    ax.set_title("test bpc against budget", fontsize=TITLE)

    budgets = [b["params"] for b in scale["lstm"]]
    deeper = [s for s in shapes if s != WIDE]
    offsets = np.linspace(-0.04, 0.04, len(deeper))  # side by side on the log axis
    gap_ax.axhline(0, color=GREY, lw=1)
    for shape, offset in zip(deeper, offsets, strict=True):
        color, ls, marker = STYLE[shape]
        points = [(b["params"], b["gap"][shape]) for b in scale["lstm"] if shape in b["gap"]]
        x = [p * 10 ** offset for p, _ in points]
        gap_ax.errorbar(x, [g["mean"] for _, g in points], yerr=[g["std"] for _, g in points],
                        color=color, ls=ls, marker=marker, ms=4, lw=1.3, capsize=2,
                        label=shape)
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
    ax.legend(fontsize=SMALL, ncol=1)
    gap_ax.legend(fontsize=SMALL)
    return fig


TITLE_TEXT = ("Test bits per character against whole-model parameters at four budgets: one wide "
              "LSTM layer, three residual layers and plain stacks, GRU shapes at the reference "
              "budget; and each deeper stack's gap to the wide layer")


def run(out: Output) -> None:
    study = shakespeare_records.load(out)
    scale = study.summary["scale"]
    reference = study.summary["budget"][study.summary["reference"]]["params"]
    out.text("generated/partials/shakespeare_scale.md", table_md(scale, reference))
    plt = mpl()
    save_layouts(lambda phone: scale_figure(plt, scale, phone), out,
                 "generated/figures/shakespeare_scale.svg", TITLE_TEXT)
