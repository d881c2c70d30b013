"""Bad input gets a ValueError that names the argument — never a broadcasting accident."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from stacklib import data
from stacklib.numpy import StackedRNN
from stacklib.torch import StackedRNN as TorchStack

CTOR = dict(input_size=3, hidden_size=4, num_layers=2)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(num_layers=0), ValueError, "num_layers: expected an integer >= 1, got 0"),
        (dict(hidden_size=0), ValueError, "hidden_size"),
        (dict(input_size=0), ValueError, "input_size"),
        (dict(hidden_size=2.0), TypeError, "hidden_size: expected an int, got float"),
        (dict(num_layers=True), TypeError, "num_layers: expected an int, got bool"),
        (dict(cell="transformer"), ValueError, "cell: expected one of"),
        (dict(cell=None), TypeError, "cell: expected a str"),
        (dict(cell="lstm", nonlinearity="relu"), ValueError, "nonlinearity"),
        (dict(cell="rnn", nonlinearity="sigmoid"), ValueError, "nonlinearity"),
        (dict(dropout=1.0), ValueError, "dropout"),
        (dict(dropout=-0.1), ValueError, "dropout"),
        (dict(dropout="0.1"), TypeError, "dropout: expected a number"),
        (dict(batch_first="False"), TypeError, "batch_first: expected a bool, got str 'False'"),
        (dict(dtype=np.int32), TypeError, "dtype: expected a floating-point dtype"),
        (dict(seed=-1), ValueError, "seed: expected an integer >= 0"),
    ],
)
def test_constructor_rejects(kwargs, error, match):
    with pytest.raises(error, match=match):
        StackedRNN(**(CTOR | kwargs))


@pytest.mark.parametrize(
    ("x", "error", "match"),
    [
        (np.zeros((5, 2, 4)), ValueError, r"x: expected last dimension input_size=3"),
        (np.zeros((5,)), ValueError, r"x: expected a 3-D"),
        (np.zeros((1, 5, 2, 3)), ValueError, r"x: expected a 3-D"),
        (np.zeros((0, 2, 3)), ValueError, r"x: expected at least one timestep"),
        (np.array([[[np.nan, 0, 0]]]), ValueError, r"x: expected finite values"),
        (np.array([[[np.inf, 0, 0]]]), ValueError, r"x: expected finite values"),
        (np.array([["a", "b", "c"]]), TypeError, r"x: expected floating-point numbers"),
        (np.zeros((2, 1, 3), dtype=complex), TypeError, r"x: expected floating-point numbers"),
    ],
)
def test_forward_rejects_bad_x(x, error, match):
    with pytest.raises(error, match=match):
        StackedRNN(**CTOR, dtype=np.float64)(x)


def test_forward_rejects_bad_states():
    lstm = StackedRNN(**CTOR, dtype=np.float64)
    x = np.zeros((5, 2, 3))
    with pytest.raises(ValueError, match=r"h0: expected shape \(2, 2, 4\) "
                                         r"\(num_layers, B, hidden_size\), got \(2, 3, 4\)"):
        lstm(x, (np.zeros((2, 3, 4)), np.zeros((2, 2, 4))))
    with pytest.raises(ValueError, match="c0: expected finite"):
        lstm(x, (np.zeros((2, 2, 4)), np.full((2, 2, 4), np.nan)))
    with pytest.raises(TypeError, match=r"hx: expected a tuple \(h0, c0\)"):
        lstm(x, np.zeros((2, 2, 4)))
    gru = StackedRNN(**CTOR, cell="gru", dtype=np.float64)
    with pytest.raises(ValueError, match=r"h0: expected shape \(2, 4\) "
                                         r"\(num_layers, hidden_size\) for an unbatched x"):
        gru(np.zeros((5, 3)), np.zeros((2, 2, 4)))
    with pytest.raises(ValueError, match=r"x: .*in layout \(B, T, input_size\)"):
        StackedRNN(**CTOR, batch_first=True)(np.zeros((2, 5, 4), np.float32))
    with pytest.raises(TypeError, match=r"hx: expected one array h0 for cell='gru'"):
        gru(x, (np.zeros((2, 2, 4)),) * 2)


def test_load_state_dict_rejects_wrong_weights():
    stack = StackedRNN(**CTOR)
    good = stack.state_dict()
    bad = dict(good, weight_hh_l1=np.zeros((16, 5)))
    with pytest.raises(ValueError, match=r"weight_hh_l1.*expected shape \(16, 4\), got \(16, 5\)"):
        stack.load_state_dict(bad)
    with pytest.raises(ValueError, match=r"state_dict: keys do not match this stack "
                       r"\(StackConfig\(input_size=3.*missing keys \['bias_ih_l0'\]"):
        stack.load_state_dict({k: v for k, v in good.items() if k != "bias_ih_l0"})
    with pytest.raises(ValueError, match="unexpected keys"):
        stack.load_state_dict(dict(good, weight_ih_l2=np.zeros((16, 4))))
    with pytest.raises(ValueError, match=r"bias_hh_l0.*finite"):
        stack.load_state_dict(dict(good, bias_hh_l0=np.full(16, np.inf)))
    with pytest.raises(TypeError, match=r"state_dict: expected a mapping name -> array, got list"):
        stack.load_state_dict(list(good.values()))
    np.testing.assert_array_equal(stack.state_dict()["weight_hh_l1"], good["weight_hh_l1"])


def test_backward_rejects_bad_gradients():
    stack = StackedRNN(**CTOR, dtype=np.float64)
    out = stack(np.zeros((5, 2, 3)))
    with pytest.raises(ValueError, match=r"grad_output: expected shape \(5, 2, 4\) "
                                         r"\(like the forward's\), got \(5, 4\)"):
        stack.backward(out, np.zeros((5, 4)))
    with pytest.raises(ValueError, match=r"grad_c_n: expected shape \(2, 2, 4\)"):
        stack.backward(out, np.zeros((5, 2, 4)), grad_c_n=np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"grad_h_n: expected shape"):
        stack.backward(out, np.zeros((5, 2, 4)), grad_h_n=np.zeros((1, 2, 4)))
    with pytest.raises(TypeError, match=r"grad_output: expected dtype float64"):
        stack.backward(out, np.zeros((5, 2, 4), np.float32))
    gru = StackedRNN(**CTOR, cell="gru", dtype=np.float64)
    gout = gru(np.zeros((5, 2, 3)))
    with pytest.raises(ValueError, match="grad_c_n: only defined"):
        gru.backward(gout, np.zeros((5, 2, 4)), grad_c_n=np.zeros((2, 2, 4)))


dims = st.integers(min_value=0, max_value=5)


@settings(max_examples=80, deadline=None)
@given(shape=st.lists(dims, min_size=1, max_size=4), cell=st.sampled_from(["rnn", "gru", "lstm"]),
       batch_first=st.booleans())
def test_fuzz_shapes_either_work_or_raise_valueerror(shape, cell, batch_first):
    """Any array shape: a correct result shape, or a ValueError naming x — nothing else."""
    stack = StackedRNN(3, 2, 2, cell=cell, batch_first=batch_first, dtype=np.float64)
    x = np.ones(shape)
    try:
        out = stack(x)
    except ValueError as err:
        assert str(err).startswith("x:")
        return
    assert x.ndim in (2, 3) and x.shape[-1] == 3
    assert out.output.shape == (*x.shape[:-1], 2)
    assert np.all(np.isfinite(out.output))


@settings(max_examples=60, deadline=None)
@given(value=st.one_of(st.integers(-3, 3), st.floats(allow_nan=True), st.none(),
                       st.text(max_size=2), st.booleans()),
       field=st.sampled_from(["input_size", "hidden_size", "num_layers", "dropout"]))
def test_fuzz_constructor_arguments(value, field):
    try:
        stack = StackedRNN(**(CTOR | {field: value}))
    except (TypeError, ValueError) as err:
        assert str(err).startswith(f"{field}:")
        return
    got = getattr(stack, field)
    if field == "dropout":
        assert 0.0 <= got < 1.0
    else:
        assert isinstance(got, int) and got >= 1


# ------------------------------------------------------------ stacklib.torch.StackedRNN
@pytest.mark.parametrize(
    "kwargs,error,match",  # the NumPy stack's checks (StackConfig's), made by the torch stack too
    [
        ({"num_layers": 0}, ValueError, "num_layers: expected an integer >= 1, got 0"),
        ({"input_size": 2.5}, TypeError, "input_size: expected an int"),
        ({"cell": "lstm", "nonlinearity": "linear"}, ValueError, "nonlinearity"),
        ({"dropout": float("nan")}, ValueError, "dropout"),
        ({"residual": "yes"}, TypeError, "residual: expected a bool"),
    ],
)
def test_torch_stack_bad_constructor_arguments_raise(kwargs, error, match):
    args = {"input_size": 3, "hidden_size": 4, "num_layers": 2} | kwargs
    with pytest.raises(error, match=match):
        TorchStack(args.pop("input_size"), args.pop("hidden_size"), args.pop("num_layers"), **args)


def test_torch_stack_bad_inputs_raise():
    lstm = TorchStack(3, 4, 2, cell="lstm")
    gru = TorchStack(3, 4, 2, cell="gru", batch_first=True)
    x = torch.randn(5, 2, 3)
    h = torch.zeros(2, 2, 4)
    with pytest.raises(ValueError, match=r"x: expected last dimension input_size=3 in layout "
                                         r"\(T, B, input_size\), got shape \(5, 2, 4\)"):
        lstm(torch.randn(5, 2, 4))
    with pytest.raises(ValueError, match=r"x: .*\(B, T, input_size\)"):
        gru(torch.randn(5, 2, 4))
    with pytest.raises(ValueError, match=r"x: expected a 3-D .* got shape \(1, 5, 2, 3\)"):
        lstm(torch.randn(1, 5, 2, 3))
    with pytest.raises(ValueError, match=r"x: expected a 3-D .* got shape \(3,\)"):
        lstm(torch.randn(3))
    with pytest.raises(TypeError, match=r"x: expected dtype torch\.float32"):
        lstm(x.double())
    with pytest.raises(TypeError, match=r"x: expected a torch\.Tensor, got ndarray"):
        lstm(x.numpy())
    with pytest.raises(ValueError, match="x: expected at least one timestep"):
        lstm(torch.randn(0, 2, 3))
    for bad in (float("nan"), float("inf")):
        x_bad = x.clone()
        x_bad[2, 1, 0] = bad
        with pytest.raises(ValueError, match="x: expected finite values"):
            lstm(x_bad)
    with pytest.raises(TypeError, match=r"hx: expected a tuple \(h0, c0\)"):
        lstm(x, h)
    with pytest.raises(ValueError, match=r"c0: expected shape \(2, 2, 4\) "
                                         r"\(num_layers, B, hidden_size\), got \(2, 3, 4\)"):
        lstm(x, (h, torch.zeros(2, 3, 4)))
    with pytest.raises(ValueError, match=r"h0: expected shape \(2, 2, 4\) .*got \(1, 2, 4\)"):
        gru(x.transpose(0, 1), h[:1])
    with pytest.raises(TypeError, match="hx: expected one array h0"):
        gru(x.transpose(0, 1), (h, h))
    with pytest.raises(ValueError, match=r"h0: expected shape \(2, 4\) "
                                         r"\(num_layers, hidden_size\) for an unbatched x"):
        lstm(x[:, 0], (h, h))  # unbatched input needs unbatched hx
    with pytest.raises(ValueError, match="h0: expected finite values"):
        gru(x.transpose(0, 1), torch.full((2, 2, 4), float("nan")))


# ------------------------------------------------------------ conversions, weights, data
def test_inputs_that_numpy_would_mangle_are_named():
    stack = StackedRNN(**CTOR)
    with pytest.raises(ValueError, match="x: expected a rectangular array of numbers"):
        stack([[0.0, 1.0, 2.0], [1.0]])  # ragged
    with pytest.raises(TypeError, match="x: expected floating-point numbers, got dtype bool"):
        stack(np.ones((4, 2, 3), bool))
    with pytest.raises(ValueError, match=r"x: values too large for float32, largest .*1e\+300"):
        stack([[[1e300, 0.0, 0.0]]])  # finite as a Python float, inf in float32
    grads_wanted = torch.ones(4, 2, 3, requires_grad=True)  # a tensor in a torch graph is fine
    assert stack(grads_wanted).output.shape == (4, 2, 4)
    with pytest.raises(TypeError, match=r"x: expected dtype float32 .*got bfloat16"):
        stack(torch.ones(4, 2, 3, dtype=torch.bfloat16))


@pytest.mark.parametrize(("value", "error", "match"), [
    (np.full((16, 3), np.nan), ValueError, "weight_ih_l0: expected finite values"),
    (np.ones((16, 3), complex), TypeError,
     "weight_ih_l0: expected real numbers, got dtype complex"),
    (np.full((16, 3), "a"), TypeError, "weight_ih_l0: expected real numbers"),
])
def test_torch_stack_refuses_weights_the_numpy_stack_refuses(value, error, match):
    stack = TorchStack(3, 4, 2)
    state = {k: v.clone() for k, v in stack.state_dict().items()}
    before = {k: v.clone() for k, v in stack.state_dict().items()}
    with pytest.raises(error, match=match):
        stack.load_state_dict(dict(state, weight_ih_l0=value))
    assert all(torch.equal(before[k], v) for k, v in stack.state_dict().items())
    with pytest.raises(error, match=match):
        StackedRNN(**CTOR).load_state_dict(dict(state, weight_ih_l0=value))


@pytest.mark.parametrize("text", ["The keys that .", "The keys to the .",
                                  "The keys to the big is red ."])
def test_parse_names_a_text_outside_the_language(text):
    with pytest.raises(ValueError, match="text: not a sentence of the agreement language"):
        data.parse(text)


def test_batch_and_splits_check_their_arguments():
    s = data.parse("The keys are red .")
    with pytest.raises(ValueError, match="sentences: expected at least one"):
        data.batch([])
    with pytest.raises(ValueError, match=r"pad_to: expected an integer >= 5 .*got 3"):
        data.batch([s], pad_to=3)
    with pytest.raises(ValueError, match="n_train: expected an integer >= 1, got -1"):
        data.make_splits(-1, 10)
