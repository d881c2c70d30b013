"""Argument checks shared by every stacklib front end.

Like torch: a ``TypeError`` for an argument of the wrong type, a ``ValueError`` for a bad value;
every message starts with the argument's name and states what was expected and what came, so a
reader never meets a NumPy broadcasting accident or a silent wrong number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np


def check_int(name: str, value: object, minimum: int = 1) -> int:
    if isinstance(value, bool | np.bool_) or not isinstance(value, Integral):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {value!r}")
    return int(value)


def check_bool(name: str, value: object) -> bool:
    """A flag: ``bool`` or NumPy's ``bool_``, nothing else (``"False"`` would be truthy)."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name}: expected a bool, got {type(value).__name__} {value!r}")
    return bool(value)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a str, one of {choices}, got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{name}: expected one of {choices}, got {value!r}")
    return value


def check_probability(name: str, value: object) -> float:
    """A probability in [0, 1) (inverted dropout divides by 1 - p)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, Real):
        raise TypeError(f"{name}: expected a number in [0, 1), got {type(value).__name__}")
    if math.isnan(value) or not 0.0 <= value < 1.0:
        raise ValueError(f"{name}: expected a number in [0, 1), got {value!r}")
    return float(value)


def check_finite(name: str, array: np.ndarray) -> None:
    if not np.all(np.isfinite(array)):
        bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
        raise ValueError(f"{name}: expected finite values, got {bad} NaN/inf entries")


def as_array(name: str, value: object, dtype: np.dtype, *, cast: bool = False) -> np.ndarray:
    """``value`` (an array, a torch tensor or nested lists) as a finite NumPy array of ``dtype``.

    Like torch, an array or tensor must already have ``dtype``: nothing is silently converted
    (``TypeError`` otherwise). Nested lists carry no dtype and are converted, as are arrays
    with ``cast=True`` (loading weights, which torch's ``load_state_dict`` converts too).
    Refused: ragged lists, strings, objects, booleans, complex numbers, integers (unless
    ``cast``), NaN/inf, and values too large for ``dtype``.
    """
    dtype = np.dtype(dtype)
    typed = hasattr(value, "detach") or isinstance(value, np.ndarray)
    if hasattr(value, "detach"):  # a torch tensor, without importing torch
        tensor = value.detach().cpu()
        if str(tensor.dtype) == "torch.bfloat16":  # no NumPy twin: float32 holds it exactly
            if not cast:
                raise TypeError(f"{name}: expected dtype {dtype} (the stack's), got bfloat16")
            tensor = tensor.float()
        value = tensor.numpy()
    try:
        array = np.asarray(value)
    except ValueError as exc:  # e.g. a ragged nested list
        raise ValueError(f"{name}: expected a rectangular array of numbers, got {exc}") from None
    kinds = "fiu" if cast else "f"
    if array.dtype.kind not in kinds:
        what = "real numbers" if cast else "floating-point numbers"
        raise TypeError(f"{name}: expected {what}, got dtype {array.dtype}")
    if typed and not cast and array.dtype != dtype:
        raise TypeError(f"{name}: expected dtype {dtype} (the stack's), got {array.dtype}")
    if array.dtype.kind == "f":
        check_finite(name, array)
    with np.errstate(over="ignore"):
        converted = array.astype(dtype, copy=False)
    if converted is not array:
        if not np.all(np.isfinite(converted)):
            raise ValueError(f"{name}: values too large for {dtype}, largest magnitude "
                             f"{np.max(np.abs(array)):.3g}")
    return converted


def check_shape(name: str, shape: tuple[int, ...], expected: tuple[int, ...],
                what: str = "") -> None:
    if tuple(shape) != tuple(expected):
        hint = f" {what}" if what else ""
        raise ValueError(f"{name}: expected shape {tuple(expected)}{hint}, got {tuple(shape)}")


def check_state(name: str, state: object, shapes: Mapping[str, tuple[int, ...]], what: str,
                convert) -> dict:
    """A state dict checked whole before anything is loaded: a mapping with exactly the names
    of ``shapes``, each value, after ``convert(key, value)``, of its shape. Returns {key:
    converted value} in the order of ``shapes``."""
    if not isinstance(state, Mapping):
        raise TypeError(f"{name}: expected a mapping name -> array, got {type(state).__name__}")
    missing = sorted(set(shapes) - set(state))
    unexpected = sorted(set(state) - set(shapes))
    if missing or unexpected:
        raise ValueError(f"{name}: keys do not match {what}; "
                         f"missing keys {missing}, unexpected keys {unexpected}")
    values = {}
    for key, shape in shapes.items():
        values[key] = convert(key, state[key])
        check_shape(key, values[key].shape, shape)
    return values


def sequence_layout(name: str, shape: tuple[int, ...], input_size: int,
                    batch_first: bool) -> bool:
    """Check an input sequence's shape, torch.nn's layouts; returns whether it is batched."""
    layout = "(B, T, input_size)" if batch_first else "(T, B, input_size)"
    if len(shape) not in (2, 3):
        raise ValueError(f"{name}: expected a 3-D {layout} or an unbatched 2-D (T, input_size) "
                         f"array, got shape {tuple(shape)}")
    if shape[-1] != input_size:
        want = "(T, input_size)" if len(shape) == 2 else layout
        raise ValueError(f"{name}: expected last dimension input_size={input_size} in layout "
                         f"{want}, got shape {tuple(shape)}")
    if 0 in shape:
        raise ValueError(f"{name}: expected at least one timestep and one sequence, got shape "
                         f"{tuple(shape)}")
    return len(shape) == 3


def state_shape(num_layers: int, batch: int, hidden_size: int, batched: bool) -> tuple:
    """The shape of h0, c0, h_n and c_n: (L, B, H), or (L, H) for an unbatched sequence."""
    return (num_layers, batch, hidden_size) if batched else (num_layers, hidden_size)


def state_pair(cell: str, cell_state: bool, hx: object) -> list:
    """``hx`` as a list of its states: [h0] or [h0, c0]; a pair for a cell with a memory c
    (``cell_state``: the LSTM)."""
    if cell_state:
        if not isinstance(hx, tuple | list) or len(hx) != 2:
            raise TypeError(f"hx: expected a tuple (h0, c0) for cell={cell!r}, got "
                            f"{type(hx).__name__}")
        return list(hx)
    if isinstance(hx, tuple | list):
        raise TypeError(f"hx: expected one array h0 for cell={cell!r}, got a "
                        f"{type(hx).__name__}")
    return [hx]
