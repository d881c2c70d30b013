"""``stacklib.numpy``: the from-scratch NumPy reference of stacked RNN / GRU / LSTM.

Read in this order: ``cells.py`` (one step of each cell), ``layer.py`` (one layer through time,
forward and back), ``stack.py`` (the stack: layer after layer), ``backward.py`` (the gradient
down the stack), with ``cells_backward.py`` and ``between_layers.py`` beside them.
"""

from stacklib.numpy.outputs import Gradients, StackOutput
from stacklib.numpy.stack import StackedRNN

__all__ = ["Gradients", "StackOutput", "StackedRNN"]
