"""What depth costs in time: a training step, and the latency of one character, side by side.

Models are timed in turns within one process: every round times each model ``reps`` times, in
an order that rotates from round to round, and the median over rounds is kept. A busy machine
slows every model of a round alike, so the ratios between them are the result; the absolute
milliseconds hold only for the machine and moment they were measured on.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import torch

from stacklib.lm.model import LM, LMConfig, detach


@dataclass(frozen=True)
class TimingConfig:
    batch_size: int = 32      # a training step: batch_size streams of seq_len characters
    seq_len: int = 100
    latency_chars: int = 50   # characters generated one at a time (batch 1) per timing
    rounds: int = 7
    reps: int = 3
    threads: int = 1
    seed: int = 0


def _train_step(model, opt, ids):
    logits, _ = model(ids[:, :-1])
    loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                             ids[:, 1:].reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()


@torch.no_grad()
def _generate(model, first, n):
    """n characters, one at a time, each fed back in: what sampling a text costs."""
    ids, state = first, None
    for _ in range(n):
        logits, state = model(ids, state)
        ids = logits[:, -1:].argmax(-1)
        state = detach(state)


def time_models(models: dict[str, LMConfig], cfg: TimingConfig = TimingConfig()) -> dict:
    """{name: {"train_step_ms": median ms per training step, "char_latency_ms": median ms per
    generated character}} for every model, measured in turns."""
    old = torch.get_num_threads()
    torch.set_num_threads(cfg.threads)
    try:
        torch.manual_seed(cfg.seed)
        built = {}
        for name, m in models.items():
            model = LM(m)
            ids = torch.randint(0, m.vocab_size, (cfg.batch_size, cfg.seq_len + 1))
            built[name] = (model, torch.optim.Adam(model.parameters(), lr=1e-3), ids)

        def measure(task: str, name: str) -> float:
            """Milliseconds per step (training) or per character (latency), once."""
            model, opt, ids = built[name]
            start = time.perf_counter()
            for _ in range(cfg.reps):
                if task == "train_step_ms":
                    _train_step(model, opt, ids)
                else:
                    _generate(model, ids[:1, :1], cfg.latency_chars)
            per = cfg.reps * (1 if task == "train_step_ms" else cfg.latency_chars)
            return (time.perf_counter() - start) / per * 1e3

        tasks, names = ("train_step_ms", "char_latency_ms"), list(built)
        for task in tasks:  # a warm-up of every model first
            for name in names:
                measure(task, name)
        samples = {name: {task: [] for task in tasks} for name in names}
        for r in range(cfg.rounds):
            order = names[r % len(names):] + names[: r % len(names)]  # rotates every round
            for task in tasks:
                for name in order:
                    samples[name][task].append(measure(task, name))
        return {name: {task: statistics.median(v) for task, v in s.items()}
                for name, s in samples.items()}
    finally:
        torch.set_num_threads(old)
