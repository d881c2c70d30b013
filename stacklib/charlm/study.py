"""The Shakespeare study: which character models are trained, and why each one.

Every configuration is trained with seeds 0, 1, 2 (pages report mean and spread). Groups:

depth    L = 1..4 layers of width 128, plain and residual: does depth help at fixed width?
budget   L = 1..4 layers at one parameter budget (the 3 x 128 stack's, within 2 %): at equal
         parameters, is it better spent on depth or on width?
data     L = 1 and 3 plain layers of width 128 on the first n training characters (and, in
         the depth group, on all of them: 126x the smallest n), each trained until validation
         stops improving: does depth need more data?
deep     L = 8 layers of width 128, plain or residual, with or without gradient clipping,
         for a short run: what gradient reaches each layer's weights while it trains?
lr       L = 1 and 8 plain layers at a lower learning rate than the study's, for as long
         (the study's own rate: the depth and deep runs' first steps): do deeper stacks need
         a lower learning rate?

The depth and budget runs stop when validation stops improving or at 6,000 steps (about five
passes over the training plays); their learning curves show whether the ranking still moves.
The plan is sized to fit 3 hours of 2 cores (README gives what its runs recorded).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from stacklib.charlm.analysis import DescribeConfig, TimescaleConfig
from stacklib.charlm.jobs import Texts
from stacklib.charlm.model import ModelConfig
from stacklib.charlm.train import TrainConfig
from stacklib.params import count_params

SEEDS = (0, 1, 2)
BASE = dict(embed_size=64, hidden_size=128)
REFERENCE_LAYERS = 3                  # the budget group matches the 3 x 128 stack
BUDGET_TOLERANCE = 0.02
DATA_SIZES = (31_250, 125_000, 500_000)  # training characters; the full set is the depth group's
DATA_DEPTHS = (1, 3)
LEARNING_RATES = (2e-3,)             # below the study's 5e-3
LR_DEPTHS = (1, 8)
SHORT_STEPS = 1500                    # the deep and lr groups: how training starts


def base_config(vocab_size: int) -> TrainConfig:
    return TrainConfig(model=ModelConfig(vocab_size, num_layers=1, **BASE), lr=5e-3,
                       batch_size=32, seq_len=100, clip=1.0, max_steps=6000, eval_every=250,
                       patience=3, grad_every=100)


def total_params(model: ModelConfig) -> int:
    """Every trainable weight: embedding, LSTM stack (``count_params``), readout."""
    V, E, H = model.vocab_size, model.embed_size, model.hidden_size
    return V * E + count_params("lstm", E, H, model.num_layers) + H * V + V


def matched_width(reference: ModelConfig, layers: int, tolerance=BUDGET_TOLERANCE) -> int:
    """The width at which ``layers`` layers come closest to ``reference`` in both the stack's
    parameters (``count_params``) and the whole model's; within ``tolerance`` of both."""
    def gaps(width):
        model = dataclasses.replace(reference, num_layers=layers, hidden_size=width)
        stack = count_params("lstm", model.embed_size, width, layers)
        ref_stack = count_params("lstm", reference.embed_size, reference.hidden_size,
                                 reference.num_layers)
        return max(abs(stack / ref_stack - 1),
                   abs(total_params(model) / total_params(reference) - 1))

    width = min(range(1, 8 * reference.hidden_size), key=gaps)
    if gaps(width) > tolerance:
        raise ValueError(f"layers: no width of {layers} layers is within {tolerance:.0%} "
                         f"of the reference's parameters")
    return width


@dataclass(frozen=True)
class Run:
    name: str
    group: str
    train: TrainConfig
    analyse: bool = False   # timescales, step sizes and a sample of the trained model


def _with(cfg: TrainConfig, *, layers=None, hidden=None, residual=None, **train) -> TrainConfig:
    changes = {"num_layers": layers, "hidden_size": hidden, "residual": residual}
    model = dataclasses.replace(cfg.model, **{k: v for k, v in changes.items() if v is not None})
    return dataclasses.replace(cfg, model=model, **train)


def plan(vocab_size: int, base: TrainConfig | None = None, seeds=SEEDS,
         data_sizes=DATA_SIZES, short_steps=SHORT_STEPS, short_grad_every=25,
         tolerance=BUDGET_TOLERANCE) -> list[Run]:
    """Every run of the study, named ``<config>-s<seed>``. A configuration that two groups
    share (3 x 128, plain: depth and budget) is trained once, listed under the first."""
    base = base or base_config(vocab_size)
    H = base.model.hidden_size
    runs: dict[str, Run] = {}

    def add(name, group, cfg, analyse=False):
        for seed in seeds:
            key = f"{name}-s{seed}"
            runs.setdefault(key, Run(key, group, dataclasses.replace(cfg, seed=seed), analyse))

    for L in (1, 2, 3, 4):
        add(f"L{L}-h{H}", "depth", _with(base, layers=L), analyse=True)
        if L > 1:
            add(f"L{L}-h{H}-res", "depth", _with(base, layers=L, residual=True), analyse=True)
    reference = _with(base, layers=REFERENCE_LAYERS).model
    for L in (1, 2, 3, 4):
        width = matched_width(reference, L, tolerance)
        add(f"L{L}-h{width}", "budget", _with(base, layers=L, hidden=width))
    for L in DATA_DEPTHS:
        for n in data_sizes:
            # small sets overfit within a few passes: score about once a pass (>= 25 steps)
            epoch = n // (base.batch_size * base.seq_len)
            every = min(base.eval_every, max(epoch, 25))
            add(f"L{L}-h{H}-n{n}", "data",
                _with(base, layers=L, train_chars=n, eval_every=every))
    short = dict(max_steps=short_steps, grad_every=short_grad_every)
    for residual in (False, True):
        for clip in (base.clip, None):
            name = f"L8-h{H}" + ("-res" if residual else "") + ("" if clip else "-noclip")
            add(name, "deep", _with(base, layers=8, residual=residual, clip=clip, **short))
    for L in LR_DEPTHS:
        for lr in LEARNING_RATES:
            add(f"L{L}-h{H}-lr{lr:g}-short", "lr", _with(base, layers=L, lr=lr, **short))
    return list(runs.values())


def layout(base: TrainConfig, short_steps=SHORT_STEPS) -> dict:
    """What the summary needs besides the runs' records: the budget group's reference, the
    clipping threshold, the short runs' length, and the configuration trained at each (layers,
    learning rate) of the lr group. Its middle rate is the study's own: those are the first
    steps of the depth run (1 layer) and of the deep run (8 layers, plain, clipped)."""
    H = base.model.hidden_size
    rates = {L: {**{lr: f"L{L}-h{H}-lr{lr:g}-short" for lr in LEARNING_RATES},
                 base.lr: f"L{L}-h{H}"} for L in LR_DEPTHS}
    return {"reference": f"L{REFERENCE_LAYERS}-h{H}", "clip": base.clip,
            "short_steps": short_steps,
            "rates": {L: dict(sorted(r.items())) for L, r in rates.items()}}


def timed_models(vocab_size: int, quick: bool = False) -> dict[str, ModelConfig]:
    """The plain models of the depth and budget groups, by name ("L3-h128"), to be timed."""
    runs = quick_plan(vocab_size) if quick else plan(vocab_size)
    return {run.name.rsplit("-s", 1)[0]: run.train.model for run in runs
            if run.group in ("depth", "budget") and not run.train.model.residual}


def headline(runs: list[Run]) -> list[Run]:
    """The subset behind the headline, every seed: the plain reference stack (3 x 128) against
    one layer of equal parameters (README gives what its runs cost)."""
    def plain_layers(run):
        return run.train.model.num_layers if not run.train.model.residual else None

    return [r for r in runs if (r.group == "depth" and plain_layers(r) == REFERENCE_LAYERS)
            or (r.group == "budget" and plain_layers(r) == 1)]


# ------------------------------------------------------------- the quick mode (tests)
QUICK_SHORT_STEPS = 8


def quick_base(vocab_size: int) -> TrainConfig:
    return TrainConfig(model=ModelConfig(vocab_size, embed_size=8, hidden_size=12), lr=5e-3,
                       batch_size=4, seq_len=16, max_steps=12, eval_every=4, patience=2,
                       grad_every=4)


def quick_plan(vocab_size: int) -> list[Run]:
    """The study's every code path with tiny models, a few steps and two seeds (at this size
    the readout's weights dominate, so equal budgets are only matched within 50 %)."""
    return plan(vocab_size, quick_base(vocab_size), seeds=(0, 1), data_sizes=(500, 2_000),
                short_steps=QUICK_SHORT_STEPS, short_grad_every=2, tolerance=0.5)


def quick_texts(texts: Texts) -> Texts:
    """A slice of each split, long enough for every quick run and analysis."""
    return Texts(texts.train[:8_000], texts.validation[:2_000], texts.test[:3_000])


def describe_config(quick: bool = False) -> DescribeConfig:
    if not quick:
        return DescribeConfig()
    return DescribeConfig(TimescaleConfig(positions=8, context=20, horizon=12),
                          step_chars=1_000, sample_length=30)
