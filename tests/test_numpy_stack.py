"""stacklib.numpy against autograd: forward states and hand-written BPTT, for every cell, option
and shape. The oracle is torch.nn for what it has, stacklib.torch (itself held to torch.nn in
test_torch_stack.py) for residual and layer-norm stacks."""

import numpy as np
import pytest
import torch

from stacklib.config import StackConfig, param_name, torch_nn_class
from stacklib.numpy import StackedRNN
from stacklib.torch import StackedRNN as TorchStack

CELLS = ["rnn", "gru", "lstm"]
F64 = np.float64


def make_pair(cell, x, h, layers, *, dtype=torch.float64, batch_first=False, seed=0, **kw):
    torch.manual_seed(seed)
    module = torch_nn_class(cell)(x, h, num_layers=layers, batch_first=batch_first, **kw)
    module = module.to(dtype)
    return module, StackedRNN.from_torch(module)


def run_torch(module, x, hx=None):
    out, state = module(x, hx)
    if isinstance(state, tuple):
        return out, state[0], state[1]
    return out, state, None


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("layers", [1, 2, 3, 4])
@pytest.mark.parametrize("batch_first", [False, True])
def test_forward_matches_torch_float64(cell, layers, batch_first):
    rng = np.random.default_rng(layers * 7 + len(cell))
    x_size, h_size, T, B = (int(v) for v in rng.integers(1, 9, size=4))
    module, stack = make_pair(cell, x_size, h_size, layers, batch_first=batch_first, seed=layers)
    shape = (B, T, x_size) if batch_first else (T, B, x_size)
    x = torch.randn(*shape, dtype=torch.float64)
    h0 = torch.randn(layers, B, h_size, dtype=torch.float64)
    c0 = torch.randn(layers, B, h_size, dtype=torch.float64)
    hx = (h0, c0) if cell == "lstm" else h0
    y, h_n, c_n = run_torch(module, x, hx)
    out = stack(x.numpy(), tuple(t.numpy() for t in hx) if cell == "lstm" else h0.numpy())
    assert out.output.shape == tuple(y.shape)
    np.testing.assert_allclose(out.output, y.detach().numpy(), rtol=0, atol=1e-10)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), rtol=0, atol=1e-10)
    if cell == "lstm":
        np.testing.assert_allclose(out.c_n, c_n.detach().numpy(), rtol=0, atol=1e-10)
    # every layer's state at every step: the top layer's is the output, the last step is h_n
    assert out.h.shape == (layers, T, B, h_size)
    np.testing.assert_array_equal(out.h[:, -1], out.h_n)
    top = out.output.transpose(1, 0, 2) if batch_first else out.output
    np.testing.assert_array_equal(out.h[-1], top)


@pytest.mark.parametrize("cell", CELLS)
def test_forward_matches_torch_float32(cell):
    module, stack = make_pair(cell, 12, 16, 3, dtype=torch.float32)
    assert stack.dtype == np.float32
    x = torch.randn(20, 5, 12)
    y, h_n, _ = run_torch(module, x)
    out = stack(x.numpy())
    assert out.output.dtype == np.float32
    np.testing.assert_allclose(out.output, y.detach().numpy(), rtol=0, atol=1e-5)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), rtol=0, atol=1e-5)


@pytest.mark.parametrize("cell", CELLS)
def test_unbatched_input_like_torch(cell):
    module, stack = make_pair(cell, 3, 4, 2)
    x = torch.randn(6, 3, dtype=torch.float64)
    y, h_n, _ = run_torch(module, x)
    out = stack(x.numpy())
    assert out.output.shape == (6, 4) and out.h_n.shape == (2, 4) and out.h.shape == (2, 6, 4)
    np.testing.assert_allclose(out.output, y.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), atol=1e-12)


def rel_err(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)


# (name, StackConfig fields beyond the cell, sizes (input, hidden)); "square" is the residual
# stack whose layer 1 could add its input too (input_size == hidden_size) and must not
OPTIONS = [
    ("plain", {}, (3, 5)),
    ("no_bias", {"bias": False}, (3, 5)),
    ("relu", {"nonlinearity": "relu"}, (3, 5)),
    ("linear", {"nonlinearity": "linear"}, (3, 5)),
    ("residual", {"residual": True}, (3, 5)),
    ("square_residual", {"residual": True}, (5, 5)),
    ("layer_norm", {"layer_norm": True}, (3, 5)),
    ("residual_layer_norm", {"residual": True, "layer_norm": True}, (5, 5)),
]
SHAPES = {"TB4": (False, 4), "BT4": (True, 4), "TB1": (False, 1), "BT1": (True, 1),
          "unbatched": (False, None)}


def oracle(stack):
    """stacklib.torch (or, for a plain stack, torch.nn) with the NumPy stack's weights."""
    if not (stack.residual or stack.layer_norm or stack.nonlinearity == "linear"):
        return stack.to_torch()
    module = TorchStack.from_config(stack.config, dtype=torch.float64)
    module.load_state_dict(stack.state_dict())
    return module


CASES = [(cell, name) for cell in CELLS for name, flags, _ in OPTIONS
         if cell == "rnn" or "nonlinearity" not in flags]  # relu, linear: the RNN's options


@pytest.mark.parametrize(("cell", "option"), CASES)
@pytest.mark.parametrize("layers", [1, 3])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_bptt_matches_autograd(cell, layers, option, shape):
    _, flags, (n_in, H) = next(o for o in OPTIONS if o[0] == option)
    batch_first, B = SHAPES[shape]
    cfg = StackConfig(n_in, H, layers, cell=cell, batch_first=batch_first, **flags)
    stack = StackedRNN.from_config(cfg, dtype=F64, seed=layers)
    if cfg.layer_norm:  # away from the (1, 0) init, so the test sees the affine part
        rng = np.random.default_rng(1)
        stack.load_state_dict({k: v if not k.startswith("ln_") else rng.uniform(0.5, 1.5, v.shape)
                               for k, v in stack.state_dict().items()})
    module = oracle(stack)
    T = 7
    xs = (T, n_in) if B is None else ((B, T, n_in) if batch_first else (T, B, n_in))
    x = torch.randn(*xs, dtype=torch.float64, requires_grad=True)
    state_shape = (layers, H) if B is None else (layers, B, H)
    h0 = torch.randn(*state_shape, dtype=torch.float64, requires_grad=True)
    c0 = torch.randn(*state_shape, dtype=torch.float64, requires_grad=True)
    hx = (h0, c0) if cell == "lstm" else h0
    y, h_n, c_n = run_torch(module, x, hx)
    gy, gh = torch.randn_like(y), torch.randn_like(h_n)
    loss = (y * gy).sum() + (h_n * gh).sum()
    gc = None
    if cell == "lstm":
        gc = torch.randn_like(c_n)
        loss = loss + (c_n * gc).sum()
    loss.backward()
    out = stack(x.detach().numpy(), (h0.detach().numpy(), c0.detach().numpy())
                if cell == "lstm" else h0.detach().numpy())
    np.testing.assert_allclose(out.output, y.detach().numpy(), atol=1e-12)
    grads = stack.backward(out, gy.numpy(), gh.numpy(), None if gc is None else gc.numpy())
    assert list(grads.params) == list(stack.state_dict())
    for name, p in module.named_parameters():
        assert rel_err(grads.params[name], p.grad.numpy()) <= 1e-8, name
    assert rel_err(grads.input, x.grad.numpy()) <= 1e-8
    assert rel_err(grads.h0, h0.grad.numpy()) <= 1e-8
    if cell == "lstm":
        assert rel_err(grads.c0, c0.grad.numpy()) <= 1e-8
    assert grads.h_norm.shape == (T, layers) and np.all(grads.h_norm > 0)


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("B", [2, 1])
def test_gradient_norm_map_matches_autograd(cell, residual, B):
    """h_norm[t, l] is ||dLoss/dh^[l]_t||: check it against gradients torch retained at every
    (t, l) of a stack of torch.nn cells (an independent oracle: one cell per layer)."""
    stack = StackedRNN(3, 3, 3, cell=cell, residual=residual, dtype=F64, seed=4)
    x = np.random.default_rng(0).normal(size=(5, B, 3))
    out = stack(x)
    grads = stack.backward(out, np.ones_like(out.output))
    state = {k: torch.tensor(v) for k, v in stack.state_dict().items()}
    cells = []
    torch_cell = {"rnn": torch.nn.RNNCell, "gru": torch.nn.GRUCell, "lstm": torch.nn.LSTMCell}
    for l in range(3):
        one = torch_cell[cell](3, 3).double()
        for part in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(one, part).data.copy_(state[param_name(part, l)])
        cells.append(one)
    xt = torch.tensor(x)
    hs = []
    h = [torch.zeros(B, 3, dtype=torch.float64) for _ in range(3)]
    c = [torch.zeros(B, 3, dtype=torch.float64) for _ in range(3)]
    tops = []
    for t in range(5):
        inp = xt[t]
        for l in range(3):
            if cell == "lstm":
                h[l], c[l] = cells[l](inp, (h[l], c[l]))
            else:
                h[l] = cells[l](inp, h[l])
            h[l].retain_grad()
            hs.append((t, l, h[l]))
            inp = h[l] + inp if residual and l >= 1 else h[l]
        tops.append(inp)
    sum(y.sum() for y in tops).backward()
    for t, l, h_t in hs:
        want = h_t.grad.norm().item()
        assert abs(grads.h_norm[t, l] - want) <= 1e-10 * max(1.0, want)


@pytest.mark.parametrize("cell", CELLS)
def test_one_step_sequence(cell):
    """T = 1: the loops through time run once, forward and back."""
    module, stack = make_pair(cell, 2, 3, 2)
    x = torch.randn(1, 2, 2, dtype=torch.float64, requires_grad=True)
    y, _, _ = run_torch(module, x)
    y.sum().backward()
    grads = stack.backward(stack(x.detach().numpy()), np.ones((1, 2, 3)))
    np.testing.assert_allclose(grads.input, x.grad.numpy(), atol=1e-12)
