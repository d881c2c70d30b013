"""A Keras 3 model (torch backend) carrying the same weights as a stack or a torch.nn module.

Mapping, per layer k (H = hidden_size):

    SimpleRNN / LSTM:  kernel = weight_ih.T, recurrent_kernel = weight_hh.T,
                       bias = bias_ih + bias_hh            (Keras keeps one bias vector)
                       LSTM gate order is the same in both: (i, f, g/c, o).
    GRU (reset_after=True):
                       torch blocks (r, z, n) -> Keras blocks (z, r, h), for kernels and biases;
                       bias shape (2, 3H) = [input bias; recurrent bias].

Each cell's Keras layer, block order, bias vectors and options are its ``CELLS`` row's.

Dropout is not carried: a Keras layer drops its own input with one mask per sequence, torch.nn
drops each layer's output but the top's afresh at every step. A source that would drop (a module
in training mode, or a state dict whose configuration has dropout) is refused; in eval mode
(``module.eval()``) both compute the same function, and that is what the bridge carries.

Keras is imported lazily (stacklib itself never needs it) and only with KERAS_BACKEND=torch.
Set KERAS_HOME to a project-local directory before calling, or Keras writes to ~/.keras.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from stacklib._validate import as_array, check_state
from stacklib.config import CELLS, StackConfig


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


def _source(source: object, config: StackConfig | None) -> tuple[dict, StackConfig]:
    """The weights (torch.nn's flat names, as float64 arrays) and configuration to bridge."""
    if isinstance(source, Mapping):
        if not isinstance(config, StackConfig):
            raise TypeError("config: a state dict needs its StackConfig, got "
                            f"{type(config).__name__}")
        state, drops = source, config.dropout > 0
        how = "pass config.replace(dropout=0.0) to bridge the weights for inference"
    else:
        own = StackConfig.of(source, name="source")
        if config is not None and config != own:
            raise ValueError(f"config: the stack given has {own}, got {config}")
        config, state = own, source.state_dict()
        drops = config.dropout > 0 and source.training
        how = "bridge it in eval mode (source.eval()), whose outputs Keras reproduces"
    if drops:
        raise ValueError(f"dropout: Keras' layers drop their inputs with one mask per "
                         f"sequence, not torch.nn's outputs between layers, so "
                         f"dropout={config.dropout} in training cannot be carried; {how}")
    for name in ("residual", "layer_norm"):
        if getattr(config, name):
            raise ValueError(f"{name}: Keras' recurrent layers have no such option, got "
                             f"{name}=True")
    _keras_layer(config)
    state = check_state("state_dict", state, config.param_shapes(), f"a stack of {config}",
                        lambda key, value: as_array(key, value, np.float64, cast=True))
    return state, config


def _keras_layer(config: StackConfig) -> str:
    """The name of the Keras layer of ``config``'s cell; ``ValueError`` where Keras has none."""
    kind = CELLS[config.cell]
    if kind.keras is None:
        raise ValueError(f"cell: Keras has no {kind.name} layer, got cell={config.cell!r}")
    return kind.keras


def _keras_weights(state: dict[str, np.ndarray], config: StackConfig) -> list[list[np.ndarray]]:
    """Per layer, the Keras weight list [kernel, recurrent_kernel(, bias)]."""
    kind = CELLS[config.cell]
    order = [kind.gate_names.index(g) for g in kind.keras_gates or kind.gate_names]

    def keras_order(a: np.ndarray) -> np.ndarray:  # torch's gate blocks in Keras' order
        if not order:  # a single unnamed block
            return a
        blocks = np.split(a, kind.gates, axis=0)
        return np.concatenate([blocks[i] for i in order], axis=0)

    layers = []
    for k in range(config.num_layers):
        w_ih, w_hh, b_ih, b_hh = (state.get(name) for name in config.layer_params(k))
        weights = [keras_order(w_ih).T, keras_order(w_hh).T]
        if config.bias and kind.keras_biases == 2:
            weights.append(np.stack([keras_order(b_ih), keras_order(b_hh)]))  # (2, G*H)
        elif config.bias:
            weights.append(keras_order(b_ih + b_hh))  # (G*H,): Keras keeps one bias vector
        layers.append([np.ascontiguousarray(w, dtype=np.float32) for w in weights])
    return layers


def _build(config: StackConfig, return_sequences: bool) -> Any:
    keras = _keras()
    kind = CELLS[config.cell]
    layer_class = getattr(keras.layers, _keras_layer(config))
    extra = dict(kind.keras_options)
    if len(kind.nonlinearities) > 1:  # a choice of nonlinearity: Keras' activation
        extra["activation"] = config.nonlinearity
    inputs = keras.Input(shape=(None, config.input_size), name="x")
    y = inputs
    for k in range(config.num_layers):
        seq = k < config.num_layers - 1 or return_sequences  # the layers below: every step
        y = layer_class(units=config.hidden_size, use_bias=config.bias, return_sequences=seq,
                        name=f"l{k}", **extra)(y)
    return keras.Model(inputs, y, name=f"stacked_{config.cell}_{config.num_layers}")


def to_keras(source: Any, config: StackConfig | None = None, *,
             return_sequences: bool = False) -> Any:
    """A Keras model of stacked SimpleRNN / GRU / LSTM layers carrying the same weights.

    Args:
        source: a ``torch.nn.RNN/GRU/LSTM``, a stacklib ``StackedRNN`` (NumPy or torch), or a
            state dict in torch.nn's flat names (tensors or arrays).
        config: the ``StackConfig`` of a state dict; for a module, its own (if given, it must
            be equal). Plain stacks only: Keras has no residual or layer-norm option, and
            dropout is refused in training (see the module's docstring).
        return_sequences: Keras' argument, for the top layer: every step, (B, T, H), or the
            last, (B, H). The layers below always return their sequence.

    The model reads x (B, T, input_size): Keras is batch-first, whatever
    ``config.batch_first`` says; ``model(x)`` returns a torch tensor (Keras' torch backend).
    ``model.count_params()`` is ``stacklib.params.count_params(..., framework="keras")``.
    """
    state, config = _source(source, config)
    model = _build(config, return_sequences)
    for k, weights in enumerate(_keras_weights(state, config)):
        model.get_layer(f"l{k}").set_weights(weights)
    return model
