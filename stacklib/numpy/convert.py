"""Load a ``torch.nn.RNN/GRU/LSTM`` (or ``stacklib.torch.StackedRNN``) into the NumPy stack."""

from __future__ import annotations

import numpy as np

from stacklib.numpy.stack import StackedRNN

_MODES = {"RNN_TANH": ("rnn", "tanh"), "RNN_RELU": ("rnn", "relu"), "GRU": ("gru", "tanh"),
          "LSTM": ("lstm", "tanh")}


def from_torch(module, dtype=None) -> StackedRNN:
    """A NumPy twin of ``module`` with identical weights (``dtype`` defaults to the module's)."""
    if hasattr(module, "flat_state_dict"):  # stacklib.torch.StackedRNN
        state = module.flat_state_dict()
        cfg = dict(cell=module.cell, nonlinearity=module.nonlinearity, bias=module.bias,
                   batch_first=module.batch_first, dropout=module.dropout,
                   residual=module.residual, layer_norm=module.layer_norm)
    elif getattr(module, "mode", None) in _MODES:
        if getattr(module, "bidirectional", False) or getattr(module, "proj_size", 0):
            raise ValueError("module: bidirectional and proj_size>0 modules are not supported")
        cell, nonlinearity = _MODES[module.mode]
        state = module.state_dict()
        cfg = dict(cell=cell, nonlinearity=nonlinearity, bias=module.bias,
                   batch_first=module.batch_first, dropout=module.dropout)
    else:
        raise ValueError(f"module: expected torch.nn.RNN/GRU/LSTM or stacklib.torch.StackedRNN, "
                         f"got {type(module).__name__}")
    if dtype is None:  # the module's; bfloat16 has no NumPy twin: float32 holds it exactly
        first = next(iter(state.values())).detach()
        dtype = np.float32 if str(first.dtype) == "torch.bfloat16" else first.cpu().numpy().dtype
    stack = StackedRNN(module.input_size, module.hidden_size, module.num_layers,
                       dtype=np.dtype(dtype), **cfg)
    stack.load_state_dict(state)
    return stack
