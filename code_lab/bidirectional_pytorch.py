"""PyTorch: one argument more, bidirectional=True."""

import torch
from bidirectional_weights import HIDDEN_SIZE, INPUT_SIZE, NUM_LAYERS, WEIGHTS, X, show

lstm = torch.nn.LSTM(INPUT_SIZE, HIDDEN_SIZE, num_layers=NUM_LAYERS,
                     bidirectional=True, dtype=torch.float64)
lstm.load_state_dict({name: torch.from_numpy(w) for name, w in WEIGHTS.items()})

with torch.no_grad():
    output, (h_n, c_n) = lstm(torch.from_numpy(X))  # zero starting states

# output: (T, B, 2H), the top layer's forward h, then its backward h, at each step.
# h_n: (2 * num_layers, B, H), layer by layer, forward row before backward row.
# The backward direction ends at t = 0: h_n[-1] is output[0, :, H:], not output[-1].
params = sum(p.numel() for p in lstm.parameters())
show(output.numpy(), h_n.numpy(), params)
