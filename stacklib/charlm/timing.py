"""What depth costs in time: a training step, and the latency of one character, side by side.

Each is timed for every model in turns within one process (``stacklib.timing``): a busy machine
slows every model of a round alike, so the ratios between them are the result; the absolute
milliseconds hold only for the machine and moment they were measured on.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from stacklib.lm.model import LM, LMConfig, detach
from stacklib.timing import time_in_turns


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

        def step(model, opt, ids):
            return lambda: _train_step(model, opt, ids)

        def text(model, opt, ids):
            return lambda: _generate(model, ids[:1, :1], cfg.latency_chars)

        steps = time_in_turns({n: step(*b) for n, b in built.items()}, cfg.rounds, cfg.reps)
        texts = time_in_turns({n: text(*b) for n, b in built.items()}, cfg.rounds, cfg.reps)
        return {name: {"train_step_ms": steps[name],
                       "char_latency_ms": texts[name] / cfg.latency_chars} for name in built}
    finally:
        torch.set_num_threads(old)
