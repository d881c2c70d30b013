"""stacklib.keras_bridge: Keras 3 (torch backend) stacks carrying torch weights agree with torch.nn.

Keras is imported once (about 5 s); the nine (cell, L) models are built once per module.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from stacklib.config import GATES, StackConfig, torch_nn_class
from stacklib.keras_bridge import keras_count_params, run_keras_stack, to_keras
from stacklib.numpy import StackedRNN as NumpyStack
from stacklib.torch import StackedRNN

ROOT = Path(__file__).resolve().parents[1]

CASES = [(cell, L) for cell in ("rnn", "gru", "lstm") for L in (1, 2, 3)]
N_IN, H = 5, 6


@pytest.fixture(scope="module")
def keras():
    pytest.importorskip("keras")
    import keras

    assert keras.backend.backend() == "torch"
    return keras


@pytest.fixture(scope="module")
def stacks(keras):
    """(cell, L) -> (torch.nn oracle, Keras model returning every step of the top layer)."""
    out = {}
    for i, (cell, L) in enumerate(CASES):
        torch.manual_seed(i)
        ref = torch_nn_class(cell)(N_IN, H, L, batch_first=True)
        model = to_keras(ref, return_sequences_top=True)
        out[cell, L] = ref, model
    return out


@pytest.mark.parametrize("cell,L", CASES)
def test_keras_matches_torch_nn(stacks, cell, L):
    ref, model = stacks[cell, L]
    x = torch.randn(3, 7, N_IN, generator=torch.Generator().manual_seed(L))
    with torch.no_grad():
        want, state = ref(x)
    got = run_keras_stack(model, x.numpy())
    assert got.shape == (3, 7, H)
    assert np.abs(got - want.numpy()).max() <= 1e-5
    h_n = state[0] if cell == "lstm" else state
    assert np.abs(got[:, -1] - h_n[-1].numpy()).max() <= 1e-5


@pytest.mark.parametrize("cell,L", CASES)
def test_layer_types_and_sequences(stacks, keras, cell, L):
    _, model = stacks[cell, L]
    kind = {"rnn": keras.layers.SimpleRNN, "gru": keras.layers.GRU, "lstm": keras.layers.LSTM}
    rnn_layers = [layer for layer in model.layers if isinstance(layer, kind[cell])]
    assert len(rnn_layers) == L
    assert all(layer.return_sequences for layer in rnn_layers)  # return_sequences_top=True
    if cell == "gru":
        assert all(layer.reset_after for layer in rnn_layers)
    assert model.input_shape == (None, None, N_IN)


def test_top_layer_returns_last_step_by_default(keras):
    torch.manual_seed(0)
    ref = nn.GRU(N_IN, H, 3, batch_first=True)
    model = to_keras(ref.state_dict(), StackConfig(N_IN, H, 3, cell="gru"))  # a state dict
    seqs = [layer.return_sequences for layer in model.layers if isinstance(layer, keras.layers.GRU)]
    assert seqs == [True, True, False]
    x = torch.randn(2, 4, N_IN)
    got = run_keras_stack(model, x.numpy())
    assert got.shape == (2, H)
    assert np.abs(got - ref(x)[0][:, -1].detach().numpy()).max() <= 1e-5


def _closed_form_keras(cell, n_in, h, L):
    G, biases = GATES[cell], (2 if cell == "gru" else 1)
    return sum(G * h * ((n_in if k == 0 else h) + h + biases) for k in range(L))


@pytest.mark.parametrize("cell,n_in,h,L", [("rnn", 3, 4, 1), ("gru", 7, 5, 3), ("lstm", 300, 8, 2)])
def test_keras_count_params(keras, cell, n_in, h, L):
    from stacklib.params import count_params

    n = keras_count_params(StackConfig(n_in, h, L, cell=cell))
    assert n == _closed_form_keras(cell, n_in, h, L)
    assert n == count_params(cell, n_in, h, L, framework="keras")
    torch_n = sum(p.numel() for p in torch_nn_class(cell)(n_in, h, L).parameters())
    assert n == torch_n - (0 if cell == "gru" else GATES[cell] * h * L)  # one bias fewer


def test_relu_no_bias_and_stack_objects(keras):
    torch.manual_seed(3)
    stack = StackedRNN(N_IN, H, 2, cell="rnn", nonlinearity="relu", bias=False).double()
    model = to_keras(stack, return_sequences_top=True)
    assert model.count_params() == H * (N_IN + H) + H * (H + H)
    x = torch.randn(2, 5, N_IN, dtype=torch.float64)
    got = run_keras_stack(model, x.numpy())
    want = stack(x.transpose(0, 1))[0].transpose(0, 1).detach().numpy()
    assert np.abs(got - want).max() <= 1e-5
    linear = NumpyStack(N_IN, H, 1, cell="rnn", nonlinearity="linear", seed=0)  # NumPy's too
    model = to_keras(linear, return_sequences_top=True)
    x = np.random.default_rng(0).normal(size=(5, 2, N_IN)).astype(np.float32)
    want = linear(x).output.transpose(1, 0, 2)
    assert np.abs(run_keras_stack(model, x.transpose(1, 0, 2)) - want).max() <= 1e-5


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
    with pytest.raises(TypeError, match="config: expected a StackConfig"):
        keras_count_params("lstm")
    model = to_keras(sd, lstm2)
    with pytest.raises(ValueError, match=r"x: expected shape \(B, T, 5\)"):
        run_keras_stack(model, np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match="x: contains NaN"):
        run_keras_stack(model, np.full((2, 3, 5), np.nan))
    with pytest.raises(ValueError, match=r"x: expected shape \(B, T, 5\) with B, T >= 1"):
        run_keras_stack(model, np.zeros((1, 0, 5)))
    with pytest.raises(ValueError, match="weight_ih_l0: expected finite values"):
        to_keras(dict(sd, weight_ih_l0=torch.full((24, 5), float("nan"))), lstm2)


def test_a_stack_object_brings_its_own_configuration(keras):
    torch.manual_seed(4)
    relu = StackedRNN(N_IN, H, 2, cell="rnn", nonlinearity="relu").double()
    model = to_keras(relu, return_sequences_top=True)  # relu, not tanh
    x = torch.randn(2, 5, N_IN, dtype=torch.float64)
    want = relu(x.transpose(0, 1))[0].transpose(0, 1).detach().numpy()
    assert np.abs(run_keras_stack(model, x.numpy()) - want).max() <= 1e-5
    with pytest.raises(ValueError, match="config: the stack given has StackConfig"):
        to_keras(relu, relu.config.replace(nonlinearity="tanh"))
    assert to_keras(relu, relu.config).count_params() == model.count_params()


def test_keras_import_is_lazy_and_backend_is_checked():
    code = (
        "import sys, stacklib.config, stacklib.keras_bridge as kb\n"
        "assert 'keras' not in sys.modules, 'keras imported eagerly'\n"
        "try:\n"
        "    kb.keras_count_params(stacklib.config.StackConfig(2, 2))\n"
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
