"""stacklib.numpy against autograd: forward states and hand-written BPTT. The oracle is torch.nn
for what it has, stacklib.torch (itself held to torch.nn and to the formulas in
test_torch_stack.py) for residual, layer-norm and linear stacks; ``h_norm`` against gradients
torch retained at every (t, l); dropout's backward against finite differences."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from stacklib.config import StackConfig, param_name, torch_nn_class
from stacklib.numpy import StackedRNN
from stacklib.torch import StackedRNN as TorchStack

F64 = np.float64

# StackConfig fields beyond the cell, and sizes (input, hidden); "square_residual" is the
# residual stack whose layer 1 could add its input too (input_size == hidden_size) and must not
OPTIONS = {
    "plain": ({}, (3, 5)),
    "no_bias": ({"bias": False}, (3, 5)),
    "relu": ({"nonlinearity": "relu"}, (3, 5)),
    "linear": ({"nonlinearity": "linear"}, (3, 5)),
    "residual": ({"residual": True}, (3, 5)),
    "square_residual": ({"residual": True}, (5, 5)),
    "layer_norm": ({"layer_norm": True}, (3, 5)),
    "residual_layer_norm": ({"residual": True, "layer_norm": True}, (5, 5)),
}
# layout: "TB" (T, B, x), "BT" batch_first, "unbatched" (T, x); B = 1 and T = 1 are edges
SHAPES = {"TB": (False, 4), "BT": (True, 4), "TB1": (False, 1), "BT1": (True, 1),
          "unbatched": (False, None)}
# A covering set: every (cell, option) pair but the RNN's square residual, every depth 1..4,
# every shape, and T = 1, each at least once.
CASES = [  # (cell, option, layers, shape, T)
    ("rnn", "plain", 1, "TB", 7), ("rnn", "relu", 2, "BT", 7), ("rnn", "linear", 3, "unbatched", 7),
    ("rnn", "no_bias", 1, "TB1", 1), ("rnn", "residual", 4, "BT1", 7),
    ("rnn", "layer_norm", 3, "BT1", 7), ("rnn", "residual_layer_norm", 1, "TB", 1),
    ("gru", "plain", 2, "unbatched", 7), ("gru", "no_bias", 3, "BT", 7),
    ("gru", "residual", 2, "TB", 7), ("gru", "layer_norm", 1, "BT1", 7),
    ("gru", "residual_layer_norm", 3, "TB1", 1), ("gru", "square_residual", 4, "TB", 7),
    ("lstm", "plain", 3, "BT", 7), ("lstm", "no_bias", 2, "TB1", 7),
    ("lstm", "residual", 1, "unbatched", 7), ("lstm", "square_residual", 2, "BT1", 1),
    ("lstm", "layer_norm", 4, "TB", 7), ("lstm", "residual_layer_norm", 2, "unbatched", 7),
    ("lstm", "plain", 4, "unbatched", 1),
]


def run_torch(module, x, hx=None):
    out, state = module(x, hx)
    return (out, *state) if isinstance(state, tuple) else (out, state, None)


def rel_err(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)


def oracle(stack):
    """torch.nn (a plain stack) or stacklib.torch, with the NumPy stack's weights."""
    if not (stack.residual or stack.layer_norm or stack.nonlinearity == "linear"):
        return stack.to_torch()
    module = TorchStack.from_config(stack.config, dtype=torch.float64)
    module.load_state_dict(stack.state_dict())
    return module


@pytest.mark.parametrize(("cell", "option", "layers", "shape", "T"), CASES,
                         ids=["-".join(map(str, c)) for c in CASES])
def test_forward_and_bptt_match_autograd(cell, option, layers, shape, T):
    flags, (n_in, H) = OPTIONS[option]
    batch_first, B = SHAPES[shape]
    cfg = StackConfig(n_in, H, layers, cell=cell, batch_first=batch_first, **flags)
    stack = StackedRNN.from_config(cfg, dtype=F64, seed=layers)
    if cfg.layer_norm:  # away from the (1, 0) init, so the test sees the affine part
        rng = np.random.default_rng(1)
        stack.load_state_dict({k: v if not k.startswith("ln_") else rng.uniform(0.5, 1.5, v.shape)
                               for k, v in stack.state_dict().items()})
    module = oracle(stack)
    xs = (T, n_in) if B is None else ((B, T, n_in) if batch_first else (T, B, n_in))
    x = torch.randn(*xs, dtype=torch.float64, requires_grad=True)
    states = [torch.randn(*((layers, H) if B is None else (layers, B, H)), dtype=torch.float64,
                          requires_grad=True) for _ in range(2)]
    hx = tuple(states) if cell == "lstm" else states[0]
    y, h_n, c_n = run_torch(module, x, hx)
    gy, gh = torch.randn_like(y), torch.randn_like(h_n)
    loss = (y * gy).sum() + (h_n * gh).sum()
    gc = None
    if cell == "lstm":
        gc = torch.randn_like(c_n)
        loss = loss + (c_n * gc).sum()
    loss.backward()

    out = stack(x.detach().numpy(), tuple(s.detach().numpy() for s in states)
                if cell == "lstm" else states[0].detach().numpy())
    assert out.output.shape == tuple(y.shape)
    assert out.h.shape == ((layers, T, H) if B is None else (layers, T, B, H))
    np.testing.assert_allclose(out.output, y.detach().numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), rtol=0, atol=1e-12)
    if cell == "lstm":
        np.testing.assert_allclose(out.c_n, c_n.detach().numpy(), rtol=0, atol=1e-12)
    if not (cfg.residual or cfg.layer_norm):  # the top layer's h at every step is the output
        top = out.output.transpose(1, 0, 2) if batch_first and B else out.output
        np.testing.assert_array_equal(out.h[-1], top)

    grads = stack.backward(out, gy.numpy(), gh.numpy(), None if gc is None else gc.numpy())
    assert list(grads.params) == list(stack.state_dict())
    for name, p in module.named_parameters():
        assert rel_err(grads.params[name], p.grad.numpy()) <= 1e-8, name
    assert grads.input.shape == tuple(x.shape)
    assert rel_err(grads.input, x.grad.numpy()) <= 1e-8
    assert rel_err(grads.h0, states[0].grad.numpy()) <= 1e-8
    if cell == "lstm":
        assert rel_err(grads.c0, states[1].grad.numpy()) <= 1e-8
    else:
        assert grads.c0 is None


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
def test_float32_stays_float32_and_matches_torch(cell):
    """The stack's dtype all the way through: outputs and every gradient, like torch's."""
    torch.manual_seed(0)
    module = torch_nn_class(cell)(12, 16, 3)
    stack = StackedRNN.from_torch(module)
    assert stack.dtype == np.float32
    x = torch.randn(20, 5, 12, requires_grad=True)
    y, h_n, _ = run_torch(module, x)
    y.sum().backward()
    out = stack(x.detach().numpy())
    grads = stack.backward(out, np.ones_like(out.output))
    arrays = (out.output, out.h, grads.input, grads.h0, grads.h_norm, *out.gates.values(),
              *grads.params.values())
    assert {a.dtype for a in arrays} == {np.dtype(np.float32)}
    np.testing.assert_allclose(out.output, y.detach().numpy(), rtol=0, atol=1e-5)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), rtol=0, atol=1e-5)
    np.testing.assert_allclose(grads.input, x.grad.numpy(), rtol=0, atol=1e-4)
    for name, p in module.named_parameters():
        np.testing.assert_allclose(grads.params[name], p.grad.numpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(("cell", "residual", "layer_norm", "B"), [
    ("rnn", False, False, 2), ("gru", True, True, 1), ("lstm", True, False, 2),
    ("lstm", False, True, 1)])
def test_gradient_norm_map_matches_autograd(cell, residual, layer_norm, B):
    """h_norm[t, l] is ||dLoss/dh^[l]_t||: check it against gradients torch retained at every
    (t, l) of a stack of torch.nn cells (an independent oracle: one cell per layer)."""
    stack = StackedRNN(3, 3, 3, cell=cell, residual=residual, layer_norm=layer_norm, dtype=F64,
                       seed=4)
    state = stack.state_dict()
    if layer_norm:
        rng = np.random.default_rng(2)
        state.update({k: rng.uniform(0.5, 1.5, v.shape) for k, v in state.items()
                      if k.startswith("ln_")})
        stack.load_state_dict(state)
    x = np.random.default_rng(0).normal(size=(5, B, 3))
    out = stack(x)
    grads = stack.backward(out, np.ones_like(out.output))
    cells = []
    for l in range(3):
        one = {"rnn": torch.nn.RNNCell, "gru": torch.nn.GRUCell,
               "lstm": torch.nn.LSTMCell}[cell](3, 3).double()
        one.load_state_dict({p: torch.tensor(state[param_name(p, l)])
                             for p in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")})
        cells.append(one)
    h = [torch.zeros(B, 3, dtype=torch.float64) for _ in range(3)]
    c = [torch.zeros(B, 3, dtype=torch.float64) for _ in range(3)]
    hs, tops = [], []
    for t in range(5):
        inp = torch.tensor(x[t])
        for l in range(3):
            if cell == "lstm":
                h[l], c[l] = cells[l](inp, (h[l], c[l]))
            else:
                h[l] = cells[l](inp, h[l])
            h[l].retain_grad()
            hs.append((t, l, h[l]))
            a = h[l]
            if layer_norm:
                a = F.layer_norm(a, (3,), torch.tensor(state[param_name("ln_weight", l)]),
                                 torch.tensor(state[param_name("ln_bias", l)]))
            inp = a + inp if residual and l >= 1 else a
        tops.append(inp)
    sum(y.sum() for y in tops).backward()
    for t, l, h_t in hs:
        want = h_t.grad.norm().item()
        assert abs(grads.h_norm[t, l] - want) <= 1e-10 * max(1.0, want), (t, l)


def test_dropout_backward_matches_finite_differences():
    stack = StackedRNN(3, 4, 3, cell="lstm", dropout=0.4, residual=True, dtype=F64, seed=5)
    x = np.random.default_rng(1).normal(size=(5, 2, 3))
    gy = np.random.default_rng(2).normal(size=(5, 2, 4))

    def loss(params):
        stack.load_state_dict(params)
        stack.generator = np.random.default_rng(9)  # the same masks at every call
        out = stack(x)
        return float((out.output * gy).sum()), out

    params = stack.state_dict()
    _, out = loss(params)
    masks = [step.mask for row in out.tape.steps for step in row[:-1]]  # the layers below
    assert all(m is not None for m in masks) and any((m == 0).any() for m in masks)
    assert set(np.unique(masks)) <= {0.0, 1.0 / 0.6}
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


def test_residual_raises_gradient_reaching_the_bottom():
    """The §09 claim, on the library: a skip path keeps the bottom layer's gradient larger."""
    x = np.random.default_rng(0).normal(size=(10, 4, 16))
    norms = {}
    for residual in (False, True):
        stack = StackedRNN(16, 16, 8, cell="rnn", residual=residual, dtype=F64, seed=1)
        out = stack(x)
        g = np.zeros_like(out.output)
        g[-1] = 1.0
        norms[residual] = stack.backward(out, g).h_norm[-1]  # (L,) at the last step
    assert norms[True][0] > 10 * norms[False][0]
