"""stacklib.keras_bridge: Keras 3 (torch backend) stacks carrying torch weights agree with torch.nn
(Keras runs in float32: 1e-5), count their parameters as stacklib.params does, and refuse what
they cannot carry (residual, layer norm, dropout in training)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from stacklib.config import CELLS, StackConfig, torch_nn_class
from stacklib.keras_bridge import to_keras
from stacklib.numpy import StackedRNN as NumpyStack
from stacklib.params import count_params
from stacklib.torch import StackedRNN

ROOT = Path(__file__).resolve().parents[1]
N_IN, H = 5, 6


@pytest.fixture(scope="module")
def keras():
    pytest.importorskip("keras")
    import keras

    assert keras.backend.backend() == "torch"
    return keras


def run(model, x) -> np.ndarray:
    """The model's output on batch-first x, as NumPy (the torch backend returns a tensor)."""
    return model(np.asarray(x, np.float32), training=False).detach().numpy()


@pytest.mark.parametrize(("cell", "L"), [("rnn", 1), ("gru", 2), ("lstm", 3)])
def test_keras_matches_torch_nn(keras, cell, L):
    torch.manual_seed(L)
    ref = torch_nn_class(cell)(N_IN, H, L, batch_first=True)
    model = to_keras(ref, return_sequences=True)
    layers = [layer for layer in model.layers if isinstance(layer, keras.layers.RNN)]
    assert [type(layer).__name__ for layer in layers] == [CELLS[cell].keras] * L
    assert all(layer.return_sequences for layer in layers)
    if cell == "gru":
        assert all(layer.reset_after for layer in layers)
    assert model.count_params() == count_params(cell, N_IN, H, L, framework="keras")
    x = torch.randn(3, 7, N_IN, generator=torch.Generator().manual_seed(L))
    with torch.no_grad():
        want, state = ref(x)
    got = run(model, x.numpy())
    assert got.shape == (3, 7, H)
    assert np.abs(got - want.numpy()).max() <= 1e-5
    h_n = state[0] if cell == "lstm" else state
    assert np.abs(got[:, -1] - h_n[-1].numpy()).max() <= 1e-5


def test_top_layer_returns_last_step_by_default(keras):
    torch.manual_seed(0)
    ref = nn.GRU(N_IN, H, 3, batch_first=True)
    model = to_keras(ref.state_dict(), StackConfig(N_IN, H, 3, cell="gru"))  # a state dict
    seqs = [layer.return_sequences for layer in model.layers if isinstance(layer, keras.layers.GRU)]
    assert seqs == [True, True, False]
    x = torch.randn(2, 4, N_IN)
    got = run(model, x.numpy())
    assert got.shape == (2, H)
    assert np.abs(got - ref(x)[0][:, -1].detach().numpy()).max() <= 1e-5


def test_stack_objects_bring_their_own_configuration(keras):
    torch.manual_seed(3)
    relu = StackedRNN(N_IN, H, 2, cell="rnn", nonlinearity="relu", bias=False).double()
    model = to_keras(relu, return_sequences=True)  # relu, not tanh; no bias
    assert model.count_params() == H * (N_IN + H) + H * (H + H)
    x = torch.randn(2, 5, N_IN, dtype=torch.float64)
    want = relu(x.transpose(0, 1))[0].transpose(0, 1).detach().numpy()
    assert np.abs(run(model, x.numpy()) - want).max() <= 1e-5
    with pytest.raises(ValueError, match="config: the stack given has StackConfig"):
        to_keras(relu, relu.config.replace(nonlinearity="tanh"))
    linear = NumpyStack(N_IN, H, 1, cell="rnn", nonlinearity="linear", seed=0)  # NumPy's too
    model = to_keras(linear, return_sequences=True)
    x = np.random.default_rng(0).normal(size=(5, 2, N_IN)).astype(np.float32)
    want = linear(x).output.transpose(1, 0, 2)
    assert np.abs(run(model, x.transpose(1, 0, 2)) - want).max() <= 1e-5


def test_dropout_is_carried_only_where_it_does_nothing(keras):
    """Keras drops a layer's input with one mask per sequence, torch.nn the outputs between
    layers: a source that would drop is refused, naming dropout; in eval mode both compute
    the same function, which the bridge carries."""
    torch.manual_seed(1)
    ref = nn.LSTM(N_IN, H, 2, batch_first=True, dropout=0.5)  # a new module trains
    with pytest.raises(ValueError, match=r"dropout: .*dropout=0\.5 in training cannot be "
                                         r"carried; bridge it in eval mode"):
        to_keras(ref)
    with pytest.raises(ValueError, match=r"dropout: .*config\.replace\(dropout=0\.0\)"):
        to_keras(ref.state_dict(), StackConfig.of(ref))
    with pytest.raises(ValueError, match="dropout"):
        to_keras(NumpyStack.from_torch(ref))
    model = to_keras(ref.eval(), return_sequences=True)
    x = torch.randn(2, 4, N_IN)
    assert np.abs(run(model, x.numpy()) - ref(x)[0].detach().numpy()).max() <= 1e-5
    same = to_keras(ref.state_dict(), StackConfig.of(ref).replace(dropout=0.0),
                    return_sequences=True)
    assert np.array_equal(run(same, x.numpy()), run(model, x.numpy()))


def test_bad_arguments_raise(keras):
    sd = nn.LSTM(N_IN, H, 2).state_dict()
    lstm2 = StackConfig(N_IN, H, 2)
    with pytest.raises(ValueError, match="residual"):
        to_keras(StackedRNN(N_IN, H, 2, residual=True))
    with pytest.raises(ValueError, match="layer_norm"):
        ln = StackedRNN(N_IN, H, 2, layer_norm=True)
        to_keras(ln.state_dict(), ln.config)
    with pytest.raises(ValueError, match=r"weight_hh_l1: expected shape \(24, 6\), got \(24, 5\)"):
        to_keras(dict(sd, weight_hh_l1=np.zeros((24, 5))), lstm2)
    with pytest.raises(ValueError, match=r"missing keys \[.*'weight_ih_l2'"):
        to_keras(sd, lstm2.replace(num_layers=3))
    with pytest.raises(ValueError, match=r"weight_ih_l0: expected shape \(18, 5\)"):
        to_keras(sd, lstm2.replace(cell="gru"))
    with pytest.raises(TypeError, match="config: a state dict needs its StackConfig"):
        to_keras(sd)
    with pytest.raises(TypeError, match=r"source: expected torch\.nn\.RNN, GRU or LSTM"):
        to_keras(nn.Linear(2, 2))
    with pytest.raises(ValueError, match="weight_ih_l0: expected finite values"):
        to_keras(dict(sd, weight_ih_l0=torch.full((24, 5), float("nan"))), lstm2)


def test_keras_import_is_lazy_and_backend_is_checked():
    code = (
        "import sys, stacklib.config, stacklib.keras_bridge as kb\n"
        "assert 'keras' not in sys.modules, 'keras imported eagerly'\n"
        "import numpy as np\n"
        "cfg = stacklib.config.StackConfig(2, 2, cell='rnn')\n"
        "sd = {k: np.zeros(s) for k, s in cfg.param_shapes().items()}\n"
        "try:\n"
        "    kb.to_keras(sd, cfg)\n"
        "except RuntimeError as e:\n"
        "    assert 'KERAS_BACKEND' in str(e), e\n"
        "    assert 'keras' not in sys.modules\n"
        "else:\n"
        "    raise SystemExit('no error for KERAS_BACKEND=jax')\n"
    )
    env = dict(os.environ, KERAS_BACKEND="jax")
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
