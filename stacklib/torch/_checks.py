"""Input checks of stacklib.torch.StackedRNN: the NumPy stack's rules (``stacklib._validate``),
on tensors. A ``TypeError`` for a wrong type or dtype, a ``ValueError`` for a bad shape or value,
each message starting with the argument's name."""

from __future__ import annotations

import torch
from torch import Tensor

from stacklib._validate import check_shape, sequence_layout, state_pair, state_shape
from stacklib.config import StackConfig


def _tensor(name: str, t: object, dtype: torch.dtype) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(t).__name__}")
    if t.dtype != dtype:
        raise TypeError(f"{name}: expected dtype {dtype} (the module's), got {t.dtype}")
    if not bool(torch.isfinite(t).all()):
        raise ValueError(f"{name}: expected finite values, got NaN or inf")
    return t


def check_input(x: object, cfg: StackConfig, dtype: torch.dtype) -> tuple[Tensor, bool]:
    """x as (T, B, input_size), and whether it was batched."""
    x = _tensor("x", x, dtype)
    batched = sequence_layout("x", tuple(x.shape), cfg.input_size, cfg.batch_first)
    if not batched:
        return x.unsqueeze(1), False
    return (x.transpose(0, 1) if cfg.batch_first else x), True


def check_hx(hx: object, cfg: StackConfig, batch: int, batched: bool,
             dtype: torch.dtype) -> list[Tensor]:
    """hx as its states [h0] or [h0, c0], each (L, B, H)."""
    want = state_shape(cfg.num_layers, batch, cfg.hidden_size, batched)
    out = []
    states = state_pair(cfg.cell, cfg.cell_state, hx)  # [h0], or [h0, c0] with a memory c
    for name, t in zip(("h0", "c0")[: len(states)], states, strict=True):
        t = _tensor(name, t, dtype)
        check_shape(name, tuple(t.shape), want, "(num_layers, B, hidden_size)" if batched
                    else "(num_layers, hidden_size) for an unbatched x")
        out.append(t if batched else t.unsqueeze(1))
    return out
