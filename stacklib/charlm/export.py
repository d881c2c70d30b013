"""A trained character model as the browser runs it: int8 weights with a scale per row.

Each weight matrix (embedding, every layer's input and recurrent weights, the readout) is
stored as int8 codes q and one float32 scale s per row, s = max |row| / 127, so the weight the
browser uses is q * s, computed in float32 (``dequantize``). Biases stay float32. The model the
site ships is exactly that dequantized model (``shipped_state``): what it scores and what the
browser's forward pass is checked against are computed from the same numbers.

``reference`` runs it in float64 (the browser computes in JavaScript's double precision) and
returns every layer's hidden state and the next character's log-probabilities at every step.
"""

from __future__ import annotations

import numpy as np
import torch

from stacklib.lm.model import LM

QUANTIZED = ("embed.weight", "weight_ih_l0", "weight_hh_l0", "readout.weight")


def quantized_name(name: str) -> bool:
    """Is the state-dict entry ``name`` stored as int8 rows (else float32)?"""
    return name.endswith(QUANTIZED)


def quantize_rows(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes (R, C) and float32 scales (R,) of a float matrix (R, C)."""
    w = np.asarray(w, np.float32)
    if w.ndim != 2:
        raise ValueError(f"w: expected a matrix, got shape {w.shape}")
    peak = np.abs(w).max(axis=1)
    scale = np.where(peak > 0, peak / np.float32(127), np.float32(1)).astype(np.float32)
    q = np.clip(np.rint(w / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


def dequantize(q: np.ndarray, scale: np.ndarray) -> np.ndarray:
    return q.astype(np.float32) * scale.astype(np.float32)[:, None]


def quantize_state(state: dict) -> dict[str, tuple]:
    """Per state-dict entry: ("int8", codes, scales) or ("float32", values)."""
    out = {}
    for name, tensor in state.items():
        value = tensor.detach().cpu().numpy().astype(np.float32)
        out[name] = ("int8", *quantize_rows(value)) if quantized_name(name) else (
            "float32", value)
    return out


def shipped_state(state: dict) -> dict[str, torch.Tensor]:
    """The state dict the site ships: every quantized matrix replaced by q * s."""
    return {name: torch.from_numpy(dequantize(*parts[1:]) if parts[0] == "int8" else parts[1])
            for name, parts in quantize_state(state).items()}


@torch.no_grad()
def reference(model: LM, ids: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Every layer's h (T, H) and the log-probabilities of the next character (T, V) after
    each character of ``ids``, read from a zero state, computed in float64."""
    double = LM(model.cfg).double()
    double.load_state_dict({k: v.double() for k, v in model.state_dict().items()})
    double.eval()
    hidden, outputs, _ = double.run(torch.from_numpy(np.asarray(ids, np.int64))[None])
    logp = torch.log_softmax(double.readout(outputs[-1]), dim=-1)
    return [h[0].numpy() for h in hidden], logp[0].numpy()
