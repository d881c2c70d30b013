"""The LSTM layer over a whole sequence in NumPy: forward and hand-written BPTT.

    i, f, o = σ(·);  g = tanh(·);  c' = f ⊙ c + i ⊙ g;  h' = o ⊙ tanh(c')

Layout, chosen by measurement (``scripts/bench_stack.py``): inside the layer every per-step
quantity is feature-major, (features, B). For B > 1 the step's product is W (4H, in + 1 + H) @
z_t with z_t = [x_t; 1; h_{t-1}] (in + 1 + H, B): input, bias and recurrence in one GEMM written
straight into the step's gate block. OpenBLAS runs this shape about a quarter faster than the
batch-major h (B, H) @ W (H, 4H), and at B = 32 a GEMM per step is as fast per flop as one
hoisted input GEMM plus a recurrent one, minus a pass over all gates to add them (re-measured:
the hoisted input GEMM saves ~12 % of the GEMM time, the per-step add costs it back). In a
plain stack all layers' z share one skewed buffer (``LSTM.stack_buffers``): layer l writes h_t
where layer l + 1 reads x_t, so nothing is copied between layers and a pass touches no more
fresh memory than its states need (fresh pages cost a fault and zeroing each). At B = 1 the
products are matrix-vector (memory-bound), so the input terms of all steps are hoisted into one
GEMM first. Each of a step's four gate blocks is one contiguous (H, B) slab, so every
elementwise call runs over contiguous memory (NumPy is about twice as fast there as on strided
slices), and c_{t-1} is stored right under the step's gates, so i ⊙ g and f ⊙ c_{t-1} are one
multiply of (i, f) by (g, c_{t-1}) (at B = 1 a step's small calls cost more than their
arithmetic: each call saved counts). Sigmoids are σ(a) = (1 + tanh(a/2)) / 2 with the 1/2
folded into the weights (exact in binary floating point), so one tanh call covers all four
gates; they are kept in the order (o, i, f, g), the three sigmoids first. Backward writes gate
gradients in torch's order (i, f, g, o), so the weight gradients come out of their GEMMs ready.
The (T, B, H) sequences handed to the stack are views of the feature-major states: nothing is
copied back to batch-major.
"""

from __future__ import annotations

import numpy as np

from stacklib.numpy._kernels import Kernels, Workspace, bias_or_zeros, carve, half_scale

_TORCH_TO_OIFG = (3, 0, 1, 2)  # torch blocks (i, f, g, o) -> internal (o, i, f, g)


def _blocks(a, order):
    H = a.shape[0] // 4
    return np.concatenate([a[j * H : (j + 1) * H] for j in order], axis=0)


def _vectors(B, *arrays):
    """At B = 1, views without the trailing batch axis: per-step products become matrix-vector
    products, for which OpenBLAS's GEMV runs about twice as fast as a one-column GEMM."""
    return [a[..., 0] for a in arrays] if B == 1 else list(arrays)


_tanh, _mul, _add, _matmul = np.tanh, np.multiply, np.add, np.matmul  # positional out=: the
# per-step calls are small (at B = 1, ~1k numbers), so argument parsing is part of their cost


def _update(b, c, tc, h, ic):
    """One step, in place. b (5, H, B): the step's gate pre-activations (o, i, f, g) and c_prev
    under them; the gates become activations, then c = i g + f c_prev, tc = tanh(c), h = o tc.
    ic (2, H, B): scratch."""
    a = b[:4]
    _tanh(a, a)  # one call for all four gates: o, i, f were prescaled by 1/2
    sig = b[:3]
    _mul(sig, 0.5, sig)
    _add(sig, 0.5, sig)
    _mul(b[1:3], b[3:5], ic)  # (i, f) * (g, c_prev): both products in one call
    _add(ic[0], ic[1], c)
    _tanh(c, tc)
    _mul(b[0], tc, h)  # o tanh(c)


_CHUNK = 10  # backward: steps per chunk (at B = 32 a chunk's factors take 1.3 MB: cache-sized)


def _factors(g, cs, tc, p, a_c):
    """The factors backward multiplies per step, for steps whose gates (o, i, f, g) are g
    (m, 4, H, B), cell states before them cs (m, H, B) and tanh of the new ones tc: p (m, 4, H,
    B) = [σ'(a_o) tanh c_t, σ'(a_i) g, σ'(a_f) c_{t-1}, (1 - g²) i] and a_c = o (1 - tanh² c_t)."""
    o, i, gg = g[:, 0], g[:, 1], g[:, 3]
    pg = p.transpose(1, 0, 2, 3)  # gate by gate
    np.subtract(1.0, g[:, :3], out=p[:, :3])
    p[:, :3] *= g[:, :3]  # σ'(a) = σ (1 - σ)
    pg[0] *= tc  # d a_o
    pg[1] *= gg  # d a_i
    pg[2] *= cs  # d a_f
    np.multiply(gg, gg, out=pg[3])
    np.subtract(1.0, pg[3], out=pg[3])
    pg[3] *= i  # d a_g
    np.multiply(tc, tc, out=a_c)
    np.subtract(1.0, a_c, out=a_c)
    a_c *= o


class LSTM:
    """i, f, o = σ(·);  g = tanh(·);  c' = f ⊙ c + i ⊙ g;  h' = o ⊙ tanh(c')"""

    def prepare(self, w):
        gh, n_in = w["w_ih"].shape
        H, dt = gh // 4, w["w_ih"].dtype
        half = half_scale(gh, 3 * H, dt)[:, None]  # o, i, f: σ(a) = (1 + tanh(a/2)) / 2
        b = bias_or_zeros(w, "b_ih", gh, dt) + bias_or_zeros(w, "b_hh", gh, dt)
        # w (4H, in + 1 + H) = [W_ih | b | W_hh], gate rows (o, i, f, g), prescaled
        cat = _blocks(np.concatenate([w["w_ih"], b[:, None], w["w_hh"]], axis=1),
                      _TORCH_TO_OIFG) * half
        # B = 1 reads the three parts apart: GEMV on a strided matrix is ~1.5x slower, and
        # h @ W_hh^T on a contiguous (H, 4H) copy ~8 % faster than W_hh @ h
        wx, bx = np.ascontiguousarray(cat[:, :n_in]), cat[:, n_in].copy()
        wh_t = np.ascontiguousarray(cat[:, n_in + 1 :].T)
        return Kernels(w=cat, wx=wx, wh_t=wh_t, b=bx,
                       w_ih=w["w_ih"], w_hh=np.ascontiguousarray(w["w_hh"]),  # backward
                       w_hh_t=np.ascontiguousarray(w["w_hh"].T))

    @staticmethod
    def stack_buffers(X, num_layers, H):
        """The states of a whole plain stack in one buffer, so that no layer copies its input.

        S (T + L, in + L (H + 1), B) holds, for every step, the rows [x; 1; h^1; 1; h^2; ...;
        1; h^L], skewed: layer l (0-based) reads z_l[t] = [x^l_t; 1; h^l_{t-1}] = S[t + l,
        rows of x^l, its 1, h^l] and writes h^l_t into S[t + l + 1, rows of h^l], which is
        exactly where layer l + 1 reads its input x^(l+1)_t. Returns the L views z_l (T + 1,
        in_l + 1 + H, B), the first one's input rows already holding X (T, B, in); None at
        B = 1, where forward reads X directly and keeps h apart (matrix-vector products).
        """
        T, B, n_in = X.shape
        if B == 1:
            return None
        S = np.empty((T + num_layers, n_in + num_layers * (H + 1), B), X.dtype)
        S[:T, :n_in] = X.transpose(0, 2, 1)
        zs, lo = [], 0
        for layer in range(num_layers):
            width = n_in if layer == 0 else H
            zs.append(S[layer : layer + T + 1, lo : lo + width + 1 + H])
            lo += width + 1  # the next layer's input rows are this layer's h rows
        return zs

    def forward(self, k, X, h0, c0, grad=True, z=None):
        T, B, n_in = X.shape
        H = k.w.shape[0] // 4
        # z[t] = [x_t; 1; h_{t-1}] (in + 1 + H, B), so that one product w @ z[t] gives all four
        # gate pre-activations of step t (input, bias and recurrence) straight into block t
        # (o, i, f, g, c_{t-1}), each row (H, B); step t writes c_t under the gates of block
        # t + 1 and h_t into z[t + 1]; tc[t] = tanh(c_t). z comes from stack_buffers (its input
        # rows already hold X) or is made here; at B = 1 there is no z, only hs. Kept for
        # backward (and always at B = 1, where the blocks also hold the hoisted input terms):
        # one block per step, so cs = blk[:, 4]. Without grad at B > 1, two blocks take turns
        # (they stay in cache: the pass touches 60 % less fresh memory, up to 15 % faster at
        # B = 32) and c_T is the only cell state returned.
        keep = grad or B == 1
        own = z is None and B > 1
        blk, tc, ic, hs, z_own = carve(X.dtype, (T + 1 if keep else 2, 5, H, B),
                                       (T if keep else 1, H, B), (2, H, B),
                                       (T + 1 if B == 1 else 0, H, B),
                                       (T + 1, n_in + 1 + H, B) if own else (0, 0, 0))
        if own:
            z = z_own
            z[:T, :n_in] = X.transpose(0, 2, 1)
        if B > 1:
            hs = z[:, n_in + 1 :]
        hs[0], blk[0, 4] = h0.T, c0.T
        if B > 1:
            z[:, n_in] = 1.0
            n, m = len(blk), len(tc)
            gates = blk[:, :4].reshape(n, 4 * H, B)  # the GEMM's view of each block
            for t, zt in enumerate(z[:T]):
                b = blk[t % n]
                _matmul(k.w, zt, gates[t % n])
                _update(b, blk[(t + 1) % n, 4], tc[t % m], hs[t + 1], ic)
        else:  # matrix-vector products: hoist the input terms of all steps into one GEMM first
            blk_, hs_, tc_, ic = _vectors(B, blk, hs, tc, ic)
            pre = blk_[:T, :4].reshape(T, 4 * H)  # a view: rows 5H apart
            np.matmul(X[:, 0], k.wx.T, out=pre)
            pre += k.b
            rec = np.empty(4 * H, X.dtype)
            steps = zip(pre, hs_[:-1], blk_[:-1], blk_[1:, 4], tc_, hs_[1:], strict=True)
            for gt, h, b, c, tc_t, h_next in steps:  # iterating yields views: cheaper than [t]
                _add(gt, _matmul(h, k.wh_t, rec), gt)
                _update(b, c, tc_t, h_next, ic)
        # c_t of every step (c_T alone without grad at B > 1: the blocks took turns)
        cs = blk[:, 4] if keep else blk[T % len(blk), 4][None]
        cache = {"X": X, "hs": hs, "cs": cs, "g": blk[:T, :4], "tc": tc} if grad else None
        return hs[1:].transpose(0, 2, 1), cs[-T:].transpose(0, 2, 1), cache  # (T, B, H) views

    @staticmethod
    def named_gates(cache):
        return {name: cache["g"][:, j].transpose(0, 2, 1) for j, name in enumerate("oifg")}

    def backward(self, k, cache, dH, dh_n, dc_n, ws=None):
        X, hs, cs, g, tc = cache["X"], cache["hs"], cache["cs"], cache["g"], cache["tc"]
        T, B, H = dH.shape
        f = g[:, 2]  # (T, H, B)
        # Backward runs in chunks of C steps, latest first: each chunk's factors are computed
        # just before its steps and its gate gradients reordered just after, while they are in
        # cache (over all T at once, each of those passes streams several MB from memory).
        # p: factors of dh_t (for a_o) and of dc_t (for a_i, a_f, a_g), laid out like g;
        # a_c = d c_t / d h_t; dg: gate gradients per step in torch's order (i, f, g, o), a
        # chunk of them (all T at B = 1, where they are already in GEMM order); d2, h_prev: the
        # gate gradients and h_{t-1} of all steps in GEMM order (B > 1). Scratch, from ws if given.
        C = min(T, _CHUNK) if B > 1 else T  # (at B = 1 the chunks' extra calls cost more)
        n = T * B if B > 1 else 0
        p, a_c, dg, dh_total, dh_in, d2, h_prev = (ws or Workspace()).carve(
            dH.dtype, (C, 4, H, B), (C, H, B), (C if B > 1 else T, 4, H, B), (T, H, B),
            (C, H, B), (4 * H, n), (n, H))
        carry, dc_carry = np.array(dh_n.T, order="C"), np.array(dc_n.T, order="C")
        dc = np.empty((H, B), dH.dtype)
        dg_, p_, a_c_, f_, dh_in_, dh_total_, carry_, dc_carry_, dc_ = _vectors(
            B, dg, p, a_c, f, dh_in, dh_total, carry, dc_carry, dc)
        dg_flat = dg_.reshape(len(dg), 4 * H, *dg_.shape[3:])
        for hi in range(T, 0, -C):
            lo = max(0, hi - C)
            m = hi - lo
            _factors(g[lo:hi], cs[lo:hi], tc[lo:hi], p[:m], a_c[:m])
            dh_in[:m] = dH[lo:hi].transpose(0, 2, 1)
            base = 0 if B > 1 else lo  # where this chunk's gate gradients go in dg
            for j in range(m - 1, -1, -1):
                t = lo + j
                dh = _add(dh_in_[j], carry_, dh_total_[t])  # both paths: from above and t+1
                _mul(dh, a_c_[j], dc_)
                _add(dc_, dc_carry_, dc_)
                pt, dgt = p_[j], dg_[base + j]
                _mul(dh, pt[0], dgt[3])
                _mul(dc_, pt[1:], dgt[:3])
                if B > 1:  # (H, 4H) @ (4H, B)
                    _matmul(k.w_hh_t, dg_flat[j], carry_)
                else:  # vector @ matrix: OpenBLAS's transposed GEMV is faster on this shape
                    _matmul(dg_flat[t], k.w_hh, carry_)
                _mul(dc_, f_[t], dc_carry_)
            if B > 1:  # the chunk's gate gradients into GEMM order, while still in cache
                d2.reshape(4 * H, T, B)[:, lo:hi] = dg_flat[:m].transpose(1, 0, 2)
        # Gate gradients as (4H, T*B) and h_{t-1} as (T*B, H): one GEMM per weight gradient.
        if B == 1:  # already in that order: views
            d2, h_prev = dg.reshape(T, 4 * H).T, hs[:-1, :, 0]
        else:
            h_prev.reshape(T, B, H)[...] = hs[:-1].transpose(0, 2, 1)
        b_ih = d2 @ np.ones(d2.shape[1], d2.dtype)  # row sums: a GEMV, ~5x faster than sum()
        grads = {"w_ih": d2 @ X.reshape(T * B, -1), "w_hh": d2 @ h_prev,
                 "b_ih": b_ih, "b_hh": b_ih.copy()}
        dX = (d2.T @ k.w_ih).reshape(T, B, -1)
        return dX, grads, carry.T.copy(), dc_carry.T.copy(), dh_total
