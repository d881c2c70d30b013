"""``stacklib.numpy``: the from-scratch NumPy reference of stacked RNN / GRU / LSTM.

Read ``cells.py`` (one step of each cell, forward and backward) and ``stack.py`` (the stack:
one climb per timestep forward, BPTT back through time and down the stack). ``module.py`` wraps
them in torch.nn's interface (``StackedRNN``: state dicts, dtypes, argument checks); a reader of
the recurrence can skip it.
"""

from stacklib.numpy.module import StackedRNN
from stacklib.numpy.stack import Gradients, StackOutput

__all__ = ["Gradients", "StackOutput", "StackedRNN"]
