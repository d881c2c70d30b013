"""The plain RNN and GRU layers over a whole sequence, forward and hand-written BPTT.

The calling convention shared with ``lstm.py`` is in ``_kernels.py``. The input projection of
all T steps is one GEMM hoisted out of the time loop; weight gradients are one GEMM each after
the backward loop; every elementwise factor that does not depend on the backward recursion is
precomputed over the whole sequence, so the loop only does what the recursion forces. GRU
sigmoids are computed as σ(a) = (1 + tanh(a/2)) / 2 with the 1/2 folded into the weights.
"""

from __future__ import annotations

import numpy as np

from stacklib.numpy._kernels import ACTIVATIONS, Kernels, bias_or_zeros, gemm_grads, half_scale
from stacklib.numpy.lstm import LSTM


# ---------------------------------------------------------------- RNN: h' = act(Wx + Uh + b)
class RNN:
    def __init__(self, nonlinearity="tanh"):
        self.act, self.dact = ACTIVATIONS[nonlinearity]

    def prepare(self, w):
        gh, dt = w["w_ih"].shape[0], w["w_ih"].dtype
        b = bias_or_zeros(w, "b_ih", gh, dt) + bias_or_zeros(w, "b_hh", gh, dt)
        return Kernels(wx=np.ascontiguousarray(w["w_ih"].T), wh=np.ascontiguousarray(w["w_hh"].T),
                       w_ih=w["w_ih"], w_hh=w["w_hh"], b=b)

    def forward(self, k, X, h0, c0=None, grad=True):
        T, B, _ = X.shape
        H = k.wh.shape[0]
        hs = np.empty((T + 1, B, H), X.dtype)  # hs[0] = h0, hs[t+1] = h_t
        hs[0] = h0
        np.matmul(X.reshape(T * B, -1), k.wx, out=hs[1:].reshape(T * B, H))
        hs[1:] += k.b
        for t in range(T):
            pre = hs[t + 1]
            pre += hs[t] @ k.wh
            self.act(pre)
        return hs[1:], None, ({"X": X, "hs": hs} if grad else None)

    @staticmethod
    def named_gates(cache):
        return {}

    def backward(self, k, cache, dH, dh_n, dc_n=None, ws=None):
        X, hs = cache["X"], cache["hs"]
        T = dH.shape[0]
        deriv = self.dact(hs[1:])  # d act / d pre, (T, B, H)
        dpre = np.empty_like(dH)
        dh_total = np.empty_like(dH)
        carry = dh_n
        for t in range(T - 1, -1, -1):
            np.add(dH[t], carry, out=dh_total[t])
            np.multiply(dh_total[t], deriv[t], out=dpre[t])
            carry = dpre[t] @ k.w_hh
        return gemm_grads(k, X, hs[:-1], dpre, dpre, dh_total, carry, None)


# ------------------------------------------------------------------- GRU (torch's equations)
class GRU:
    """r = σ(W_ir x + b_ir + W_hr h + b_hr);  z = σ(W_iz x + b_iz + W_hz h + b_hz)
    n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn));  h' = (1 − z) ⊙ n + z ⊙ h"""

    def prepare(self, w):
        gh = w["w_ih"].shape[0]
        H = gh // 3
        b_ih = bias_or_zeros(w, "b_ih", gh, w["w_ih"].dtype)
        b_hh = bias_or_zeros(w, "b_hh", gh, w["w_ih"].dtype)
        bx = b_ih.copy()
        bx[: 2 * H] += b_hh[: 2 * H]  # r and z take both biases outside the reset product
        half = half_scale(gh, 2 * H, w["w_ih"].dtype)  # r, z: σ(a) = (1 + tanh(a/2)) / 2
        return Kernels(wx=np.ascontiguousarray(w["w_ih"].T * half),
                       wh=np.ascontiguousarray(w["w_hh"].T * half),
                       w_ih=w["w_ih"], w_hh=w["w_hh"], b=bx * half, b_hn=b_hh[2 * H :].copy())

    def forward(self, k, X, h0, c0=None, grad=True):
        T, B, _ = X.shape
        H = k.wh.shape[0]
        gx = (X.reshape(T * B, -1) @ k.wx).reshape(T, B, 3 * H)
        gx += k.b  # becomes [r, z, n] post-activation, in place
        hn = np.empty((T, B, H), X.dtype)  # W_hn h + b_hn, kept for backward
        hs = np.empty((T + 1, B, H), X.dtype)
        hs[0] = h0
        for t in range(T):
            g = gx[t]
            gh = hs[t] @ k.wh
            rz = g[:, : 2 * H]
            rz += gh[:, : 2 * H]
            np.tanh(rz, out=rz)
            rz *= 0.5
            rz += 0.5
            np.add(gh[:, 2 * H :], k.b_hn, out=hn[t])
            n = g[:, 2 * H :]
            n += g[:, :H] * hn[t]
            np.tanh(n, out=n)
            h = hs[t + 1]
            np.subtract(hs[t], n, out=h)  # h' = n + z (h - n)
            h *= g[:, H : 2 * H]
            h += n
        return hs[1:], None, ({"X": X, "hs": hs, "g": gx, "hn": hn} if grad else None)

    @staticmethod
    def named_gates(cache):
        H = cache["hn"].shape[-1]
        return {name: cache["g"][..., j * H : (j + 1) * H] for j, name in enumerate("rzn")}

    def backward(self, k, cache, dH, dh_n, dc_n=None, ws=None):
        X, hs, g, hn = cache["X"], cache["hs"], cache["g"], cache["hn"]
        T, B, H = dH.shape
        r, z, n = g[..., :H], g[..., H : 2 * H], g[..., 2 * H :]
        # Every factor below multiplies dh_t; none depends on the backward recursion.
        p_n = (1.0 - z) * (1.0 - n * n)  # d a_n
        q = np.empty((T, B, 3, H), dH.dtype)
        q[:, :, 0] = p_n * hn * r * (1.0 - r)  # d a_r
        q[:, :, 1] = (hs[:-1] - n) * z * (1.0 - z)  # d a_z
        q[:, :, 2] = p_n * r  # d (W_hn h + b_hn)
        dgh = np.empty((T, B, 3 * H), dH.dtype)
        dh_total = np.empty_like(dH)
        carry = dh_n
        for t in range(T - 1, -1, -1):
            dh = np.add(dH[t], carry, out=dh_total[t])
            np.multiply(dh[:, None, :], q[t], out=dgh[t].reshape(B, 3, H))
            carry = dgh[t] @ k.w_hh
            carry += dh * z[t]
        dgx = dgh.copy()
        dgx[..., 2 * H :] = dh_total * p_n
        return gemm_grads(k, X, hs[:-1], dgx, dgh, dh_total, carry, None)


CELL_TYPES = {"rnn": RNN, "gru": GRU, "lstm": LSTM}
