"""Two stacks in a row: an encoder hands each layer's final state to the same
layer of a decoder, as in the 4-layer translation models."""

import torch

LAYERS, HIDDEN, BATCH = 4, 8, 2
torch.manual_seed(0)
encoder = torch.nn.LSTM(input_size=5, hidden_size=HIDDEN, num_layers=LAYERS)
decoder = torch.nn.LSTM(input_size=6, hidden_size=HIDDEN, num_layers=LAYERS)

source = torch.randn(7, BATCH, 5)  # (T_source, B, source features)
target = torch.randn(3, BATCH, 6)  # (T_target, B, target features)

with torch.no_grad():
    _, (h_n, c_n) = encoder(source)  # each (LAYERS, B, HIDDEN): one row per layer
    # Layer l of the decoder starts from layer l of the encoder: h_0 = h_n, c_0 = c_n.
    output, _ = decoder(target, (h_n, c_n))
    # The same, one decoder layer at a time: layer 1 from encoder row 0, and so on up.
    x = target
    for k in range(LAYERS):
        layer = torch.nn.LSTM(decoder.input_size if k == 0 else HIDDEN, HIDDEN)
        layer.load_state_dict({name.replace(f"_l{k}", "_l0"): w
                               for name, w in decoder.state_dict().items()
                               if name.endswith(f"_l{k}")})
        x, _ = layer(x, (h_n[k:k + 1], c_n[k:k + 1]))

print("encoder h_n, c_n:", tuple(h_n.shape), tuple(c_n.shape))
print("decoder output:  ", tuple(output.shape))
print("layer by layer, the same output:", torch.allclose(x, output, atol=1e-6))
