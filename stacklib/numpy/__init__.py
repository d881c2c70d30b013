"""``stacklib.numpy``: the from-scratch NumPy reference of stacked RNN / GRU / LSTM."""

from stacklib.numpy.convert import from_torch
from stacklib.numpy.outputs import Gradients, StackOutput
from stacklib.numpy.stack import StackedRNN

__all__ = ["Gradients", "StackOutput", "StackedRNN", "from_torch"]
