"""Backpropagation through time *and* down the stack, written by hand.

The top layer receives the output's gradient; each layer runs BPTT through its own steps
(``layer.layer_backward``) and hands what reaches its input down to the layer below, through
the skip path and the dropout mask when the stack has them. ``Gradients.h_norm[t, l]`` is the
norm of the gradient reaching h^[l]_t along both paths: the quantity the lecture's §09 plots.
"""

from __future__ import annotations

import numpy as np

from stacklib._validate import as_array, check_shape, state_shape
from stacklib.config import StackConfig, param_name
from stacklib.numpy.between_layers import layer_norm_backward
from stacklib.numpy.layer import LayerWeights, cell_of, layer_backward
from stacklib.numpy.outputs import Gradients, Tape


def _grad(name, value, dtype, shape, batched):
    """A given gradient (like what it is the gradient of) as (…, B, H); None -> zeros."""
    if value is None:
        return np.zeros(shape if batched else (shape[0], 1, *shape[1:]), dtype)
    g = as_array(name, value, dtype)
    check_shape(name, g.shape, shape, "(like the forward's)")
    return g if batched else g[:, None]


def stack_backward(tape: Tape, config: StackConfig, weights: list[LayerWeights], ln_gains,
                   output_shape, grad_output, grad_h_n=None, grad_c_n=None) -> Gradients:
    """The gradients of a forward pass recorded in ``tape``: ``weights`` are the stack's per
    layer, ``ln_gains`` its layer norms' gains (None without layer_norm), ``output_shape``
    the forward output's shape."""
    cfg, batched, dtype = config, tape.batched, weights[0].w_ih.dtype
    cell, lstm = cell_of(cfg), cfg.cell == "lstm"
    if grad_c_n is not None and not lstm:
        raise ValueError(f"grad_c_n: only defined for cell='lstm', got cell={cfg.cell!r}")
    T, B = tape.layers[0].x.shape[:2]
    dU = _grad("grad_output", grad_output, dtype, output_shape, batched)
    if batched and cfg.batch_first:
        dU = dU.transpose(1, 0, 2)
    final = state_shape(cfg.num_layers, B, cfg.hidden_size, batched)
    dh_n = _grad("grad_h_n", grad_h_n, dtype, final, batched)
    dc_n = _grad("grad_c_n", grad_c_n, dtype, final, batched) if lstm else None

    params, h_norm = {}, np.empty((T, cfg.num_layers), dtype)
    dh0 = np.empty((cfg.num_layers, B, cfg.hidden_size), dtype)
    dc0 = np.empty_like(dh0) if lstm else None
    for k in reversed(range(cfg.num_layers)):  # top layer first: the gradient climbs down
        layer = tape.layers[k]
        d_above = dU  # (T, B, H): dLoss/du^[l]_t, from the layer above or the output
        if cfg.layer_norm:
            d_above, dw, db = layer_norm_backward(dU, ln_gains[k], layer.ln)
            params[param_name("ln_weight", k)], params[param_name("ln_bias", k)] = dw, db
        dx, grads, dh0[k], dc0k, h_norm[:, k] = layer_backward(
            cell, weights[k], layer.x, layer.h0, layer.hs, layer.steps,
            d_above, dh_n[k], dc_n[k] if lstm else None)
        if lstm:
            dc0[k] = dc0k
        for part, g in grads.items():
            params[param_name(part, k)] = g
        if cfg.residual and k >= 1:
            dx = dx + dU  # the skip path hands the gradient from above straight down
        if k >= 1 and tape.layers[k - 1].mask is not None:
            dx = dx * tape.layers[k - 1].mask  # what the layer below's dropout let through
        dU = dx
    if not batched:
        dU, dh0, dc0 = (None if a is None else a[:, 0] for a in (dU, dh0, dc0))
    elif cfg.batch_first:
        dU = dU.transpose(1, 0, 2)
    ordered = {name: params[name] for name in cfg.param_shapes()}  # state_dict()'s order
    return Gradients(ordered, dU, dh0, dc0, h_norm)
