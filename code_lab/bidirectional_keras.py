"""Keras 3: each layer wrapped in Bidirectional, which concatenates both ways."""

import os

os.environ.setdefault("KERAS_BACKEND", "torch")  # Keras 3 on PyTorch, no TensorFlow

import keras
import numpy as np
from bidirectional_weights import HIDDEN_SIZE, INPUT_SIZE, NUM_LAYERS, WEIGHTS, X, show

keras.config.set_floatx("float64")

x = keras.Input(shape=(None, INPUT_SIZE))  # (batch, T, input_size): batch first
layers, states, seq = [], [], x
for _ in range(NUM_LAYERS):
    # return_sequences: the layer above reads both directions at every step.
    layer = keras.layers.Bidirectional(
        keras.layers.LSTM(HIDDEN_SIZE, return_sequences=True, return_state=True))
    seq, h_fwd, c_fwd, h_bwd, c_bwd = layer(seq)
    layers.append(layer)
    states += [h_fwd, h_bwd]  # PyTorch's h_n order: layer by layer, forward first
model = keras.Model(x, [seq, *states])

for k, layer in enumerate(layers):  # the same conversion as keras_lab.py, per direction
    for half, direction in ((layer.forward_layer, ""), (layer.backward_layer, "_reverse")):
        w = {p: WEIGHTS[f"{p}_l{k}{direction}"]
             for p in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}
        half.set_weights([w["weight_ih"].T, w["weight_hh"].T, w["bias_ih"] + w["bias_hh"]])

seq, *last = model.predict(X.transpose(1, 0, 2), verbose=0)
output = seq.transpose(1, 0, 2)  # back to (T, B, 2H)
show(output, np.stack(last), model.count_params())
