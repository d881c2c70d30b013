"""What the lecture calls things in its tables and figures."""

CELLS = ("rnn", "gru", "lstm")
CELL_NAMES = {"rnn": "Stacked RNN", "gru": "Stacked GRU", "lstm": "Stacked LSTM"}
FRAMEWORKS = {"torch": "PyTorch", "keras": "Keras"}
