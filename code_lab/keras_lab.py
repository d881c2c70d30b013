"""Keras 3: a stack is layers wired one into the next (the functional API)."""

import os

os.environ.setdefault("KERAS_BACKEND", "torch")  # Keras 3 on PyTorch, no TensorFlow

import keras
import numpy as np
from shared_weights import C0, H0, HIDDEN_SIZE, INPUT_SIZE, WEIGHTS, X, show

keras.config.set_floatx("float64")  # the same precision as the other tabs

x = keras.Input(shape=(None, INPUT_SIZE))  # (batch, T, input_size): batch first
# Each layer's starting (h, c) is a model input too, so §08's states can go in.
h0_1, c0_1, h0_2, c0_2 = (keras.Input(shape=(HIDDEN_SIZE,)) for _ in range(4))
# Layer 1 returns its whole sequence because layer 2 reads its h at every step.
layer_1 = keras.layers.LSTM(HIDDEN_SIZE, return_sequences=True, return_state=True)
# The top returns its sequence too because we want an output at every step; a
# model with one label per sequence keeps the default (False): the last h only.
layer_2 = keras.layers.LSTM(HIDDEN_SIZE, return_sequences=True, return_state=True)
seq_1, h_1, c_1 = layer_1(x, initial_state=[h0_1, c0_1])
seq_2, h_2, c_2 = layer_2(seq_1, initial_state=[h0_2, c0_2])
model = keras.Model([x, h0_1, c0_1, h0_2, c0_2], [seq_2, h_1, h_2, c_1, c_2])

# PyTorch -> Keras: the same gate order (i, f, g, o); Keras computes x @ kernel,
# so kernel = W_ih^T and recurrent_kernel = W_hh^T; one bias, b_ih + b_hh.
for k, layer in enumerate((layer_1, layer_2)):
    layer.set_weights([WEIGHTS[f"weight_ih_l{k}"].T, WEIGHTS[f"weight_hh_l{k}"].T,
                       WEIGHTS[f"bias_ih_l{k}"] + WEIGHTS[f"bias_hh_l{k}"]])

starts = [H0[0:1], C0[0:1], H0[1:2], C0[1:2]]  # each (batch=1, hidden)
seq, h1_last, h2_last, c1_last, c2_last = model.predict([X[None], *starts], verbose=0)
output = seq[0]  # (T, hidden): the top layer's h at every step; row 0 is §08's y_t
show(output, np.concatenate([h1_last, h2_last]), np.concatenate([c1_last, c2_last]))
