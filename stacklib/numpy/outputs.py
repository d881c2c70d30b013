"""What the NumPy stack hands back: ``StackOutput`` from forward, with the ``Tape`` backward
consumes, and ``Gradients`` from backward."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stacklib._validate import check_int
from stacklib.config import GATE_NAMES


@dataclass(frozen=True)
class LayerTape:
    """What one layer read and computed in forward, kept for backward. (T, B, ...) arrays."""

    x: np.ndarray  # (T, B, in) what the layer read: x_t or the output of the layer below
    h0: np.ndarray  # (B, H)
    c0: np.ndarray | None  # (B, H), LSTM only
    hs: np.ndarray  # (T, B, H) the cell's h_t
    cs: np.ndarray | None  # (T, B, H) the cell's c_t, LSTM only
    steps: list  # per step, the cell's record (cells.LSTMStep, ...)
    ln: tuple | None  # layer norm's record (between_layers.layer_norm), if layer_norm
    u: np.ndarray  # (T, B, H) what the layer hands upward
    mask: np.ndarray | None  # dropout mask applied to u on its way up (training only)


@dataclass(frozen=True)
class Tape:
    """Everything ``StackedRNN.backward`` reads: a forward pass of ``stack``, made while its
    weights were at ``version``."""

    stack: object
    version: int
    layers: tuple[LayerTape, ...]
    batched: bool  # False for an unbatched (T, input_size) input, run as B = 1


class StackOutput(tuple):
    """``(output, h_n)``, or ``(output, (h_n, c_n))`` for an LSTM: torch.nn's return value,
    indexing and unpacking like it, plus every layer's states as attributes.

    Attributes (L layers, T steps, B sequences, H hidden units; without the B axis for an
    unbatched input):
        output: (T, B, H), or (B, T, H) with ``batch_first``: y_t = u^[L]_t.
        h_n, c_n: (L, B, H): every layer's final state (``c_n`` None but for the LSTM).
        h, c: (L, T, B, H): every layer's h_t and c_t at every step (``c`` LSTM only).
        layer_outputs: (L, T, B, H): u^[l]_t, what each layer hands upward.
        tape: the record ``StackedRNN.backward`` consumes.

    Every array is the caller's own copy: editing one cannot change a gradient.
    """

    output: np.ndarray
    h_n: np.ndarray
    c_n: np.ndarray | None
    h: np.ndarray
    c: np.ndarray | None
    layer_outputs: np.ndarray
    tape: Tape

    def __new__(cls, tape: Tape, cell: str, batch_first: bool):
        lstm = cell == "lstm"
        h = np.stack([layer.hs for layer in tape.layers])  # (L, T, B, H)
        c = np.stack([layer.cs for layer in tape.layers]) if lstm else None
        u = np.stack([layer.u for layer in tape.layers])
        if not tape.batched:  # drop the B = 1 axis the unbatched input ran with
            h, c, u = (None if a is None else a[:, :, 0] for a in (h, c, u))
        output = u[-1].copy()
        if tape.batched and batch_first:
            output = output.transpose(1, 0, 2)
        h_n = h[:, -1].copy()
        c_n = c[:, -1].copy() if lstm else None
        self = super().__new__(cls, (output, (h_n, c_n) if lstm else h_n))
        self.output, self.h_n, self.c_n, self.h, self.c = output, h_n, c_n, h, c
        self.layer_outputs, self.tape, self._cell = u, tape, cell
        return self

    def gates(self, layer: int) -> dict[str, np.ndarray]:
        """Gate activations of ``layer`` (0-based) at every step: {"i", "f", "g", "o"} for an
        LSTM, {"r", "z", "n"} for a GRU, {} for a plain RNN; each (T, B, H), a copy."""
        L = len(self.tape.layers)
        if check_int("layer", layer, minimum=0) >= L:
            raise ValueError(f"layer: expected an index in 0..{L - 1}, got {layer}")
        steps = self.tape.layers[layer].steps
        out = {name: np.stack([getattr(s, name) for s in steps]) for name in GATE_NAMES[self._cell]}
        return out if self.tape.batched else {k: v[:, 0] for k, v in out.items()}


@dataclass
class Gradients:
    """What ``StackedRNN.backward`` returns. Shapes like the forward's (unbatched: no B)."""

    params: dict  # name -> dLoss/dparameter, the keys and shapes of state_dict()
    input: np.ndarray  # dLoss/dx, like x
    h0: np.ndarray  # (L, B, H)
    c0: np.ndarray | None  # (L, B, H), LSTM only
    h_norm: np.ndarray  # (T, L): ||dLoss/dh^[l]_t|| over the batch, both paths included
