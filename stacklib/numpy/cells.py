"""One time step of each cell, forward and backward, for a batch of B sequences (one per row).

Weights are torch.nn's, gate blocks in its order: W_ih (G*H, in), W_hh (G*H, H), b_ih and b_hh
(G*H,), with G = 1 (RNN), 3 (GRU: r, z, n) or 4 (LSTM: i, f, g, o). A row is a sequence, so
every product is written with the transposed matrix: x W_ih^T.

A forward step returns the new state and a record of what it read and computed; the gates are
the record's fields. Its backward step is the chain rule through that record. It takes
dh = dLoss/dh_t with every path into h_t already summed (for the LSTM also dc = dLoss/dc_t,
from step t + 1), and returns

    dgx      (B, G*H)  dLoss/d(x_t W_ih^T + b_ih): the input's share of the pre-activations
    dgh      (B, G*H)  dLoss/d(h_{t-1} W_hh^T + b_hh): the recurrent share (the same array
                       but in the GRU, whose reset gate multiplies only the recurrent share)
    dh_prev  (B, H)    dLoss/dh_{t-1} along this step: the path back through time
    dc_prev  (B, H)    dLoss/dc_{t-1} (LSTM only)

At the end: what sits between two layers, layer normalisation and inverted dropout.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from stacklib.config import LN_EPS


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
    x: np.ndarray  # (B, in): what the step read
    h_prev: np.ndarray  # (B, H)
    h: np.ndarray  # (B, H) act(a): its derivative needs only h


def rnn_step(x, h_prev, w_ih, w_hh, b_ih, b_hh, nonlinearity):
    """Elman: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)."""
    act, _ = ACTIVATIONS[nonlinearity]
    h = act(x @ w_ih.T + b_ih + h_prev @ w_hh.T + b_hh)  # (B, H)
    return h, RNNStep(x, h_prev, h)


def rnn_step_backward(dh, step, w_hh, nonlinearity):
    _, dact = ACTIVATIONS[nonlinearity]
    da = dh * dact(step.h)  # (B, H)
    return da, da, da @ w_hh


class GRUStep(NamedTuple):
    x: np.ndarray  # (B, in)
    h_prev: np.ndarray  # (B, H)
    r: np.ndarray  # reset gate
    z: np.ndarray  # update gate
    n: np.ndarray  # candidate
    hn: np.ndarray  # h_{t-1} W_hn^T + b_hn: what the reset gate multiplied


def gru_step(x, h_prev, w_ih, w_hh, b_ih, b_hh):
    """torch.nn.GRU's step: the reset gate multiplies the recurrent term including its bias."""
    gx_r, gx_z, gx_n = np.split(x @ w_ih.T + b_ih, 3, axis=1)  # each (B, H)
    gh_r, gh_z, hn = np.split(h_prev @ w_hh.T + b_hh, 3, axis=1)
    r = sigmoid(gx_r + gh_r)
    z = sigmoid(gx_z + gh_z)
    n = np.tanh(gx_n + r * hn)
    h = (1.0 - z) * n + z * h_prev  # (B, H): z keeps the old state, 1 - z takes the candidate
    return h, GRUStep(x, h_prev, r, z, n, hn)


def gru_step_backward(dh, step, w_hh):
    r, z, n, hn = step.r, step.z, step.n, step.hn
    da_n = dh * (1.0 - z) * (1.0 - n * n)  # h = (1 - z) n + z h_prev, n = tanh(a_n)
    da_z = dh * (step.h_prev - n) * z * (1.0 - z)  # σ'(a) = σ (1 - σ)
    da_r = da_n * hn * r * (1.0 - r)  # a_n = gx_n + r * hn
    dgx = np.concatenate([da_r, da_z, da_n], axis=1)  # (B, 3H)
    dgh = np.concatenate([da_r, da_z, da_n * r], axis=1)
    return dgx, dgh, dh * z + dgh @ w_hh


class LSTMStep(NamedTuple):
    x: np.ndarray  # (B, in)
    h_prev: np.ndarray  # (B, H)
    c_prev: np.ndarray  # (B, H)
    i: np.ndarray  # input gate
    f: np.ndarray  # forget gate
    g: np.ndarray  # candidate
    o: np.ndarray  # output gate
    tanh_c: np.ndarray  # tanh(c_t)


# --8<-- [start:lstm_step]
def lstm_step(x, h_prev, c_prev, w_ih, w_hh, b_ih, b_hh):
    """One LSTM step. x (B, in); h_prev, c_prev (B, H); the weights of torch.nn.LSTM."""
    a = x @ w_ih.T + b_ih + h_prev @ w_hh.T + b_hh  # (B, 4H): all four gate blocks
    a_i, a_f, a_g, a_o = np.split(a, 4, axis=1)  # each (B, H), in torch's order i, f, g, o
    i, f, o = sigmoid(a_i), sigmoid(a_f), sigmoid(a_o)  # gates in (0, 1)
    g = np.tanh(a_g)  # candidate in (-1, 1)
    c = f * c_prev + i * g  # (B, H): keep some of the old memory, write some new
    tanh_c = np.tanh(c)
    h = o * tanh_c  # (B, H): what the layer shows, to the next step and to the layer above
    return h, c, LSTMStep(x, h_prev, c_prev, i, f, g, o, tanh_c)
# --8<-- [end:lstm_step]


def lstm_step_backward(dh, dc, step, w_hh):
    i, f, g, o, tanh_c = step.i, step.f, step.g, step.o, step.tanh_c
    dc = dc + dh * o * (1.0 - tanh_c * tanh_c)  # c_t reaches the loss through h_t = o tanh(c_t)
    da = np.concatenate([dc * g * i * (1.0 - i),  # a_i: c_t = f c_{t-1} + i g
                         dc * step.c_prev * f * (1.0 - f),  # a_f
                         dc * i * (1.0 - g * g),  # a_g
                         dh * tanh_c * o * (1.0 - o)], axis=1)  # a_o; (B, 4H)
    return da, da, da @ w_hh, dc * f


def cell_step(cfg, x, h, c, weights):
    """One step of the stack's cell (``cfg.cell``): (h, c, record), c None but for the LSTM."""
    if cfg.cell == "lstm":
        return lstm_step(x, h, c, *weights)
    if cfg.cell == "gru":
        h, record = gru_step(x, h, *weights)
    else:
        h, record = rnn_step(x, h, *weights, cfg.nonlinearity)
    return h, None, record


def cell_step_backward(cfg, dh, dc, record, w_hh):
    """Its backward step: (dgx, dgh, dh_prev, dc_prev), dc_prev None but for the LSTM."""
    if cfg.cell == "lstm":
        return lstm_step_backward(dh, dc, record, w_hh)
    if cfg.cell == "gru":
        return (*gru_step_backward(dh, record, w_hh), None)
    return (*rnn_step_backward(dh, record, w_hh, cfg.nonlinearity), None)


def layer_norm(a, weight, bias):
    """Normalise over the last (hidden) axis, then scale and shift (torch.nn.LayerNorm).
    Returns (y, record) where ``layer_norm_backward`` reads the record."""
    centred = a - a.mean(axis=-1, keepdims=True)
    inv_std = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + LN_EPS)
    xhat = centred * inv_std
    return xhat * weight + bias, (xhat, inv_std)


def layer_norm_backward(dy, weight, record):
    """Gradients of ``layer_norm`` with respect to its input, weight and bias."""
    xhat, inv_std = record
    dxhat = dy * weight
    da = inv_std * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                    - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))
    return da, (dy * xhat).sum(axis=0), dy.sum(axis=0)


def dropout_mask(shape, p, rng, dtype):
    """Inverted dropout: each entry is 0 with probability p, else 1/(1-p), so that the
    expected value is unchanged and evaluation needs no rescaling."""
    keep = rng.random(shape) >= p
    return keep.astype(dtype) / dtype.type(1.0 - p)
