"""One time step of each cell, for a batch of B sequences: the forward half of the reference.

Weights are torch.nn's, gate blocks in its order: W_hh (G*H, H) and b_hh (G*H,), G = 1 (RNN),
3 (GRU: r, z, n) or 4 (LSTM: i, f, g, o). The input's part of a step, gx_t = x_t W_ih^T + b_ih
(B, G*H), does not depend on the previous state, so the layer computes it for every step in one
product (``layer.layer_forward``) and hands each step its row.

Each step returns the new h (and c for the LSTM) and a record of what its backward step
(``cells_backward.py``) needs; the records' gate fields are what ``StackOutput.gates`` reads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def sigmoid(a):
    """σ(a) = 1 / (1 + e^-a), written (1 + tanh(a/2)) / 2: the same function, never overflowing."""
    return 0.5 * (1.0 + np.tanh(0.5 * a))


# nonlinearity -> (act, its derivative written with act's output y = act(a))
ACTIVATIONS = {
    "tanh": (np.tanh, lambda y: 1.0 - y * y),
    "relu": (lambda a: np.maximum(a, 0.0), lambda y: (y > 0).astype(y.dtype)),
    "linear": (lambda a: a, np.ones_like),
}


class RNNStep(NamedTuple):
    h_prev: np.ndarray  # (B, H)
    h: np.ndarray  # (B, H) act(a): its derivative needs only h


def rnn_step(gx, h_prev, c_prev, w_hh, b_hh, act=np.tanh):
    """Elman: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh). ``c_prev`` is unused."""
    h = act(gx + h_prev @ w_hh.T + b_hh)  # (B, H)
    return h, None, RNNStep(h_prev, h)


class GRUStep(NamedTuple):
    h_prev: np.ndarray  # (B, H)
    r: np.ndarray  # reset gate
    z: np.ndarray  # update gate
    n: np.ndarray  # candidate
    hn: np.ndarray  # h_{t-1} W_hn^T + b_hn: what the reset gate multiplied


def gru_step(gx, h_prev, c_prev, w_hh, b_hh):
    """torch.nn.GRU's step: the reset gate multiplies the recurrent term including its bias.
    ``c_prev`` is unused."""
    gh = h_prev @ w_hh.T + b_hh  # (B, 3H): blocks r, z, n
    gx_r, gx_z, gx_n = np.split(gx, 3, axis=1)  # each (B, H)
    gh_r, gh_z, hn = np.split(gh, 3, axis=1)
    r = sigmoid(gx_r + gh_r)
    z = sigmoid(gx_z + gh_z)
    n = np.tanh(gx_n + r * hn)
    h = (1.0 - z) * n + z * h_prev  # (B, H): z keeps the old state, 1 - z takes the candidate
    return h, None, GRUStep(h_prev, r, z, n, hn)


class LSTMStep(NamedTuple):
    h_prev: np.ndarray  # (B, H)
    c_prev: np.ndarray  # (B, H)
    i: np.ndarray  # input gate
    f: np.ndarray  # forget gate
    g: np.ndarray  # candidate
    o: np.ndarray  # output gate
    tanh_c: np.ndarray  # tanh(c_t)


# --8<-- [start:lstm_step]
def lstm_step(gx, h_prev, c_prev, w_hh, b_hh):
    """One LSTM step. gx (B, 4H) = x_t W_ih^T + b_ih; h_prev, c_prev (B, H)."""
    a = gx + h_prev @ w_hh.T + b_hh  # (B, 4H): the pre-activations of all four gate blocks
    a_i, a_f, a_g, a_o = np.split(a, 4, axis=1)  # each (B, H), in torch's order i, f, g, o
    i, f, o = sigmoid(a_i), sigmoid(a_f), sigmoid(a_o)  # gates in (0, 1)
    g = np.tanh(a_g)  # candidate in (-1, 1)
    c = f * c_prev + i * g  # (B, H): keep some of the old memory, write some new
    tanh_c = np.tanh(c)
    h = o * tanh_c  # (B, H): what the layer shows, to the next step and to the layer above
    return h, c, LSTMStep(h_prev, c_prev, i, f, g, o, tanh_c)
# --8<-- [end:lstm_step]
