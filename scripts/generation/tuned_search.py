"""The tuned study's search: how each shape's settings were chosen, on the validation plays.

generated/partials/tuned_search.md    shape by shape: the winning rate, forget-gate bias and
                                      dropout, with each stage's best validation bpc
generated/figures/tuned_search.svg    stage A's validation bpc against the learning rate, one
                                      line per shape and forget-gate bias; beside it stage B's
                                      against dropout
generated/data/tuned_search.json      the search (``tuned_summary.search_summary``): every
                                      trial, the winners, the final runs' step cap

The records are the runner's (``python -m scripts.experiments.tuned --upto B``): the whole
search must be there, never a part of it.
"""

from __future__ import annotations

import numpy as np

from scripts.generation.figures import (
    GREY,
    LABEL,
    PHONE_WIDTH,
    SMALL,
    TICK,
    TITLE,
    mpl,
    save_layouts,
)
from scripts.generation.markdown import NBSP, fmt_int, header_comment, md_table
from scripts.generation.tuned_records import DATA, load
from scripts.generation.write import Output
from scripts.study import tuned
from scripts.study.tuned_summary import search_summary

__all__ = ["DATA", "run"]
# One colour per shape, as §10's other figures draw them (the layer ramp by depth).
STYLE = {tuned.WIDE: ("#0d9488", "o"), tuned.RESIDUAL: ("#7c3aed", "s"),
         tuned.PLAIN: ("#7c3aed", "^")}


def _bias(b) -> str:
    return "torch's (≈" + NBSP + "0)" if not b else f"{b:g}"


def _winner_score(s: dict, shape: str, stage: str) -> float | None:
    """The validation bpc of ``shape``'s winning settings in ``stage`` (A and A2: its rate and
    forget-gate bias; B: its dropout too). None for a stage the shape did not run."""
    w = s["winners"][shape]
    return next((t["val_bpc"] for t in s["trials"]
                 if t["stage"] == stage and t["shape"] == shape and t["planned"]
                 and t["lr"] == w["lr"] and t["forget_bias"] == w["forget_bias"]
                 and (stage != "B" or t["dropout"] == w["dropout"])), None)


def table_md(s: dict) -> str:
    header = ["Shape", "Learning rate", "Forget-gate bias", "Dropout", "A (1,500 steps)",
              "A2 (4,000)", "B (to the stop)"]
    rows = [[shape, f"{w['lr']:g}", _bias(w["forget_bias"]), f"{w['dropout']:g}"]
            + ["the residual stack's" if v is None else f"{v:.3f}"
               for v in (_winner_score(s, shape, stage) for stage in ("A", "A2", "B"))]
            for shape, w in s["winners"].items()]
    return header_comment(__name__) + md_table(header, rows) + "\n" + _note(s) + "\n"


def _note(s: dict) -> str:
    space = s["space"]
    grown = ("" if space["rates"] == space["first_rates"] else
             f" (the first {len(space['first_rates'])}, and one added at the edge where a "
             "shape's best rate sat)")
    aside = sum(not t["planned"] for t in s["trials"])
    sentences = [
        "Each shape's chosen settings and their validation bpc at each stage, seed 0.",
        f"A: {len(space['rates'])} learning rates{grown} × {len(space['forget_biases'])} "
        f"forget-gate biases, dropout {space['probe_dropout']:g}.",
        f"A2: A's best {space['keep']} settings, run longer ({space['keep'] + 1} when the next "
        f"came within {space['keep_within']:g}{NBSP}bpc of the best).",
        "B: dropout " + ", ".join(f"{d:g}" for d in space["dropouts"])
        + ", each until validation stopped improving.",
        f"The final runs stop at {fmt_int(s['cap'])} steps at most: {space['cap_factor']:g} × "
        f"the {space['cap_quantile']:g}th percentile of B's stopping steps.",
    ]
    if aside:
        sentences.append(f"{aside} trials that the wider grid set aside are in the data file.")
    return " ".join(sentences)


def search_figure(plt, s: dict, phone: bool):
    fig, (ax, bx) = plt.subplots(*((2, 1) if phone else (1, 2)),
                                 figsize=(PHONE_WIDTH, 6.8) if phone else (8.6, 3.4),
                                 gridspec_kw={"hspace": 0.55} if phone else {"wspace": 0.28})
    for shape, (color, marker) in STYLE.items():
        for bias, ls in ((None, "--"), (1.0, "-")):
            trials = sorted((t["lr"], t["val_bpc"]) for t in s["trials"]
                            if t["stage"] == "A" and t["shape"] == shape
                            and t["forget_bias"] == bias)
            if trials:
                x, y = zip(*trials, strict=True)
                ax.plot(x, y, color=color, ls=ls, marker=marker, ms=4, lw=1.4,
                        mfc="white" if shape == tuned.PLAIN else color,
                        label=f"{shape}, forget bias {_bias(bias)}")
        b = sorted((t["dropout"], t["val_bpc"]) for t in s["trials"]
                   if t["stage"] == "B" and t["shape"] == shape and t["planned"])
        if b:
            x, y = zip(*b, strict=True)
            bx.plot(x, y, color=color, marker=marker, ms=4, lw=1.4, label=shape)
    ax.set_xscale("log")
    rates = s["space"]["rates"]
    ax.set_xticks(rates, [f"{r:g}" for r in rates])
    ax.minorticks_off()
    ax.set_xlabel("learning rate (stage A, 1,500 steps)", fontsize=LABEL)
    ax.set_ylabel("validation bits per character", fontsize=LABEL)
    ax.set_title("which rates train", fontsize=TITLE)
    bx.set_xticks(s["space"]["dropouts"])
    bx.set_xlabel("dropout (stage B, to the stop)", fontsize=LABEL)
    bx.set_title("how much dropout", fontsize=TITLE)
    for a in (ax, bx):
        a.tick_params(labelsize=TICK)
        a.grid(alpha=0.25, color=GREY)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=SMALL, loc="upper center", ncol=1 if phone else 3,
               bbox_to_anchor=(0.5, 0.02 if phone else 0.0), frameon=False)
    return fig


TITLE_TEXT = ("Validation bits per character of every trial of the search: against the "
              "learning rate for each shape and forget-gate bias, then against dropout")


def run(out: Output) -> None:
    study = load(out)
    if study.decided["cap"] is None:
        raise FileNotFoundError("tuned study: the search is not complete; run "
                                "`python -m scripts.experiments.tuned --upto B`")
    s = search_summary(study.runs, study.records, study.decided, tuned.Search(), study.every)
    s["cpu_hours"] = float(np.sum([t["cpu_seconds"] for t in s["trials"]]) / 3600)
    out.json("generated/data/tuned_search.json", s)
    out.text("generated/partials/tuned_search.md", table_md(s))
    plt = mpl()
    save_layouts(lambda phone: search_figure(plt, s, phone), out,
                 "generated/figures/tuned_search.svg", TITLE_TEXT)
