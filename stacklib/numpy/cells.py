"""One recurrent layer over a whole sequence, forward and hand-written BPTT, for three cells.

Every cell exposes the same three functions, so the stack in ``stack.py`` is one skeleton:

    prepare(w)                       torch-layout weights -> kernels laid out for speed
    forward(k, X, h0, c0)            X (T, B, in) -> H (T, B, H), final (h, c), cache
    backward(k, cache, dH, dh, dc)   dLoss/dH (T, B, H) -> dX, weight grads, dh0, dc0, dH_total

Speed notes (see scripts/bench_stack.py): the input projection of all T steps is one GEMM
hoisted out of the time loop; weight gradients are one GEMM each after the backward loop; every
elementwise factor that does not depend on the backward recursion is precomputed over the whole
sequence, so the loop only does what the recursion forces. LSTM gates are kept internally in the
order (o, i, f, g): the sigmoid gates are contiguous in the forward pass, and the three gates
driven by dc are contiguous in the backward pass.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

# name -> (in-place activation, derivative expressed through the activation's output)
ACTIVATIONS = {
    "tanh": (lambda a: np.tanh(a, out=a), lambda h: 1.0 - h * h),
    "relu": (lambda a: np.maximum(a, 0.0, out=a), lambda h: (h > 0).astype(h.dtype)),
    "linear": (lambda a: a, np.ones_like),
}


def _bias(w, name, rows, dtype):
    b = w.get(name)
    return np.zeros(rows, dtype) if b is None else b


class Kernels:
    """Weights laid out for one layer: ``wx`` (in, GH), ``wh`` (H, GH), ``b`` (GH,) plus extras."""

    def __init__(self, **arrays):
        self.__dict__.update(arrays)


# ---------------------------------------------------------------- RNN: h' = act(Wx + Uh + b)
class RNN:
    gates = 1

    def __init__(self, nonlinearity="tanh"):
        self.act, self.dact = ACTIVATIONS[nonlinearity]

    def prepare(self, w):
        gh = w["w_ih"].shape[0]
        b = _bias(w, "b_ih", gh, w["w_ih"].dtype) + _bias(w, "b_hh", gh, w["w_ih"].dtype)
        return Kernels(wx=np.ascontiguousarray(w["w_ih"].T), wh=np.ascontiguousarray(w["w_hh"].T),
                       w_ih=w["w_ih"], w_hh=w["w_hh"], b=b)

    def forward(self, k, X, h0, c0=None):
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
        return hs[1:], (hs[T], None), {"X": X, "hs": hs}

    @staticmethod
    def named_gates(cache):
        return {}

    def backward(self, k, cache, dH, dh_n, dc_n=None):
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
        return _gemm_grads(k, X, hs[:-1], dpre, dpre, dh_total, carry, None)


# ------------------------------------------------------------------- GRU (torch's equations)
class GRU:
    """r = σ(W_ir x + b_ir + W_hr h + b_hr);  z = σ(W_iz x + b_iz + W_hz h + b_hz)
    n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn));  h' = (1 − z) ⊙ n + z ⊙ h"""

    gates = 3

    def prepare(self, w):
        gh = w["w_ih"].shape[0]
        H = gh // 3
        b_ih = _bias(w, "b_ih", gh, w["w_ih"].dtype)
        b_hh = _bias(w, "b_hh", gh, w["w_ih"].dtype)
        bx = b_ih.copy()
        bx[: 2 * H] += b_hh[: 2 * H]  # r and z take both biases outside the reset product
        return Kernels(wx=np.ascontiguousarray(w["w_ih"].T), wh=np.ascontiguousarray(w["w_hh"].T),
                       w_ih=w["w_ih"], w_hh=w["w_hh"], b=bx, b_hn=b_hh[2 * H :].copy())

    def forward(self, k, X, h0, c0=None):
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
            g[:, : 2 * H] += gh[:, : 2 * H]
            expit(g[:, : 2 * H], out=g[:, : 2 * H])
            np.add(gh[:, 2 * H :], k.b_hn, out=hn[t])
            n = g[:, 2 * H :]
            n += g[:, :H] * hn[t]
            np.tanh(n, out=n)
            h = hs[t + 1]
            np.subtract(hs[t], n, out=h)  # h' = n + z (h - n)
            h *= g[:, H : 2 * H]
            h += n
        return hs[1:], (hs[T], None), {"X": X, "hs": hs, "g": gx, "hn": hn}

    @staticmethod
    def named_gates(cache):
        H = cache["hn"].shape[-1]
        return {name: cache["g"][..., j * H : (j + 1) * H] for j, name in enumerate("rzn")}

    def backward(self, k, cache, dH, dh_n, dc_n=None):
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
        return _gemm_grads(k, X, hs[:-1], dgx, dgh, dh_total, carry, None)


# ------------------------------------------------------------------------------------- LSTM
_TORCH_TO_OIFG = (3, 0, 1, 2)  # torch blocks (i, f, g, o) -> internal (o, i, f, g)


def _blocks(a, order):
    H = a.shape[0] // 4
    return np.concatenate([a[j * H : (j + 1) * H] for j in order], axis=0)


class LSTM:
    """i, f, o = σ(·);  g = tanh(·);  c' = f ⊙ c + i ⊙ g;  h' = o ⊙ tanh(c')"""

    gates = 4

    def prepare(self, w):
        gh = w["w_ih"].shape[0]
        dt = w["w_ih"].dtype
        w_ih, w_hh = _blocks(w["w_ih"], _TORCH_TO_OIFG), _blocks(w["w_hh"], _TORCH_TO_OIFG)
        b = _blocks(_bias(w, "b_ih", gh, dt) + _bias(w, "b_hh", gh, dt), _TORCH_TO_OIFG)
        return Kernels(wx=np.ascontiguousarray(w_ih.T), wh=np.ascontiguousarray(w_hh.T),
                       w_ih=w_ih, w_hh=w_hh, b=b, reorder=True)

    def forward(self, k, X, h0, c0):
        T, B, _ = X.shape
        H = k.wh.shape[0]
        g = np.empty((T, B, 4 * H), X.dtype)  # pre-activations, then gates (o, i, f, g)
        np.matmul(X.reshape(T * B, -1), k.wx, out=g.reshape(T * B, 4 * H))
        g += k.b
        hs = np.empty((T + 1, B, H), X.dtype)
        cs = np.empty((T + 1, B, H), X.dtype)
        tc = np.empty((T, B, H), X.dtype)  # tanh(c_t)
        hs[0], cs[0] = h0, c0
        rec = np.empty((B, 4 * H), X.dtype)
        ig = np.empty((B, H), X.dtype)
        for t in range(T):
            gt = g[t]
            np.matmul(hs[t], k.wh, out=rec)
            gt += rec
            expit(gt[:, : 3 * H], out=gt[:, : 3 * H])
            np.tanh(gt[:, 3 * H :], out=gt[:, 3 * H :])
            c = cs[t + 1]
            np.multiply(gt[:, 2 * H : 3 * H], cs[t], out=c)
            np.multiply(gt[:, H : 2 * H], gt[:, 3 * H :], out=ig)
            c += ig
            np.tanh(c, out=tc[t])
            np.multiply(gt[:, :H], tc[t], out=hs[t + 1])
        return hs[1:], (hs[T], cs[T]), {"X": X, "hs": hs, "cs": cs, "g": g, "tc": tc}

    @staticmethod
    def named_gates(cache):
        H = cache["tc"].shape[-1]
        return {name: cache["g"][..., j * H : (j + 1) * H] for j, name in enumerate("oifg")}

    def backward(self, k, cache, dH, dh_n, dc_n):
        X, hs, cs, g, tc = cache["X"], cache["hs"], cache["cs"], cache["g"], cache["tc"]
        T, B, H = dH.shape
        o, i, f, gg = (g[..., j * H : (j + 1) * H] for j in range(4))
        # Factors of dh_t (for o and for dc) and of dc_t (for i, f, g), precomputed in bulk.
        p_o = tc * o * (1.0 - o)
        a_c = o * (1.0 - tc * tc)
        p3 = np.empty((T, B, 3, H), dH.dtype)
        p3[:, :, 0] = gg * i * (1.0 - i)
        p3[:, :, 1] = cs[:-1] * f * (1.0 - f)
        p3[:, :, 2] = i * (1.0 - gg * gg)
        dg = np.empty((T, B, 4 * H), dH.dtype)
        dh_total = np.empty_like(dH)
        dc = np.empty((B, H), dH.dtype)
        carry, dc_carry = dh_n, dc_n
        for t in range(T - 1, -1, -1):
            dh = np.add(dH[t], carry, out=dh_total[t])
            np.multiply(dh, a_c[t], out=dc)
            dc += dc_carry
            np.multiply(dh, p_o[t], out=dg[t, :, :H])
            np.multiply(dc[:, None, :], p3[t], out=dg[t, :, H:].reshape(B, 3, H))
            carry = dg[t] @ k.w_hh
            dc_carry = dc * f[t]
        return _gemm_grads(k, X, hs[:-1], dg, dg, dh_total, carry, dc_carry)


def _gemm_grads(k, X, h_prev, dgx, dgh, dh_total, dh0, dc0):
    """Weight, bias and input gradients as one GEMM each over all T*B rows."""
    T, B, gh = dgx.shape
    fx, fh = dgx.reshape(T * B, gh), dgh.reshape(T * B, gh)
    grads = {
        "w_ih": fx.T @ X.reshape(T * B, -1),
        "w_hh": fh.T @ h_prev.reshape(T * B, -1),
        "b_ih": fx.sum(axis=0),
        "b_hh": fh.sum(axis=0),
    }
    if getattr(k, "reorder", False):  # internal (o, i, f, g) -> torch (i, f, g, o)
        grads = {name: _blocks(v, (1, 2, 3, 0)) for name, v in grads.items()}
    dX = (fx @ k.w_ih).reshape(T, B, -1)
    return dX, grads, dh0, dc0, dh_total


CELL_TYPES = {"rnn": RNN, "gru": GRU, "lstm": LSTM}
