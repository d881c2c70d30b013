"""What a user of stacklib.numpy can rely on besides the numbers: what forward hands back cannot
silently corrupt backward, backward refuses an output it did not make, outputs unpack like
torch.nn's, and flags are flags."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from stacklib.numpy import StackedRNN, from_torch

CELLS = ["rnn", "gru", "lstm"]


def _grads(stack, x, g):
    grads = stack.backward(stack.forward(x), g)
    return {**grads.params, "input": grads.input}


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("B", [1, 3])
def test_output_and_gates_are_read_only(cell, B):
    stack = StackedRNN(2, 3, 2, cell=cell)
    out = stack.forward(np.ones((4, B, 2)))
    with pytest.raises(ValueError, match="read-only"):
        out.output -= 1.0  # would change the states backward reads
    gates = out.gates(2)
    assert len(gates) == {"rnn": 0, "gru": 3, "lstm": 4}[cell]  # a plain RNN has no gates
    for gate in gates.values():
        with pytest.raises(ValueError, match="read-only"):
            gate[...] = 0.0
    out.h[...] = 0.0  # h, c, h_n: copies, free to edit
    out.h_n[...] = 0.0


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("batch_first", [False, True])
def test_changing_x_after_forward_leaves_the_gradients_alone(cell, batch_first):
    stack = StackedRNN(2, 3, 2, cell=cell, batch_first=batch_first)
    rng = np.random.default_rng(0)
    x, g = rng.normal(size=(4, 3, 2)), rng.normal(size=(4, 3, 3))
    want = _grads(stack, x.copy(), g)
    out = stack.forward(x)
    x += 1.0  # the caller reuses its buffer before backward
    got = stack.backward(out, g)
    for name, value in {**got.params, "input": got.input}.items():
        np.testing.assert_array_equal(value, want[name], err_msg=name)


def test_backward_refuses_an_output_it_did_not_make():
    a, b = StackedRNN(2, 3, 2, seed=0), StackedRNN(2, 3, 2, seed=1)
    x = np.ones((4, 1, 2))
    out = a.forward(x)
    with pytest.raises(ValueError, match="out: computed by another stack"):
        b.backward(out, np.ones((4, 1, 3)))
    a.load_state_dict(b.state_dict())  # same stack, new weights: the old output is stale
    with pytest.raises(ValueError, match="before load_state_dict"):
        a.backward(out, np.ones((4, 1, 3)))
    a.backward(a.forward(x), np.ones((4, 1, 3)))


@pytest.mark.parametrize("cell", CELLS)
def test_output_unpacks_like_torch_nn(cell):
    torch.manual_seed(0)
    module = {"rnn": torch.nn.RNN, "gru": torch.nn.GRU, "lstm": torch.nn.LSTM}[cell](2, 3, 2)
    module = module.double()
    x = np.random.default_rng(0).normal(size=(4, 1, 2))
    y_ref, state_ref = module(torch.tensor(x))
    y, state = from_torch(module)(x)
    np.testing.assert_allclose(y, y_ref.detach().numpy(), atol=1e-12)
    if cell == "lstm":
        (h, c), (h_ref, c_ref) = state, state_ref
        np.testing.assert_allclose(c, c_ref.detach().numpy(), atol=1e-12)
    else:
        h, h_ref = state, state_ref
    np.testing.assert_allclose(h, h_ref.detach().numpy(), atol=1e-12)


@pytest.mark.parametrize("flag", ["bias", "batch_first", "residual", "layer_norm"])
def test_flags_must_be_bools(flag):
    with pytest.raises(ValueError, match=f"{flag}: expected a bool, got 'False'"):
        StackedRNN(2, 3, 2, **{flag: "False"})  # a truthy string must not mean True
    assert getattr(StackedRNN(2, 3, 2, **{flag: np.bool_(True)}), flag) is True


def test_dropout_accepts_numpy_numbers_and_rng_accepts_a_seed():
    stack = StackedRNN(2, 3, 2, dropout=np.float32(0.5))
    x = np.ones((4, 2, 2))
    a = stack.forward(x, train=True, rng=5).output  # a seed, like np.random.default_rng
    b = stack.forward(x, train=True, rng=np.random.default_rng(5)).output
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="train: expected a bool"):
        stack.forward(x, train="yes")
