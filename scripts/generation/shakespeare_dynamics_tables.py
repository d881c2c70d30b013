"""The Shakespeare study's tables on how its stacks train, written by shakespeare_tables.run:

generated/partials/shakespeare_timescales.md  per-layer half-lives and step sizes
generated/partials/shakespeare_timescale_seeds.md  in how many seeds each ordering by height
                                              holds
generated/partials/shakespeare_bottom.md      how much of the weight gradient reaches layer 1
                                              while the width-128 stacks train
generated/partials/shakespeare_deep.md        eight-layer stacks: gradient per layer, clipping
generated/partials/shakespeare_lr.md          one and eight layers at three learning rates
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from scripts.generation.markdown import NBSP, fmt_int, fmt_sci, header_comment, md_table
from scripts.generation.shakespeare_records import bpc, shape
from scripts.study.plan import SEEDS
from scripts.study.summary import TAIL, share_left

SETTLED = 500  # from this step on, the gradient table reads a stack as settled into training


def timescales_md(s: dict, after: int = TAIL) -> str:
    rows = []
    for c in sorted(s["depth"].values(), key=lambda c: (c["residual"], c["layers"])):
        if c["layers"] < 2:
            continue
        ts = c["timescales"]
        for layer in range(c["layers"]):
            rows.append([shape(c) if layer == 0 else "", layer + 1,
                         *(f"{ts[state]['half_life'][layer]['mean']:.1f}"
                           + ("*" if ts[state]["never_halved"][layer] else "") for state in "hc"),
                         *(fmt_sci(share_left(ts[state]["curve"][layer], after)) for state in "hc"),
                         f"{ts['step_size'][layer]['mean']:.2f}"])
    return (header_comment(__name__)
            + md_table(["Stack", "Layer", "Half-life of h", "Half-life of c",
                        f"h: share left after {after}", f"c: share left after {after}",
                        "Step size, mean \\|Δh\\| / mean \\|h\\|"], rows)
            + "\nHalf-lives in characters, from the peak of the layer's decay curve to half of "
              f"it, mean over {len(SEEDS)} seeds (* some seed's curve did not halve within the "
              f"window and counts as its length). *Share left after {after}*: the mean curve "
              f"{after} characters after the change, as a fraction of its peak.\n")


def rises(values) -> bool:
    return all(a < b for a, b in pairwise(values))


def seed_orderings(c: dict) -> dict[str, int]:
    """In how many seeds each ordering by height holds in one stack's timescales."""
    ts = c["timescales"]

    def per_seed(key: str, state: str | None = None) -> list[list[float]]:
        rows = ts[state][key] if state else ts[key]
        return list(zip(*(row["values"] for row in rows), strict=True))  # [seed][layer]

    return {"h_left": sum(map(rises, per_seed("left", "h"))),
            "c_left": sum(map(rises, per_seed("left", "c"))),
            "c_half_life": sum(map(rises, per_seed("half_life", "c"))),
            "top_moves_least": sum(v[-1] < min(v[:-1]) for v in per_seed("step_size"))}


def timescale_seeds_md(s: dict, after: int = TAIL) -> str:
    rows = []
    for c in sorted(s["depth"].values(), key=lambda c: (c["residual"], c["layers"])):
        if c["layers"] < 2:
            continue
        n, seeds = seed_orderings(c), len(c["seeds"])
        rows.append([shape(c), *(f"{n[k]} of {seeds}" for k in ("c_half_life", "h_left",
                                                                  "c_left", "top_moves_least"))])
    return (header_comment(__name__)
            + md_table(["Stack", "Half-life of c rises layer by layer",
                        f"h: share left after {after} rises layer by layer",
                        f"c: share left after {after} rises layer by layer",
                        "Top layer's step size the smallest"], rows)
            + "\nEach trained model (seed) on its own: in how many of them the ordering holds "
              "from layer 1 to the top, every layer above the one below.\n")


def bottom_ratios(c: dict) -> tuple[list[float], list[float]]:
    """Layer 1's weight gradient over the top layer's: each seed's at the first recorded step,
    and every seed's at every recorded step from ``SETTLED`` on."""
    r = c["bottom_over_top"]
    first = [seed[0] for seed in r["values"]]
    late = [v for seed in r["values"] for step, v in zip(r["step"], seed, strict=True)
            if step >= SETTLED and v is not None]
    return first, late


def bottom_md(s: dict) -> str:
    rows = []
    for c in sorted(s["depth"].values(), key=lambda c: (c["residual"], c["layers"])):
        if c["layers"] < 2:
            continue
        first, late = bottom_ratios(c)
        low, mid, high = np.percentile(late, [5, 50, 95])
        rows.append([shape(c), f"{min(first):.2g} to {max(first):.2g}", f"{mid:.2g}",
                     f"{low:.2g} to {high:.2g}", bpc(c["train_bpc"])])
    steps = next(c["bottom_over_top"]["step"] for c in s["depth"].values() if c["layers"] > 1)
    return (header_comment(__name__)
            + md_table(["Layers × width", f"Layer 1 ÷ top layer at step {steps[0]} (seeds)",
                        f"from step {fmt_int(SETTLED)} on: median",
                        "5th to 95th percentile", "Training bpc"], rows)
            + "\nThe norm of layer 1's weight gradient over the top layer's, recorded every "
              f"{steps[1] - steps[0]} steps while each stack trained; from step "
              f"{fmt_int(SETTLED)} on, every recorded step of every seed counts. Above 1, "
              "layer 1 gets more than the top layer.\n")


def deep_md(s: dict, base) -> str:
    t = base.train
    rows = []
    for name, c in sorted(s["deep"].items(), key=lambda kv: (kv[1]["residual"],
                                                              kv[0].endswith("-noclip"))):
        g = c["gradients"]
        clip = "none" if name.endswith("-noclip") else f"at {t.clip:g}"
        rows.append([shape(c), clip, bpc(c["val_bpc"]),
                     fmt_sci(g["bottom_over_top"]["mean"]),
                     f"{100 * g['over_clip']['mean']:.0f}{NBSP}%",
                     f"{g['max_grad_norm']['mean']:.3g}", g["diverged"]])
    return (header_comment(__name__)
            + md_table(["Stack", "Clipping", "Best validation bpc", "Gradient, layer 1 / layer 8",
                        f"Recorded steps with gradient norm > {t.clip:g}",
                        "Largest gradient norm (mean of the seeds' largest)",
                        f"Diverged (of {len(SEEDS)})"], rows)
            + f"\n{fmt_int(s['lr']['steps'])} steps; the gradient was recorded every "
              f"{base_grad_every(s)} steps. The gradient ratio is the geometric mean over those "
              "steps of the norm of layer 1's weight gradient over layer 8's.\n")


def base_grad_every(s: dict) -> int:
    steps = next(iter(s["deep"].values()))["gradients"]["steps"]
    return steps[1] - steps[0]


def lr_md(s: dict, base) -> str:
    t = base.train
    rates = s["lr"]["val_bpc"]
    lrs = sorted({float(lr) for by in rates.values() for lr in by})
    rows = [[f"{L}{NBSP}×{NBSP}128", *(bpc(by[_key(by, lr)]) for lr in lrs)]
            for L, by in rates.items()]
    return (header_comment(__name__)
            + md_table(["Stack", *(f"learning rate {lr:g}" + (" (the study's)" if lr == t.lr
                                                                else "") for lr in lrs)], rows)
            + f"\nBest validation bpc within the first {fmt_int(s['lr']['steps'])} steps.\n")


def _key(by: dict, lr: float):
    return next(k for k in by if float(k) == lr)
