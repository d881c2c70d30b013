"""One layer over a whole sequence: its forward loop through time, and BPTT back through it.

A layer reads x (T, B, in) and its initial state, and runs its cell once per step. Backward
walks the same steps in reverse: at every step the gradient reaching h_t is the sum of two
paths, the one from the layer above at the same step (depth) and the one from step t + 1 of
this layer (time), which is what the lecture's §09 takes apart.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from stacklib.config import StackConfig
from stacklib.numpy import cells, cells_backward


class Cell(NamedTuple):
    """A cell's forward step and backward step (``cells.py``, ``cells_backward.py``)."""

    step: object
    step_backward: object


def cell_of(config: StackConfig) -> Cell:
    if config.cell == "rnn":
        act, dact = cells.ACTIVATIONS[config.nonlinearity]
        return Cell(partial(cells.rnn_step, act=act),
                    partial(cells_backward.rnn_step_backward, dact=dact))
    if config.cell == "gru":
        return Cell(cells.gru_step, cells_backward.gru_step_backward)
    return Cell(cells.lstm_step, cells_backward.lstm_step_backward)


class LayerWeights(NamedTuple):
    w_ih: np.ndarray  # (G*H, in)
    w_hh: np.ndarray  # (G*H, H)
    b_ih: np.ndarray  # (G*H,), zeros for a stack without bias
    b_hh: np.ndarray  # (G*H,)


def layer_forward(cell: Cell, x, h0, c0, w: LayerWeights):
    """x (T, B, in), h0 and c0 (B, H) (c0 None but for the LSTM). Returns h_t of every step
    (T, B, H), c_t of every step (or None), and the steps' records for backward."""
    gx = x @ w.w_ih.T + w.b_ih  # (T, B, G*H): the input's part of every step, one product
    h, c = h0, c0
    hs, cs, steps = [], [], []
    for t in range(len(x)):
        h, c, step = cell.step(gx[t], h, c, w.w_hh, w.b_hh)
        hs.append(h)
        cs.append(c)
        steps.append(step)
    return np.stack(hs), (None if c0 is None else np.stack(cs)), steps


def layer_backward(cell: Cell, w: LayerWeights, x, h0, hs, steps, d_above, dh_n, dc_n):
    """BPTT through one layer. ``x``, ``h0``, ``hs`` and ``steps`` are what ``layer_forward``
    read and returned; d_above (T, B, H) is dLoss/dh_t from above (the output's gradient for
    the top layer); dh_n, dc_n (B, H) the gradients of the final states (dc_n None but for
    the LSTM).

    Returns dLoss/dx (T, B, in), the weight gradients {"weight_ih", "weight_hh", "bias_ih",
    "bias_hh"}, dLoss/dh0 and dLoss/dc0 (B, H), and ||dLoss/dh_t|| of every step (T,).
    """
    T, B, _ = d_above.shape
    dgx = np.empty((T, B, w.w_hh.shape[0]), d_above.dtype)  # (T, B, G*H)
    dgh = np.empty_like(dgx)
    dx = np.empty_like(x)
    h_norm = np.empty(T, d_above.dtype)
    dh_next, dc_next = dh_n, dc_n
    for t in reversed(range(T)):
        # --8<-- [start:backward_step]
        dh = d_above[t] + dh_next  # (B, H): the path from above meets the path from t + 1
        h_norm[t] = np.sqrt(np.sum(dh * dh))  # ||dLoss/dh_t||, both paths: what §09 plots
        dgx[t], dgh[t], dh_next, dc_next = cell.step_backward(dh, dc_next, steps[t], w.w_hh)
        dx[t] = dgx[t] @ w.w_ih  # down the stack: to what this layer read at step t
        # --8<-- [end:backward_step]
    h_prev = np.concatenate([h0[None], hs[:-1]])  # (T, B, H): h_{t-1} of every step

    def summed(d, inputs):  # sum over all T*B rows of d^T inputs: one product
        return d.reshape(T * B, -1).T @ inputs.reshape(T * B, -1)

    grads = {"weight_ih": summed(dgx, x), "weight_hh": summed(dgh, h_prev),
             "bias_ih": dgx.sum(axis=(0, 1)), "bias_hh": dgh.sum(axis=(0, 1))}
    return dx, grads, dh_next, dc_next, h_norm
