"""stacklib.lm.model: the fast stack every experiment trains, and its configuration.

Each test states a property a plausible slip breaks: a layer reading the wrong input, the
readout reading a layer below the top, dropout on the residual skip path or in eval mode, a
forget-gate bias set in the wrong slice or in one layer only, a state carried with its history.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn
from toy_text import VOCAB, toy_text

from stacklib.config import StackConfig
from stacklib.lm.model import LM, LMConfig, detach, parameter_count

IDS = torch.from_numpy(toy_text(40).reshape(2, 20))


def _model(layers=3, residual=False, cell="lstm", dropout=0.0, forget_bias=None):
    torch.manual_seed(0)
    return LM(LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=layers,
                          residual=residual, cell=cell, dropout=dropout,
                          forget_bias=forget_bias)).eval()


def _names(name):
    """An error's message starts with the argument's name (stacklib._validate's rule)."""
    return "^" + name.replace(".", r"\.") + ":"


# ------------------------------------------------------------------------------ the stack
@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
def test_plain_stack_computes_torch_nn_with_num_layers_and_reads_out_its_top(cell):
    model = _model(layers=3, cell=cell)
    ref = getattr(nn, cell.upper())(5, 8, num_layers=3, batch_first=True)
    with torch.no_grad():
        for k, layer in enumerate(model.layers):
            for name, p in layer.named_parameters():
                getattr(ref, name.removesuffix("0") + str(k)).copy_(p)
        hidden, outputs, _ = model.run(IDS)
        expected, _ = ref(model.embed(IDS))
        logits, _ = model(IDS)
    torch.testing.assert_close(outputs[-1], expected, rtol=0, atol=0)
    assert all(h is u for h, u in zip(hidden, outputs, strict=True))  # no residual: u = h
    # three layers: the readout reads the third, not the second
    torch.testing.assert_close(logits, model.readout(expected), rtol=0, atol=0)


def test_residual_stack_adds_each_layers_input_from_layer_two():
    model = _model(layers=3, residual=True)
    hidden, outputs, _ = model.run(IDS)
    torch.testing.assert_close(outputs[0], hidden[0])
    for k in (1, 2):
        torch.testing.assert_close(outputs[k], hidden[k] + outputs[k - 1])


def test_carried_chunks_compute_what_one_pass_over_the_text_computes():
    model, ids = _model(layers=2, residual=True), torch.from_numpy(toy_text(60).reshape(2, 30))
    with torch.no_grad():
        whole, _ = model(ids)
        state, parts = None, []
        for lo in range(0, 29, 7):
            logits, state = model(ids[:, lo:lo + 7], state)
            parts.append(logits)
    torch.testing.assert_close(torch.cat(parts, dim=1), whole)


@pytest.mark.parametrize("cell", ["gru", "lstm"])
def test_detach_keeps_the_states_values_and_shape_and_drops_their_history(cell):
    model = _model(layers=2, cell=cell)
    _, _, state = model.run(IDS)
    cut = detach(state)
    assert len(cut) == 2
    for before, after in zip(state, cut, strict=True):
        pairs = zip(before, after, strict=True) if cell == "lstm" else [(before, after)]
        assert isinstance(after, tuple) == (cell == "lstm")
        for b, a in pairs:
            assert b.grad_fn is not None and a.grad_fn is None and torch.equal(a, b)


def test_parameter_count_is_embedding_layers_and_readout():
    E, H, V, G = 5, 8, VOCAB, 4 * 8                            # G: an LSTM's four gate blocks
    layers = G * (E + H) + G * (H + H) + 2 * 2 * G               # two layers, two biases each
    assert parameter_count(_model(layers=2)) == V * E + layers + H * V + V


# ------------------------------------------------------------------------------ dropout
def _drop_check(dropped, undropped):
    """Every entry of ``dropped`` is 0 or ``undropped`` / (1 - p), p = 0.5; some of each."""
    zero = dropped == 0
    torch.testing.assert_close(dropped[~zero], 2 * undropped[~zero])
    assert zero.any() and not zero.all()


@pytest.mark.parametrize("residual", [False, True])
def test_dropout_acts_on_the_embedding_and_each_layers_own_output_never_the_skip_path(residual):
    model = _model(layers=3, residual=residual, dropout=0.5).train()
    seen = []
    model.layers[0].register_forward_pre_hook(lambda _, args: seen.append(args[0]))
    torch.manual_seed(1)
    hidden, outputs, _ = model.run(IDS)
    _drop_check(seen[0], model.embed(IDS))                     # layer 1 reads a dropped embedding
    _drop_check(outputs[0], hidden[0])
    for k in (1, 2):
        # residual: x^[l+1] = D(h^[l]) + x^[l], the skip path undropped
        branch = outputs[k] - outputs[k - 1] if residual else outputs[k]
        _drop_check(branch, hidden[k])
    torch.manual_seed(1)
    logits, _ = model(IDS)                                     # the same draws: the readout
    torch.testing.assert_close(logits, model.readout(outputs[-1]))  # reads the dropped top


def test_dropout_is_off_in_eval_mode_and_at_zero_draws_nothing():
    plain, dropping = _model(residual=True), _model(residual=True, dropout=0.5)
    with torch.no_grad():
        _, expected, _ = plain.train().run(IDS)
        before = torch.get_rng_state()
        plain.run(IDS)                                         # p = 0, in training
        assert torch.equal(torch.get_rng_state(), before)
        _, outputs, _ = dropping.eval().run(IDS)
        assert torch.equal(torch.get_rng_state(), before)
        for got, want in zip(outputs, expected, strict=True):
            torch.testing.assert_close(got, want, rtol=0, atol=0)
        dropping.train().run(IDS)                              # p > 0 in training: it draws
        assert not torch.equal(torch.get_rng_state(), before)


# ------------------------------------------------------------------------- forget-gate bias
def test_forget_bias_sets_the_summed_bias_of_every_layer_and_leaves_the_rest_as_drawn():
    drawn, started = _model(layers=3, residual=True), _model(layers=3, residual=True,
                                                               forget_bias=1.5)
    H = 8
    forget = slice(H, 2 * H)                    # torch.nn.LSTM's gate blocks: i, f, g, o
    for a, b in zip(drawn.layers, started.layers, strict=True):
        assert torch.equal(b.bias_ih_l0[forget], torch.full((H,), 1.5))
        assert torch.equal(b.bias_hh_l0[forget], torch.zeros(H))
        for name, p in a.named_parameters():
            q = b.get_parameter(name).detach().clone()
            if name.startswith("bias"):
                q[forget] = p[forget]                            # all but the forget slice
            assert torch.equal(p, q), name
    assert started.cfg.forget_bias == 1.5


@pytest.mark.parametrize("cell", ["gru", "rnn"])
def test_forget_bias_needs_a_forget_gate(cell):
    with pytest.raises(ValueError, match=_names("forget_bias")):
        LMConfig.of(VOCAB, cell=cell, forget_bias=1.0)


# ------------------------------------------------------------------------- the configuration
@pytest.mark.parametrize("field, value, error", [
    ("hidden_size", 0, ValueError), ("num_layers", 1.5, TypeError), ("vocab_size", True, TypeError),
    ("residual", 1, TypeError), ("cell", "LSTM", ValueError), ("dropout", 1.0, ValueError),
    ("forget_bias", "1", TypeError), ("forget_bias", True, TypeError)])
def test_model_config_refuses_bad_values_by_name(field, value, error):
    with pytest.raises(error, match=_names(field)):
        LMConfig.of(**{"vocab_size": VOCAB, field: value})


@pytest.mark.parametrize("stack, name, error", [
    (StackConfig(5, 8, 2, batch_first=True, dropout=0.1), "stack.dropout", ValueError),
    (StackConfig(5, 8, 2, batch_first=True, layer_norm=True), "stack.layer_norm", ValueError),
    (StackConfig(5, 8, 2), "stack.batch_first", ValueError),
    ({"input_size": 5}, "stack", TypeError)])
def test_model_refuses_a_stack_it_cannot_run_by_name(stack, name, error):
    with pytest.raises(error, match=_names(name)):
        LMConfig(VOCAB, stack)


def test_the_model_needs_a_model_config():
    with pytest.raises(TypeError, match=_names("cfg")):
        LM(StackConfig(5, 8, 2, batch_first=True))


def test_numbers_are_stored_as_plain_python_numbers():
    # a record stores them as JSON: a NumPy integer or an int bias would not round-trip alike
    cfg = LMConfig.of(np.int64(VOCAB), dropout=0, forget_bias=1)
    assert type(cfg.vocab_size) is int and type(cfg.dropout) is float
    assert type(cfg.forget_bias) is float and cfg.forget_bias == 1.0


def test_the_flat_descriptions_defaults_are_one_lstm_layer_of_128_over_64():
    """What a caller that leaves the shape out gets (scripts/study/plan.py leaves out
    num_layers): one LSTM layer of 128 over a 64-wide embedding, no dropout, torch's biases."""
    assert LMConfig.of(VOCAB).flat() == {
        "vocab_size": VOCAB, "embed_size": 64, "hidden_size": 128, "num_layers": 1,
        "cell": "lstm", "residual": False, "dropout": 0.0, "forget_bias": None}


def test_flat_description_round_trips_and_reads_the_stack():
    cfg = LMConfig.of(VOCAB, 5, 8, 3, cell="lstm", residual=True, dropout=0.2, forget_bias=1.0)
    assert LMConfig.of(**cfg.flat()) == cfg
    assert cfg.replace(num_layers=1, cell="gru", forget_bias=None) == LMConfig.of(
        VOCAB, 5, 8, 1, cell="gru", residual=True, dropout=0.2)
    assert (cfg.embed_size, cfg.hidden_size, cfg.num_layers, cfg.cell, cfg.residual) == (
        5, 8, 3, "lstm", True)
