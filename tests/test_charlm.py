"""The character models of the Shakespeare study: model, training, analyses, plan."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch

from stacklib.charlm import analysis, study
from stacklib.charlm.model import CharLM, ModelConfig
from stacklib.charlm.train import TrainConfig, bits_per_char, streams, train
from stacklib.corpus import shakespeare

V = 11


def _model(layers=3, residual=False, hidden=8, seed=0):
    torch.manual_seed(seed)
    return CharLM(ModelConfig(V, embed_size=5, hidden_size=hidden, num_layers=layers,
                              residual=residual)).eval()


def _text(n=3000, seed=0):
    """A learnable toy text: a repeating pattern with some noise."""
    rng = np.random.default_rng(seed)
    ids = np.tile(np.arange(V), n // V + 1)[:n]
    noise = rng.random(n) < 0.1
    ids[noise] = rng.integers(0, V, noise.sum())
    return ids.astype(np.int64)


def test_plain_stack_is_torch_nn_lstm():
    model = _model(layers=3)
    ref = torch.nn.LSTM(5, 8, num_layers=3, batch_first=True)
    with torch.no_grad():
        for k, layer in enumerate(model.layers):
            for name, p in layer.named_parameters():
                getattr(ref, name[:-1] + str(k)).copy_(p)
    ids = torch.from_numpy(_text(40).reshape(2, 20))
    hidden, outputs, _ = model.run(ids)
    expected, _ = ref(model.embed(ids))
    torch.testing.assert_close(outputs[-1], expected)
    assert all(h is u for h, u in zip(hidden, outputs, strict=True))  # no residual: u = h


def test_residual_stack_adds_each_layers_input_from_layer_two():
    model = _model(layers=3, residual=True)
    hidden, outputs, _ = model.run(torch.from_numpy(_text(40).reshape(2, 20)))
    torch.testing.assert_close(outputs[0], hidden[0])
    for k in (1, 2):
        torch.testing.assert_close(outputs[k], hidden[k] + outputs[k - 1])


def test_bits_per_char_of_a_uniform_model_is_log2_vocab():
    model = _model()
    with torch.no_grad():
        model.readout.weight.zero_()
        model.readout.bias.zero_()
    assert bits_per_char(model, _text(1000), batch_size=4, seq_len=30) == pytest.approx(
        math.log2(V))


def test_streams_are_contiguous_rows():
    ids = np.arange(23)
    s = streams(ids, 4)
    assert s.shape == (4, 5) and s[1, 0] == 5 and s[3, 4] == 19
    with pytest.raises(ValueError, match="cannot fill 16 streams"):
        streams(ids, 16)


@pytest.mark.parametrize("field, value, error", [
    ("hidden_size", 0, ValueError), ("num_layers", 1.5, ValueError),
    ("residual", 1, TypeError)])
def test_model_config_refuses_bad_values(field, value, error):
    with pytest.raises(error, match=field):
        ModelConfig(V, **{field: value})


@pytest.mark.parametrize("field, value", [
    ("lr", 0.0), ("batch_size", 0), ("clip", -1.0), ("lr_decay", 1.5), ("patience", True)])
def test_train_config_refuses_bad_values(field, value):
    with pytest.raises(ValueError, match=field):
        TrainConfig(ModelConfig(V), **{field: value})


def _cfg(**kw):
    base = dict(lr=1e-2, batch_size=4, seq_len=16, max_steps=40, eval_every=10, patience=2,
                grad_every=10)
    return TrainConfig(ModelConfig(V, embed_size=5, hidden_size=8, num_layers=2),
                       **{**base, **kw})


def test_training_learns_is_deterministic_and_records_gradients():
    text, val = _text(4000), _text(800, seed=1)
    model, hist = train(_cfg(), text, val)
    _, again = train(_cfg(), text, val)
    assert hist.val_bpc == again.val_bpc  # a pure function of the configuration
    assert hist.val_bpc[-1] < hist.val_bpc[0] < math.log2(V) + 0.5
    assert hist.steps == [10, 20, 30, 40] and hist.stopped == "max_steps"
    assert np.shape(hist.weight_grad) == np.shape(hist.output_grad) == (4, 2)
    assert len(hist.grad_norm) == 4 and all(g > 0 for g in hist.grad_norm)
    # the model handed back is the best one scored
    assert bits_per_char(model, val) == pytest.approx(min(hist.val_bpc))


def test_training_stops_after_patience_and_halves_the_rate_before():
    # a learning rate this large makes validation worse at once
    _, hist = train(_cfg(lr=5.0, max_steps=200, patience=2), _text(4000), _text(800, 1))
    assert hist.stopped in ("patience", "diverged")
    if hist.stopped == "patience":
        assert hist.lr[-1] < hist.lr[0]


def test_cell_states_are_the_ones_behind_the_hidden_states():
    model = _model(layers=3, residual=True)
    ids = _text(60).reshape(3, 20)
    states = analysis._states(model, ids)
    with torch.no_grad():
        _, _, final = model.run(torch.from_numpy(ids))
    for c, (_, c_n) in zip(states["c"], final, strict=True):
        np.testing.assert_allclose(c[:, -1], c_n[0].numpy(), rtol=1e-5, atol=1e-6)


def test_timescales_and_step_sizes_have_one_entry_per_layer():
    model = _model(layers=2)
    cfg = analysis.TimescaleConfig(positions=6, context=10, horizon=7)
    out = analysis.timescales(model, _text(500), cfg)
    for state in ("h", "c"):
        assert np.shape(out[state]["curve"]) == (2, 7)
        for curve, half, peak in zip(out[state]["curve"], out[state]["half_life"],
                                     out[state]["peak"], strict=True):
            assert curve[peak] == max(curve) and curve[peak] > 0
            assert half is None or curve[peak + half] <= curve[peak] / 2
    assert len(analysis.step_sizes(model, _text(500))) == 2
    with pytest.raises(ValueError, match="too few"):
        analysis.timescales(model, _text(20), cfg)


def test_sampling_is_seeded():
    model, prompt = _model(), _text(5)
    a = analysis.sample(model, prompt, 20, 0.7, seed=3)
    assert np.array_equal(a, analysis.sample(model, prompt, 20, 0.7, seed=3))
    assert a.shape == (20,) and a.min() >= 0 and a.max() < V
    with pytest.raises(ValueError, match="temperature"):
        analysis.sample(model, prompt, 5, 0.0, seed=0)


def test_equal_budget_widths_are_within_two_percent():
    reference = ModelConfig(77, embed_size=64, hidden_size=128, num_layers=3)
    total = study.total_params(reference)
    for layers in (1, 2, 4):
        width = study.matched_width(reference, layers)
        model = dataclasses.replace(reference, num_layers=layers, hidden_size=width)
        assert abs(study.total_params(model) / total - 1) <= 0.02
    with pytest.raises(ValueError, match="no width of 1 layers"):
        study.matched_width(ModelConfig(77, 8, 12, 3), 1)


def test_the_plan_trains_every_configuration_with_three_seeds():
    runs = study.plan(77)
    names = [r.name for r in runs]
    assert len(names) == len(set(names))
    configs = {}
    for r in runs:
        configs.setdefault(dataclasses.replace(r.train, seed=0), set()).add(r.train.seed)
    assert all(seeds == set(study.SEEDS) for seeds in configs.values())
    assert {r.group for r in runs} == {"depth", "budget", "data", "deep", "lr"}
    # depth x data: the subsets, and the full training set through the depth group's runs of
    # the same stacks, together span >= 30x
    sizes = sorted({r.train.train_chars for r in runs if r.group == "data"})
    full = {dataclasses.replace(r.train, seed=0) for r in runs if r.group == "depth"}
    for r in runs:
        if r.group == "data":
            assert dataclasses.replace(r.train, seed=0, train_chars=None,
                                       eval_every=study.base_config(77).eval_every) in full
    assert len(shakespeare().train.text) / sizes[0] >= 30 > sizes[-1] / sizes[0]
    headline = study.headline(runs)
    reference = dataclasses.replace(study.base_config(76).model, num_layers=study.REFERENCE_LAYERS)
    assert len(headline) == 6 and not any(r.train.model.residual for r in headline)
    assert {(r.train.model.num_layers, r.train.model.hidden_size) for r in headline} == {
        (1, study.matched_width(reference, 1)), (study.REFERENCE_LAYERS, 128)}
