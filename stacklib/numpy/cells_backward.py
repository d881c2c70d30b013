"""The backward step of each cell: one time step of backpropagation, by the chain rule.

Every function takes dh = dLoss/dh_t (B, H), all paths into h_t already summed, dc =
dLoss/dc_t from step t+1 (LSTM only, else None), the step's record from ``cells.py`` and W_hh,
and returns

    dgx      (B, G*H)  dLoss/d(x_t W_ih^T + b_ih), the input's part of the pre-activations
    dgh      (B, G*H)  dLoss/d(h_{t-1} W_hh^T + b_hh), the recurrent part (the same array
                       except in the GRU, whose reset gate multiplies only the recurrent part)
    dh_prev  (B, H)    dLoss/dh_{t-1} along this step: the path back through time
    dc_prev  (B, H)    dLoss/dc_{t-1} (LSTM; else None)

The weight gradients are sums of these over the steps; ``layer.layer_backward`` forms them.
"""

from __future__ import annotations

import numpy as np


def rnn_step_backward(dh, dc, step, w_hh, dact):
    """``dact(h)`` is the nonlinearity's derivative written with its output h = act(a)."""
    da = dh * dact(step.h)  # (B, H)
    return da, da, da @ w_hh, None


def gru_step_backward(dh, dc, step, w_hh):
    r, z, n, hn = step.r, step.z, step.n, step.hn
    da_n = dh * (1.0 - z) * (1.0 - n * n)  # h = (1 - z) n + z h_prev, n = tanh(a_n)
    da_z = dh * (step.h_prev - n) * z * (1.0 - z)  # σ'(a) = σ (1 - σ)
    da_r = da_n * hn * r * (1.0 - r)  # a_n = gx_n + r * hn
    dgx = np.concatenate([da_r, da_z, da_n], axis=1)  # (B, 3H)
    dgh = np.concatenate([da_r, da_z, da_n * r], axis=1)
    return dgx, dgh, dh * z + dgh @ w_hh, None


def lstm_step_backward(dh, dc, step, w_hh):
    i, f, g, o, tanh_c = step.i, step.f, step.g, step.o, step.tanh_c
    dc = dc + dh * o * (1.0 - tanh_c * tanh_c)  # c_t reaches the loss through h_t = o tanh(c_t)
    da = np.concatenate([dc * g * i * (1.0 - i),  # a_i: c_t = f c_{t-1} + i g
                         dc * step.c_prev * f * (1.0 - f),  # a_f
                         dc * i * (1.0 - g * g),  # a_g
                         dh * tanh_c * o * (1.0 - o)], axis=1)  # a_o; (B, 4H)
    return da, da, da @ w_hh, dc * f
