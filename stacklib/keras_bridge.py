"""Build a Keras 3 model (torch backend) carrying the same weights as a flat torch state dict.

Mapping, per layer k (H = hidden_size):

    SimpleRNN / LSTM:  kernel = weight_ih.T, recurrent_kernel = weight_hh.T,
                       bias = bias_ih + bias_hh            (Keras keeps one bias vector)
                       LSTM gate order is the same in both: (i, f, g/c, o).
    GRU (reset_after=True):
                       torch blocks (r, z, n) -> Keras blocks (z, r, h), for kernels and biases;
                       bias shape (2, 3H) = [input bias; recurrent bias].

Keras is imported lazily (stacklib itself never needs it) and only with KERAS_BACKEND=torch.
Set KERAS_HOME to a project-local directory before calling, or Keras writes to ~/.keras.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from stacklib._validate import (
    as_float_array,
    check_cell,
    check_nonlinearity,
    check_positive_int,
    check_state,
)
from stacklib.params import param_shapes


def _keras() -> Any:
    """Import keras with the torch backend, or explain why that is impossible."""
    if "keras" in sys.modules:
        keras = sys.modules["keras"]
        backend = keras.backend.backend()
        if backend != "torch":
            raise RuntimeError(
                f"keras was already imported with backend {backend!r}; stacklib.keras_bridge "
                "needs KERAS_BACKEND=torch set before keras is first imported"
            )
        return keras
    os.environ.setdefault("KERAS_BACKEND", "torch")
    if os.environ["KERAS_BACKEND"] != "torch":
        raise RuntimeError(
            f"KERAS_BACKEND={os.environ['KERAS_BACKEND']!r}; stacklib.keras_bridge needs 'torch'"
        )
    import keras

    return keras


def _check_config(cell: object, sizes: dict[str, object], nonlinearity: object) -> None:
    for name, value in sizes.items():
        check_positive_int(name, value)
    check_nonlinearity(check_cell(cell), nonlinearity)


def _check_agrees(obj: object, given: dict[str, object]) -> None:
    """A stack object passed as the weights must have the configuration it is bridged with."""
    for name, value in given.items():
        own = getattr(obj, name, None)
        if own is not None and own != value:
            raise ValueError(f"{name}: the stack given has {name}={own!r}, got {value!r}")


def _as_numpy_state(flat_state_dict: object) -> dict[str, np.ndarray]:
    """Accept a mapping of tensors/arrays, or a stack object (torch or numpy StackedRNN)."""
    obj = flat_state_dict
    if getattr(obj, "residual", False) or getattr(obj, "layer_norm", False):
        raise ValueError(
            "flat_state_dict: only stacks with residual=False and layer_norm=False can be "
            f"bridged to Keras, got residual={obj.residual}, layer_norm={obj.layer_norm}"
        )
    if hasattr(obj, "flat_state_dict"):
        obj = obj.flat_state_dict()
    elif not isinstance(obj, Mapping) and hasattr(obj, "state_dict"):
        obj = obj.state_dict()
    if not isinstance(obj, Mapping):
        raise ValueError(f"flat_state_dict: expected a mapping, got {type(obj).__name__}")
    return {key: as_float_array(key, value, np.float64) for key, value in obj.items()}


def _keras_weights(
    state: dict[str, np.ndarray], cell: str, input_size: int, hidden_size: int, num_layers: int
) -> tuple[list[list[np.ndarray]], bool]:
    """Per layer, the Keras weight list [kernel, recurrent_kernel(, bias)]; and use_bias."""
    H = hidden_size
    if any(k.startswith("ln_") for k in state):
        raise ValueError(
            "flat_state_dict: has layer-norm parameters (ln_*); only layer_norm=False stacks "
            "can be bridged to Keras"
        )
    use_bias = "bias_ih_l0" in state
    expected = param_shapes(cell, input_size, H, num_layers, bias=use_bias)
    check_state("flat_state_dict", state, expected, f"a {num_layers}-layer {cell!r} stack")

    def gru_order(a: np.ndarray) -> np.ndarray:  # blocks (r, z, n) -> (z, r, h) along axis 0
        r, z, n = np.split(a, 3, axis=0)
        return np.concatenate([z, r, n], axis=0)

    layers = []
    for k in range(num_layers):
        w_ih, w_hh = state[f"weight_ih_l{k}"], state[f"weight_hh_l{k}"]
        b_ih = state.get(f"bias_ih_l{k}")
        b_hh = state.get(f"bias_hh_l{k}")
        if cell == "gru":
            w_ih, w_hh = gru_order(w_ih), gru_order(w_hh)
            weights = [w_ih.T, w_hh.T]
            if use_bias:
                weights.append(np.stack([gru_order(b_ih), gru_order(b_hh)]))  # (2, 3H)
        else:
            weights = [w_ih.T, w_hh.T]
            if use_bias:
                weights.append(b_ih + b_hh)  # (G*H,)
        layers.append([np.ascontiguousarray(w, dtype=np.float32) for w in weights])
    return layers, use_bias


def _build(
    cell: str,
    input_size: int,
    hidden_size: int,
    num_layers: int,
    nonlinearity: str,
    use_bias: bool,
    return_sequences_top: bool,
) -> Any:
    keras = _keras()
    inputs = keras.Input(shape=(None, input_size), name="x")
    y = inputs
    for k in range(num_layers):
        seq = k < num_layers - 1 or return_sequences_top
        common = dict(units=hidden_size, use_bias=use_bias, return_sequences=seq, name=f"l{k}")
        if cell == "rnn":
            layer = keras.layers.SimpleRNN(activation=nonlinearity, **common)
        elif cell == "gru":
            layer = keras.layers.GRU(reset_after=True, **common)
        else:
            layer = keras.layers.LSTM(**common)
        y = layer(y)
    return keras.Model(inputs, y, name=f"stacked_{cell}_{num_layers}")


def build_keras_stack(
    flat_state_dict: Mapping[str, Any] | Any,
    cell: str,
    input_size: int,
    hidden_size: int,
    num_layers: int,
    *,
    nonlinearity: str | None = None,
    return_sequences_top: bool = False,
) -> Any:
    """A Keras model of ``num_layers`` SimpleRNN / GRU / LSTM layers with the given weights.

    ``flat_state_dict`` uses torch's flat names (weight_ih_l0, ...; tensors or arrays), e.g.
    ``stacklib.torch.StackedRNN.flat_state_dict()`` or ``torch.nn.LSTM.state_dict()``; a
    stack object with ``flat_state_dict()`` / ``state_dict()`` is accepted too. Input shape is
    (batch, time, input_size) (Keras is batch-first). All layers but the top return sequences;
    ``return_sequences_top=True`` makes the top return every step as well: (B, T, H).
    ``nonlinearity`` (RNN only) defaults to the stack object's, else "tanh"; a stack object's
    cell, sizes and nonlinearity must agree with the arguments.
    """
    sizes = dict(input_size=input_size, hidden_size=hidden_size, num_layers=num_layers)
    if nonlinearity is None:
        nonlinearity = getattr(flat_state_dict, "nonlinearity", None) or "tanh"
    _check_config(cell, sizes, nonlinearity)
    _check_agrees(flat_state_dict, dict(cell=cell, nonlinearity=nonlinearity, **sizes))
    state = _as_numpy_state(flat_state_dict)
    weights, use_bias = _keras_weights(state, cell, input_size, hidden_size, num_layers)
    model = _build(
        cell, input_size, hidden_size, num_layers, nonlinearity, use_bias, return_sequences_top
    )
    for k, w in enumerate(weights):
        model.get_layer(f"l{k}").set_weights(w)
    return model


def keras_count_params(cell: str, input_size: int, hidden_size: int, num_layers: int) -> int:
    """``model.count_params()`` of the Keras stack (default biases, GRU reset_after=True)."""
    sizes = dict(input_size=input_size, hidden_size=hidden_size, num_layers=num_layers)
    _check_config(cell, sizes, "tanh")
    model = _build(cell, input_size, hidden_size, num_layers, "tanh", True, False)
    return int(model.count_params())


def run_keras_stack(model: Any, x: np.ndarray) -> np.ndarray:
    """Run ``model`` on batch-first ``x`` (B, T, input_size) and return a float32 numpy array:
    (B, T, H) if the top layer returns sequences, else (B, H)."""
    keras = _keras()
    x = np.asarray(x, dtype=np.float32)
    want = model.input_shape[-1]
    if x.ndim != 3 or x.shape[-1] != want or 0 in x.shape:
        raise ValueError(f"x: expected shape (B, T, {want}) with B, T >= 1, got {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError("x: contains NaN or inf values")
    y = model(x, training=False)
    if hasattr(y, "detach"):  # torch backend: a torch tensor
        return y.detach().cpu().numpy()
    return np.asarray(keras.ops.convert_to_numpy(y))
