"""Depth 8 in the tuned study: does a stack of eight layers train at all, plain or residual?

generated/partials/tuned_deep.md   per shape: test bpc over the seeds, training bpc at the end,
                                   how much gradient reached layer 1, steps and how runs stopped
generated/figures/tuned_deep.svg   every seed's training and validation bpc as it trained, and
                                   layer 1's gradient over layer 8's, beside the unigram
                                   baseline's score
generated/data/tuned_deep.json     the summary (``tuned_summary.deep_summary``) and that score

Shown only once every depth-8 run is in: trainability is judged on all the seeds' curves.
"""

from __future__ import annotations

from scripts.generation.figures import (
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
    PM,
    fmt_int,
    fmt_sci,
    fmt_signed,
    header_comment,
    md_table,
)
from scripts.generation.shakespeare_records import shape as model_label
from scripts.generation.tuned_records import DATA, load
from scripts.generation.write import Output
from scripts.study.tuned_summary import complete, deep_summary

__all__ = ["DATA", "run"]
STOPPED = {"patience": "validation stopped improving", "max_steps": "the step cap",
           "diverged": "diverged"}


def _color(d: dict) -> str:
    return layer_color(3, 3) if d["residual"] else layer_color(2, 3)



def _shapes(deep: dict) -> list[dict]:
    return sorted(deep["shapes"].values(), key=lambda d: d["residual"])


def table_md(deep: dict, unigram: float) -> str:
    rows = [[model_label(d), f"{d['test_bpc']['mean']:.3f}{PM}{d['test_bpc']['sd']:.3f} "
                        f"({len(d['seeds'])})",
             f"{d['train_bpc']['mean']:.3f}", fmt_sci(d["gradients"]["bottom_over_top"]["mean"]),
             f"{d['lr']:g}", f"{fmt_int(min(d['steps']))}–{fmt_int(max(d['steps']))}"]
            for d in _shapes(deep)]
    stops = sorted({s for d in _shapes(deep) for s in d["stopped"]})
    rp, rule = deep["residual_minus_plain"], deep["stopping"]
    return (header_comment(__name__)
            + md_table(["Model", "Test bpc", "Training bpc", "Gradient, layer 1 ÷ layer 8",
                        "Learning rate", "Steps (seeds' range)"], rows, "lrrrrr")
            + "\nTest bpc: mean ± sample standard deviation (seeds in brackets). Training bpc: "
              "the best weights on a slice of the training plays as long as the test plays, "
              "mean of the seeds. The unigram baseline, which knows only how often each "
              f"character occurs, scores {unigram:.3f}. Each shape kept its three-layer rate "
              "from the search, started its forget gates at a bias of 1 and trained until "
              + " or ".join(STOPPED[s] for s in stops)
              + f". That is {rule['patience']} scores in a row without a new best, one every "
              f"{rule['eval_every']} steps, so a flat curve stops early. The gradient "
              "ratio is the geometric mean over the recorded steps (one in "
              f"{deep['grad_every']}) of the norm of layer 1's weight gradient over layer 8's, "
              f"then over the seeds. Residual minus plain: {fmt_signed(rp['diff'])} bpc (95 % "
              f"interval {fmt_signed(rp['ci95'][0])} to {fmt_signed(rp['ci95'][1])}), "
              f"*{rp['verdict']}*.\n{{ .figure-note }}\n")


def figure(plt, deep: dict, unigram: float, phone: bool):
    fig, axes = plt.subplots(*((3, 1) if phone else (1, 3)), sharex=True,
                             figsize=(PHONE_WIDTH, 9.0) if phone else (10.5, 3.3),
                             gridspec_kw={"hspace": 0.55} if phone else {"wspace": 0.3})
    curves, ratio = axes[:2], axes[2]
    for ax, d in zip(curves, _shapes(deep), strict=True):
        for k, h in enumerate(d["curves"]):
            ax.plot(h["steps"], h["train_bpc"], color=_color(d), lw=1.2,
                    label="training" if k == 0 else None)
            ax.plot(h["steps"], h["val_bpc"], color=_color(d), lw=1.2, ls="--",
                    label="validation" if k == 0 else None)
        ax.axhline(unigram, color=GREY, lw=1, ls=":", label="unigram baseline")
        ax.set_title(model_label(d), fontsize=TITLE)
        ax.set_ylabel("bits per character", fontsize=LABEL)
        ax.legend(fontsize=SMALL)
    # one scale for both: the plain stack's flat line is the finding, not its wiggles
    values = [v for d in _shapes(deep) for h in d["curves"] for v in h["train_bpc"] + h["val_bpc"]]
    for ax in curves:
        ax.set_ylim(min(values) - 0.2, max(*values, unigram) + 0.2)
    for d in _shapes(deep):
        for k, h in enumerate(d["curves"]):
            ratio.plot(h["grad_steps"], [w[0] / w[-1] for w in h["weight_grad"]],
                       color=_color(d), lw=1.1, label=model_label(d) if k == 0 else None)
    ratio.set_yscale("log")
    ratio.set_title("gradient, layer 1 ÷ layer 8", fontsize=TITLE)
    ratio.set_ylabel("ratio of the norms, every seed", fontsize=LABEL)
    ratio.legend(fontsize=SMALL, loc="center right")
    for ax in axes:
        ax.set_xlabel("training step", fontsize=LABEL)
        ax.tick_params(labelsize=TICK)
        ax.tick_params(labeltop=False, labelbottom=True)
        ax.grid(alpha=0.25)
    # powers of ten carry superscripts, drawn at 70 %: on a phone they need the larger size
    ratio.tick_params(axis="y", labelsize=SCRIPT if phone else TICK)
    return fig


def run(out: Output) -> None:
    from stacklib.corpus import shakespeare

    study = load(out)
    if "deep" not in complete(study.runs, study.records, ("deep",)):
        raise FileNotFoundError("tuned study: depth 8's runs are not all in; run "
                                "`python -m scripts.experiments.tuned`")
    deep = deep_summary(study.runs, study.records)
    unigram = shakespeare().unigram_bits()
    out.json("generated/data/tuned_deep.json", {**deep, "unigram_bpc": unigram})
    out.text("generated/partials/tuned_deep.md", table_md(deep, unigram))
    plt = mpl()
    save_layouts(lambda phone: figure(plt, deep, unigram, phone), out,
                 "generated/figures/tuned_deep.svg",
                 "Training and validation bits per character of eight plain and eight residual "
                 "LSTM layers as they trained, every seed, and layer 1's weight gradient over "
                 "layer 8's")
