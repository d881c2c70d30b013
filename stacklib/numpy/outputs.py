"""What the NumPy stack hands back: ``StackOutput`` (forward) and ``Gradients`` (backward)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from numbers import Integral

import numpy as np


@dataclass
class StackOutput:
    """Everything a forward pass produced. Shapes for batched input; with ``batch_first`` only
    ``output`` is batch-first (like torch's), every per-layer sequence stays (L, T, B, H).

    Unpacks like torch.nn's return value: ``y, (h_n, c_n) = stack(x)`` for an LSTM, ``y, h_n =
    stack(x)`` otherwise. ``h``, ``c`` and ``layer_outputs`` are assembled from the layers on
    first access (a forward pass that only needs ``output`` copies nothing it does not use).
    ``output`` and ``gates()`` are read-only views of what ``backward()`` reads: write into a
    copy (an in-place edit would silently change the gradients; torch raises there too).
    """

    output: np.ndarray  # (T, B, H) y_t = u^[L]_t  ((B, T, H) if batch_first)
    h_n: np.ndarray  # (L, B, H) final state of every layer
    c_n: np.ndarray | None  # (L, B, H) final cell state (LSTM only)
    _seqs: dict = field(default=None, repr=False)  # "h", "c", "u" -> per-layer (T, B, H)
    _cache: dict = field(default=None, repr=False)

    def __iter__(self):
        yield self.output
        yield self.h_n if self.c_n is None else (self.h_n, self.c_n)

    def _stacked(self, key):
        seqs = self._seqs[key]
        if seqs is None:
            return None
        out = np.stack(seqs)
        return out[:, :, 0] if self._cache["unbatched"] else out

    @cached_property
    def h(self) -> np.ndarray:
        """(L, T, B, H): every layer's h at every step."""
        return self._stacked("h")

    @cached_property
    def c(self) -> np.ndarray | None:
        """(L, T, B, H): every layer's c at every step (LSTM only; not kept by grad=False)."""
        if self._seqs["c"] is not None and not self._cache["grad"]:
            raise ValueError("c: this output was computed with forward(..., grad=False), which "
                             "keeps only the last cell state (c_n); run forward with grad=True")
        return self._stacked("c")

    @cached_property
    def layer_outputs(self) -> np.ndarray:
        """(L, T, B, H): u^[l]_t, what each layer hands upward."""
        return self._stacked("u")

    def gates(self, layer: int) -> dict[str, np.ndarray]:
        """Gate activations of ``layer`` (1-based) at every step, e.g. {"i", "f", "g", "o"} for
        an LSTM, {"r", "z", "n"} for a GRU; shapes (T, B, H) (or (T, H) if unbatched)."""
        layers = self._cache["layers"]
        if not self._cache["grad"]:
            raise ValueError("gates: this output was computed with forward(..., grad=False), "
                             "which keeps no gates; run forward with grad=True")
        if isinstance(layer, bool | np.bool_) or not isinstance(layer, Integral) or not (
                1 <= layer <= len(layers)):
            raise ValueError(f"layer: expected an integer in 1..{len(layers)}, got {layer!r}")
        named = self._cache["cell"].named_gates(layers[layer - 1]["cell"])
        return {k: read_only(v[:, 0] if self._cache["unbatched"] else v)
                for k, v in named.items()}


def read_only(view: np.ndarray) -> np.ndarray:
    view = view.view()
    view.flags.writeable = False
    return view


@dataclass
class Gradients:
    params: dict  # name -> gradient, same keys and shapes as state_dict()
    input: np.ndarray  # like x
    h0: np.ndarray  # (L, B, H)
    c0: np.ndarray | None  # (L, B, H), LSTM only
    h_norm: np.ndarray  # (T, L): ||dLoss/dh^[l]_t|| over the batch, both paths included
