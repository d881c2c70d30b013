"""What a trained character model's layers do: timescales, step sizes, samples.

Timescales. Change one character of real text and read the two runs side by side: in each
layer, the distance between the states of the original and the changed run says how strongly
that layer still carries the change k characters later. Averaged over many positions of the
held-out plays and divided by the layer's typical state size (its RMS norm), this is the
layer's decay curve; its half-life is the number of characters after the curve's peak until it
first falls to half the peak. A layer that integrates slowly keeps a change longer. Both of an
LSTM layer's states are read: h, what it hands upward, and c, its memory cell, at every step
(``stacklib.lm.states``: torch.nn's layers hand back only the last c).

Step sizes. The mean |h_t - h_{t-1}| per unit, divided by the mean |h_t|: how much of its
state a layer rewrites per character.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from stacklib.corpus import Corpus
from stacklib.lm.model import LM
from stacklib.lm.states import layer_states

ROWS = 32  # windows the reference runs at once: it keeps a record of every step


@dataclass(frozen=True)
class TimescaleConfig:
    positions: int = 256     # changed characters, evenly spaced through the text
    context: int = 200       # characters read before the change (a realistic state)
    horizon: int = 120       # characters read after it
    seed: int = 0            # which other character replaces each one


@torch.no_grad()
def _hidden(model: LM, ids: np.ndarray) -> list[np.ndarray]:
    """Every layer's hidden states h^[l] (B, T, H) for ``ids`` (B, T)."""
    hidden, _, _ = model.run(torch.from_numpy(ids))
    return [h.numpy() for h in hidden]


def _decay(a: np.ndarray, b: np.ndarray, context: int) -> tuple[list[float], int, int | None]:
    """The relative distance between two runs' states after the change, its peak, and the
    characters from the peak until it first halves (None: not within the window)."""
    scale = np.sqrt(np.mean(a[:, context:] ** 2) * a.shape[-1])        # RMS norm of a state
    curve = np.linalg.norm(a - b, axis=-1)[:, context:].mean(axis=0) / scale
    peak = int(np.argmax(curve))
    below = np.nonzero(curve[peak:] <= curve[peak] / 2)[0]
    return curve.tolist(), peak, int(below[0]) if below.size else None


@torch.no_grad()
def timescales(model: LM, ids: np.ndarray, cfg: TimescaleConfig = TimescaleConfig()) -> dict:
    """Per state ("h", and "c" for a cell with one) and layer: the decay curve of a
    one-character change.

    Returns {state: {"curve": [L][horizon] (relative distance k = 0 .. horizon-1 characters
    after the change), "peak": [L] (characters from the change to the curve's maximum),
    "half_life": [L] (characters from the peak until the curve halves; None if it does not
    within the horizon)}}.
    """
    model.eval()
    span = cfg.context + cfg.horizon
    if len(ids) < span + cfg.positions:
        raise ValueError(f"ids: {len(ids)} characters are too few for {cfg.positions} "
                         f"windows of {span}")
    V = model.cfg.vocab_size
    starts = np.linspace(0, len(ids) - span, cfg.positions).astype(np.int64)
    windows = np.stack([ids[s : s + span] for s in starts])             # (N, span)
    changed = windows.copy()
    rng = np.random.default_rng(cfg.seed)
    shift = rng.integers(1, V, cfg.positions)                           # never 0: a change
    changed[:, cfg.context] = (changed[:, cfg.context] + shift) % V
    original = layer_states(model, windows, ROWS)
    other = layer_states(model, changed, ROWS)
    out = {}
    for state, a_layers, b_layers in zip(("h", "c"), original, other, strict=True):
        if a_layers is None:  # no memory cell
            continue
        decays = [_decay(a, b, cfg.context) for a, b in zip(a_layers, b_layers, strict=True)]
        out[state] = {"curve": [d[0] for d in decays], "peak": [d[1] for d in decays],
                      "half_life": [d[2] for d in decays]}
    return out


@torch.no_grad()
def step_sizes(model: LM, ids: np.ndarray, batch_size: int = 16) -> list[float]:
    """Per layer: mean |h_t - h_{t-1}| / mean |h_t| over ``ids`` read as ``batch_size`` streams."""
    model.eval()
    n = len(ids) // batch_size
    hidden = _hidden(model, ids[: n * batch_size].reshape(batch_size, n))
    return [float(np.abs(np.diff(h, axis=1)).mean() / np.abs(h).mean()) for h in hidden]


@torch.no_grad()
def sample(model: LM, prompt_ids: np.ndarray, length: int, temperature: float,
           seed: int) -> np.ndarray:
    """``length`` character ids drawn after ``prompt_ids``, each from softmax(logits / T)."""
    if not temperature > 0:
        raise ValueError(f"temperature: expected a number > 0, got {temperature!r}")
    model.eval()
    gen = torch.Generator().manual_seed(seed)
    logits, state = model(torch.from_numpy(np.asarray(prompt_ids, np.int64))[None], None)
    out = []
    for _ in range(length):
        probs = torch.softmax(logits[0, -1] / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1, generator=gen)
        out.append(int(nxt))
        logits, state = model(nxt[None], state)
    return np.array(out, np.int64)


@dataclass(frozen=True)
class DescribeConfig:
    timescales: TimescaleConfig = TimescaleConfig()
    step_chars: int = 64_000          # test characters read for the step sizes
    prompt: str = "ROMEO:\n"
    sample_length: int = 400
    temperature: float = 0.7
    sample_seed: int = 0


def describe(model: LM, corpus: Corpus, test_ids: np.ndarray,
             cfg: DescribeConfig = DescribeConfig()) -> dict:
    """What the study reports of a trained model's layers: timescales on the test plays,
    step sizes, and a sample continuing ``cfg.prompt``."""
    drawn = sample(model, corpus.encode(cfg.prompt), cfg.sample_length, cfg.temperature,
                   cfg.sample_seed)
    return {"timescales": timescales(model, test_ids, cfg.timescales),
            "step_sizes": step_sizes(model, test_ids[: cfg.step_chars]),
            "sample": {"prompt": cfg.prompt, "temperature": cfg.temperature,
                       "text": corpus.decode(drawn)}}
