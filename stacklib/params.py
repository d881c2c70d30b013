"""Parameter pricing of a stacked RNN / GRU / LSTM, in PyTorch's and Keras' conventions.

Each layer k holds G gate blocks (RNN 1, GRU 3, LSTM 4) of three parts::

    input weights      G*H x fan_in      fan_in = input_size for layer 1, hidden_size above it
    recurrent weights  G*H x H
    biases             G*H per bias vector

PyTorch keeps two bias vectors per block (``bias_ih`` and ``bias_hh``). Keras keeps one for
``SimpleRNN`` and ``LSTM``, and two for ``GRU(reset_after=True)`` (its default), whose reset gate
multiplies the recurrent pre-activation *including* its bias. The fan-in jump from ``x`` to ``h``
above layer 1 is why layer 1 is priced differently from every layer above it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from stacklib._validate import FRAMEWORKS, GATES, check_cell, check_choice, check_positive_int


@dataclass(frozen=True)
class LayerParams:
    layer: int  # 1-based
    fan_in: int  # input_size for layer 1, hidden_size above
    input_weights: int
    recurrent_weights: int
    biases: int
    total: int

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def param_shapes(cell: str, input_size: int, hidden_size: int, num_layers: int, *,
                 bias: bool = True, layer_norm: bool = False) -> dict[str, tuple[int, ...]]:
    """Parameter names and shapes in torch.nn's flat convention, layer by layer (k = 0..L-1):
    ``weight_ih_l{k}`` (G*H, fan_in), ``weight_hh_l{k}`` (G*H, H), ``bias_ih_l{k}`` and
    ``bias_hh_l{k}`` (G*H,), plus ``ln_weight_l{k}`` and ``ln_bias_l{k}`` (H,) with layer_norm."""
    cell = check_cell(cell)
    x = check_positive_int("input_size", input_size)
    h = check_positive_int("hidden_size", hidden_size)
    gh = GATES[cell] * h
    shapes: dict[str, tuple[int, ...]] = {}
    for k in range(check_positive_int("num_layers", num_layers)):
        shapes[f"weight_ih_l{k}"] = (gh, x if k == 0 else h)
        shapes[f"weight_hh_l{k}"] = (gh, h)
        if bias:
            shapes[f"bias_ih_l{k}"] = (gh,)
            shapes[f"bias_hh_l{k}"] = (gh,)
        if layer_norm:
            shapes[f"ln_weight_l{k}"] = (h,)
            shapes[f"ln_bias_l{k}"] = (h,)
    return shapes


def bias_vectors(cell: str, framework: str = "torch") -> int:
    """How many bias vectors of length G*H a layer carries in ``framework``."""
    cell = check_cell(cell)
    check_choice("framework", framework, FRAMEWORKS)
    if framework == "torch":
        return 2
    return 2 if cell == "gru" else 1


def param_breakdown(
    cell: str, input_size: int, hidden_size: int, num_layers: int, framework: str = "torch"
) -> list[LayerParams]:
    """Per-layer parameter counts, layer 1 first."""
    cell = check_cell(cell)
    x = check_positive_int("input_size", input_size)
    h = check_positive_int("hidden_size", hidden_size)
    n = check_positive_int("num_layers", num_layers)
    gh = GATES[cell] * h
    nb = bias_vectors(cell, framework)
    rows = []
    for layer in range(1, n + 1):
        fan_in = x if layer == 1 else h
        w_in, w_rec, b = gh * fan_in, gh * h, nb * gh
        rows.append(LayerParams(layer, fan_in, w_in, w_rec, b, w_in + w_rec + b))
    return rows


def count_params(
    cell: str, input_size: int, hidden_size: int, num_layers: int, framework: str = "torch"
) -> int:
    """Total trainable parameters of ``num_layers`` stacked ``cell`` layers.

    Equals ``sum(p.numel() for p in torch.nn.LSTM(x, h, L).parameters())`` for
    ``framework="torch"`` and Keras ``model.count_params()`` for ``framework="keras"``.

    >>> count_params("lstm", 300, 512, 1, framework="keras")
    1665024
    >>> count_params("lstm", 300, 256, 3, framework="keras")
    1620992
    """
    rows = param_breakdown(cell, input_size, hidden_size, num_layers, framework)
    return sum(r.total for r in rows)
