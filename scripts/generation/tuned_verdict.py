"""The tuned study's verdict: each shape with its own searched settings, on fresh seeds.

generated/partials/tuned_verdict.md   budget x shape: test bpc over the seeds, the difference
                                      to the one wide layer with its 95 % interval, the word
                                      the interval allows (scripts/study/verdict.py), steps
generated/figures/tuned_verdict.svg   test bpc against whole-model parameters (mean ± sample
                                      SD); beside it the residual stack's difference to the
                                      wide layer with its 95 % interval, the margin of
                                      equivalence shaded
generated/partials/tuned_check.md     at each budget but the reference, each shape's check of its
                                      carried settings: validation bpc at every rate and
                                      dropout tried, the rule's and the chosen (only once a
                                      checked budget is shown)
generated/data/tuned_verdict.json     the summary (``tuned_summary.verdict_summary``), with
                                      the checks of the budgets shown (``check_summary``)

The study lands run by run over days. A budget of ``tuned_records.SHOWN`` is shown once every
one of its runs is in, never in part; the reference budget must be in. The data names the
budgets shown, so the pages' claim tests can hold the prose to what is there.
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
    layer_color,
    mpl,
    save_layouts,
)
from scripts.generation.markdown import NBSP, fmt_int, fmt_signed, header_comment, md_table
from scripts.generation.shakespeare_records import shape as model_label
from scripts.generation.tuned_records import DATA, SHOWN, load
from scripts.generation.write import Output
from scripts.study import tuned
from scripts.study.tuned_summary import check_summary, complete, verdict_summary
from scripts.study.verdict import MARGIN

__all__ = ["DATA", "run"]
STYLE = {tuned.WIDE: (layer_color(1, 3), "-", "o"), tuned.RESIDUAL: (layer_color(3, 3), "-", "s"),
         tuned.PLAIN: (layer_color(3, 3), "--", "^")}
WORDS = {"ahead": "ahead", "behind": "behind", "equivalent": "equivalent",
         "not resolved": "not resolved"}


def _interval(v: dict) -> str:
    lo, hi = v["ci95"]
    return f"{fmt_signed(v['diff'])} ({fmt_signed(lo)} to {fmt_signed(hi)})"


def _steps(c: dict, cap: int) -> str:
    at_cap = sum(s >= cap for s in c["steps"])
    return fmt_int(round(np.mean(c["steps"]))) + (f" ({at_cap}{NBSP}at the cap)" if at_cap
                                                   else "")


def table_md(v: dict, reference_params: int, cap: int, exploratory=frozenset()) -> str:
    """A row per model, the model first (the page keeps that column in view on a phone), then
    its verdict against the wide layer of its budget. The budgets in ``exploratory`` (groups)
    are marked so: their settings were chosen after some of their test scores were read."""
    header = ["Model", f"Budget (× {fmt_int(reference_params)})", "Verdict",
              "Minus the wide layer's (95 % interval)", "Test bpc", "Steps"]
    rows = []
    for budget in v["budgets"]:
        for shape, c in budget["shapes"].items():
            vs = budget["versus_wide"].get(shape)
            mark = ", exploratory" if budget["group"] in exploratory else ""
            rows.append([model_label(c), f"{budget['scale']:g}{mark}",
                         "" if vs is None else WORDS[vs["verdict"]],
                         "" if vs is None else _interval(vs),
                         f"{c['test_bpc']['mean']:.3f}{NBSP}±{NBSP}{c['test_bpc']['sd']:.3f}"
                         f" ({len(c['seeds'])})", _steps(c, cap)])
    plays = sorted({p for b in v["budgets"] for vs in b["versus_wide"].values()
                    for p in vs["plays"]})
    # per deeper shape, on how many plays it needed fewer bits, budget by budget
    agree: dict[str, list[str]] = {}
    for b in v["budgets"]:
        for shape, vs in b["versus_wide"].items():
            agree.setdefault(shape, []).append(
                f"{sum(s < 0 for s in vs['plays'].values())} at {b['scale']:g}×")
    return (header_comment(__name__) + md_table(header, rows, "lrlrrr")
            + "\nBudget: within one, the shapes' LSTM parameters match within "
              f"{100 * tuned.Search().tolerance:g}{NBSP}%; whole models differ a little more, as "
              "the "
              "readout grows with the width. "
              "Test bpc: mean ± sample standard deviation (seeds in brackets). *Minus the "
              "wide layer's*: below zero, the deeper shape needed fewer bits. *Ahead* or "
              "*behind* only when the 95 % interval excludes zero; *equivalent* when the 90 % "
              f"interval lies within ±{MARGIN:g}{NBSP}bpc, a margin set before the runs; "
              "otherwise *not resolved*. Steps: the seeds' mean, each run stopped when "
              f"validation stopped improving or at {fmt_int(cap)}. The test plays are "
              + ", ".join(p.replace("-", " ").title() for p in plays[:-1]) + " and "
              + plays[-1].replace("-", " ").title() + f". On how many of the {len(plays)} the "
              "deeper shape needed fewer bits: "
              + "; ".join(f"{shape}, {', '.join(counts)}" for shape, counts in agree.items())
              + "." + (" *Exploratory*: the budget's settings were checked after final runs "
                       "under the rule had read its test plays; those runs are set aside."
                       if exploratory else "")
              + "\n{ .figure-note }\n")



def check_md(checks: dict) -> str:
    """A row per model and settings tried, by dropout then rate: its validation bpc, and
    whether the rule gave them and the check chose them."""
    header = ["Model", "Budget", "Learning rate", "Dropout", "Validation bpc", "Steps", ""]
    rows, superseded = [], []
    for group, check in sorted(checks.items(), key=lambda kv: float(kv[0][1:])):
        for c in check["shapes"].values():
            # by dropout, then rate: the order the reader scans a shape's rows in
            for t in sorted(c["trials"], key=lambda t: (t["dropout"], t["lr"])):
                settings = {"lr": t["lr"], "dropout": t["dropout"]}
                marks = [word for word, s in (("the rule's", c["rule"]), ("chosen", c["chosen"]))
                         if s == settings]
                rows.append([model_label(c), group[1:] + "×", f"{t['lr']:g}", f"{t['dropout']:g}",
                             f"{t['val_bpc']:.3f}", fmt_int(t["steps"]), ", ".join(marks)])
        superseded += [f" Set aside: {model_label(s)} at {group[1:]}× (rate {s['lr']:g}, "
                       f"dropout {s['dropout']:g}), validation bpc {np.mean(s['val_bpc']):.3f} "
                       f"and test {np.mean(s['test_bpc']):.3f}, means of the "
                       f"{len(s['val_bpc'])} seeds it trained."
                       for s in check["superseded"].values()]
    note = ("Seed 0, validation plays; each run to the stopping rule. First each dropout from "
            "the search's to the rule's, at the search's rate; then the rates either side at the "
            "best of them, one step further while the best sat at an edge. The final runs take "
            "the settings with the lowest validation bpc.")
    if superseded:
        note += (" The verdict leaves out the final runs that the rule's settings had trained "
                 "before the check." + "".join(superseded))
    return (header_comment(__name__) + md_table(header, rows, "lrrrrrl")
            + "\n" + note + "\n{ .figure-note }\n")


def verdict_figure(plt, v: dict, phone: bool, exploratory=frozenset()):
    from matplotlib.ticker import MaxNLocator

    fig, (ax, dx) = plt.subplots(*((2, 1) if phone else (1, 2)),
                                 figsize=(PHONE_WIDTH, 7.0) if phone else (8.6, 3.5),
                                 gridspec_kw={"hspace": 0.5} if phone else {"wspace": 0.3})
    budgets = v["budgets"]
    for shape, (color, ls, marker) in STYLE.items():
        points = [(b["shapes"][shape], b["versus_wide"].get(shape)) for b in budgets
                  if shape in b["shapes"]]
        x = [c["params"] for c, _ in points]
        mean = [c["test_bpc"]["mean"] for c, _ in points]
        sd = [c["test_bpc"]["sd"] for c, _ in points]
        ax.errorbar(x, mean, yerr=sd, color=color, ls=ls, marker=marker, ms=4, lw=1.5,
                    capsize=2, label=shape, mfc="white" if shape == tuned.PLAIN else color)
        # the trend in question is the residual stack's: the plain stack's far larger gap and
        # interval (in the table) would flatten it
        diffs = [(c["params"], vs) for c, vs in points if vs is not None]
        if diffs and shape == tuned.RESIDUAL:
            dx.errorbar([p for p, _ in diffs], [vs["diff"] for _, vs in diffs],
                        yerr=np.array([[vs["diff"] - vs["ci95"][0], vs["ci95"][1] - vs["diff"]]
                                       for _, vs in diffs]).T,
                        color=color, ls=ls, marker=marker, ms=4, lw=1.3, capsize=2,
                        mfc="white" if shape == tuned.PLAIN else color)
    dx.axhspan(-MARGIN, MARGIN, color=GREY, alpha=0.18, lw=0)
    dx.axhline(0, color=GREY, lw=1)
    # hundredths: the margin's band keeps the range above 0.05, so no two ticks round alike,
    # and the short labels leave a phone's column room
    dx.yaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 5, 10]))
    dx.yaxis.set_major_formatter(plt.FuncFormatter(
        lambda v, _: f"{v:+.2f}".replace("-", "\u2212") if v else "0"))
    ax.set_ylabel("test bits per character", fontsize=LABEL)
    ax.set_title("each shape tuned", fontsize=TITLE)
    dx.set_ylabel("residual minus wide (bpc)", fontsize=LABEL)
    dx.set_title("below 0: depth needed fewer bits", fontsize=TITLE)
    for b in budgets:
        if b["group"] in exploratory:
            # above the difference's bar, ending there: the largest budget is at the right edge
            dx.annotate("exploratory", (b["params"], b["versus_wide"][tuned.RESIDUAL]["ci95"][1]),
                        xytext=(2, 4), textcoords="offset points", ha="right", va="bottom",
                        fontsize=SMALL, color=GREY, style="italic")
    ticks = [b["params"] for b in budgets]
    for a in (ax, dx):
        a.set_xscale("log")
        a.set_xticks(ticks, [f"{p / 1000:.0f}k" for p in ticks])
        a.minorticks_off()
        a.set_xlabel("whole-model parameters", fontsize=LABEL)
        a.tick_params(labelsize=TICK)
        a.grid(alpha=0.25)
    handles, labels = ax.get_legend_handles_labels()
    # on a phone, the legend's one row is the figure's widest part: keep it tight
    fig.legend(handles, labels, fontsize=SMALL, loc="upper center", ncol=3,
               bbox_to_anchor=(0.5, 0.02 if phone else 0.0), frameon=False,
               **({"columnspacing": 1.0, "handlelength": 1.5} if phone else {}))
    return fig


def run(out: Output) -> None:
    study = load(out)
    groups = complete(study.runs, study.records, SHOWN)
    if "x1" not in groups:
        raise FileNotFoundError("tuned study: the reference budget's final runs are not all in; "
                                "run `python -m scripts.experiments.tuned`")
    v = verdict_summary(study.runs, study.records, groups)
    # the reference budget is three layers of 128's, in the one-recipe study's unit too
    reference = next(b for b in v["budgets"] if b["scale"] == 1.0)["shapes"][tuned.RESIDUAL]
    checks = {g: c for g, c in check_summary(study.runs, study.records, study.decided,
                                             study.every).items() if g in groups}
    out.json("generated/data/tuned_verdict.json", {**v, "cap": study.decided["cap"],
                                                   "checks": checks})
    if checks:
        out.text("generated/partials/tuned_check.md", check_md(checks))
    # a budget whose rule-trained final runs were set aside chose its settings after reading
    # their test scores
    exploratory = {g for g, c in checks.items() if c["superseded"]}
    out.text("generated/partials/tuned_verdict.md",
             table_md(v, reference["params"], study.decided["cap"], exploratory))
    plt = mpl()
    save_layouts(lambda phone: verdict_figure(plt, v, phone, exploratory), out,
                 "generated/figures/tuned_verdict.svg",
                 "Test bits per character of each tuned shape against whole-model parameters, "
                 "and the residual stack's difference to the one wide layer with its 95 % "
                 "interval")
