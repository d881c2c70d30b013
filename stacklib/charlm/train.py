"""Training a character model: truncated BPTT with carried state, Adam, clipping, early stopping.

The training text is cut into ``batch_size`` contiguous streams; step k reads the next
``seq_len`` characters of every stream, starting from the state the previous step ended in (its
values, not its gradients: the truncation of BPTT). Every ``eval_every`` steps the model is
scored on the validation plays. A score without a new best halves the learning rate (a small
model's loss keeps falling once its steps are smaller); ``patience`` such scores in a row end
the training (so does ``max_steps``), and the best weights are kept. Scores are bits per
character (bpc): the mean negative log2-probability the model gives the character that comes
next.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

from stacklib.charlm.model import CharLM, ModelConfig, detach

LN2 = math.log(2.0)


@dataclass(frozen=True)
class TrainConfig:
    model: ModelConfig
    lr: float = 2e-3
    batch_size: int = 32
    seq_len: int = 100
    clip: float | None = 1.0        # max global gradient norm; None: no clipping
    max_steps: int = 20_000
    eval_every: int = 250
    patience: int = 3               # validation scores in a row without a new best: stop
    lr_decay: float = 0.5           # the learning rate's factor after a score without a best
    train_chars: int | None = None  # use only this many training characters (None: all)
    grad_every: int = 0             # > 0: record per-layer gradient norms every so many steps
    seed: int = 0
    threads: int = 1

    def __post_init__(self):
        for name in ("batch_size", "seq_len", "max_steps", "eval_every", "patience", "threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected an integer >= 1, got {value!r}")
        if not (isinstance(self.lr, float | int) and self.lr > 0):
            raise ValueError(f"lr: expected a number > 0, got {self.lr!r}")
        if not 0 < self.lr_decay <= 1:
            raise ValueError(f"lr_decay: expected a number in (0, 1], got {self.lr_decay!r}")
        if self.clip is not None and not self.clip > 0:
            raise ValueError(f"clip: expected a number > 0 or None, got {self.clip!r}")


@dataclass
class History:
    """What a training run recorded along the way (steps are optimizer steps)."""

    steps: list[int] = field(default_factory=list)         # where validation was scored
    train_bpc: list[float] = field(default_factory=list)   # mean over the steps since then
    val_bpc: list[float] = field(default_factory=list)
    lr: list[float] = field(default_factory=list)          # the learning rate until then
    grad_steps: list[int] = field(default_factory=list)
    # per recorded step, before clipping: the norm of the whole gradient, and per layer the
    # norm of the gradient of its weights and of the loss with respect to its output u^[l]
    grad_norm: list[float] = field(default_factory=list)
    weight_grad: list[list[float]] = field(default_factory=list)
    output_grad: list[list[float]] = field(default_factory=list)
    best_step: int = 0
    stopped: str = ""                                      # "patience" | "max_steps" | "diverged"
    seconds: float = 0.0


def streams(ids: np.ndarray, batch_size: int) -> torch.Tensor:
    """The text as ``batch_size`` contiguous rows (B, N // B): row b continues where it left."""
    n = len(ids) // batch_size
    if n < 2:
        raise ValueError(f"ids: {len(ids)} characters cannot fill {batch_size} streams")
    return torch.from_numpy(np.ascontiguousarray(ids[: n * batch_size].reshape(batch_size, n)))


@torch.no_grad()
def bits_per_char(model: CharLM, ids: np.ndarray, batch_size: int = 16,
                  seq_len: int = 250) -> float:
    """Mean bits per character the model needs to encode ``ids``, read as ``batch_size``
    streams with the state carried from chunk to chunk."""
    model.eval()
    data = streams(ids, batch_size)
    total, count, state = 0.0, 0, None
    for lo in range(0, data.shape[1] - 1, seq_len):
        chunk = data[:, lo : lo + seq_len + 1]
        logits, state = model(chunk[:, :-1], state)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           chunk[:, 1:].reshape(-1), reduction="sum")
        total, count = total + float(loss), count + chunk[:, 1:].numel()
    return total / count / LN2


def _layer_grad_norms(model: CharLM) -> list[float]:
    return [float(torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1)
                                                      for p in layer.parameters()])))
            for layer in model.layers]


def train(cfg: TrainConfig, train_ids: np.ndarray, val_ids: np.ndarray,
          log=None) -> tuple[CharLM, History]:
    """Train a fresh model (seeded by ``cfg.seed``); returns the best one and its history."""
    old_threads = torch.get_num_threads()
    torch.set_num_threads(cfg.threads)
    try:
        return _train(cfg, train_ids, val_ids, log)
    finally:
        torch.set_num_threads(old_threads)


def _train(cfg: TrainConfig, train_ids, val_ids, log) -> tuple[CharLM, History]:
    start = time.perf_counter()
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    if cfg.train_chars is not None:
        train_ids = train_ids[: cfg.train_chars]
    model = CharLM(cfg.model)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    hist = History()
    best, best_state, since_best = math.inf, None, 0
    epoch_data, pos, state = None, 0, None
    running, running_n = 0.0, 0
    for step in range(1, cfg.max_steps + 1):
        if epoch_data is None or pos + cfg.seq_len + 1 > epoch_data.shape[1]:
            # a new epoch: streams start at a random offset, so chunk borders move
            offset = int(rng.integers(cfg.seq_len))
            epoch_data, pos, state = streams(train_ids[offset:], cfg.batch_size), 0, None
        chunk = epoch_data[:, pos : pos + cfg.seq_len + 1]
        pos += cfg.seq_len
        model.train()
        record = cfg.grad_every and step % cfg.grad_every == 0
        _, outputs, state = model.run(chunk[:, :-1], state)
        if record:
            for u in outputs:
                u.retain_grad()
        logits = model.readout(outputs[-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           chunk[:, 1:].reshape(-1))
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
        if step % cfg.eval_every == 0 or step == cfg.max_steps:
            val = bits_per_char(model, val_ids)
            hist.steps.append(step)
            hist.train_bpc.append(running / running_n)
            hist.val_bpc.append(val)
            hist.lr.append(opt.param_groups[0]["lr"])
            running, running_n = 0.0, 0
            if log:
                log(f"step {step:6d}  train {hist.train_bpc[-1]:.3f}  val {val:.3f}")
            if val < best:
                best, best_state, since_best = val, copy.deepcopy(model.state_dict()), 0
                hist.best_step = step
            else:
                since_best += 1
                if since_best >= cfg.patience:
                    hist.stopped = "patience"
                    break
                for group in opt.param_groups:
                    group["lr"] *= cfg.lr_decay
    else:
        hist.stopped = "max_steps"
    if best_state is not None:  # None only if training diverged before its first score
        model.load_state_dict(best_state)
    model.eval()
    hist.seconds = time.perf_counter() - start
    return model, hist
