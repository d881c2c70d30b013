"""What a PyTorch user can rely on in stacklib.numpy besides the numbers: the output indexes and
unpacks like torch.nn's, the gates are every layer's at every step, what forward hands back
cannot corrupt backward, backward differentiates the pass it is given, weights are freshly
random unless seeded, defaults and dtypes follow torch, train()/eval(), warnings point at the
caller."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

from stacklib.config import CELLS, StackConfig, torch_nn_class
from stacklib.numpy import StackedRNN
from stacklib.torch import StackedRNN as TorchStack


@pytest.mark.parametrize("cell", ["gru", "lstm"])
def test_output_indexes_and_unpacks_like_torch_nn(cell):
    torch.manual_seed(0)
    module = torch_nn_class(cell)(2, 3, 2).double()
    x = np.random.default_rng(0).normal(size=(4, 1, 2))
    y_ref, state_ref = module(torch.tensor(x))
    out = StackedRNN.from_torch(module)(x)
    y, state = out
    assert out[0] is out.output is y
    np.testing.assert_allclose(y, y_ref.detach().numpy(), atol=1e-12)
    if cell == "lstm":
        (h, c), (h_ref, c_ref) = state, state_ref
        np.testing.assert_array_equal(out[1][1], out.c_n)
        np.testing.assert_allclose(c, c_ref.detach().numpy(), atol=1e-12)
    else:
        h, h_ref = state, state_ref
    np.testing.assert_array_equal(h, out.h_n)
    np.testing.assert_allclose(h, h_ref.detach().numpy(), atol=1e-12)


@pytest.mark.parametrize("cell", CELLS)
def test_gates_hold_every_layer_at_every_step(cell):
    """out.gates[name][l] is layer l's (0-based) gate at every step: the gates make the
    states by the cell's own formulas."""
    stack = StackedRNN(2, 3, 2, cell=cell, dtype=np.float64, seed=0)
    out = stack(np.random.default_rng(1).normal(size=(4, 5, 2)))
    assert tuple(out.gates) == CELLS[cell].gate_names
    assert all(g.shape == (2, 4, 5, 3) for g in out.gates.values())
    g = out.gates
    if cell == "lstm":  # h = o tanh(c), c = f c_prev + i g, in both layers
        np.testing.assert_allclose(out.h, g["o"] * np.tanh(out.c), atol=1e-12)
        np.testing.assert_allclose(out.c[:, 1:], g["f"][:, 1:] * out.c[:, :-1]
                                   + g["i"][:, 1:] * g["g"][:, 1:], atol=1e-12)
    if cell == "gru":  # h = (1 - z) n + z h_prev
        np.testing.assert_allclose(out.h[:, 1:], (1 - g["z"][:, 1:]) * g["n"][:, 1:]
                                   + g["z"][:, 1:] * out.h[:, :-1], atol=1e-12)
    x = np.random.default_rng(2).normal(size=(4, 2))  # unbatched: no B axis anywhere
    one, batch_of_one = stack(x), stack(x[:, None])
    assert one.output.shape == (4, 3) and one.h.shape == (2, 4, 3)
    assert one.gates.keys() == out.gates.keys()
    for name, gate in one.gates.items():
        np.testing.assert_array_equal(gate, batch_of_one.gates[name][:, :, 0], err_msg=name)


@pytest.mark.parametrize("cell", CELLS)
def test_editing_what_forward_returned_leaves_the_gradients_alone(cell):
    stack = StackedRNN(2, 3, 2, cell=cell, batch_first=True, dtype=np.float64, seed=0)
    rng = np.random.default_rng(0)
    x, g = rng.normal(size=(3, 4, 2)), rng.normal(size=(3, 4, 3))
    want = stack.backward(stack(x.copy()), g)
    out = stack(x)
    x += 1.0  # the caller reuses its buffer before backward
    for array in (out.output, out.h, *out.gates.values()):
        array[...] = 0.0
    got = stack.backward(out, g)
    for name, value in {**got.params, "input": got.input}.items():
        np.testing.assert_array_equal(value, {**want.params, "input": want.input}[name],
                                      err_msg=name)


def test_backward_differentiates_the_forward_pass_it_is_given():
    """The gradients of the pass that ran, with the weights it ran with, whatever the stack
    has loaded since; an output of a differently shaped stack is refused."""
    stack = StackedRNN(2, 3, 2, dtype=np.float64, seed=0)
    x = np.random.default_rng(0).normal(size=(4, 1, 2))
    g = np.ones((4, 1, 3))
    out = stack(x)
    want = stack.backward(out, g)
    stack.load_state_dict(StackedRNN(2, 3, 2, dtype=np.float64, seed=1).state_dict())
    got = stack.backward(out, g)
    for name, value in got.params.items():
        np.testing.assert_array_equal(value, want.params[name], err_msg=name)
    assert not np.allclose(stack.backward(stack(x), g).input, want.input)  # new weights
    with pytest.raises(ValueError, match="out: made by a stack of StackConfig"):
        StackedRNN(2, 3, 3, dtype=np.float64).backward(out, g)
    with pytest.raises(TypeError, match=r"out: expected the StackOutput.*, got tuple"):
        stack.backward(tuple(out), g)


def test_fresh_weights_unless_seeded():
    def weights(**kw):
        return StackedRNN(2, 3, 2, **kw).state_dict()["weight_hh_l1"]

    assert not np.array_equal(weights(), weights())  # like torch.nn: a new draw every time
    np.testing.assert_array_equal(weights(seed=7), weights(seed=7))
    np.testing.assert_array_equal(weights(generator=np.random.default_rng(7)), weights(seed=7))
    bound = 1 / np.sqrt(3)  # torch.nn's U(-1/sqrt(H), 1/sqrt(H))
    assert np.abs(weights()).max() <= bound
    with pytest.raises(ValueError, match=r"^seed: give a seed or a generator"):
        weights(seed=1, generator=np.random.default_rng(1))
    with pytest.raises(TypeError, match=r"generator: expected a numpy\.random\.Generator, got int"):
        weights(generator=7)


def test_layer_norm_starts_as_the_identity_again_after_reset_parameters():
    """Gain 1 and shift 0, torch.nn.LayerNorm's; every other parameter drawn anew."""
    stack = StackedRNN(2, 4, 2, cell="gru", layer_norm=True, seed=0)
    stack.load_state_dict({k: np.full(v.shape, 2.5) for k, v in stack.state_dict().items()})
    stack.reset_parameters()
    for name, p in stack.state_dict().items():
        if name.startswith("ln_"):
            np.testing.assert_array_equal(p, np.full(4, 1.0 if "weight" in name else 0.0), name)
        else:
            assert np.abs(p).max() <= 0.5, name  # U(-1/sqrt(H), 1/sqrt(H))


def test_constructor_defaults_are_torch_nn_s():
    assert StackedRNN(3, 4).config == StackConfig.of(torch.nn.LSTM(3, 4))  # 1 layer, no residual
    assert StackedRNN(3, 4, 2, cell="gru", bias=False).config \
        == StackConfig.of(torch.nn.GRU(3, 4, 2, bias=False))


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


def test_from_torch_reads_bfloat16_as_float32_and_wants_a_torch_module():
    """bfloat16 has no NumPy twin; float32 holds its values exactly."""
    torch.manual_seed(0)
    module = torch.nn.GRU(3, 4, 2).to(torch.bfloat16)
    stack = StackedRNN.from_torch(module)
    assert stack.dtype == np.float32
    module.float()
    x = np.random.default_rng(0).normal(size=(5, 2, 3)).astype(np.float32)
    np.testing.assert_allclose(stack(x).output, module(torch.tensor(x))[0].detach().numpy(),
                               rtol=0, atol=1e-6)
    with pytest.raises(TypeError, match="module: expected a torch module, got StackedRNN"):
        StackedRNN.from_torch(stack)


def test_train_and_eval_modes_like_torch():
    stack = StackedRNN(3, 4, 3, cell="gru", dropout=0.5, seed=0)
    assert stack.training  # a new torch module trains too
    x = np.ones((4, 2, 3), np.float32)
    out = stack(x)
    # every step draws masks for the two layers below the top, never for the top's output
    assert all([s.mask is not None for s in row] == [True, True, False] for row in out.tape.steps)
    assert {a.dtype for a in (out.output, out.h, *out.gates.values())} == {np.dtype(np.float32)}
    idle = StackedRNN(3, 4, 3, cell="gru", seed=0)  # dropout 0: no draws, as in torch
    drawn = idle.generator.bit_generator.state
    assert all(s.mask is None for row in idle(x).tape.steps for s in row)
    assert idle.generator.bit_generator.state == drawn
    assert stack.eval() is stack and not stack.training
    plain = StackedRNN(3, 4, 3, cell="gru", seed=0)
    plain.load_state_dict(stack.state_dict())
    np.testing.assert_array_equal(stack(x).output, plain(x).output)  # eval: no dropout
    assert stack.train().training
    with pytest.raises(TypeError, match="mode: expected a bool"):
        stack.train("no")


def test_idle_dropout_warns_at_the_callers_line():
    """Like torch, a one-layer stack with dropout warns; the warning names this file's line
    (a fixed stacklevel), for each public way of building a stack."""
    builders = [lambda: StackedRNN(2, 3, 1, dropout=0.5),
                lambda: TorchStack(2, 3, 1, dropout=0.5),
                lambda: StackedRNN.from_config(StackConfig(2, 3, 1, dropout=0.5)),
                lambda: TorchStack.from_config(StackConfig(2, 3, 1, dropout=0.5))]
    for build in builders:
        with pytest.warns(UserWarning, match="dropout: applied between layers only") as caught:
            build()
        assert [w.filename for w in caught] == [__file__]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        StackConfig(2, 3, 1, dropout=0.5)  # a description: its stacks warn
        StackedRNN(2, 3, 2, dropout=0.5)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"bidirectional": True}, "bidirectional: stacklib's stacks run forward in time only"),
    ({"proj_size": 2}, "proj_size: stacklib's stacks have no projection, got 2"),
])
def test_unsupported_torch_arguments_are_refused_by_name(kwargs, match):
    with pytest.raises(ValueError, match=match):
        StackedRNN(2, 3, 2, **kwargs)


def test_config_fields_read_like_torch_attributes_and_stay_fixed():
    stack = StackedRNN(2, 3, 2, cell="gru", residual=np.bool_(True))
    assert (stack.input_size, stack.hidden_size, stack.num_layers, stack.cell) == (2, 3, 2, "gru")
    assert stack.residual is True  # NumPy's bool_ becomes a bool
    with pytest.raises(AttributeError, match="hidden_size"):
        stack.hidden_size = 4
