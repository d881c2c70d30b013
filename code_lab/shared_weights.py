"""The ONE set of weights the three code-lab tabs share: the 2-layer LSTM of §08.

Weights use PyTorch's names, shapes and gate order (i, f, g, o), as NumPy float64 arrays.
One timestep: input x_t, and every layer's previous state (h, c) — one memory per layer.
"""

import numpy as np

from stacklib.walkthrough import walkthrough

_w = walkthrough().to_dict()

INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS = _w["input_size"], _w["hidden_size"], _w["num_layers"]
WEIGHTS = {name: np.array(value, dtype=np.float64) for name, value in _w["weights"].items()}
X = np.array([[_w["x_t"]]], dtype=np.float64).reshape(1, INPUT_SIZE)  # (T=1, input_size)
H0 = np.array(_w["h_prev"], dtype=np.float64)  # (num_layers, hidden_size)
C0 = np.array(_w["c_prev"], dtype=np.float64)


def show(y, output, h_n, c_n):
    """Print the top layer's y_t to 4 decimals, then the full output, like every tab."""
    fmt = {"float_kind": lambda v: f"{v:.4f}"}
    print("y_t    =", np.array2string(np.asarray(y), formatter=fmt, separator=", "))
    for name, value in (("output", output), ("h_n", h_n), ("c_n", c_n)):
        text = np.array2string(np.asarray(value), formatter=fmt, separator=", ")
        print(f"{name:<6} =", text.replace("\n", "\n" + " " * 9))
