"""``stacklib.numpy``: the from-scratch NumPy reference of stacked RNN / GRU / LSTM."""

from stacklib.numpy.convert import from_torch
from stacklib.numpy.stack import Gradients, StackedRNN, StackOutput

__all__ = ["Gradients", "StackOutput", "StackedRNN", "from_torch"]
