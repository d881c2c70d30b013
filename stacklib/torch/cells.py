"""One time step of each cell, for a batch, in PyTorch (autograd does the backward pass).

Every cell takes the step's input x (B, in), its state (a tuple of (B, H) tensors: ``(h,)`` for
RNN and GRU, ``(h, c)`` for the LSTM) and its layer's weights in torch.nn's names, shapes and
gate orders::

    weight_ih (G*H, in)   weight_hh (G*H, H)   bias_ih, bias_hh (G*H,) or None

with G = 1 (RNN), 3 (GRU, blocks r, z, n) or 4 (LSTM, blocks i, f, g, o), and returns the new
state. The formulas are torch.nn's, so its weights copy across unchanged.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

ACTIVATIONS = {"tanh": torch.tanh, "relu": torch.relu, "linear": lambda a: a}


def rnn_cell(x: Tensor, state, w_ih, w_hh, b_ih, b_hh, nonlinearity):
    """Elman: h' = act(W_ih x + b_ih + W_hh h + b_hh), act in tanh | relu | linear."""
    (h,) = state
    return (ACTIVATIONS[nonlinearity](F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)),)


def gru_cell(x: Tensor, state, w_ih, w_hh, b_ih, b_hh):
    """r, z = σ(·); n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); h' = (1 - z) n + z h."""
    (h,) = state
    i_r, i_z, i_n = F.linear(x, w_ih, b_ih).chunk(3, dim=-1)  # each (B, H)
    h_r, h_z, h_n = F.linear(h, w_hh, b_hh).chunk(3, dim=-1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return ((1.0 - z) * n + z * h,)


def lstm_cell(x: Tensor, state, w_ih, w_hh, b_ih, b_hh):
    """i, f, o = σ(·), g = tanh(·); c' = f * c + i * g; h' = o * tanh(c')."""
    h, c = state
    a = F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)  # (B, 4H): blocks i, f, g, o
    i, f, g, o = a.chunk(4, dim=-1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c), c


def cell_step(cfg, x: Tensor, state, weights):
    """One step of the stack's cell (``cfg.cell``): its new state, ``(h,)`` or ``(h, c)``."""
    if cfg.cell == "lstm":
        return lstm_cell(x, state, *weights)
    if cfg.cell == "gru":
        return gru_cell(x, state, *weights)
    return rnn_cell(x, state, *weights, cfg.nonlinearity)
