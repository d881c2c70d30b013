"""Argument validation for stacklib.torch.StackedRNN.

Every failure is a ValueError whose message starts with the argument's name and states what was
expected and what was received, e.g. "x: expected shape (T, B, 3) with input_size=3, got (5, 2, 4)".
"""

from __future__ import annotations

import torch
from torch import Tensor

from stacklib import _validate as _v


def _shape(t: Tensor) -> tuple[int, ...]:
    return tuple(t.shape)


def check_config(
    input_size: object,
    hidden_size: object,
    num_layers: object,
    cell: object,
    nonlinearity: object,
    dropout: object,
    flags: dict[str, object],
) -> None:
    """Validate constructor arguments (sizes, cell, nonlinearity, dropout, boolean flags)."""
    for name, value in (
        ("input_size", input_size),
        ("hidden_size", hidden_size),
        ("num_layers", num_layers),
    ):
        _v.check_positive_int(name, value)
    _v.check_nonlinearity(_v.check_cell(cell), nonlinearity)
    _v.check_dropout(dropout)
    for name, value in flags.items():
        _v.check_bool(name, value)


def check_input(
    x: object, input_size: int, batch_first: bool, dtype: torch.dtype
) -> tuple[Tensor, bool]:
    """Validate x and return it as (T, B, in) plus whether it was batched."""
    if not isinstance(x, Tensor):
        raise ValueError(f"x: expected a torch.Tensor, got {type(x).__name__}")
    layout = "(B, T, input_size)" if batch_first else "(T, B, input_size)"
    if x.dim() not in (2, 3):
        raise ValueError(
            f"x: expected a 3-D tensor {layout} or an unbatched 2-D tensor (T, input_size), "
            f"got {x.dim()}-D shape {_shape(x)}"
        )
    if x.shape[-1] != input_size:
        if x.dim() == 2:
            want = f"(T, {input_size})"
        else:
            want = f"(B, T, {input_size})" if batch_first else f"(T, B, {input_size})"
        raise ValueError(
            f"x: expected shape {want} with input_size={input_size}, got {_shape(x)}"
        )
    if x.dtype != dtype:
        raise ValueError(
            f"x: expected dtype {dtype} (the module's parameter dtype), got {x.dtype}"
        )
    batched = x.dim() == 3
    if not batched:
        x = x.unsqueeze(1)                                     # (T, 1, in)
    elif batch_first:
        x = x.transpose(0, 1)                                  # (B, T, in) -> (T, B, in)
    if x.shape[0] == 0 or x.shape[1] == 0:
        raise ValueError(
            f"x: expected at least one time step and one sequence, got shape {_shape(x)} "
            f"as (T, B, input_size)"
        )
    if not bool(torch.isfinite(x).all()):
        raise ValueError("x: contains NaN or inf values")
    return x, batched


def check_hx(
    hx: object,
    cell: str,
    num_layers: int,
    batch: int,
    hidden_size: int,
    batched: bool,
    dtype: torch.dtype,
) -> list[Tensor]:
    """Validate hx and return its tensors ([h0] or [h0, c0]), each (L, B, H)."""
    if cell == "lstm":
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise ValueError(
                f"hx: expected a tuple (h0, c0) for cell='lstm', got {type(hx).__name__}"
                + (f" of length {len(hx)}" if isinstance(hx, (tuple, list)) else "")
            )
        names, tensors = ("h0", "c0"), list(hx)
    else:
        if not isinstance(hx, Tensor):
            raise ValueError(
                f"hx: expected a tensor h0 for cell={cell!r}, got {type(hx).__name__}"
            )
        names, tensors = ("h0",), [hx]
    if batched:
        want, layout = (num_layers, batch, hidden_size), "(num_layers, B, hidden_size)"
    else:
        want, layout = (num_layers, hidden_size), "(num_layers, hidden_size)"
    out = []
    for name, t in zip(names, tensors, strict=True):
        if not isinstance(t, Tensor):
            raise ValueError(f"hx: {name} expected a torch.Tensor, got {type(t).__name__}")
        if _shape(t) != want:
            raise ValueError(f"hx: {name} expected shape {layout} = {want}, got {_shape(t)}")
        if t.dtype != dtype:
            raise ValueError(f"hx: {name} expected dtype {dtype}, got {t.dtype}")
        if not bool(torch.isfinite(t).all()):
            raise ValueError(f"hx: {name} contains NaN or inf values")
        out.append(t if batched else t.unsqueeze(1))           # (L, B, H)
    return out
