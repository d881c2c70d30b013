"""The language models the lecture trains, and how it trains them.

``model`` is the fast stack (an embedding, recurrent layers from torch.nn, a linear readout),
``text`` cuts a token stream into the chunks truncated backpropagation through time reads,
``train`` is the one training loop, and ``states`` reads every layer's h and c at every step
of a trained model. The toy agreement experiments and the Shakespeare study both train through
them.
"""
