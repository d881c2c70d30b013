"""PyTorch modules: explicit RNN/GRU/LSTM cells and the cell-agnostic StackedRNN skeleton."""

from .cells import GRUCell, LSTMCell, RNNCell
from .stack import StackedRNN

__all__ = ["GRUCell", "LSTMCell", "RNNCell", "StackedRNN"]
