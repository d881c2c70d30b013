"""§09 gradient decay and §10 depth vs data (helpers of gen_fig_trained, same data rules).

gradient_decay reads experiments/gradient_flow.json (optional: the toy model is drawn anyway);
depth_vs_data reads experiments/depth_data.json (skipped without it). Schemas: the docstrings
of stacklib/experiments/gradient_flow.py and depth_data.py.
"""

from __future__ import annotations

from pathlib import Path

from gen_common import GREY, INK, LAYER_COLORS, layer_color, load_experiment, mpl, save_svg

MEASURED_CELLS = ("rnn", "lstm")
CELL_TITLES = {"rnn": "tanh RNN", "gru": "GRU", "lstm": "LSTM"}
VARIANT_STYLE = {  # colour, line style, label
    "plain": (GREY, "--", "plain stack"),
    "residual": (LAYER_COLORS[2], "-", "residual from layer 2"),
    "layer_norm": (LAYER_COLORS[1], ":", "layer norm"),
    "residual_layer_norm": (LAYER_COLORS[0], "-.", "residual + layer norm"),
}


def _toy_panel(ax, factor: float, L: int) -> None:
    layers = list(range(1, L + 1))
    plain = [factor ** (L - layer) for layer in layers]
    ax.bar([x - 0.2 for x in layers], plain, width=0.38,
           color=[layer_color(x, L) for x in layers], label=f"no residual: {factor:.2f}$^{{L-l}}$")
    ax.bar([x + 0.2 for x in layers], [1.0] * L, width=0.38, color="none", edgecolor=INK,
           hatch="//", label="residual: the identity path keeps 1")
    for x, v in zip(layers, plain, strict=True):
        ax.text(x - 0.2, v + 0.02, f"{v:.3f}", ha="center", fontsize=8.5, color=INK)
    ax.set_xticks(layers, [f"layer {x}" + ("\n(top)" if x == L else "") for x in layers])
    ax.set_ylim(0, 1.3)
    ax.set_ylabel("gradient reaching layer l (top = 1)")
    ax.legend(loc="upper left", fontsize=8.5)
    ax.set_title(f"Toy model: factor {factor:.2f} per layer, L = {L}")


def _measured_panel(ax, flow: dict, cell: str) -> None:
    """Depth profile at the last step of the deepest stack, normalised to its top layer."""
    depth = max(flow["depths"])
    for variant in flow["variants"]:
        run = next((r for r in flow["runs"] if r["cell"] == cell and r["variant"] == variant
                    and r["depth"] == depth), None)
        if run is None:
            continue
        color, ls, label = VARIANT_STYLE.get(variant, (INK, "-", variant))
        top = run["last_step"][-1]
        xs = list(range(1, depth + 1))
        factor = run.get("layer_factor")
        suffix = f" (factor {factor:.2f})" if factor is not None else ""
        ax.plot(xs, [v / top for v in run["last_step"]], marker="o", ms=3.5, lw=2, ls=ls,
                color=color, label=label + suffix)
    ax.set_yscale("log")
    ax.set_xticks(range(1, depth + 1))
    ax.set_xlabel(f"layer l of the {depth}-layer stack (1 = bottom)")
    ax.set_ylabel(r"$\Vert\partial L/\partial h_T^{[l]}\Vert$ / top layer's")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"Measured at initialisation: {CELL_TITLES.get(cell, cell)}")


def gradient_decay(out: Path) -> str:
    """Toy model g^[l] = factor^(L-l) vs the residual identity path; measured norms if present."""
    from gen_examples import CONFIG as EXAMPLES

    plt = mpl()
    cfg = EXAMPLES["gradient_model"]
    flow = load_experiment(out, "gradient_flow")
    cells = [c for c in MEASURED_CELLS if flow and c in flow.get("cells", [])]
    fig, axes = plt.subplots(1, 1 + len(cells), figsize=(4.9 * (1 + len(cells)), 4.2),
                             squeeze=False)
    _toy_panel(axes[0, 0], cfg["factor"], cfg["num_layers"])
    for ax, cell in zip(axes[0, 1:], cells, strict=True):
        _measured_panel(ax, flow, cell)
    fig.suptitle("The depth path: how much gradient reaches each layer", fontweight="bold")
    fig.tight_layout()
    return save_svg(fig, out, "figures/gradient_decay.svg", "Gradient decay down the stack")


def depth_vs_data(out: Path) -> str | None:
    """Train vs held-out loss and agreement error against depth, one column per dataset size."""
    data = load_experiment(out, "depth_data")
    if data is None:
        return None
    plt = mpl()
    depths, sizes, summary = data["depths"], data["sizes"], data["summary"]
    rows = [("loss", "next-word loss (nats/word)"), ("error", "agreement error")]
    fig, axes = plt.subplots(len(rows), len(sizes), figsize=(3.3 * len(sizes) + 0.6, 6.4),
                             sharex=True, sharey="row", squeeze=False)
    for r, (metric, ylabel) in enumerate(rows):
        for c, n in enumerate(sizes):
            ax = axes[r, c]
            for split, color, marker in (("train", LAYER_COLORS[0], "o"),
                                         ("heldout", LAYER_COLORS[2], "s")):
                stats = summary[f"{split}_{metric}"]
                mean = [stats["mean"][d][c] for d in range(len(depths))]
                std = [stats["std"][d][c] for d in range(len(depths))]
                label = "training" if split == "train" else "held-out"
                ax.errorbar(depths, mean, yerr=std, marker=marker, ms=4, lw=2, capsize=3,
                            color=color, label=label)
            train = [summary[f"train_{metric}"]["mean"][d][c] for d in range(len(depths))]
            held = [summary[f"heldout_{metric}"]["mean"][d][c] for d in range(len(depths))]
            ax.fill_between(depths, train, held, color=GREY, alpha=0.18, lw=0)
            if r == 0:
                ax.set_title(f"{n:,} training sentences")
            if r == len(rows) - 1:
                ax.set_xlabel("layers L")
                ax.set_xticks(depths)
            if c == 0:
                ax.set_ylabel(ylabel)
    axes[0, 0].legend(fontsize=8.5)
    seeds = len(data.get("seeds", [])) or 1
    fig.suptitle(f"Depth vs data: training and held-out error (mean ± std over {seeds} seeds; "
                 "shaded = the gap)", fontweight="bold", fontsize=10.5)
    fig.tight_layout()
    return save_svg(fig, out, "figures/depth_vs_data.svg", "Depth vs dataset size")
