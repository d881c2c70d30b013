"""NumPy, from scratch: what num_layers and return_sequences do, written out."""

import numpy as np
from shared_weights import C0, H0, NUM_LAYERS, WEIGHTS, X, show

PARTS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")  # PyTorch's names, suffix _l{k}


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_cell(x, h, c, w_ih, w_hh, b_ih, b_hh):
    """One LSTM step in PyTorch's gate order (i, f, g, o)."""
    i, f, g, o = np.split(w_ih @ x + b_ih + w_hh @ h + b_hh, 4)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    return h, c


def stacked_lstm(xs, h0, c0, weights, num_layers):
    h, c = list(h0), list(c0)  # one memory (h, c) per layer
    outputs = []
    for x in xs:  # horizontal: through time
        below = x
        for k in range(num_layers):  # vertical: the climb, inside ONE timestep (k = 0 is layer 1)
            w = [weights[f"{part}_l{k}"] for part in PARTS]  # layer k's own weights: none shared
            h[k], c[k] = lstm_cell(below, h[k], c[k], *w)
            below = h[k]  # layer k's state is layer k+1's input at the SAME t
        outputs.append(below)  # only the top layer emits
    return np.array(outputs), np.array(h), np.array(c)


output, h_n, c_n = stacked_lstm(X, H0, C0, WEIGHTS, NUM_LAYERS)
y = output[-1]
show(y, output, h_n, c_n)
