"""stacklib — deep & stacked recurrent networks, computed three ways that agree.

``stacklib.numpy`` is the from-scratch reference, ``stacklib.torch`` the PyTorch module and
``stacklib.keras_bridge`` the Keras 3 twin; all three are described by one ``StackConfig``, and
``count_params`` prices a stack in either framework's convention. Importing ``stacklib`` needs
only NumPy: torch and keras load on first use.
"""

from stacklib.config import CELLS, GATES, StackConfig
from stacklib.params import LayerParams, bias_vectors, count_params, param_breakdown

__version__ = "0.1.0"
__all__ = ["CELLS", "GATES", "LayerParams", "StackConfig", "__version__", "bias_vectors",
           "count_params", "param_breakdown"]
