"""stacklib — deep & stacked recurrent networks, computed three ways that agree.

``stacklib.numpy`` is the from-scratch reference, ``stacklib.torch`` the PyTorch modules and
``stacklib.keras_bridge`` the Keras 3 twin; ``count_params`` prices a stack in either framework's
convention. Importing ``stacklib`` needs only NumPy: torch and keras load on first use.
"""

from stacklib._validate import CELLS, GATES
from stacklib.params import LayerParams, bias_vectors, count_params, param_breakdown

__version__ = "0.1.0"
__all__ = ["CELLS", "GATES", "LayerParams", "__version__", "bias_vectors", "count_params",
           "param_breakdown"]
