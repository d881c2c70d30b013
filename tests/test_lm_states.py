"""stacklib.lm.states: every layer's h and c at every step of a language model, computed by the
NumPy reference from the model's weights, are the model's own."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from toy_text import VOCAB, toy_text

from stacklib.lm.model import LM, LMConfig
from stacklib.lm.states import layer_states


def _model(cell="lstm", residual=True):
    torch.manual_seed(0)
    return LM(LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=3, cell=cell,
                          residual=residual)).eval()


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_the_references_states_are_the_models(cell):
    """h at every step is what the model's layers hand back, the last c the state they end in
    (torch.nn's LSTM gives no other c); a cell without a memory has no c."""
    model, ids = _model(cell), toy_text(60).reshape(3, 20)
    h, c = layer_states(model, ids)
    with torch.no_grad():
        hidden, _, final = model.run(torch.from_numpy(ids))
    assert h.shape == (3, 3, 20, 8) and h.dtype == np.float32
    for layer, ours in zip(hidden, h, strict=True):
        np.testing.assert_allclose(ours, layer.numpy(), rtol=1e-5, atol=1e-6)
    if cell == "gru":
        assert c is None
        return
    for layer, (_, c_n) in zip(c, final, strict=True):
        np.testing.assert_allclose(layer[:, -1], c_n[0].numpy(), rtol=1e-5, atol=1e-6)


def test_a_batch_run_a_few_rows_at_a_time_is_the_same_batch():
    model, ids = _model(), toy_text(140).reshape(7, 20)
    whole, parts = layer_states(model, ids), layer_states(model, ids, rows=3)
    for a, b in zip(whole, parts, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
