"""A learnable toy text for the language-model tests: a repeating pattern of VOCAB token ids,
one in ten replaced at random."""

from __future__ import annotations

import numpy as np

VOCAB = 11


def toy_text(n: int = 3000, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ids = np.tile(np.arange(VOCAB), n // VOCAB + 1)[:n]
    noise = rng.random(n) < 0.1
    ids[noise] = rng.integers(0, VOCAB, noise.sum())
    return ids.astype(np.int64)
