"""The stack in NumPy: forward climbs the stack once per timestep; backward (BPTT) walks the
same steps in reverse, back through time and down the stack.

    for t in 1..T:                   x^[1]_t = x_t
        for l in 1..L:
            h^[l]_t (, c^[l]_t) = Cell(x^[l]_t, h^[l]_{t-1} (, c^[l]_{t-1}))
            a^[l]_t = LayerNorm(h^[l]_t)            if layer_norm  else h^[l]_t
            u^[l]_t = a^[l]_t + x^[l]_t             if residual and l >= 2  else a^[l]_t
            x^[l+1]_t = Dropout(u^[l]_t)            for l < L (training only)
        y_t = u^[L]_t

Arrays are (T, B, ...); the weights are a dict under torch.nn's names (``weight_ih_l0``, ...).
``StackedRNN`` (``module.py``) wraps these two functions in torch.nn's interface: layouts,
dtypes, argument checks, state dicts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stacklib.config import CELLS, StackConfig, param_name
from stacklib.numpy.cells import (
    cell_step,
    cell_step_backward,
    dropout_mask,
    layer_norm,
    layer_norm_backward,
)


@dataclass
class Step:
    """What backward needs from one layer at one step."""

    cell: tuple  # the cell's record (cells.RNNStep, GRUStep, LSTMStep): its input, h_{t-1}, gates
    norm: tuple | None  # layer norm's record, with layer_norm
    mask: np.ndarray | None  # the dropout mask u^[l]_t met on its way up (training, l < L)


@dataclass
class Tape:
    """A forward pass as backward reads it: steps[t][l], and the weights it ran with."""

    config: StackConfig
    params: dict
    steps: list


@dataclass
class StackOutput:
    """What forward returns: every layer's states at every step (L layers, T steps, B
    sequences, H units; from ``StackedRNN``, without the B axis for an unbatched input)."""

    output: np.ndarray  # (T, B, H), or (B, T, H) with batch_first: y_t = u^[L]_t
    h: np.ndarray  # (L, T, B, H): h^[l]_t
    c: np.ndarray | None  # (L, T, B, H): c^[l]_t, LSTM only
    gates: dict  # gate name -> (L, T, B, H): i, f, g, o (LSTM), r, z, n (GRU), none (RNN)
    tape: Tape

    @property
    def h_n(self):  # (L, B, H): every layer's last state
        return self.h[:, -1]

    @property
    def c_n(self):
        return None if self.c is None else self.c[:, -1]

    def __iter__(self):  # unpacks like torch.nn's (output, h_n) or (output, (h_n, c_n))
        return iter((self.output, self.h_n if self.c is None else (self.h_n, self.c_n)))

    def __getitem__(self, index):
        return tuple(self)[index]


@dataclass
class Gradients:
    """What backward returns (from ``StackedRNN``, in the layout of the forward's input)."""

    params: dict  # name -> dLoss/dparameter: the names and shapes of the weights
    input: np.ndarray  # dLoss/dx, (T, B, in)
    h0: np.ndarray  # (L, B, H)
    c0: np.ndarray | None  # (L, B, H), LSTM only
    h_norm: np.ndarray  # (T, L): ||dLoss/dh^[l]_t|| over the batch, both paths included


def weights(cfg: StackConfig, p, l):
    """Layer l's W_ih, W_hh, b_ih, b_hh (0-based l; biases 0 in a stack without them)."""
    w_ih, w_hh, b_ih, b_hh = cfg.layer_params(l)
    return p[w_ih], p[w_hh], p.get(b_ih, 0.0), p.get(b_hh, 0.0)


def forward(cfg: StackConfig, p: dict, x, h0, c0=None, rng=None) -> StackOutput:
    """x (T, B, in); h0, c0 (L, B, H), c0 for the LSTM only; p the weights; rng the
    ``numpy.random.Generator`` drawing dropout masks (None: no dropout, as in eval mode)."""
    (T, B, _), L, H = x.shape, cfg.num_layers, cfg.hidden_size
    h, c = list(h0), (list(c0) if c0 is not None else [None] * L)  # one memory per layer
    hs = np.empty((L, T, B, H), x.dtype)
    cs = np.empty_like(hs) if c0 is not None else None
    ys, steps = np.empty_like(hs[0]), []
    for t in range(T):                                    # through time ...
        inp, row = x[t], []                               # x^[1]_t: (B, in)
        for l in range(L):                                # ... one climb per timestep
            h[l], c[l], record = cell_step(cfg, inp, h[l], c[l], weights(cfg, p, l))
            a, norm = h[l], None                          # a^[l]_t: (B, H)
            if cfg.layer_norm:
                a, norm = layer_norm(h[l], p[param_name("ln_weight", l)],
                                     p[param_name("ln_bias", l)])
            u = a + inp if cfg.residual and l >= 1 else a  # u^[l]_t
            mask = None
            if rng is not None and cfg.dropout > 0 and l < L - 1:  # never the top's output
                mask = dropout_mask(u.shape, cfg.dropout, rng, u.dtype)
            inp = u if mask is None else u * mask         # x^[l+1]_t
            row.append(Step(record, norm, mask))
            hs[l, t] = h[l]
            if cs is not None:
                cs[l, t] = c[l]
        ys[t] = inp                                       # y_t = u^[L]_t
        steps.append(row)
    gates = {name: np.array([[getattr(s.cell, name) for s in row] for row in steps])
             .swapaxes(0, 1) for name in CELLS[cfg.cell].gate_names}  # each (L, T, B, H)
    return StackOutput(ys, hs, cs, gates, Tape(cfg, p, steps))


def backward(tape: Tape, dy, dh_n, dc_n=None) -> Gradients:
    """BPTT by hand: the gradients of sum(y * dy) + sum(h_n * dh_n) (+ sum(c_n * dc_n)) for
    the forward pass on ``tape``, with respect to every weight, x, h0 and c0. dy (T, B, H);
    dh_n, dc_n (L, B, H), dc_n for the LSTM only."""
    cfg, p, steps = tape.config, tape.params, tape.steps
    T, L = len(steps), cfg.num_layers
    grads = {name: np.zeros_like(w) for name, w in p.items()}
    dh_next = list(dh_n)  # dLoss/dh^[l]_t along the path from step t + 1, per layer
    dc_next = list(dc_n) if dc_n is not None else [None] * L
    d_input = np.empty((T, *steps[0][0].cell.x.shape), dy.dtype)
    h_norm = np.empty((T, L), dy.dtype)
    for t in reversed(range(T)):                          # back through time ...
        du = dy[t]                                        # dLoss/du^[L]_t: (B, H)
        for l in reversed(range(L)):                      # ... one descent per timestep
            step, (w_ih, w_hh, _, _) = steps[t][l], weights(cfg, p, l)
            d_above = du                                  # dLoss/dh^[l]_t from above
            if cfg.layer_norm:                            # u = LayerNorm(h) (+ x)
                d_above, dw, db = layer_norm_backward(du, p[param_name("ln_weight", l)],
                                                      step.norm)
                grads[param_name("ln_weight", l)] += dw
                grads[param_name("ln_bias", l)] += db
            # --8<-- [start:backward_step]
            dh = d_above + dh_next[l]  # (B, H): the path from above meets the path from t + 1
            h_norm[t, l] = np.sqrt(np.sum(dh * dh))  # ||dLoss/dh^[l]_t||: what §09 plots
            dgx, dgh, dh_next[l], dc_next[l] = cell_step_backward(cfg, dh, dc_next[l],
                                                                  step.cell, w_hh)
            dx = dgx @ w_ih  # down the stack: to what this layer read at step t
            # --8<-- [end:backward_step]
            n_ih, n_hh, n_bih, n_bhh = cfg.layer_params(l)
            grads[n_ih] += dgx.T @ step.cell.x
            grads[n_hh] += dgh.T @ step.cell.h_prev
            if cfg.bias:
                grads[n_bih] += dgx.sum(axis=0)
                grads[n_bhh] += dgh.sum(axis=0)
            if cfg.residual and l >= 1:
                dx = dx + du  # the skip path hands the gradient from above straight down
            if l >= 1 and steps[t][l - 1].mask is not None:
                dx = dx * steps[t][l - 1].mask  # what the layer below's dropout let through
            du = dx                                       # dLoss/du^[l-1]_t, or dLoss/dx_t
        d_input[t] = du
    dc0 = np.stack(dc_next) if dc_n is not None else None
    return Gradients(grads, d_input, np.stack(dh_next), dc0, h_norm)
