"""Equal parameter budgets for the toy experiments: how many recurrent weights an LSTM stack
has, and the width of one layer that costs what a deeper stack costs.

Its own module so that the latency measurement (which sizes its wide rival here) depends on
parameter counting only, and is not re-timed when the toy models' training code changes.
"""

from __future__ import annotations

from stacklib.params import count_params


def lstm_params(input_size: int, hidden: int, layers: int, biases: int = 2) -> int:
    """Recurrent weights of an LSTM stack (torch: two bias vectors per gate block; Keras: 1)."""
    frameworks = {2: "torch", 1: "keras"}
    if biases not in frameworks:
        raise ValueError(f"biases: expected 2 (torch) or 1 (Keras), got {biases!r}")
    return count_params("lstm", input_size, hidden, layers, framework=frameworks[biases])


def matched_width(input_size: int, hidden: int, layers: int) -> int:
    """Width of one LSTM layer whose parameter count is closest to the deep stack's."""
    target = lstm_params(input_size, hidden, layers)
    return min(range(1, 8 * hidden), key=lambda w: abs(lstm_params(input_size, w, 1) - target))
