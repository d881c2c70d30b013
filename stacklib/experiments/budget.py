"""Equal parameter budgets: how many recurrent weights an LSTM stack has, and the width at which
a stack costs a given number of them (the toy experiments' wide rival, the Shakespeare study's
budget, scale and cell groups).

Its own module so that the latency measurement (which sizes its wide rival here) depends on
parameter counting only, and is not re-timed when the toy models' training code changes.
"""

from __future__ import annotations

from collections.abc import Callable

from stacklib.params import count_params


def lstm_params(input_size: int, hidden: int, layers: int, biases: int = 2) -> int:
    """Recurrent weights of an LSTM stack (torch: two bias vectors per gate block; Keras: 1)."""
    frameworks = {2: "torch", 1: "keras"}
    if biases not in frameworks:
        raise ValueError(f"biases: expected 2 (torch) or 1 (Keras), got {biases!r}")
    return count_params("lstm", input_size, hidden, layers, framework=frameworks[biases])


def matched_width(target: int, cell: str, input_size: int, layers: int, widths: range, *,
                  tolerance: float | None = None,
                  whole: Callable[[int], float] | None = None) -> int:
    """The width in ``widths`` at which ``layers`` layers of ``cell`` reading ``input_size``
    have ``target`` recurrent parameters (torch's count): the one whose relative gap is
    smallest (the first of equals). With ``whole``, the relative gap of the whole model at a
    width, the larger of the two gaps is made smallest; with ``tolerance``, only widths whose
    recurrent gap is within it count.

    >>> matched_width(lstm_params(24, 32, 3), "lstm", 24, 1, range(1, 256))  # 3 x 32 -> 1 x 66
    66
    """
    def gap(width: int) -> float:
        return abs(count_params(cell, input_size, width, layers) / target - 1)

    within = [w for w in widths if tolerance is None or gap(w) <= tolerance]
    if not within:
        raise ValueError(f"layers: no width of {layers} layers is within {tolerance:.0%} "
                         f"of {target:,} parameters")
    return min(within, key=lambda w: max(gap(w), whole(w)) if whole else gap(w))
