"""§08 of the lecture: one timestep of a 2-layer LSTM, computed so a reader can follow by hand.

Hidden size 2 per layer, input size 1, one-decimal weights. The numbers run through the same
``stacklib.numpy.StackedRNN`` as everything else; this module only picks the weights and lays
every intermediate out in climb order — layer 1's pre-activations, gates, candidate, cell and
hidden state, then layer 2's, then the output y_t = h_t^[2].

PyTorch keeps two bias vectors per gate block; here ``bias_hh`` is zero, so ``b`` below is the
single bias a reader adds (and the one Keras would hold). Rows follow torch's gate order
(i, f, g, o), two rows (units) per gate. The weights were found by a seeded search over
one-decimal values (per output unit, 2 million candidates each) for an output that rounds to
[0.7215, -0.0432]; the tests hold these weights to that output.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from stacklib.config import CELLS, param_name
from stacklib.lecture import (
    WALKTHROUGH_C_PREV,
    WALKTHROUGH_H_PREV,
    WALKTHROUGH_WEIGHTS,
    WALKTHROUGH_X_T,
    WALKTHROUGH_Y,
)
from stacklib.numpy import StackedRNN

# The lecture's numbers (stacklib.lecture); EXPECTED_Y is what the page states.
X_T = WALKTHROUGH_X_T
H_PREV = WALKTHROUGH_H_PREV
C_PREV = WALKTHROUGH_C_PREV
WEIGHTS = WALKTHROUGH_WEIGHTS
EXPECTED_Y = WALKTHROUGH_Y

GATE_TEXT = {
    "i": ("input gate", r"\sigma"),
    "f": ("forget gate", r"\sigma"),
    "g": ("candidate", r"\tanh"),
    "o": ("output gate", r"\sigma"),
}


@dataclass(frozen=True)
class Step:
    layer: int  # the lecture's layer number, 1 or 2 as in h^[1] (a label), 0 for the output
    key: str  # machine name, e.g. "a_i", "i", "c", "h", "y"
    label: str  # words for a table row
    symbol: str  # LaTeX
    formula: str  # LaTeX of what is computed
    value: tuple[float, ...]


@dataclass(frozen=True)
class Walkthrough:
    cell: str
    input_size: int
    hidden_size: int
    num_layers: int
    x_t: float
    h_prev: tuple[tuple[float, ...], ...]
    c_prev: tuple[tuple[float, ...], ...]
    weights: dict
    steps: tuple[Step, ...]
    y: tuple[float, ...]

    def to_dict(self) -> dict:
        return asdict(self)

    def layer_steps(self, layer: int) -> list[Step]:
        """The steps of ``layer`` (0-based: 0 is the lecture's layer 1), in climb order."""
        return [s for s in self.steps if s.layer == layer + 1]


def build_stack(dtype=np.float64) -> StackedRNN:
    """The §08 stack with its one-decimal weights loaded (bias_hh = 0)."""
    stack = StackedRNN(1, 2, 2, cell="lstm", dtype=dtype)
    state = {k: np.asarray(v, dtype) for k, v in WEIGHTS.items()}
    for k in range(2):
        state[param_name("bias_hh", k)] = np.zeros(8, dtype)
    stack.load_state_dict(state)
    return stack


def _t(v) -> tuple[float, ...]:
    return tuple(float(a) for a in np.ravel(v))


def walkthrough() -> Walkthrough:
    stack = build_stack()
    h_prev, c_prev = np.asarray(H_PREV), np.asarray(C_PREV)
    out = stack(np.array([[X_T]]), (h_prev, c_prev))  # unbatched, T = 1
    params = stack.state_dict()
    steps, below = [], np.array([X_T])
    for k in range(2):
        layer = k + 1  # the lecture's name for layer k
        sup = f"^{{[{layer}]}}"
        inp = "x_t" if layer == 1 else r"h_t^{[1]}"
        w_ih, w_hh, b_ih, b_hh = (params[name] for name in stack.config.layer_params(k))
        pre = w_ih @ below + w_hh @ h_prev[k] + b_ih + b_hh  # the reader's first hand step
        gates = {name: v[k, 0] for name, v in out.gates.items()}  # layer k, the one step
        for j, name in enumerate(CELLS[stack.cell].gate_names):
            word, act = GATE_TEXT[name]
            steps.append(Step(layer, f"a_{name}", f"{word} pre-activation", f"a_{{{name}}}{sup}",
                              rf"W_{{i{name}}}{sup} {inp} + W_{{h{name}}}{sup} h_{{t-1}}{sup} "
                              rf"+ b_{{i{name}}}{sup} + b_{{h{name}}}{sup}",
                              _t(pre[2 * j : 2 * j + 2])))
        for name in CELLS[stack.cell].gate_names:
            word, act = GATE_TEXT[name]
            steps.append(Step(layer, name, word, f"{name}_t{sup}", rf"{act}(a_{{{name}}}{sup})",
                              _t(gates[name])))
        steps.append(Step(layer, "c", "cell state", f"c_t{sup}",
                          rf"f_t{sup} \odot c_{{t-1}}{sup} + i_t{sup} \odot g_t{sup}",
                          _t(out.c[k, 0])))
        steps.append(Step(layer, "h", "hidden state", f"h_t{sup}",
                          rf"o_t{sup} \odot \tanh(c_t{sup})", _t(out.h[k, 0])))
        below = out.h[k, 0]
    y = _t(out.output[0])
    steps.append(Step(0, "y", "output", "y_t", r"h_t^{[2]}", y))
    return Walkthrough("lstm", 1, 2, 2, X_T, H_PREV, C_PREV,
                       {k: np.asarray(v).tolist() for k, v in params.items()}, tuple(steps), y)
