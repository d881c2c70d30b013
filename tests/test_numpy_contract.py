"""What a PyTorch user can rely on in stacklib.numpy besides the numbers: the output indexes and
unpacks like torch.nn's, layer indices are 0-based, what forward hands back cannot corrupt
backward, weights are freshly random unless seeded, dtypes follow torch, train()/eval()."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from stacklib.config import torch_nn_class
from stacklib.numpy import StackedRNN, StackOutput

CELLS = ["rnn", "gru", "lstm"]


@pytest.mark.parametrize("cell", CELLS)
def test_output_indexes_and_unpacks_like_torch_nn(cell):
    torch.manual_seed(0)
    module = torch_nn_class(cell)(2, 3, 2).double()
    x = np.random.default_rng(0).normal(size=(4, 1, 2))
    y_ref, state_ref = module(torch.tensor(x))
    out = StackedRNN.from_torch(module)(x)
    assert isinstance(out, StackOutput) and isinstance(out, tuple) and len(out) == 2
    y, state = out
    assert out[0] is out.output is y
    np.testing.assert_allclose(y, y_ref.detach().numpy(), atol=1e-12)
    if cell == "lstm":
        (h, c), (h_ref, c_ref) = state, state_ref
        assert out[1][1] is out.c_n
        np.testing.assert_allclose(c, c_ref.detach().numpy(), atol=1e-12)
    else:
        h, h_ref = state, state_ref
    assert h is out.h_n
    np.testing.assert_allclose(h, h_ref.detach().numpy(), atol=1e-12)


@pytest.mark.parametrize("cell", CELLS)
def test_layer_indices_are_zero_based(cell):
    stack = StackedRNN(2, 3, 2, cell=cell, seed=0)
    out = stack(np.ones((4, 5, 2), np.float32))
    for k in range(2):
        gates = out.gates(k)
        assert set(gates) == {"rnn": set(), "gru": {"r", "z", "n"},
                              "lstm": {"i", "f", "g", "o"}}[cell]
        assert all(g.shape == (4, 5, 3) for g in gates.values())
    if cell == "lstm":  # the top layer's gates make its states: h = o * tanh(c)
        top = out.gates(1)
        np.testing.assert_allclose(out.h[1], top["o"] * np.tanh(out.c[1]), rtol=1e-6)
    with pytest.raises(ValueError, match=r"layer: expected an index in 0\.\.1, got 2"):
        out.gates(2)
    with pytest.raises(TypeError, match="layer: expected an int"):
        out.gates(1.0)


@pytest.mark.parametrize("cell", CELLS)
def test_editing_what_forward_returned_leaves_the_gradients_alone(cell):
    stack = StackedRNN(2, 3, 2, cell=cell, batch_first=True, dtype=np.float64, seed=0)
    rng = np.random.default_rng(0)
    x, g = rng.normal(size=(3, 4, 2)), rng.normal(size=(3, 4, 3))
    want = stack.backward(stack(x.copy()), g)
    out = stack(x)
    x += 1.0  # the caller reuses its buffer before backward
    for array in (out.output, out.h_n, out.h, out.layer_outputs, *out.gates(1).values()):
        array[...] = 0.0
    got = stack.backward(out, g)
    for name, value in {**got.params, "input": got.input}.items():
        np.testing.assert_array_equal(value, {**want.params, "input": want.input}[name],
                                      err_msg=name)


def test_backward_refuses_an_output_it_did_not_make():
    a, b = StackedRNN(2, 3, 2, seed=0), StackedRNN(2, 3, 2, seed=1)
    x = np.ones((4, 1, 2), np.float32)
    out = a(x)
    with pytest.raises(ValueError, match="out: computed by another stack"):
        b.backward(out, np.ones((4, 1, 3), np.float32))
    a.load_state_dict(b.state_dict())  # same stack, new weights: the old output is stale
    with pytest.raises(ValueError, match="before its weights changed"):
        a.backward(out, np.ones((4, 1, 3), np.float32))
    with pytest.raises(TypeError, match="out: expected the StackOutput"):
        a.backward(tuple(out), np.ones((4, 1, 3), np.float32))
    a.backward(a(x), np.ones((4, 1, 3), np.float32))


def test_fresh_weights_unless_seeded():
    def weights(**kw):
        return StackedRNN(2, 3, 2, **kw).state_dict()["weight_hh_l1"]

    assert not np.array_equal(weights(), weights())  # like torch.nn: a new draw every time
    np.testing.assert_array_equal(weights(seed=7), weights(seed=7))
    np.testing.assert_array_equal(weights(generator=np.random.default_rng(7)), weights(seed=7))
    bound = 1 / np.sqrt(3)  # torch.nn's U(-1/sqrt(H), 1/sqrt(H))
    assert np.abs(weights()).max() <= bound
    with pytest.raises(ValueError, match="seed: give a seed or a generator, not both"):
        weights(seed=1, generator=np.random.default_rng(1))
    with pytest.raises(TypeError, match=r"generator: expected a numpy\.random\.Generator"):
        weights(generator=7)


def test_dtype_follows_torch():
    stack = StackedRNN(2, 3, 2, seed=0)
    assert stack.dtype == np.float32  # torch.nn's default
    assert stack(np.ones((4, 1, 2), np.float32)).output.dtype == np.float32
    with pytest.raises(TypeError, match=r"x: expected dtype float32 \(the stack's\), got float64"):
        stack(np.ones((4, 1, 2)))  # never silently converted, like torch
    with pytest.raises(TypeError, match="x: expected floating-point numbers, got dtype int64"):
        stack(np.ones((4, 1, 2), np.int64))
    with pytest.raises(TypeError, match=r"h0: expected dtype float32"):
        stack(np.ones((4, 1, 2), np.float32), (np.zeros((2, 1, 3)), np.zeros((2, 1, 3))))
    assert stack([[0.5, 1.0]]).output.dtype == np.float32  # lists carry no dtype: converted
    with pytest.raises(TypeError, match="x: expected floating-point numbers, got dtype int64"):
        stack([[1, 2]])
    wide = StackedRNN(2, 3, 2, dtype=np.float64, seed=0)
    assert wide(torch.ones(4, 1, 2, dtype=torch.float64)).output.dtype == np.float64
    wide.load_state_dict(stack.state_dict())  # loading converts, like torch's load_state_dict
    assert wide.state_dict()["weight_ih_l0"].dtype == np.float64


def test_train_and_eval_modes_like_torch():
    stack = StackedRNN(3, 4, 3, cell="gru", dropout=0.5, seed=0)
    assert stack.training  # a new torch module trains too
    x = np.ones((4, 2, 3), np.float32)
    out = stack(x)
    assert [layer.mask is not None for layer in out.tape.layers] == [True, True, False]
    assert stack.eval() is stack and not stack.training
    plain = StackedRNN(3, 4, 3, cell="gru", seed=0)
    plain.load_state_dict(stack.state_dict())
    np.testing.assert_array_equal(stack(x).output, plain(x).output)  # eval: no dropout
    assert stack.train().training
    with pytest.raises(TypeError, match="mode: expected a bool"):
        stack.train("no")


def test_dropout_with_one_layer_warns_like_torch():
    with pytest.warns(UserWarning, match="dropout: applied between layers only"):
        StackedRNN(2, 3, 1, dropout=0.5)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"bidirectional": True}, "bidirectional: stacklib's stacks run forward in time only"),
    ({"proj_size": 2}, "proj_size: stacklib's stacks have no projection, got 2"),
])
def test_unsupported_torch_arguments_are_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        StackedRNN(2, 3, 2, **kwargs)


@pytest.mark.parametrize("flag", ["bias", "batch_first", "residual", "layer_norm"])
def test_flags_must_be_bools(flag):
    with pytest.raises(TypeError, match=f"{flag}: expected a bool, got str 'False'"):
        StackedRNN(2, 3, 2, **{flag: "False"})  # a truthy string must not mean True
    assert getattr(StackedRNN(2, 3, 2, **{flag: np.bool_(True)}), flag) is True


def test_config_fields_read_like_torch_attributes_and_stay_fixed():
    stack = StackedRNN(2, 3, 2, cell="gru")
    assert (stack.input_size, stack.hidden_size, stack.num_layers, stack.cell) == (2, 3, 2, "gru")
    with pytest.raises(AttributeError, match="hidden_size: fixed by the stack's config"):
        stack.hidden_size = 4
