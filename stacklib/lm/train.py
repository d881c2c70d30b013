"""The one training loop: Adam, gradient clipping, held-out scores, early stopping.

Every model the lecture trains comes from ``train``: the toy experiments' agreement models and
the Shakespeare study's character models. The loop reads batches ``(inputs, targets, carry)``
(``stacklib.lm.text``): with ``carry`` a batch continues the previous one and starts from the
state that one ended in, its values but not its gradients (the truncation of BPTT); otherwise
it starts from zeros. Targets of -100 are padding and are not scored.

Every ``eval_every`` steps ``score(model)`` rates the model on held-out data, lower being
better (bits per character, an error rate). A score without a new best multiplies the learning
rate by ``lr_decay`` (a small model's loss keeps falling once its steps are smaller);
``patience`` such scores in a row end the training, and so do two scores in a row at or below
``goal``, or ``max_steps``. The model returned holds the weights of its best score.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import torch
from torch import nn

from stacklib.lm.model import LM, LMConfig, detach
from stacklib.lm.text import LN2, Batch


@dataclass(frozen=True)
class TrainConfig:
    lr: float = 1e-3
    batch_size: int = 32            # rows of a batch
    seq_len: int = 100              # tokens per row of a stream's chunk (stacklib.lm.text)
    clip: float | None = 1.0        # max global gradient norm; None: no clipping
    max_steps: int = 1000
    eval_every: int = 0             # steps between held-out scores; 0: never scored
    patience: int | None = None     # scores in a row without a new best that end training
    lr_decay: float = 1.0           # the learning rate's factor after a score without a best
    goal: float | None = None       # two scores in a row at or below it end training
    grad_every: int = 0             # > 0: record per-layer gradient norms every so many steps
    seed: int = 0                   # the initial weights (and, by the callers, the batches)
    threads: int = 1
    device: str = "cpu"             # where the model trains (torch's name: "cpu", "cuda:0")

    def __post_init__(self):
        for name in ("batch_size", "seq_len", "max_steps", "eval_every", "grad_every", "seed",
                     "threads", "patience"):
            value = getattr(self, name)
            if value is None and name == "patience":
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name}: expected an int, got {value!r}")
            least = 0 if name in ("eval_every", "grad_every", "seed") else 1
            if value < least:
                raise ValueError(f"{name}: expected an integer >= {least}, got {value}")
        for name in ("lr", "clip", "lr_decay", "goal"):
            value = getattr(self, name)
            if value is None and name in ("clip", "goal"):
                continue
            if isinstance(value, bool) or not isinstance(value, float | int):
                raise TypeError(f"{name}: expected a number, got {value!r}")
        if not self.lr > 0:
            raise ValueError(f"lr: expected a number > 0, got {self.lr}")
        if self.clip is not None and not self.clip > 0:
            raise ValueError(f"clip: expected a number > 0 or None, got {self.clip}")
        if not 0 < self.lr_decay <= 1:
            raise ValueError(f"lr_decay: expected a number in (0, 1], got {self.lr_decay}")
        if not isinstance(self.device, str):
            raise TypeError(f"device: expected a str such as 'cpu' or 'cuda', got "
                            f"{type(self.device).__name__}")
        try:
            torch.device(self.device)
        except RuntimeError as error:
            raise ValueError(f"device: {error}") from None


@dataclass
class History:
    """What a training run recorded along the way (steps are optimizer steps)."""

    steps: list[int] = field(default_factory=list)         # where the model was scored
    train_bits: list[float] = field(default_factory=list)  # mean loss since then, bits/token
    scores: list[float] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)          # the learning rate until then
    grad_steps: list[int] = field(default_factory=list)
    # per recorded step, before clipping: the norm of the whole gradient, and per layer the
    # norm of the gradient of its weights and of the loss with respect to its output u^[l]
    grad_norm: list[float] = field(default_factory=list)
    weight_grad: list[list[float]] = field(default_factory=list)
    output_grad: list[list[float]] = field(default_factory=list)
    steps_run: int = 0
    best_step: int = 0                                     # 0: never scored
    stopped: str = ""                  # "patience" | "goal" | "max_steps" | "diverged"
    seconds: float = 0.0


def train(model_cfg: LMConfig, cfg: TrainConfig, batches: Iterable[Batch],
          score: Callable[[LM], float] | None = None) -> tuple[LM, History]:
    """Train a fresh model (its weights drawn from ``cfg.seed``) on ``batches``, scored by
    ``score`` every ``cfg.eval_every`` steps; returns the best model and its history. The
    model lives on ``cfg.device``, and each batch is moved there."""
    if cfg.eval_every and score is None:
        raise ValueError("score: eval_every > 0 needs a function that scores the model")
    old_threads = torch.get_num_threads()
    torch.set_num_threads(cfg.threads)
    try:
        return _train(model_cfg, cfg, iter(batches), score)
    finally:
        torch.set_num_threads(old_threads)


def _layer_grad_norms(model: LM) -> list[float]:
    return [float(torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1)
                                                      for p in layer.parameters()])))
            for layer in model.layers]


def _train(model_cfg, cfg: TrainConfig, batches, score) -> tuple[LM, History]:
    start = time.perf_counter()
    torch.manual_seed(cfg.seed)
    model = LM(model_cfg).to(cfg.device)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    hist = History()
    best, best_state, since_best = math.inf, None, 0
    state = None
    running, running_n = 0.0, 0
    hist.stopped = "max_steps"
    for step in range(1, cfg.max_steps + 1):
        inputs, targets, carry = next(batches)
        inputs, targets = inputs.to(cfg.device), targets.to(cfg.device)
        hist.steps_run = step
        model.train()
        record = cfg.grad_every and step % cfg.grad_every == 0
        _, outputs, state = model.run(inputs, state if carry else None)
        if record:
            for u in outputs:
                u.retain_grad()
        logits = model.readout(outputs[-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           targets.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        state = detach(state)
        if record:
            hist.grad_steps.append(step)
            hist.grad_norm.append(float(torch.linalg.vector_norm(
                torch.cat([p.grad.reshape(-1) for p in model.parameters()]))))
            hist.weight_grad.append(_layer_grad_norms(model))
            hist.output_grad.append([float(torch.linalg.vector_norm(u.grad)) for u in outputs])
        if not math.isfinite(loss.item()):
            hist.stopped = "diverged"
            break
        if cfg.clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
        opt.step()
        running, running_n = running + loss.item() / LN2, running_n + 1
        if not cfg.eval_every or not (step % cfg.eval_every == 0 or step == cfg.max_steps):
            continue
        val = score(model)
        hist.steps.append(step)
        hist.train_bits.append(running / running_n)
        hist.scores.append(val)
        hist.lr.append(opt.param_groups[0]["lr"])
        running, running_n = 0.0, 0
        if val < best:
            best, best_state, since_best = val, copy.deepcopy(model.state_dict()), 0
            hist.best_step = step
        else:
            since_best += 1
            if cfg.patience is not None and since_best >= cfg.patience:
                hist.stopped = "patience"
                break
            for group in opt.param_groups:
                group["lr"] *= cfg.lr_decay
        if cfg.goal is not None and len(hist.scores) >= 2 and max(hist.scores[-2:]) <= cfg.goal:
            hist.stopped = "goal"
            break
    if best_state is not None:  # None if never scored, or diverged before its first score
        model.load_state_dict(best_state)
    model.eval()
    hist.seconds = time.perf_counter() - start
    return model, hist
