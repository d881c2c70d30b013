"""Argument checks shared by every stacklib front end.

Every check raises ``ValueError`` naming the argument and stating expected vs received, so a
reader never meets a NumPy broadcasting accident or a silent wrong number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np

CELLS: tuple[str, ...] = ("rnn", "gru", "lstm")
GATES: dict[str, int] = {"rnn": 1, "gru": 3, "lstm": 4}
NONLINEARITIES: tuple[str, ...] = ("tanh", "relu", "linear")
FRAMEWORKS: tuple[str, ...] = ("torch", "keras")
LN_EPS = 1e-5  # layer norm's epsilon, as torch.nn.LayerNorm's default (NumPy and torch stacks)


def check_cell(cell: object) -> str:
    if cell not in CELLS:
        raise ValueError(f"cell: expected one of {CELLS}, got {cell!r}")
    return str(cell)


def check_positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ValueError(f"{name}: expected an integer >= 1, got {value!r}")
    return int(value)


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name}: expected one of {choices}, got {value!r}")
    return str(value)


def check_nonlinearity(cell: str, nonlinearity: object) -> str:
    check_choice("nonlinearity", nonlinearity, NONLINEARITIES)
    if cell != "rnn" and nonlinearity != "tanh":
        raise ValueError(
            f"nonlinearity: only 'tanh' is defined for cell={cell!r}, got {nonlinearity!r}"
        )
    return str(nonlinearity)


def check_bool(name: str, value: object) -> bool:
    """A flag: ``bool`` or NumPy's ``bool_``, nothing else (``"False"`` would be truthy)."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name}: expected a bool, got {value!r}")
    return bool(value)


def check_dropout(dropout: object) -> float:
    if isinstance(dropout, bool | np.bool_) or not isinstance(dropout, Real):
        raise ValueError(f"dropout: expected a number in [0, 1), got {dropout!r}")
    if not (0.0 <= float(dropout) < 1.0) or math.isnan(float(dropout)):
        raise ValueError(f"dropout: expected a number in [0, 1), got {dropout!r}")
    return float(dropout)


def check_finite(name: str, array: np.ndarray) -> None:
    if not np.all(np.isfinite(array)):
        bad = int(np.size(array) - np.count_nonzero(np.isfinite(array)))
        raise ValueError(f"{name}: expected finite values, got {bad} NaN/inf entries")


def as_float_array(name: str, value: object, dtype: np.dtype) -> np.ndarray:
    """Convert ``value`` (array, nested lists or a torch tensor) to a floating array of
    ``dtype``; refuse ragged lists, strings, objects, booleans, complex, NaN/inf, and values
    that do not fit ``dtype`` (e.g. 1e300 into float32)."""
    if hasattr(value, "detach"):  # a torch tensor, without importing torch
        tensor = value.detach().cpu()
        value = tensor.float() if str(tensor.dtype) == "torch.bfloat16" else tensor
        value = value.numpy()
    try:
        array = np.asarray(value)
    except ValueError as exc:  # e.g. a ragged nested list
        raise ValueError(f"{name}: expected a rectangular numeric array, got {exc}") from None
    if array.dtype.kind not in "fiu":
        raise ValueError(f"{name}: expected a real numeric array, got dtype {array.dtype}")
    if array.dtype.kind == "f":
        check_finite(name, array)
    with np.errstate(over="ignore"):
        converted = array.astype(dtype, copy=False)
    if converted is not array and not np.all(np.isfinite(converted)):
        raise ValueError(f"{name}: values too large for {np.dtype(dtype)}, largest magnitude "
                         f"{np.max(np.abs(array)):.3g}")
    return converted


def check_keys(name: str, state, expected, what: str) -> None:
    """A state dict must have exactly the expected names: else a ValueError listing the missing
    and the unexpected ones (``what`` says which stack it was meant for)."""
    missing = sorted(set(expected) - set(state))
    unexpected = sorted(set(state) - set(expected))
    if missing or unexpected:
        raise ValueError(f"{name}: keys do not match {what}; "
                         f"missing keys {missing}, unexpected keys {unexpected}")


def check_state(name: str, state, shapes, what: str, convert=None) -> dict:
    """A state dict checked whole before anything is loaded: a mapping with exactly the names
    of ``shapes`` (see ``check_keys``), each value, after ``convert(key, value)`` if given, of
    its shape. Returns {key: converted value} in the order of ``shapes``."""
    if not isinstance(state, Mapping):
        raise ValueError(f"{name}: expected a mapping name -> array, got {type(state).__name__}")
    check_keys(name, state, shapes, what)
    values = {}
    for key, shape in shapes.items():
        value = state[key] if convert is None else convert(key, state[key])
        check_shape(key, value, shape)
        values[key] = value
    return values


def check_shape(name: str, array: np.ndarray, expected: tuple[int, ...], what: str = "") -> None:
    if tuple(array.shape) != tuple(expected):
        hint = f" {what}" if what else ""
        got = tuple(array.shape)
        raise ValueError(f"{name}: expected shape {tuple(expected)}{hint}, got {got}")
