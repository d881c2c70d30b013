"""Helpers shared by the NumPy cells: activations, weight layout, buffers, GEMM gradients.

Every cell (``cells.py``: RNN, GRU; ``lstm.py``: LSTM) exposes the same three functions, so the
stack in ``stack.py`` is one skeleton:

    prepare(w)                            torch-layout weights -> kernels laid out for speed
    forward(k, X, h0, c0, grad)           X (T, B, in) -> h_t and c_t (or None) as (T, B, H)
                                          arrays (views allowed), and a cache for backward
                                          (None if not grad: nothing kept but the states)
    stack_buffers(X, L, H)  (optional)    one buffer for a plain stack's states, one view z
                                          per layer, passed as forward(..., z=z): each layer
                                          writes its h where the next one reads its input
    backward(k, cache, dH, dh, dc, ws)    dLoss/dH (T, B, H) -> dX (T, B, in), weight grads,
                                          dh0, dc0 (B, H), and dLoss/dh_t of every step
                                          (T, ...) including the path through time; its
                                          scratch may come from ``ws`` (a ``Workspace``), so
                                          that last array is valid until ws is used again
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


def bias_or_zeros(w, name, rows, dtype):
    b = w.get(name)
    return np.zeros(rows, dtype) if b is None else b


def half_scale(gh, n_sigmoid, dtype):
    """1/2 on the first ``n_sigmoid`` gate rows, so σ(a) = (1 + tanh(a/2)) / 2 needs one tanh
    (halving weights and bias is exact in binary floating point: the GEMM yields exactly a/2)."""
    return np.where(np.arange(gh) < n_sigmoid, 0.5, 1.0).astype(dtype)


def carve(dtype, *shapes):
    """Arrays of these shapes carved out of one allocation. Fresh memory costs a page fault on
    first touch; the OS maps one large block in larger pages than several smaller ones (about
    13 % of an LSTM forward pass at B = 32)."""
    return Workspace().carve(dtype, *shapes)


class Workspace:
    """Scratch memory that the layers of one backward pass take in turn.

    ``carve`` hands out arrays like the function ``carve``, from one buffer that is kept and
    grown as needed: what it handed out before is overwritten by its next call. A pass through
    L layers thus touches fresh memory once instead of L times (at B = 32 the LSTM backward
    needs ~13 MB of scratch per layer; fresh pages cost a fault and zeroing each).
    """

    def __init__(self):
        self._mem = np.empty(0, np.uint8)

    def carve(self, dtype, *shapes):
        dtype = np.dtype(dtype)
        sizes = [-(-math.prod(shape) // 16) * 16 for shape in shapes]
        nbytes = sum(sizes) * dtype.itemsize
        if self._mem.nbytes < nbytes:
            self._mem = np.empty(nbytes, np.uint8)
        mem = self._mem[:nbytes].view(dtype)
        offsets = np.cumsum([0, *sizes])
        return [mem[a : a + math.prod(shape)].reshape(shape)
                for a, shape in zip(offsets[:-1], shapes, strict=True)]


class Kernels:
    """Weights laid out for one layer, e.g. ``wx`` (in, GH), ``wh`` (H, GH), ``b`` (GH,), extras."""

    def __init__(self, **arrays):
        self.__dict__.update(arrays)


def gemm_grads(k, X, h_prev, dgx, dgh, dh_total, dh0, dc0):
    """Weight, bias and input gradients as one GEMM each over all T*B rows (time-major rows)."""
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
