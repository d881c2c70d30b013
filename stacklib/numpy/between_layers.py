"""What happens between two layers of the stack: layer normalisation and inverted dropout."""

from __future__ import annotations

import numpy as np

from stacklib.config import LN_EPS


def layer_norm(a, weight, bias, eps=LN_EPS):
    """Normalise over the last (hidden) axis, then scale and shift (torch.nn.LayerNorm).
    Returns (y, record) where ``layer_norm_backward`` reads the record."""
    mu = a.mean(axis=-1, keepdims=True)
    centred = a - mu
    inv_std = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps)
    xhat = centred * inv_std
    return xhat * weight + bias, (xhat, inv_std)


def layer_norm_backward(dy, weight, cache):
    """Gradients of ``layer_norm`` w.r.t. its input, weight and bias."""
    xhat, inv_std = cache
    axes = tuple(range(dy.ndim - 1))
    dweight = (dy * xhat).sum(axis=axes)
    dbias = dy.sum(axis=axes)
    dxhat = dy * weight
    da = inv_std * (
        dxhat
        - dxhat.mean(axis=-1, keepdims=True)
        - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True)
    )
    return da, dweight, dbias


def dropout_mask(shape, p, generator, dtype):
    """Inverted dropout: each entry is 0 with probability p, else 1/(1-p), so that the
    expected value is unchanged and evaluation needs no rescaling."""
    keep = generator.random(shape) >= p
    return keep.astype(dtype) / dtype.type(1.0 - p)
