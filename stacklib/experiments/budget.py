"""The toy experiments' budgets: how many recurrent weights an LSTM stack has, in either
framework's convention (the width at which a stack costs them: ``stacklib.params.matched_width``).
"""

from __future__ import annotations

from stacklib.params import count_params


def lstm_params(input_size: int, hidden: int, layers: int, biases: int = 2) -> int:
    """Recurrent weights of an LSTM stack (torch: two bias vectors per gate block; Keras: 1)."""
    frameworks = {2: "torch", 1: "keras"}
    if biases not in frameworks:
        raise ValueError(f"biases: expected 2 (torch) or 1 (Keras), got {biases!r}")
    return count_params("lstm", input_size, hidden, layers, framework=frameworks[biases])

