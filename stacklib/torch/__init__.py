"""``stacklib.torch``: StackedRNN, an ``nn.Module`` with torch.nn.RNN/GRU/LSTM's interface and
parameters, written as explicit per-step cells (``cells.py``) in two loops (``stack.py``)."""

from .stack import StackedRNN

__all__ = ["StackedRNN"]
