"""Parameter pricing of a stacked RNN / GRU / LSTM, in PyTorch's and Keras' conventions.

Each layer holds G gate blocks (RNN 1, GRU 3, LSTM 4) of three parts::

    input weights      G*H x fan_in      fan_in = input_size for layer 1, hidden_size above it
    recurrent weights  G*H x H
    biases             G*H per bias vector

PyTorch keeps two bias vectors per block (``bias_ih`` and ``bias_hh``). Keras keeps one for
``SimpleRNN`` and ``LSTM``, and two for ``GRU(reset_after=True)`` (its default), whose reset gate
multiplies the recurrent pre-activation *including* its bias. The fan-in jump from ``x`` to ``h``
above layer 1 is why layer 1 is priced differently from every layer above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

from stacklib._validate import check_choice
from stacklib.config import CELLS, StackConfig

FRAMEWORKS: tuple[str, ...] = ("torch", "keras")


@dataclass(frozen=True)
class LayerParams:
    layer: int  # the lecture's layer number l of h^[l]: 1 for the bottom layer (a label)
    fan_in: int  # input_size for layer 1, hidden_size above
    input_weights: int
    recurrent_weights: int
    biases: int
    total: int

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def bias_vectors(cell: str, framework: str = "torch") -> int:
    """How many bias vectors of length G*H a layer carries in ``framework``.

    >>> bias_vectors("lstm", "keras"), bias_vectors("gru", "keras")
    (1, 2)
    """
    kind = CELLS[check_choice("cell", cell, tuple(CELLS))]
    check_choice("framework", framework, FRAMEWORKS)
    if framework == "torch":
        return 2
    if kind.keras is None:
        raise ValueError(f"cell: Keras has no {kind.name} layer, got cell={cell!r}")
    return kind.keras_biases


def param_breakdown(
    cell: str, input_size: int, hidden_size: int, num_layers: int, framework: str = "torch"
) -> list[LayerParams]:
    """Per-layer parameter counts, bottom layer first.

    >>> [row.total for row in param_breakdown("lstm", 100, 128, 3)]
    [117760, 132096, 132096]
    """
    cfg = StackConfig(input_size, hidden_size, num_layers, cell=cell)
    gh, h = cfg.gates * cfg.hidden_size, cfg.hidden_size
    nb = bias_vectors(cfg.cell, framework)
    rows = []
    for k in range(cfg.num_layers):
        fan_in = cfg.layer_input_size(k)
        w_in, w_rec, b = gh * fan_in, gh * h, nb * gh
        rows.append(LayerParams(k + 1, fan_in, w_in, w_rec, b, w_in + w_rec + b))
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


def matched_width(target: int, cell: str, input_size: int, layers: int, widths: range, *,
                  tolerance: float | None = None,
                  whole: Callable[[int], float] | None = None) -> int:
    """The width in ``widths`` at which ``layers`` layers of ``cell`` reading ``input_size``
    have ``target`` recurrent parameters (torch's count): the one whose relative gap is
    smallest (the first of equals). With ``whole``, the relative gap of the whole model at a
    width, the larger of the two gaps is made smallest; with ``tolerance``, only widths whose
    recurrent gap is within it count.

    >>> matched_width(count_params("lstm", 24, 32, 3), "lstm", 24, 1, range(1, 256))  # 3 x 32
    66
    """
    def gap(width: int) -> float:
        return abs(count_params(cell, input_size, width, layers) / target - 1)

    within = [w for w in widths if tolerance is None or gap(w) <= tolerance]
    if not within:
        raise ValueError(f"layers: no width of {layers} layers is within {tolerance:.0%} "
                         f"of {target:,} parameters")
    return min(within, key=lambda w: max(gap(w), whole(w)) if whole else gap(w))


def multiply_adds(cell: str, input_size: int, hidden_size: int, num_layers: int) -> int:
    """Multiply-adds of one step of the stack for one sequence: each weight is used once (the
    biases are only added).

    >>> multiply_adds("lstm", 100, 128, 3) + 3 * 2 * 4 * 128 == count_params("lstm", 100, 128, 3)
    True
    """
    return sum(r.input_weights + r.recurrent_weights
               for r in param_breakdown(cell, input_size, hidden_size, num_layers))


def language_model_params(vocab_size: int, embed_size: int, hidden_size: int, num_layers: int,
                          cell: str = "lstm") -> int:
    """Every trainable parameter of a language model around the stack (``stacklib.lm.model``):
    the embedding (V x E), the stack (PyTorch's convention) and the readout (V x H, V biases)."""
    return (vocab_size * embed_size + count_params(cell, embed_size, hidden_size, num_layers)
            + hidden_size * vocab_size + vocab_size)


def bidirectional_params(cell: str, input_size: int, hidden_size: int, num_layers: int,
                         framework: str = "torch") -> list[int]:
    """Per layer, bottom first, the parameters of one direction of a bidirectional stack (the
    other direction holds as many): layer 1 reads the input, every layer above reads both
    directions' states side by side, 2H numbers. stacklib's stacks run one way, so the count is
    built from one-layer counts with those fan-ins.

    >>> 2 * sum(bidirectional_params("lstm", 100, 128, 2))   # torch.nn.LSTM(bidirectional=True)
    630784
    """
    return [count_params(cell, input_size if k == 0 else 2 * hidden_size, hidden_size, 1,
                         framework=framework) for k in range(num_layers)]
