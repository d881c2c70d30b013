"""A token stream as truncated backpropagation through time reads it, and what a model scores on it.

The text is laid out as ``batch_size`` contiguous streams, one per row; row b continues where row
b - 1 ends. A chunk is the next ``seq_len`` columns of every row, and its targets are the same
columns shifted by one. Consecutive chunks join exactly: each chunk's first input is the previous
chunk's last target, so a state carried from chunk to chunk has read the stream once, in order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import torch
from torch import Tensor, nn

from stacklib.lm.model import LM

LN2 = math.log(2.0)
Batch = tuple[Tensor, Tensor, bool]  # inputs (B, T), targets (B, T), carry the state into it


def streams(ids: np.ndarray, batch_size: int) -> Tensor:
    """The text as ``batch_size`` contiguous rows (B, N // B): row b continues where b - 1 ended."""
    n = len(ids) // batch_size
    if n < 2:
        raise ValueError(f"ids: {len(ids)} tokens cannot fill {batch_size} streams")
    return torch.from_numpy(np.ascontiguousarray(ids[: n * batch_size].reshape(batch_size, n)))


def chunks(rows: Tensor, seq_len: int, whole: bool = False) -> Iterator[tuple[Tensor, Tensor]]:
    """(inputs, targets) of consecutive chunks of ``rows``, ``seq_len`` columns each; the last
    one shorter if the columns run out, or left out with ``whole``."""
    stop = rows.shape[1] - seq_len if whole else rows.shape[1] - 1
    for lo in range(0, stop, seq_len):
        chunk = rows[:, lo : lo + seq_len + 1]
        yield chunk[:, :-1], chunk[:, 1:]


def training_batches(ids: np.ndarray, batch_size: int, seq_len: int, seed: int) -> Iterator[Batch]:
    """Whole chunks of the stream, epoch after epoch, for ever. Within an epoch each chunk
    carries the state of the one before; an epoch starts from a fresh state at a random offset
    (drawn from ``seed``), so chunk borders move from epoch to epoch."""
    if (len(ids) - seq_len + 1) // batch_size < seq_len + 1:  # the latest offset is seq_len - 1
        raise ValueError(f"ids: {len(ids)} tokens cannot fill {batch_size} streams with a chunk "
                         f"of seq_len={seq_len} and its targets")
    return _epochs(ids, batch_size, seq_len, np.random.default_rng(seed))


def _epochs(ids, batch_size, seq_len, rng) -> Iterator[Batch]:
    while True:
        offset = int(rng.integers(seq_len))
        rows = streams(ids[offset:], batch_size)
        for k, (inputs, targets) in enumerate(chunks(rows, seq_len, whole=True)):
            yield inputs, targets, k > 0


@torch.no_grad()
def bits_per_token(model: LM, ids: np.ndarray, batch_size: int = 16, seq_len: int = 250) -> float:
    """Mean bits the model needs per token of ``ids`` (bits per character, bpc, on text): the
    mean negative log2-probability of each next token, read as ``batch_size`` streams with the
    state carried from chunk to chunk. Every token is scored once, except each row's first
    (nothing precedes it) and the ``len(ids) % batch_size`` left over at the end."""
    model.eval()
    device = model.readout.weight.device
    total, count, state = 0.0, 0, None
    for inputs, targets in chunks(streams(ids, batch_size).to(device), seq_len):
        logits, state = model(inputs, state)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           targets.reshape(-1), reduction="sum")
        total, count = total + float(loss), count + targets.numel()
    return total / count / LN2
