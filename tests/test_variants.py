"""Dropout and residual stacks in NumPy (their BPTT against autograd is in
test_numpy_stack.py), and the four implementations agreeing on shared weights."""

import numpy as np
import pytest
import torch

from stacklib.config import torch_nn_class
from stacklib.keras_bridge import run_keras_stack, to_keras
from stacklib.numpy import StackedRNN
from stacklib.torch import StackedRNN as TorchStack


def test_residual_raises_gradient_reaching_the_bottom():
    """The §09 claim, on the library: a skip path keeps the bottom layer's gradient larger."""
    x = np.random.default_rng(0).normal(size=(10, 4, 16))
    norms = {}
    for residual in (False, True):
        stack = StackedRNN(16, 16, 8, cell="rnn", residual=residual, dtype=np.float64, seed=1)
        out = stack(x)
        g = np.zeros_like(out.output)
        g[-1] = 1.0
        norms[residual] = stack.backward(out, g).h_norm[-1]  # (L,) at the last step
    assert norms[True][0] > 10 * norms[False][0]


def test_dropout_backward_matches_finite_differences():
    stack = StackedRNN(3, 4, 3, cell="lstm", dropout=0.4, residual=True, dtype=np.float64,
                       seed=5)
    x = np.random.default_rng(1).normal(size=(5, 2, 3))
    gy = np.random.default_rng(2).normal(size=(5, 2, 4))

    def loss(params):
        stack.load_state_dict(params)
        stack.generator = np.random.default_rng(9)  # the same masks at every call
        out = stack(x)
        return float((out.output * gy).sum()), out

    params = stack.state_dict()
    _, out = loss(params)
    masks = [layer.mask for layer in out.tape.layers[:-1]]
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


def test_dropout_never_touches_the_top():
    stack = StackedRNN(3, 4, 2, cell="gru", dropout=0.5, seed=0)
    x = np.random.default_rng(0).normal(size=(4, 2, 3)).astype(np.float32)
    assert stack(x).tape.layers[-1].mask is None
    with pytest.warns(UserWarning, match="dropout"):
        single = StackedRNN(3, 4, 1, dropout=0.5, seed=0)
    np.testing.assert_array_equal(single(x).output, single.eval()(x).output)


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("layers", [1, 2, 3])
def test_four_implementations_agree(cell, layers):
    """NumPy == torch.nn == stacklib.torch == Keras on one set of weights (Keras in float32)."""
    torch.manual_seed(layers)
    module = torch_nn_class(cell)(5, 4, num_layers=layers, batch_first=True)
    x = torch.randn(3, 6, 5)
    reference = module(x)[0].detach().numpy()
    ours = TorchStack.from_torch(module)
    np.testing.assert_allclose(ours(x)[0].detach().numpy(), reference, atol=1e-6)
    np.testing.assert_allclose(StackedRNN.from_torch(module)(x.numpy()).output, reference,
                               atol=1e-6)
    keras_model = to_keras(module, return_sequences_top=True)
    np.testing.assert_allclose(run_keras_stack(keras_model, x.numpy()), reference, atol=1e-5)
