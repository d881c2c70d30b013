"""One recurrent layer over a whole sequence, forward and hand-written BPTT, for three cells.

Every cell exposes the same three functions, so the stack in ``stack.py`` is one skeleton:

    prepare(w)                       torch-layout weights -> kernels laid out for speed
    forward(k, X, h0, c0)            X (T, B, in) -> H (T, B, H), final (h, c), cache
    backward(k, cache, dH, dh, dc)   dLoss/dH (T, B, H) -> dX, weight grads, dh0, dc0, dH_total

Speed notes (see scripts/bench_stack.py): the input projection of all T steps is one GEMM
hoisted out of the time loop; weight gradients are one GEMM each after the backward loop; every
elementwise factor that does not depend on the backward recursion is precomputed over the whole
sequence, so the loop only does what the recursion forces. Sigmoids are computed as
σ(a) = (1 + tanh(a/2)) / 2 with the 1/2 folded into the weights, so one tanh call covers all
gates of a step. LSTM gates are kept internally in the order (o, i, f, g), each step's four
(B, H) gate blocks contiguous: NumPy runs in-place ops on contiguous memory about twice as fast
as on strided slices. The LSTM backward writes gate gradients in torch's order (i, f, g, o), so
weight gradients come out of their GEMMs ready, with no reordering copies.
"""

from __future__ import annotations

import math

import numpy as np

# name -> (in-place activation, derivative expressed through the activation's output)
ACTIVATIONS = {
    "tanh": (lambda a: np.tanh(a, out=a), lambda h: 1.0 - h * h),
    "relu": (lambda a: np.maximum(a, 0.0, out=a), lambda h: (h > 0).astype(h.dtype)),
    "linear": (lambda a: a, np.ones_like),
}


def _bias(w, name, rows, dtype):
    b = w.get(name)
    return np.zeros(rows, dtype) if b is None else b


def _half_scale(gh, n_sigmoid, dtype):
    """1/2 on the first ``n_sigmoid`` gate rows, so σ(a) = (1 + tanh(a/2)) / 2 needs one tanh
    (halving weights and bias is exact in binary floating point: the GEMM yields exactly a/2)."""
    return np.where(np.arange(gh) < n_sigmoid, 0.5, 1.0).astype(dtype)


def _carve(dtype, *shapes):
    """Arrays of these shapes carved out of one allocation. Fresh memory costs a page fault on
    first touch; the OS maps one large block in larger pages than several smaller ones (about
    13 % of an LSTM forward pass at B = 32)."""
    sizes = [-(-math.prod(shape) // 16) * 16 for shape in shapes]  # 16-element strides
    mem = np.empty(sum(sizes), dtype)
    offsets = np.cumsum([0, *sizes])
    return [mem[a : a + math.prod(shape)].reshape(shape)
            for a, shape in zip(offsets[:-1], shapes, strict=True)]


class Kernels:
    """Weights laid out for one layer, e.g. ``wx`` (in, GH), ``wh`` (H, GH), ``b`` (GH,), extras."""

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
        half = _half_scale(gh, 2 * H, w["w_ih"].dtype)  # r, z: σ(a) = (1 + tanh(a/2)) / 2
        return Kernels(wx=np.ascontiguousarray(w["w_ih"].T * half),
                       wh=np.ascontiguousarray(w["w_hh"].T * half),
                       w_ih=w["w_ih"], w_hh=w["w_hh"], b=bx * half, b_hn=b_hh[2 * H :].copy())

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
        gh, n_in = w["w_ih"].shape
        H, dt = gh // 4, w["w_ih"].dtype
        w_ih, w_hh = _blocks(w["w_ih"], _TORCH_TO_OIFG), _blocks(w["w_hh"], _TORCH_TO_OIFG)
        b = _blocks(_bias(w, "b_ih", gh, dt) + _bias(w, "b_hh", gh, dt), _TORCH_TO_OIFG)
        half = _half_scale(gh, 3 * H, dt)  # o, i, f: σ(a) = (1 + tanh(a/2)) / 2
        wx, wh = np.ascontiguousarray(w_ih.T * half), np.ascontiguousarray(w_hh.T * half)
        # wx4[j], wh4[j]: gate j's weights alone, for GEMMs landing gate by gate in contiguous
        # blocks. Measured choice: wx4 for B > 1, wx at B = 1; wh4 at B = 1, wh for B > 1.
        wx4 = np.ascontiguousarray(wx.reshape(n_in, 4, H).transpose(1, 0, 2))
        wh4 = np.ascontiguousarray(wh.reshape(H, 4, H).transpose(1, 0, 2))
        # Backward works in torch's gate order (i, f, g, o), so gradients need no reordering.
        return Kernels(wx=wx, wx4=wx4, wh=wh, wh4=wh4, w_ih=w["w_ih"], w_hh=w["w_hh"],
                       b4=(b * half).reshape(4, 1, H))

    def forward(self, k, X, h0, c0):
        T, B, _ = X.shape
        H = k.wh4.shape[1]
        # Pre-activations, then gates, as g (T, 4, B, H): g[t] holds step t's four (B, H) gate
        # blocks (o, i, f, g), each contiguous, so every elementwise call runs over contiguous
        # memory. At B = 1 one GEMM lands exactly so; else four GEMMs land gate-major (4, T, B, H).
        pre, hs, cs, tc = _carve(X.dtype, (T, 4 * H) if B == 1 else (4, T * B, H),
                                 (T + 1, B, H), (T + 1, B, H), (T, B, H))  # tc = tanh(c_t)
        if B == 1:
            g = np.matmul(X.reshape(T, -1), k.wx, out=pre).reshape(T, 4, 1, H)
        else:
            g = np.matmul(X.reshape(T * B, -1), k.wx4, out=pre)
            g = g.reshape(4, T, B, H).transpose(1, 0, 2, 3)
        g += k.b4
        hs[0], cs[0] = h0, c0
        if B == 1:
            wh, rec = k.wh4, np.empty((4, 1, H), X.dtype)
            rec_g = rec
        else:
            wh, rec = k.wh, np.empty((B, 4 * H), X.dtype)
            rec_g = rec.reshape(B, 4, H).transpose(1, 0, 2)  # the same memory, gate by gate
        ig = np.empty((B, H), X.dtype)
        steps = zip(g, hs[:-1], hs[1:], cs[:-1], cs[1:], tc, strict=True)  # per-step views
        for gt, h_prev, h, c_prev, c, tc_t in steps:
            np.matmul(h_prev, wh, out=rec)
            gt += rec_g
            np.tanh(gt, out=gt)  # one call for all four gates: o, i, f were prescaled by 1/2
            sig = gt[:3]
            sig *= 0.5
            sig += 0.5
            o, i, f, gg = gt
            np.multiply(f, c_prev, out=c)
            np.multiply(i, gg, out=ig)
            c += ig
            np.tanh(c, out=tc_t)
            np.multiply(o, tc_t, out=h)
        return hs[1:], (hs[T], cs[T]), {"X": X, "hs": hs, "cs": cs, "g": g, "tc": tc}

    @staticmethod
    def named_gates(cache):
        return {name: cache["g"][:, j] for j, name in enumerate("oifg")}

    def backward(self, k, cache, dH, dh_n, dc_n):
        X, hs, cs, g, tc = cache["X"], cache["hs"], cache["cs"], cache["g"], cache["tc"]
        T, B, H = dH.shape
        o, i, f, gg = g.transpose(1, 0, 2, 3)  # (T, B, H) each
        # Factors of dh_t (o, and a_c for dc) and of dc_t (i, f, g), precomputed in bulk, in place.
        p, a_c, dg, dh_total = _carve(dH.dtype, (T, 4, B, H), (T, B, H), (T, B, 4 * H), (T, B, H))
        # p: laid out like g; dg: gate grads in torch's order (i, f, g, o), rows ready for GEMMs
        pg = p.transpose(1, 0, 2, 3)  # gate by gate
        np.subtract(1.0, g[:, :3], out=p[:, :3])
        p[:, :3] *= g[:, :3]  # σ'(a) = σ (1 - σ)
        pg[0] *= tc  # d a_o
        pg[1] *= gg  # d a_i
        pg[2] *= cs[:-1]  # d a_f
        np.multiply(gg, gg, out=pg[3])
        np.subtract(1.0, pg[3], out=pg[3])
        pg[3] *= i  # d a_g
        np.multiply(tc, tc, out=a_c)
        np.subtract(1.0, a_c, out=a_c)
        a_c *= o  # d c_t / d h_t
        dg_ifg = dg.reshape(T, B, 4, H)[:, :, :3].transpose(0, 2, 1, 3)  # (T, 3, B, H) view
        dg_o = dg.reshape(T, B, 4, H)[:, :, 3]
        carry, dc_carry, dc = np.array(dh_n), np.array(dc_n), np.empty((B, H), dH.dtype)
        for t in range(T - 1, -1, -1):
            dh = np.add(dH[t], carry, out=dh_total[t])
            np.multiply(dh, a_c[t], out=dc)
            dc += dc_carry
            np.multiply(dh, p[t, 0], out=dg_o[t])
            np.multiply(dc, p[t, 1:], out=dg_ifg[t])
            np.matmul(dg[t], k.w_hh, out=carry)
            np.multiply(dc, f[t], out=dc_carry)
        return _gemm_grads(k, X, hs[:-1], dg, dg, dh_total, carry, dc_carry)


def _gemm_grads(k, X, h_prev, dgx, dgh, dh_total, dh0, dc0):
    """Weight, bias and input gradients as one GEMM each over all T*B rows."""
    T, B, gh = dgx.shape
    fx, fh = dgx.reshape(T * B, gh), dgh.reshape(T * B, gh)
    b_ih = fx.sum(axis=0)
    grads = {
        "w_ih": fx.T @ X.reshape(T * B, -1),
        "w_hh": fh.T @ h_prev.reshape(T * B, -1),
        "b_ih": b_ih,
        "b_hh": b_ih.copy() if fh is fx else fh.sum(axis=0),
    }
    dX = (fx @ k.w_ih).reshape(T, B, -1)
    return dX, grads, dh0, dc0, dh_total


CELL_TYPES = {"rnn": RNN, "gru": GRU, "lstm": LSTM}
