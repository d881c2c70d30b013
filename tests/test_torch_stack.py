"""stacklib.torch.StackedRNN against torch.nn.RNN/GRU/LSTM (the oracle) and direct formulas."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from stacklib.config import torch_nn_class
from stacklib.torch import StackedRNN
from stacklib.torch import stack as stack_module

TOL = {torch.float64: 1e-10, torch.float32: 1e-5}


def _max_err(a, b) -> float:
    return float((a - b).detach().abs().max())


def _pair(cell, L, *, dtype=torch.float64, batch_first=False, seed=0, **kw):
    """A random nn module and a StackedRNN built from it; random sizes from the seed."""
    g = torch.Generator().manual_seed(seed)
    n_in, H = (int(v) for v in torch.randint(1, 9, (2,), generator=g))
    torch.manual_seed(seed)
    ref = torch_nn_class(cell)(n_in, H, L, batch_first=batch_first, dtype=dtype, **kw)
    return ref, StackedRNN.from_torch(ref), n_in, H


def _states(out, cell):
    """(output, h_n, c_n-or-None) from either module's return value."""
    y, state = out
    return (y, *state) if cell == "lstm" else (y, state, None)


# A covering set: every cell, depth 1..4, layout (TB, BT, unbatched), given or zero hx, both
# dtypes, ReLU and bias=False, and T = 1, B = 1, each at least once.
CASES = [  # (cell, L, layout, hx given, dtype, T, B, options)
    ("rnn", 1, "TB", False, torch.float64, 5, 3, {}),
    ("rnn", 3, "BT", True, torch.float32, 5, 3, {"nonlinearity": "relu"}),
    ("rnn", 4, "unbatched", True, torch.float64, 5, None, {"bias": False}),
    ("rnn", 2, "TB", True, torch.float64, 1, 1, {"nonlinearity": "relu", "bias": False}),
    ("gru", 2, "BT", False, torch.float64, 5, 3, {}),
    ("gru", 3, "TB", True, torch.float32, 5, 1, {}),
    ("gru", 1, "unbatched", False, torch.float64, 1, None, {"bias": False}),
    ("lstm", 1, "BT", True, torch.float64, 5, 1, {}),
    ("lstm", 2, "TB", False, torch.float32, 5, 3, {}),
    ("lstm", 3, "unbatched", True, torch.float64, 6, None, {}),
    ("lstm", 4, "BT", True, torch.float64, 1, 3, {"bias": False}),
]


@pytest.mark.parametrize(("cell", "L", "layout", "with_hx", "dtype", "T", "B", "kw"), CASES,
                         ids=[f"{c[0]}-L{c[1]}-{c[2]}-T{c[5]}-B{c[6]}" for c in CASES])
def test_matches_torch_nn(cell, L, layout, with_hx, dtype, T, B, kw):
    seed = 100 * L + 10 * ("rnn", "gru", "lstm").index(cell) + T
    ref, stack, n_in, H = _pair(cell, L, dtype=dtype, batch_first=layout == "BT", seed=seed, **kw)
    x = torch.randn({"TB": (T, B, n_in), "BT": (B, T, n_in), "unbatched": (T, n_in)}[layout],
                    dtype=dtype)
    hx = None
    if with_hx:
        h0 = torch.randn((L, H) if B is None else (L, B, H), dtype=dtype)
        hx = (h0, torch.randn_like(h0)) if cell == "lstm" else h0
    got, want = _states(stack(x, hx), cell), _states(ref(x, hx), cell)
    assert got[0].shape == want[0].shape
    assert got[1].shape == ((L, H) if B is None else (L, B, H))
    for g, w in zip(got, want, strict=True):
        if w is None:
            assert g is None
        else:
            assert g.dtype == dtype
            assert _max_err(g, w) <= TOL[dtype]


def test_linear_rnn_is_affine_recurrence():
    stack = StackedRNN(2, 3, 1, cell="rnn", nonlinearity="linear").double()
    sd = stack.state_dict()
    x = torch.randn(4, 1, 2, dtype=torch.float64)
    h = torch.zeros(1, 3, dtype=torch.float64)
    b = sd["bias_ih_l0"] + sd["bias_hh_l0"]
    for t in range(4):
        h = x[t] @ sd["weight_ih_l0"].T + h @ sd["weight_hh_l0"].T + b
    assert _max_err(stack(x)[1][0], h) <= 1e-12


# ------------------------------------------------ residual / layer norm / dropout semantics
def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _reference_stack(sd, cell, x, L, residual, layer_norm):
    """Direct NumPy transcription of the contract's stack formulas (x: (T, B, in))."""
    T, B, _ = x.shape
    H = sd["weight_hh_l0"].shape[1]
    h = np.zeros((L, B, H))
    c = np.zeros((L, B, H))
    ys = []
    for t in range(T):
        inp = x[t]
        for k in range(L):
            gi = inp @ sd[f"weight_ih_l{k}"].T + sd[f"bias_ih_l{k}"]
            gh = h[k] @ sd[f"weight_hh_l{k}"].T + sd[f"bias_hh_l{k}"]
            if cell == "lstm":
                i, f, g, o = np.split(gi + gh, 4, axis=-1)
                c[k] = _sigmoid(f) * c[k] + _sigmoid(i) * np.tanh(g)
                h[k] = _sigmoid(o) * np.tanh(c[k])
            else:  # gru
                (ir, iz, i_n), (hr, hz, h_n) = np.split(gi, 3, -1), np.split(gh, 3, -1)
                r, z = _sigmoid(ir + hr), _sigmoid(iz + hz)
                n = np.tanh(i_n + r * h_n)
                h[k] = (1 - z) * n + z * h[k]
            a = h[k]
            if layer_norm:
                mu, var = a.mean(-1, keepdims=True), a.var(-1, keepdims=True)
                a = (a - mu) / np.sqrt(var + 1e-5) * sd[f"ln_weight_l{k}"] + sd[f"ln_bias_l{k}"]
            inp = a + inp if residual and k >= 1 else a
        ys.append(inp)
    return np.stack(ys), h, c


@pytest.mark.parametrize(("cell", "residual", "layer_norm"), [
    ("gru", True, False), ("lstm", False, True), ("gru", True, True), ("lstm", True, True)])
def test_residual_and_layer_norm_match_direct_formula(cell, residual, layer_norm):
    torch.manual_seed(1)
    stack = StackedRNN(3, 5, 3, cell=cell, residual=residual, layer_norm=layer_norm).double()
    if layer_norm:  # non-trivial affine parameters, or LN weight=1/bias=0 hides mistakes
        with torch.no_grad():
            for name, p in stack.named_parameters():
                if name.startswith("ln_"):
                    p.uniform_(0.5, 1.5) if "weight" in name else p.uniform_(-0.5, 0.5)
    x = torch.randn(4, 2, 3, dtype=torch.float64)
    sd = {k: v.numpy() for k, v in stack.state_dict().items()}
    y_ref, h_ref, c_ref = _reference_stack(sd, cell, x.numpy(), 3, residual, layer_norm)
    y, state = stack(x)
    h_n = state[0] if cell == "lstm" else state
    assert np.abs(y.detach().numpy() - y_ref).max() <= 1e-10
    assert np.abs(h_n.detach().numpy() - h_ref).max() <= 1e-10  # h_n is the raw cell state
    if cell == "lstm":
        assert np.abs(state[1].detach().numpy() - c_ref).max() <= 1e-10
    plain = StackedRNN(3, 5, 3, cell=cell).double()
    plain.load_state_dict({k: v for k, v in sd.items() if not k.startswith("ln_")})
    assert _max_err(plain(x)[0], y) > 1e-3  # the variant really changes the output


def test_dropout_eval_is_identity_and_top_never_dropped():
    cell = "lstm"
    ref, _, n_in, _ = _pair(cell, 3, seed=5, dropout=0.5)
    stack = StackedRNN.from_torch(ref).eval()
    ref.eval()
    x = torch.randn(6, 4, n_in, dtype=torch.float64)
    assert _max_err(stack(x)[0], ref(x)[0]) <= 1e-10
    with pytest.warns(UserWarning, match="dropout"):
        single = StackedRNN(n_in, 4, 1, cell=cell, dropout=0.5).double()
    y_eval = single.eval()(x)[0]
    y_train = single.train()(x)[0]
    assert torch.equal(y_eval, y_train)  # L=1: the only layer is the top: never dropped
    stack.train()
    y, state = stack(x)
    h_n = state[0] if cell == "lstm" else state
    assert torch.equal(y[-1], h_n[-1])  # top output = top state, even in training


def test_dropout_train_zeros_and_rescales_between_layers(monkeypatch):
    p = 0.4
    torch.manual_seed(2)
    stack = StackedRNN(3, 64, 2, cell="gru", dropout=p).double().train()
    seen = []
    dropout = stack_module.F.dropout

    def recording(u, rate, training):
        seen.append((u, dropout(u, rate, training)))
        return seen[-1][1]

    monkeypatch.setattr(stack_module.F, "dropout", recording)
    stack(torch.randn(20, 8, 3, dtype=torch.float64))
    h1, x2 = (torch.stack(a) for a in zip(*seen, strict=True))  # (T, B, H): layer 1 out, 2 in
    dropped = x2 == 0
    assert torch.allclose(x2[~dropped], h1[~dropped] / (1 - p), rtol=0, atol=1e-12)
    assert abs(float(dropped.double().mean()) - p) < 0.03  # 10240 draws: 5 sigma ~ 0.024
    stack.eval()
    seen.clear()
    stack(torch.randn(20, 8, 3, dtype=torch.float64))
    assert all(torch.equal(u, x) for u, x in seen)
