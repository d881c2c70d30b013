"""PyTorch: depth is one argument, num_layers=2."""

import torch
from shared_weights import C0, H0, HIDDEN_SIZE, INPUT_SIZE, NUM_LAYERS, WEIGHTS, X, show

lstm = torch.nn.LSTM(INPUT_SIZE, HIDDEN_SIZE, num_layers=NUM_LAYERS, dtype=torch.float64)
# weight_ih_l0, weight_hh_l0, ..., bias_hh_l1: torch's own names, loaded as they are.
lstm.load_state_dict({name: torch.from_numpy(w) for name, w in WEIGHTS.items()})

x = torch.from_numpy(X)  # (T=1, input_size): one timestep
h0, c0 = torch.from_numpy(H0), torch.from_numpy(C0)  # (num_layers, hidden): one memory per layer
with torch.no_grad():
    output, (h_n, c_n) = lstm(x, (h0, c0))  # the climb happens inside: layer 1, then layer 2

y = output[-1].numpy()  # only the top layer emits: y_t = h_t of layer 2
show(y, output.numpy(), h_n.numpy(), c_n.numpy())
