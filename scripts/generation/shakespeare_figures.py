"""The Shakespeare study's figures (the runs: docs/generated/experiments/shakespeare/).

generated/figures/shakespeare_depth.svg       validation bpc while training, 1-4 layers of 128,
                                              plain and residual
generated/figures/shakespeare_budget.svg      the same for 1-4 layers at one parameter budget
generated/figures/shakespeare_data.svg        training and test bpc against training-set size,
                                              1 and 3 layers
generated/figures/shakespeare_timescales.svg  how long a one-character change lasts in each
                                              layer's h and c, as a share of the layer's peak
                                              (4-layer stacks)
generated/figures/shakespeare_gradients.svg   each layer's weight-gradient norm while 8-layer
                                              stacks train, with and without residual
                                              connections and clipping

Every curve is the mean over the seeds; the band spans the seeds' lowest to highest value.
Each has a phone layout beside it (NAME.phone.svg, scripts/generation/figures.py): its panels in
one column.
"""

from __future__ import annotations

import numpy as np

from scripts.generation import shakespeare_records
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
from scripts.generation.markdown import fmt_int
from scripts.generation.write import Output
from scripts.study.plan import SEEDS
from scripts.study.summary import TAIL

DATA = shakespeare_records.DATA
BPC_AXIS = (2.0, 2.9)  # the learning curves' y range, shared with their live version's data


def _seed_band(ax, curve: dict, color: str, label: str, dashed: bool = False) -> None:
    steps = np.array(curve["step"])
    seeds = np.array([[np.nan if v is None else v for v in c] for c in curve["val_bpc"]])
    ax.fill_between(steps, np.nanmin(seeds, 0), np.nanmax(seeds, 0), color=color, alpha=0.18,
                    lw=0)
    ax.plot(steps, curve["mean"], color=color, lw=1.8, ls="--" if dashed else "-", label=label)


def _bpc_axes(ax, title: str, low: float, high: float) -> None:
    ax.set_title(title, fontsize=TITLE)
    ax.set_xlabel("training step", fontsize=LABEL)
    ax.set_ylabel("validation bits per character", fontsize=LABEL)
    ax.set_ylim(low, high)
    ax.tick_params(labelsize=TICK)
    ax.grid(alpha=0.25)
    ax.legend(fontsize=SMALL)


def _log_ticks(ax, phone: bool) -> None:
    """10^k labels on a log axis: on a phone, large enough for the exponent to be read."""
    if phone:
        ax.tick_params(axis="y", which="both", labelsize=SCRIPT)


def depth_figure(plt, s: dict, phone: bool):
    fig, axes = plt.subplots(*((2, 1) if phone else (1, 2)),
                             figsize=(PHONE_WIDTH, 5.8) if phone else (8.6, 3.4), sharey=True,
                             sharex=phone)
    configs = sorted(s["depth"].values(), key=lambda c: c["layers"])
    one = next(c for c in configs if c["layers"] == 1)
    for ax, residual in zip(axes, (False, True), strict=True):
        for c in configs:
            if c["residual"] == residual or (residual and c is one):
                _seed_band(ax, c["curve"], layer_color(c["layers"], 4),
                           f"{c['layers']} layer{'s' * (c['layers'] > 1)}",
                           dashed=residual and c is one)
        _bpc_axes(ax, "residual from layer 2" if residual else "plain stacks", *BPC_AXIS)
    if phone:
        axes[0].set_xlabel("")
    else:
        axes[1].set_ylabel("")
    return fig


def budget_figure(plt, s: dict, phone: bool):
    fig, ax = plt.subplots(figsize=(PHONE_WIDTH, 3.2) if phone else (6.4, 3.4))
    for c in s["budget"].values():
        _seed_band(ax, c["curve"], layer_color(c["layers"], 4),
                   f"{c['layers']} × {c['hidden']}")
    _bpc_axes(ax, "one budget, split among 1-4 layers", *BPC_AXIS)
    return fig


def data_figure(plt, s: dict, all_chars: int, phone: bool):
    fig, ax = plt.subplots(figsize=(PHONE_WIDTH, 3.8) if phone else (6.4, 3.6))
    full = {c["layers"]: c for c in s["depth"].values() if not c["residual"]}
    for L in sorted({c["layers"] for c in s["data"].values()}):
        subsets = sorted((c for c in s["data"].values() if c["layers"] == L),
                         key=lambda c: c["train_chars"])
        runs = [*subsets, full[L]]
        n = [c["train_chars"] for c in runs[:-1]] + [all_chars]
        color = layer_color(L, 3)  # two depths: the ends of the colour scale
        for split, ls, marker in (("test", "-", "o"), ("train", ":", "s")):
            ax.errorbar(n, [c[f"{split}_bpc"]["mean"] for c in runs],
                        yerr=[c[f"{split}_bpc"]["sd"] for c in runs], color=color, ls=ls,
                        marker=marker, ms=4, lw=1.6, capsize=3,
                        label=f"{L} layer{'s' * (L > 1)}, "
                              + ("test" if split == "test" else "training"))
    ax.set_xscale("log")
    ax.set_xlabel("training characters", fontsize=LABEL)
    ax.set_ylabel("bits per character", fontsize=LABEL)
    caps = {c["cap"] for c in [*s["data"].values(), *full.values()]}
    if len(caps) != 1:
        raise ValueError(f"summary: the data runs have several step caps {sorted(caps)}")
    title = f"each trained until validation stopped improving (or {fmt_int(caps.pop())} steps)"
    ax.set_title(title.replace("validation ", "validation\n") if phone else title,
                 fontsize=TITLE)
    ax.tick_params(labelsize=TICK)
    if phone:
        ax.tick_params(axis="x", labelsize=SCRIPT)  # 10^k: the exponent is 70 % of this
    ax.grid(alpha=0.25)
    if phone:  # below the axes: inside, it would cover the smallest set's points
        ax.legend(fontsize=SMALL, ncol=2, loc="upper center", bbox_to_anchor=(0.45, -0.22))
    else:
        ax.legend(fontsize=SMALL, ncol=2)
    return fig


def timescale_figure(plt, s: dict, phone: bool, layers: int = 4):
    """Each layer's decay curve divided by its own peak, as the timescale table reads it: the
    half-life is where a curve crosses 1/2, the table's "share left" where it crosses TAIL."""
    fig, axes = plt.subplots(*((4, 1) if phone else (2, 2)),
                             figsize=(PHONE_WIDTH - 0.3, 9.6) if phone else (8.6, 5.6),
                             sharex=True, squeeze=False)
    axes = axes.reshape(2, 2, order="F") if phone else axes  # [state, plain/residual]
    for col, residual in enumerate((False, True)):
        c = next(c for c in s["depth"].values()
                 if c["layers"] == layers and c["residual"] == residual)
        for row, state in enumerate(("h", "c")):
            ax = axes[row, col]
            for layer, curve in enumerate(c["timescales"][state]["curve"]):
                ax.plot(np.arange(len(curve)), np.array(curve) / max(curve),
                        color=layer_color(layer + 1, layers), lw=1.7, label=f"layer {layer + 1}")
            ax.axhline(0.5, color=GREY, lw=0.9, ls="--")
            ax.axvline(TAIL, color=GREY, lw=0.9, ls=":")
            kind = "residual" if residual else "plain"
            ax.set_title(f"{layers} layers, {kind}: {state}", fontsize=TITLE)
            ax.set_ylabel("share of its peak", fontsize=LABEL)
            ax.set_yscale("log")  # a constant half-life is a straight line
            ax.tick_params(labelsize=TICK)
            _log_ticks(ax, phone)
            ax.grid(alpha=0.25)
    for ax in [axes[1, 1]] if phone else axes[1]:
        ax.set_xlabel("characters after the change", fontsize=LABEL)
    axes[0, 0].legend(fontsize=SMALL)
    return fig


def gradient_figure(plt, s: dict, clip: float, phone: bool):
    fig, axes = plt.subplots(*((4, 1) if phone else (2, 2)),
                             figsize=(PHONE_WIDTH - 0.3, 10.4) if phone else (8.6, 5.6),
                             sharex=True, sharey=True, squeeze=False)
    axes = axes.reshape(2, 2) if phone else axes  # [plain/residual, clipped/not]
    for name, c in s["deep"].items():
        g = c["gradients"]
        ax = axes[int(c["residual"]), int(name.endswith("-noclip"))]
        clipping = "no clipping" if name.endswith("-noclip") else f"clipped at {clip:g}"
        ax.set_title(f"{'residual' if c['residual'] else 'plain'}, {clipping}", fontsize=TITLE)
        if g["weight_grad"] is None:   # every seed diverged: nothing finite to draw
            ax.text(0.5, 0.5, "every seed diverged", transform=ax.transAxes, ha="center",
                    color=GREY)
            continue
        norms = np.array(g["weight_grad"])                               # (steps, layers)
        for layer in range(norms.shape[1]):
            ax.plot(g["steps"], norms[:, layer], color=layer_color(layer + 1, norms.shape[1]),
                    lw=1.3, label=f"layer {layer + 1}")
        ax.set_yscale("log")
        ax.tick_params(labelsize=TICK)
        _log_ticks(ax, phone)
        ax.grid(alpha=0.25)
    for ax in [axes[1, 1]] if phone else axes[1]:
        ax.set_xlabel("training step", fontsize=LABEL)
    for ax in axes.flat if phone else axes[:, 0]:
        ax.set_ylabel("weight-gradient norm", fontsize=LABEL)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    # the residual panels' lower half is empty: the legend goes there, clear of every curve
    axes[1, 0].legend(handles, labels, fontsize=SMALL, ncol=2 if phone else 4, loc="lower center")
    return fig


TITLES = {
    "depth": "Validation bits per character while training, one to four LSTM layers of width "
             f"128, plain and residual; mean over {len(SEEDS)} seeds with their range",
    "budget": "Validation bits per character while training, one to four LSTM layers at one "
              f"parameter budget; mean over {len(SEEDS)} seeds with their range",
    "data": "Training and test bits per character against the number of training characters, "
            "one and three layers, each trained until validation stopped improving",
    "timescales": "How much of a one-character change each layer's h and c still carry a "
                  "number of characters later, as a share of the layer's peak, four-layer "
                  "stacks, plain and residual",
    "gradients": "Each layer's weight-gradient norm while eight-layer stacks train, plain and "
                 "residual, with and without gradient clipping",
}


def run(out: Output) -> None:
    from stacklib.corpus import shakespeare

    study = shakespeare_records.load(out)
    s = study.summary
    plt = mpl()
    all_chars = len(shakespeare().train.text)
    figures = {"depth": lambda phone: depth_figure(plt, s, phone),
               "budget": lambda phone: budget_figure(plt, s, phone),
               "data": lambda phone: data_figure(plt, s, all_chars, phone),
               "timescales": lambda phone: timescale_figure(plt, s, phone),
               "gradients": lambda phone: gradient_figure(plt, s, study.base.train.clip, phone)}
    for name, draw in figures.items():
        save_layouts(draw, out, f"generated/figures/shakespeare_{name}.svg", TITLES[name])
