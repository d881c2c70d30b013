"""What all three tabs read: §08's two-layer LSTM and a short sequence for it.

PyTorch's names, shapes and gate order (i, f, g, o): the eight rows of each
matrix are i1 i2 f1 f2 g1 g2 o1 o2 (gate, unit). bias_hh is zero, so bias_ih
is the one bias §08 adds.
"""

import numpy as np

INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS = 1, 2, 2

WEIGHTS = {name: np.array(rows, dtype=np.float64) for name, rows in {
    "weight_ih_l0": [[0.6], [-0.4], [-0.7], [-0.3], [-0.1], [0.5], [-0.1], [-0.7]],
    "weight_hh_l0": [[-0.3, 0.2], [0.5, 0.4], [0.8, -0.5], [0.6, -0.8],
                     [0.1, -0.4], [-0.5, 0.3], [-0.3, 0.1], [-0.4, -0.6]],
    "bias_ih_l0": [0.4, -0.1, 0.3, 0.3, 0.8, -0.1, -0.5, 0.2],
    "bias_hh_l0": [0.0] * 8,
    "weight_ih_l1": [[0.2, -0.6], [0.6, 0.0], [0.7, -0.2], [-0.3, -0.3],
                     [-0.6, -0.6], [0.8, 0.0], [-0.8, -0.3], [-0.5, 0.8]],
    "weight_hh_l1": [[0.0, 0.1], [-0.6, 0.4], [-0.2, -0.6], [0.6, -0.5],
                     [0.3, 0.3], [0.0, -0.2], [0.8, 0.0], [-0.7, -0.4]],
    "bias_ih_l1": [0.5, 0.0, 0.0, -0.6, 1.0, 0.8, 2.0, 0.6],
    "bias_hh_l1": [0.0] * 8,
}.items()}

X = np.array([[1.0], [0.5], [-1.0]])  # (T, input_size); x_1 is §08's x_t
H0 = np.array([[0.3, -0.2], [0.1, 0.4]])  # (num_layers, hidden): h before x_1
C0 = np.array([[0.5, -0.4], [1.4, -1.5]])  # (num_layers, hidden): c before x_1


def show(output, h_n, c_n):
    """Print output, h_n and c_n to 4 decimals, one row per line."""
    fmt = {"float_kind": lambda v: f"{v:.4f}"}
    for name, value in (("output", output), ("h_n", h_n), ("c_n", c_n)):
        text = np.array2string(np.asarray(value), formatter=fmt, separator=", ")
        print(f"{name:<6} =", text.replace("\n", "\n" + " " * 9))
