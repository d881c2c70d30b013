"""Keras 3: stack LSTM layers; layer 1 must return its whole sequence to feed layer 2."""

import os

os.environ.setdefault("KERAS_BACKEND", "torch")  # Keras 3 on PyTorch, no TensorFlow

import keras
import numpy as np
from shared_weights import C0, H0, HIDDEN_SIZE, NUM_LAYERS, WEIGHTS, X, show

keras.config.set_floatx("float64")  # same precision as the other tabs
layers = [
    keras.layers.LSTM(HIDDEN_SIZE, return_sequences=True, return_state=True)  # one per layer
    for _ in range(NUM_LAYERS)
]

seq = X[None]  # Keras is batch-first: (batch=1, T=1, input_size)
h_n, c_n = [], []
for k, layer in enumerate(layers):
    layer.build(seq.shape)
    # Same gate order (i, f, g, o); Keras stores transposed kernels and ONE bias vector.
    layer.set_weights([WEIGHTS[f"weight_ih_l{k}"].T, WEIGHTS[f"weight_hh_l{k}"].T,
                       WEIGHTS[f"bias_ih_l{k}"] + WEIGHTS[f"bias_hh_l{k}"]])
    seq, h, c = layer(seq, initial_state=[H0[k][None], C0[k][None]])  # the climb: seq feeds k+1
    h_n.append(keras.ops.convert_to_numpy(h)[0])
    c_n.append(keras.ops.convert_to_numpy(c)[0])

output = keras.ops.convert_to_numpy(seq)[0]  # (T, hidden): the top layer's sequence
y = output[-1]
show(y, output, np.array(h_n), np.array(c_n))
