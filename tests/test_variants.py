"""Residual, layer-norm and dropout stacks: NumPy equals its stacklib.torch twin, forward and
backward; and the four implementations agree on the plain stack."""

import numpy as np
import pytest
import torch

from stacklib.keras_bridge import build_keras_stack, run_keras_stack
from stacklib.numpy import StackedRNN, from_torch
from stacklib.torch import StackedRNN as TorchStack

NN = {"rnn": torch.nn.RNN, "gru": torch.nn.GRU, "lstm": torch.nn.LSTM}


def twin(cell, layers, **flags):
    torch.manual_seed(3)
    module = TorchStack(4, 6, layers, cell=cell, **flags).double()
    if flags.get("layer_norm"):  # move LN away from its (1, 0) init so the test sees it
        with torch.no_grad():
            for norm in module.norms:
                norm.weight.uniform_(0.5, 1.5)
                norm.bias.uniform_(-0.3, 0.3)
    return module, from_torch(module)


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize(("residual", "layer_norm"), [(True, False), (False, True), (True, True)])
def test_variant_forward_and_backward_match_autograd(cell, residual, layer_norm):
    module, stack = twin(cell, 3, residual=residual, layer_norm=layer_norm)
    assert stack.residual == residual and stack.layer_norm == layer_norm
    x = torch.randn(7, 3, 4, dtype=torch.float64, requires_grad=True)
    y, state = module(x)
    h_n = state[0] if cell == "lstm" else state
    out = stack.forward(x.detach().numpy())
    np.testing.assert_allclose(out.output, y.detach().numpy(), atol=1e-10)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), atol=1e-10)
    gy = torch.randn_like(y)
    (y * gy).sum().backward()
    grads = stack.backward(out, gy.numpy())
    flat_grads = {}
    for k, (c, n) in enumerate(zip(module.cells, module.norms or [None] * 3, strict=True)):
        for part in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            flat_grads[f"{part}_l{k}"] = getattr(c, part).grad
        if n is not None:
            flat_grads[f"ln_weight_l{k}"], flat_grads[f"ln_bias_l{k}"] = n.weight.grad, n.bias.grad
    assert set(flat_grads) == set(grads.params)
    for name, g in flat_grads.items():
        np.testing.assert_allclose(grads.params[name], g.numpy(), rtol=1e-8, atol=1e-12,
                                   err_msg=name)
    np.testing.assert_allclose(grads.input, x.grad.numpy(), rtol=1e-8, atol=1e-12)


def test_residual_raises_gradient_reaching_the_bottom():
    """The §09 claim, on the library: a skip path keeps the bottom layer's gradient larger."""
    x = np.random.default_rng(0).normal(size=(10, 4, 16))
    norms = {}
    for residual in (False, True):
        stack = StackedRNN(16, 16, 8, cell="rnn", residual=residual, seed=1)
        out = stack.forward(x)
        g = np.zeros_like(out.output)
        g[-1] = 1.0
        norms[residual] = stack.backward(out, g).h_norm[-1]  # (L,) at the last step
    assert norms[True][0] > 10 * norms[False][0]


def test_dropout_backward_matches_finite_differences():
    stack = StackedRNN(3, 4, 3, cell="lstm", dropout=0.4, residual=True, seed=5)
    x = np.random.default_rng(1).normal(size=(5, 2, 3))
    gy = np.random.default_rng(2).normal(size=(5, 2, 4))

    def loss(params):
        stack.load_state_dict(params)
        out = stack.forward(x, train=True, rng=np.random.default_rng(9))  # same masks each call
        return float((out.output * gy).sum()), out

    params = stack.state_dict()
    _, out = loss(params)
    masks = [r["mask"] for r in out._cache["layers"][:-1]]
    assert all(m is not None and (m == 0).any() for m in masks)
    assert set(np.unique(masks[0])) <= {0.0, 1.0 / 0.6}
    grads = stack.backward(out, gy)
    rng = np.random.default_rng(3)
    for name in ("weight_ih_l0", "weight_hh_l1", "bias_ih_l2"):
        for _ in range(3):
            idx = tuple(int(rng.integers(n)) for n in params[name].shape)
            plus, minus = ({k: v.copy() for k, v in params.items()} for _ in range(2))
            plus[name][idx] += 1e-6
            minus[name][idx] -= 1e-6
            numeric = (loss(plus)[0] - loss(minus)[0]) / 2e-6
            assert abs(grads.params[name][idx] - numeric) <= 1e-6 * max(1.0, abs(numeric))


def test_dropout_is_identity_in_eval_and_never_touches_the_top():
    stack = StackedRNN(3, 4, 2, cell="gru", dropout=0.5)
    x = np.random.default_rng(0).normal(size=(4, 2, 3))
    no_dropout = StackedRNN(3, 4, 2, cell="gru")
    no_dropout.load_state_dict(stack.state_dict())  # eval: exactly the stack without dropout
    np.testing.assert_array_equal(stack.forward(x).output, no_dropout.forward(x).output)
    trained = stack.forward(x, train=True, rng=np.random.default_rng(0))
    assert trained._cache["layers"][-1]["mask"] is None
    single = StackedRNN(3, 4, 1, dropout=0.5)
    np.testing.assert_array_equal(single.forward(x, train=True).output, single.forward(x).output)


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("layers", [1, 2, 3])
def test_four_implementations_agree(cell, layers):
    """NumPy == torch.nn == stacklib.torch == Keras on one set of weights (Keras in float32)."""
    torch.manual_seed(layers)
    module = NN[cell](5, 4, num_layers=layers, batch_first=True)
    x = torch.randn(3, 6, 5)
    reference = module(x)[0].detach().numpy()
    ours = TorchStack.from_torch_nn(module)
    np.testing.assert_allclose(ours(x)[0].detach().numpy(), reference, atol=1e-6)
    np.testing.assert_allclose(from_torch(module).forward(x.numpy()).output, reference,
                               atol=1e-6)
    keras_model = build_keras_stack(module.state_dict(), cell, 5, 4, layers,
                                    return_sequences_top=True)
    np.testing.assert_allclose(run_keras_stack(keras_model, x.numpy()), reference, atol=1e-5)
