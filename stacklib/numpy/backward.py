"""Backpropagation through time *and* down the stack, written by hand.

The gradient reaching h^[l]_t arrives along two paths — from h^[l]_{t+1} (time) and from the
layer above at the same t (depth) — and ``Gradients.h_norm[t, l]`` records the norm of their sum:
the quantity the lecture's §09 plots.
"""

from __future__ import annotations

import numpy as np

from stacklib._validate import as_float_array, check_shape
from stacklib.numpy import norm
from stacklib.numpy._kernels import Workspace


def _state_grad(name, value, like, unbatched, L, H):
    if value is None:
        return np.zeros_like(like)
    g = as_float_array(name, value, like.dtype)
    want = (L, H) if unbatched else like.shape
    check_shape(name, g, want)
    return g[:, None, :] if unbatched else g


def stack_backward(stack, out, grad_output, grad_h_n=None, grad_c_n=None):
    from stacklib.numpy.outputs import Gradients

    cache = getattr(out, "_cache", None)
    if not cache:
        raise ValueError("out: expected the StackOutput returned by this stack's forward()")
    if cache.get("stack") is not stack or cache.get("version") != stack._version:
        raise ValueError("out: computed by another stack, or by this one before load_state_dict "
                         "changed its weights; run this stack's forward() again")
    if not cache["grad"]:
        raise ValueError("out: computed with forward(..., grad=False), which keeps nothing for "
                         "backward; run forward with grad=True (the default)")
    layers, X, unbatched = cache["layers"], cache["X"], cache["unbatched"]
    L, H, lstm = stack.num_layers, stack.hidden_size, stack.cell == "lstm"
    T, B = X.shape[:2]
    g = as_float_array("grad_output", grad_output, stack.dtype)
    check_shape("grad_output", g, out.output.shape, "(like the forward output)")
    dU = g[:, None, :] if unbatched else (g.transpose(1, 0, 2) if stack.batch_first else g)
    h_shape = np.empty((L, B, H), stack.dtype)
    dh_n = _state_grad("grad_h_n", grad_h_n, h_shape, unbatched, L, H)
    dc_n = _state_grad("grad_c_n", grad_c_n, h_shape, unbatched, L, H) if lstm else None
    if grad_c_n is not None and not lstm:
        raise ValueError(f"grad_c_n: only defined for cell='lstm', got cell={stack.cell!r}")

    params = {}
    dh0 = np.empty((L, B, H), stack.dtype)
    dc0 = np.empty((L, B, H), stack.dtype) if lstm else None
    h_norm = np.empty((T, L), stack.dtype)
    kernels = stack.kernels()
    ws = Workspace()  # the layers' scratch: fresh memory once per pass, not once per layer
    for k in range(L - 1, -1, -1):
        rec = layers[k]
        d_cell_out = dU
        if stack.layer_norm:
            d_cell_out, dw, db = norm.layer_norm_backward(
                dU, stack._params[f"ln_weight_l{k}"], rec["ln"])
            params[f"ln_weight_l{k}"], params[f"ln_bias_l{k}"] = dw, db
        dX, grads, dh0[k], c0k, dh_total = stack._cell.backward(
            kernels[k], rec["cell"], d_cell_out, dh_n[k], dc_n[k] if lstm else None, ws)
        if lstm:
            dc0[k] = c0k
        h_norm[:, k] = np.sqrt(np.einsum("tbh,tbh->t", dh_total, dh_total))  # before ws reuse
        params[f"weight_ih_l{k}"], params[f"weight_hh_l{k}"] = grads["w_ih"], grads["w_hh"]
        if stack.bias:
            params[f"bias_ih_l{k}"], params[f"bias_hh_l{k}"] = grads["b_ih"], grads["b_hh"]
        if stack.residual and k >= 1:
            dX = dX + dU  # the skip path hands the upper gradient straight down
        if k > 0 and layers[k - 1]["mask"] is not None:
            dX = dX * layers[k - 1]["mask"]
        dU = dX
    d_input = dU[:, 0] if unbatched else (dU.transpose(1, 0, 2) if stack.batch_first else dU)
    if unbatched:
        dh0, dc0 = dh0[:, 0], (None if dc0 is None else dc0[:, 0])
    ordered = {name: params[name] for name in stack.param_shapes()}
    return Gradients(ordered, d_input, dh0, dc0, h_norm)
