"""stacklib.numpy against torch.nn as the oracle: forward states and hand-written BPTT."""

import itertools

import numpy as np
import pytest
import torch

from stacklib.numpy import StackedRNN, from_torch

NN = {"rnn": torch.nn.RNN, "gru": torch.nn.GRU, "lstm": torch.nn.LSTM}
CELLS = ["rnn", "gru", "lstm"]


def make_pair(cell, x, h, layers, *, dtype=torch.float64, batch_first=False, seed=0, **kw):
    torch.manual_seed(seed)
    module = NN[cell](x, h, num_layers=layers, batch_first=batch_first, **kw).to(dtype)
    return module, from_torch(module)


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
    out = stack.forward(x.numpy(), tuple(t.numpy() for t in hx) if cell == "lstm" else h0.numpy())
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
    out = stack.forward(x.numpy())
    assert out.output.dtype == np.float32
    np.testing.assert_allclose(out.output, y.detach().numpy(), rtol=0, atol=1e-5)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), rtol=0, atol=1e-5)


@pytest.mark.parametrize("cell", CELLS)
def test_unbatched_input_like_torch(cell):
    module, stack = make_pair(cell, 3, 4, 2)
    x = torch.randn(6, 3, dtype=torch.float64)
    y, h_n, _ = run_torch(module, x)
    out = stack.forward(x.numpy())
    assert out.output.shape == (6, 4) and out.h_n.shape == (2, 4) and out.h.shape == (2, 6, 4)
    np.testing.assert_allclose(out.output, y.detach().numpy(), atol=1e-12)
    np.testing.assert_allclose(out.h_n, h_n.detach().numpy(), atol=1e-12)


def test_relu_rnn_and_no_bias():
    module, stack = make_pair("rnn", 4, 5, 2, nonlinearity="relu", bias=False)
    assert stack.nonlinearity == "relu" and not stack.bias
    x = torch.randn(7, 3, 4, dtype=torch.float64)
    np.testing.assert_allclose(stack.forward(x.numpy()).output, module(x)[0].detach().numpy(),
                               atol=1e-12)


def rel_err(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("layers", [1, 2, 4])
@pytest.mark.parametrize(("batch_first", "B"), [(False, 4), (True, 4), (False, 1), (True, 1),
                                               (False, None)],
                         ids=["TB4", "BT4", "TB1", "BT1", "unbatched"])
def test_bptt_matches_autograd(cell, layers, batch_first, B):
    """B = 1 and unbatched input take the matrix-vector path of the LSTM and the stack."""
    module, stack = make_pair(cell, 3, 5, layers, batch_first=batch_first, seed=11)
    T = 23  # T > 2 chunks of the LSTM backward (10 steps), the last one partial
    shape = (T, 3) if B is None else ((B, T, 3) if batch_first else (T, B, 3))
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    state_shape = (layers, 5) if B is None else (layers, B, 5)
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
    out = stack.forward(x.detach().numpy(),
                        (h0.detach().numpy(), c0.detach().numpy()) if cell == "lstm"
                        else h0.detach().numpy())
    grads = stack.backward(out, gy.numpy(), gh.numpy(), None if gc is None else gc.numpy())
    for name, p in module.named_parameters():
        assert rel_err(grads.params[name], p.grad.numpy()) <= 1e-8, name
    assert rel_err(grads.input, x.grad.numpy()) <= 1e-8
    assert rel_err(grads.h0, h0.grad.numpy()) <= 1e-8
    if cell == "lstm":
        assert rel_err(grads.c0, c0.grad.numpy()) <= 1e-8
    assert grads.h_norm.shape == (T, layers) and np.all(grads.h_norm > 0)


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("B", [2, 1])
def test_gradient_norm_map_matches_autograd(cell, B):
    """h_norm[t, l] is ||dLoss/dh^[l]_t||: check it against retained torch gradients."""
    stack = StackedRNN(2, 3, 3, cell=cell, seed=4)
    x = np.random.default_rng(0).normal(size=(5, B, 2))
    out = stack.forward(x)
    grads = stack.backward(out, np.ones_like(out.output))
    state = {k: torch.tensor(v) for k, v in stack.state_dict().items()}
    cells = []
    torch_cell = {"rnn": torch.nn.RNNCell, "gru": torch.nn.GRUCell, "lstm": torch.nn.LSTMCell}
    for l in range(3):  # torch.nn's cell per layer, same weights: an independent oracle
        one = torch_cell[cell](2 if l == 0 else 3, 3).double()
        for part in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(one, part).data.copy_(state[f"{part}_l{l}"])
        cells.append(one)
    xt = torch.tensor(x)
    hs = []
    h = [torch.zeros(B, 3, dtype=torch.float64) for _ in range(3)]
    c = [torch.zeros(B, 3, dtype=torch.float64) for _ in range(3)]
    for t in range(5):
        inp = xt[t]
        for l in range(3):
            if cell == "lstm":
                h[l], c[l] = cells[l](inp, (h[l], c[l]))
            else:
                h[l] = cells[l](inp, h[l])
            h[l].retain_grad()
            hs.append((t, l, h[l]))
            inp = h[l]
    sum(h_t.sum() for (t, l, h_t) in hs if l == 2).backward()
    for t, l, h_t in hs:
        want = h_t.grad.norm().item()
        assert abs(grads.h_norm[t, l] - want) <= 1e-10 * max(1.0, want)


def test_backward_needs_forward_output():
    stack = StackedRNN(2, 3)
    with pytest.raises(ValueError, match="out"):
        stack.backward(object(), np.zeros((1, 1, 3)))


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("B", [1, 5])
def test_inference_forward_keeps_the_same_states(cell, B):
    """forward(grad=False) (LSTM at B > 1: two gate buffers taking turns) computes exactly the
    states of forward(); its output refuses backward(), gates() and the cell state of every
    step (c), which it does not keep."""
    _, stack = make_pair(cell, 4, 6, 3)
    x = np.random.default_rng(B).standard_normal((9, B, 4))
    full, lean = stack.forward(x), stack.forward(x, grad=False)
    for name in ("output", "h_n", "c_n", "h", "layer_outputs"):
        want, got = getattr(full, name), getattr(lean, name)
        if want is None:
            assert got is None
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)
    with pytest.raises(ValueError, match="grad=False"):
        stack.backward(lean, np.ones_like(lean.output))
    with pytest.raises(ValueError, match="grad=False"):
        lean.gates(1)
    if cell == "lstm":
        with pytest.raises(ValueError, match=r"^c: .*grad=False"):
            _ = lean.c
    else:
        assert lean.c is None and full.c is None
    assert set(full.gates(1)) == ({"i", "f", "g", "o"} if cell == "lstm"
                                  else {"r", "z", "n"} if cell == "gru" else set())


@pytest.mark.parametrize(("residual", "shared"), [(False, True), (True, False)])
def test_plain_lstm_stack_keeps_all_layers_in_one_buffer(residual, shared):
    """A plain LSTM stack at B > 1 writes each layer's h where the next layer reads its input
    (one skewed buffer, no copies between layers); a residual stack cannot, and copies."""
    stack = StackedRNN(3, 4, num_layers=3, cell="lstm", residual=residual)
    x = np.random.default_rng(0).standard_normal((5, 2, 3))
    hs = stack.forward(x)._seqs["h"]
    assert all(np.may_share_memory(a, b) for a, b in itertools.pairwise(hs)) is shared
    lean = stack.forward(x, grad=False)
    np.testing.assert_array_equal(lean.output, stack.forward(x).output)


@pytest.mark.parametrize("cell", CELLS)
@pytest.mark.parametrize("B", [1, 3])
def test_backward_scratch_reuse_leaves_earlier_gradients_intact(cell, B):
    """The layers of one backward pass share a scratch workspace (a fresh one per pass): a
    later pass must neither change what an earlier one returned nor depend on what it left
    behind (this guards against the workspace ever being kept between passes)."""
    stack = StackedRNN(3, 4, num_layers=3, cell=cell)
    rng = np.random.default_rng(B)
    xs = [rng.standard_normal((6, B, 3)) for _ in range(2)]
    gys = [rng.standard_normal((6, B, 4)) for _ in range(2)]
    first = stack.backward(stack.forward(xs[0]), gys[0])
    kept = {k: v.copy() for k, v in first.params.items()}
    kept_rest = [first.input.copy(), first.h0.copy(), first.h_norm.copy()]
    second = stack.backward(stack.forward(xs[1]), gys[1])
    for k, v in kept.items():
        np.testing.assert_array_equal(first.params[k], v, err_msg=k)
    for a, b in zip([first.input, first.h0, first.h_norm], kept_rest, strict=True):
        np.testing.assert_array_equal(a, b)
    again = stack.backward(stack.forward(xs[1]), gys[1])
    for k in kept:
        np.testing.assert_array_equal(again.params[k], second.params[k], err_msg=k)
