"""What a PyTorch user can rely on in stacklib.torch besides the numbers: torch.nn's parameter
names, initialisation and constructor defaults, the factory arguments (dtype, device), state
dicts loaded like torch's (strict, copied unless ``assign``), the bridges to and from torch.nn,
and a repr that shows the configuration."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from stacklib.config import CELLS, StackConfig, torch_nn_class
from stacklib.torch import StackedRNN


@pytest.mark.parametrize(("cell", "bias"), [("rnn", True), ("gru", False), ("lstm", True)])
def test_parameters_have_torch_nn_names_shapes_and_init(cell, bias):
    torch.manual_seed(0)
    stack = StackedRNN(5, 16, 3, cell=cell, bias=bias)
    torch.manual_seed(0)
    ref = torch_nn_class(cell)(5, 16, 3, bias=bias)
    for k, v in ref.state_dict().items():  # the same draws, in the same order, as torch.nn
        assert torch.equal(stack.state_dict()[k], v), k
    shapes = {k: tuple(v.shape) for k, v in stack.state_dict().items()}
    assert shapes == {k: tuple(v.shape) for k, v in ref.state_dict().items()}
    assert list(shapes) == list(ref.state_dict())  # torch.nn's order too
    bound = 1 / 16**0.5
    assert all(float(p.detach().abs().max()) <= bound for p in stack.parameters())
    assert float(stack.weight_hh_l2.detach().abs().max()) > 0.8 * bound  # spans the interval


def test_cells_table_names_torch_nn_and_the_language_models_layers():
    """config.CELLS, the one table of the cells, agrees with torch.nn wherever torch.nn has the
    cell: its class (the layer stacklib.lm builds), its gate blocks (W_ih's rows / H), its gate
    names (one per block, or none), its parameters' names, a memory c beside h, and a choice of
    nonlinearity. A cell torch.nn lacks is refused by name where its class is asked for."""
    from stacklib.lm.model import LM, LMConfig

    for cell, kind in CELLS.items():
        if kind.torch_nn is None:
            with pytest.raises(ValueError, match=r"cell: torch\.nn has no"):
                torch_nn_class(cell)
            continue
        module = torch_nn_class(cell)(3, 4)
        assert type(module) is getattr(nn, kind.torch_nn)
        lm = LM(LMConfig.of(10, embed_size=3, hidden_size=4, cell=cell))
        assert type(lm.layers[0]) is type(module)
        assert module.weight_ih_l0.shape[0] == kind.gates * 4
        assert len(kind.gate_names) in (0, kind.gates)
        names = [name for name, _ in module.named_parameters()]
        assert names == list(StackConfig(3, 4, cell=cell).layer_params(0))
        _, state = module(torch.zeros(2, 1, 3))
        assert isinstance(state, tuple) is kind.cell_state
        assert StackConfig(3, 4, cell=cell).cell_state is kind.cell_state
        assert hasattr(module, "nonlinearity") is (len(kind.nonlinearities) > 1)


def test_layer_norm_starts_as_the_identity_again_after_reset_parameters():
    """Gain 1 and shift 0, torch.nn.LayerNorm's; every other parameter drawn anew."""
    stack = StackedRNN(3, 4, 2, cell="gru", layer_norm=True)
    with torch.no_grad():
        for p in stack.parameters():
            p.uniform_(2.0, 3.0)
    stack.reset_parameters()
    for name, p in stack.named_parameters():
        if name.startswith("ln_"):
            assert torch.equal(p, torch.full((4,), 1.0 if "weight" in name else 0.0)), name
        else:
            assert float(p.detach().abs().max()) <= 0.5, name  # U(-1/sqrt(H), 1/sqrt(H))


def test_constructor_defaults_are_torch_nn_s_and_the_repr_shows_them():
    assert StackedRNN(3, 4).config == StackConfig.of(nn.LSTM(3, 4))  # one layer, no residual
    stack = StackedRNN(3, 4, 2, cell="gru", bias=False)
    assert stack.config == StackConfig.of(nn.GRU(3, 4, 2, bias=False))
    assert all(s in repr(stack) for s in ("hidden_size=4", "num_layers=2", "cell='gru'",
                                         "bias=False", "residual=False"))


def test_factory_arguments_like_torch_nn():
    stack = StackedRNN(3, 4, 2, cell="gru", layer_norm=True, dtype=torch.float64, device="cpu")
    assert {p.dtype for p in stack.parameters()} == {torch.float64}
    ref = nn.GRU(3, 4, 2, dtype=torch.float64)
    assert stack(torch.zeros(5, 2, 3, dtype=torch.float64))[0].dtype == torch.float64
    assert {p.dtype for p in StackedRNN.from_torch(ref).parameters()} == {torch.float64}
    with pytest.raises(TypeError, match=r"dtype: expected a floating torch\.dtype"):
        StackedRNN(3, 4, 2, dtype=torch.int64)
    meta = StackedRNN(3, 4, 2, device="meta")  # torch's data-free device: any device will do
    assert {p.device.type for p in meta.parameters()} == {"meta"}
    assert {p.device.type for p in meta.to_torch().parameters()} == {"meta"}
    plain = StackedRNN(3, 4, 2, dtype=torch.float64)
    assert {p.dtype for p in plain.to_torch().parameters()} == {torch.float64}
    with torch.device("meta"):  # another default device: the copy stays on the module's
        copy = StackedRNN.from_torch(ref)
    assert {p.device.type for p in copy.parameters()} == {"cpu"}


# ---------------------------------------------------------------- state dicts and bridges
def test_state_dict_round_trips():
    cell = "gru"
    a = StackedRNN(3, 4, 3, cell=cell, layer_norm=True).double()
    sd = a.state_dict()
    assert set(sd) == {
        f"{w}_l{k}"
        for k in range(3)
        for w in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "ln_weight", "ln_bias")
    }
    assert sd["weight_ih_l0"].shape == (a.config.gates * 4, 3)
    b = StackedRNN(3, 4, 3, cell=cell, layer_norm=True).double()
    b.load_state_dict({k: v.numpy() for k, v in sd.items()})  # numpy arrays accepted
    for k, v in b.state_dict().items():
        assert torch.equal(v, sd[k])


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
def test_torch_nn_round_trips(cell):
    ref = torch_nn_class(cell)(4, 5, 2, batch_first=True, dropout=0.25)
    stack = StackedRNN.from_torch(ref)
    assert (stack.batch_first, stack.dropout, stack.num_layers) == (True, 0.25, 2)
    back = stack.to_torch()
    assert type(back) is type(ref) and back.batch_first and back.dropout == 0.25
    for k, v in ref.state_dict().items():
        assert torch.equal(back.state_dict()[k], v)
    other = StackedRNN(4, 5, 2, cell=cell)
    other.load_state_dict(ref.state_dict())  # nn.*.state_dict() loads as it is
    x = torch.randn(3, 2, 4)
    want = ref.eval()(x.transpose(0, 1))[0].transpose(0, 1)
    torch.testing.assert_close(other(x)[0], want, rtol=0, atol=1e-6)
    subclass = type("Custom", (torch_nn_class(cell),), {})(4, 5, 2)  # still an nn.LSTM
    assert StackedRNN.from_torch(subclass).cell == cell


def test_bad_state_dicts_raise():
    stack = StackedRNN(3, 4, 2, cell="gru")
    sd = stack.state_dict()
    bad_shape = dict(sd, weight_hh_l1=torch.zeros(12, 5))
    with pytest.raises(ValueError, match=r"weight_hh_l1: expected shape \(12, 4\), got \(12, 5\)"):
        stack.load_state_dict(bad_shape)
    with pytest.raises(ValueError, match=r"state_dict: keys do not match this module "
                       r"\(StackConfig\(input_size=3.*missing keys \['bias_hh_l0'\]"):
        stack.load_state_dict({k: v for k, v in sd.items() if k != "bias_hh_l0"})
    with pytest.raises(ValueError, match=r"unexpected keys \['weight_ih_l2'\]"):
        stack.load_state_dict(dict(sd, weight_ih_l2=torch.zeros(12, 4)))
    with pytest.raises(ValueError, match="missing"):
        stack.load_state_dict(nn.GRU(3, 4, 1).state_dict())
    with pytest.raises(TypeError, match="state_dict: expected a mapping"):
        stack.load_state_dict([1, 2])
    before = stack.state_dict()["weight_ih_l0"].clone()
    with pytest.raises(ValueError):  # all-or-nothing: the good keys were not loaded either
        stack.load_state_dict(dict({k: v + 1 for k, v in sd.items()}, bias_ih_l1=[0.0]))
    assert torch.equal(stack.state_dict()["weight_ih_l0"], before)
    stack.load_state_dict({"weight_ih_l0": torch.ones(12, 3)}, strict=False)  # torch's option
    assert torch.equal(stack.weight_ih_l0, torch.ones(12, 3))



def test_load_state_dict_copies_unless_assign_like_torch_nn():
    """By default the module keeps its own tensors (a later change to the source does not reach
    it); with ``assign=True`` it takes the given tensors, dtype and all, as torch.nn does."""
    ref = nn.GRU(3, 4, 2, dtype=torch.float64)
    stack = StackedRNN(3, 4, 2, cell="gru", dtype=torch.float64)
    source = {k: v.clone() for k, v in ref.state_dict().items()}
    stack.load_state_dict(source)
    source["weight_hh_l1"].zero_()
    assert torch.equal(stack.weight_hh_l1, ref.weight_hh_l1)
    single = {k: v.float() for k, v in ref.state_dict().items()}
    ref.load_state_dict(single, assign=True)
    stack.load_state_dict(single, assign=True)
    assert {p.dtype for p in stack.parameters()} == {p.dtype for p in ref.parameters()} \
        == {torch.float32}
    assert all(torch.equal(p, ref.get_parameter(k)) for k, p in stack.named_parameters())


def test_bridges_refuse_what_torch_nn_cannot_express():
    for kw in ({"residual": True}, {"layer_norm": True}):
        with pytest.raises(ValueError, match=next(iter(kw))):
            StackedRNN(3, 3, 2, **kw).to_torch()
    with pytest.raises(ValueError, match="nonlinearity"):
        StackedRNN(3, 3, 2, cell="rnn", nonlinearity="linear").to_torch()
    with pytest.raises(ValueError, match="bidirectional"):
        StackedRNN.from_torch(nn.LSTM(3, 3, bidirectional=True))
    with pytest.raises(ValueError, match="proj_size"):
        StackedRNN.from_torch(nn.LSTM(3, 4, proj_size=2))
    with pytest.raises(TypeError, match=r"module: expected torch\.nn\.RNN, GRU or LSTM"):
        StackedRNN.from_torch(nn.Linear(3, 3))
    for kwargs in ({"bidirectional": True}, {"proj_size": 1}):
        with pytest.raises(ValueError, match=next(iter(kwargs))):
            StackedRNN(3, 4, 2, **kwargs)
