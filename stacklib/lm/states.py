"""Every layer's states at every step of a language model, from the NumPy reference.

torch.nn's layers hand back every step's h but only the last c. The NumPy reference
(``stacklib.numpy``) runs the same stack from the model's own weights, step by step, and keeps
every layer's h and c at every step, so that is where the analyses read them
(tests/test_lm_states.py holds them to the model's h and last c).
"""

from __future__ import annotations

import numpy as np
import torch

from stacklib.config import param_name
from stacklib.lm.model import LM
from stacklib.numpy import StackedRNN


def flat_weights(model: LM) -> dict[str, torch.Tensor]:
    """The stack's weights under torch.nn's flat names (weight_ih_l{k}, ...): each layer is a
    one-layer torch.nn module, whose own names end in _l0."""
    return {param_name(name.removesuffix("_l0"), k): p
            for k, layer in enumerate(model.layers) for name, p in layer.named_parameters()}


@torch.no_grad()
def layer_states(model: LM, ids: np.ndarray, rows: int | None = None
                 ) -> tuple[np.ndarray, np.ndarray | None]:
    """Every layer's h and c after each token of ``ids`` (B, T), read from a zero state: each
    (L, B, T, H) in the model's dtype, c None for a cell without one. The reference keeps a
    record of every step, so a long batch is run ``rows`` sequences at a time (None: at once)."""
    embedded = model.embed(torch.from_numpy(np.asarray(ids))).numpy()    # (B, T, E)
    stack = StackedRNN.from_config(model.cfg.stack, dtype=embedded.dtype)
    stack.load_state_dict({k: v.detach().cpu().numpy() for k, v in flat_weights(model).items()})
    step = rows or len(embedded)
    runs = [stack(embedded[lo : lo + step]) for lo in range(0, len(embedded), step)]
    h = np.concatenate([run.h for run in runs], axis=2).transpose(0, 2, 1, 3)
    if runs[0].c is None:
        return h, None
    return h, np.concatenate([run.c for run in runs], axis=2).transpose(0, 2, 1, 3)
