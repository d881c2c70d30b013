"""What both bidirectional tabs read: a 2-layer bidirectional LSTM and a batch for it.

PyTorch's names: "_reverse" marks the backward direction. Above layer 1 each
direction reads both states of the layer below, so weight_ih_l1 is 2H wide.
"""

import numpy as np

INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS = 3, 2, 2
STEPS, BATCH = 4, 2
rng = np.random.default_rng(0)


def block(rows, cols):
    return rng.uniform(-0.5, 0.5, size=(rows, cols)).round(2)


WEIGHTS = {}
for k in range(NUM_LAYERS):
    fan_in = INPUT_SIZE if k == 0 else 2 * HIDDEN_SIZE  # both directions below
    for direction in ("", "_reverse"):
        WEIGHTS[f"weight_ih_l{k}{direction}"] = block(4 * HIDDEN_SIZE, fan_in)
        WEIGHTS[f"weight_hh_l{k}{direction}"] = block(4 * HIDDEN_SIZE, HIDDEN_SIZE)
        WEIGHTS[f"bias_ih_l{k}{direction}"] = block(4 * HIDDEN_SIZE, 1)[:, 0]
        WEIGHTS[f"bias_hh_l{k}{direction}"] = block(4 * HIDDEN_SIZE, 1)[:, 0]

X = block(STEPS * BATCH, INPUT_SIZE).reshape(STEPS, BATCH, INPUT_SIZE)  # (T, B, input_size)


def show(output, h_n, params):
    """Shapes, the parameter count, then sequence 0: output per step, h_n per row."""
    fmt = {"float_kind": lambda v: f"{v:.4f}"}
    print(f"output {tuple(output.shape)}, h_n {tuple(h_n.shape)}, parameters = {params}")
    for name, value in (("output[:, 0]", output[:, 0]), ("h_n[:, 0]", h_n[:, 0])):
        text = np.array2string(np.asarray(value), formatter=fmt, separator=", ")
        print(f"{name:<12} =", text.replace("\n", "\n" + " " * 15))
