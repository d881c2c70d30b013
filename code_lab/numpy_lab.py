"""NumPy, from scratch: the two loops that num_layers and return_sequences hide."""

import numpy as np
from shared_weights import C0, H0, NUM_LAYERS, WEIGHTS, X, show


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_cell(x, h, c, k):
    """One step of layer k (0-based, as PyTorch counts), gate order (i, f, g, o)."""
    parts = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
    w_ih, w_hh, b_ih, b_hh = (WEIGHTS[f"{p}_l{k}"] for p in parts)  # layer k's own
    i, f, g, o = np.split(w_ih @ x + b_ih + w_hh @ h + b_hh, 4)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    return h, c


h, c = list(H0), list(C0)  # one memory (h, c) per layer, carried from step to step
output = []
for x in X:  # horizontal: through time
    below = x
    for k in range(NUM_LAYERS):  # vertical: the climb, inside ONE step (k = 0: layer 1)
        h[k], c[k] = lstm_cell(below, h[k], c[k], k)  # its own state from step t-1
        below = h[k]  # layer k's new h is layer k+1's input at the SAME step
    output.append(below)  # only the top layer's h leaves the stack

show(np.array(output), np.array(h), np.array(c))
