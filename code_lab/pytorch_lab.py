"""PyTorch: depth is one argument, num_layers=2."""

import torch
from shared_weights import C0, H0, HIDDEN_SIZE, INPUT_SIZE, NUM_LAYERS, WEIGHTS, X, show

lstm = torch.nn.LSTM(INPUT_SIZE, HIDDEN_SIZE, num_layers=NUM_LAYERS,
                     dtype=torch.float64)
# weight_ih_l0, weight_hh_l0, ..., bias_hh_l1: torch's own names, loaded as they are.
lstm.load_state_dict({name: torch.from_numpy(w) for name, w in WEIGHTS.items()})

x = torch.from_numpy(X)  # (T, input_size): one sequence, no batch dimension
h0, c0 = torch.from_numpy(H0), torch.from_numpy(C0)  # (num_layers, hidden)
with torch.no_grad():
    # At each t, layer 1 reads x_t and its own (h, c) of step t-1; layer 2 reads
    # layer 1's h_t and its own (h, c) of step t-1.
    output, (h_n, c_n) = lstm(x, (h0, c0))

# output: the top layer's h at every step (the first row is §08's y_t);
# h_n, c_n: each layer's state after the last step.
show(output.numpy(), h_n.numpy(), c_n.numpy())
