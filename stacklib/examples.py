"""The lecture's two worked examples (§03's scalar warm-up, §09's growth), computed by the
library rather than typed.

1. A scalar two-layer RNN with identity activation, recurrent weight 0.5 and input weight 1,
   reading 2, 1, 3: layer 1 writes 2, 2, 4; layer 2 reads those and writes 2, 3, 5.5.
2. Parameter and gradient-path growth from 1 to 3 layers of hidden size 32 over 50 steps, and
   the tanh slope per layer that explains why the stack's gradient is not the smaller one.
"""

from __future__ import annotations

from math import comb

import numpy as np

from stacklib._validate import check_int
from stacklib.lecture import SCALAR_INPUTS, SCALAR_W_IN, SCALAR_W_REC
from stacklib.numpy import StackedRNN
from stacklib.params import param_breakdown


def scalar_stack(num_layers: int = 2) -> StackedRNN:
    """h_t^[l] = 0.5 h_{t-1}^[l] + 1 * h_t^[l-1]: a linear RNN, no bias, hidden size 1."""
    stack = StackedRNN(1, 1, num_layers, cell="rnn", nonlinearity="linear", bias=False,
                       dtype=np.float64)
    stack.load_state_dict({name: np.full(shape, SCALAR_W_IN if "_ih_" in name else SCALAR_W_REC)
                           for name, shape in stack.config.param_shapes().items()})
    return stack


def scalar_example(inputs=SCALAR_INPUTS) -> dict:
    out = scalar_stack(2)(np.asarray(inputs, dtype=float)[:, None])  # (T, 1) unbatched
    return {
        "inputs": [float(v) for v in inputs],
        "w_rec": SCALAR_W_REC,
        "w_in": SCALAR_W_IN,
        "layer1": [float(v) for v in out.h[0, :, 0]],
        "layer2": [float(v) for v in out.h[1, :, 0]],
    }


def _growth_run(hidden_size: int, seq_len: int, num_layers: int, seed: int):
    """The growth example's tanh stack at PyTorch's default initialisation, and its run over one
    sequence of standard-normal inputs (input size = hidden size)."""
    stack = StackedRNN(hidden_size, hidden_size, num_layers, cell="rnn", dtype=np.float64,
                       seed=seed)
    return stack, stack(np.random.default_rng(seed).standard_normal((seq_len, hidden_size)))


def gradient_path_growth(hidden_size: int = 32, seq_len: int = 50, num_layers: int = 3,
                         seed: int = 0) -> dict:
    """What stacking ``num_layers`` tanh-RNN layers does to the bill and to the gradient's trip.

    A loss at the top of the last step reaches the first input along lattice paths that take
    seq_len - 1 steps back in time and num_layers - 1 steps down, then one into x_1: every such
    path multiplies seq_len + num_layers - 1 Jacobians, and there are
    C(seq_len + num_layers - 2, num_layers - 1) of them. ``measured`` runs the NumPy stack at
    PyTorch's default initialisation (one sequence of standard-normal inputs, input size =
    hidden size) and reports the norm of the gradient reaching h_1^[1] relative to the one
    injected at the top of the last step.
    """
    H = check_int("hidden_size", hidden_size)
    T = check_int("seq_len", seq_len)
    L = check_int("num_layers", num_layers)

    def one(layers):
        rows = param_breakdown("rnn", H, H, layers)
        stack, out = _growth_run(H, T, layers, seed)
        grad = np.zeros_like(out.output)
        grad[-1] = 1.0 / np.sqrt(H)  # unit-norm gradient injected at y_T
        g = stack.backward(out, grad)
        return {
            "num_layers": layers,
            "recurrent_matrices": layers,
            "recurrent_params": sum(r.recurrent_weights for r in rows),
            "jacobians_per_path": T + layers - 1,
            "paths_to_first_input": comb(T + layers - 2, layers - 1),
            "grad_norm_first_step_bottom": float(g.h_norm[0, 0]),
            "grad_norm_last_step_top": float(g.h_norm[-1, -1]),
        }

    return {"hidden_size": H, "seq_len": T, "shallow": one(1), "deep": one(L)}


def growth_tanh_slopes(hidden_size: int = 32, seq_len: int = 50, num_layers: int = 3,
                       seed: int = 0) -> list[float]:
    """Mean tanh slope, 1 - h^2, per layer of the growth example's deep stack: the upper layers,
    fed bounded states instead of raw inputs, saturate less."""
    _, out = _growth_run(check_int("hidden_size", hidden_size), check_int("seq_len", seq_len),
                         check_int("num_layers", num_layers), seed)
    return [float(np.mean(1.0 - h**2)) for h in out.h]
