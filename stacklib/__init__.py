"""stacklib: deep (stacked) recurrent networks in NumPy, PyTorch and Keras, computed to agree.

Import the module you need (``stacklib.numpy``, ``stacklib.torch``, ``stacklib.params``, ...):
importing ``stacklib`` alone loads nothing.
"""

__version__ = "0.1.0"
