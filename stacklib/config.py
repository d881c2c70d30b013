"""One description of a stacked recurrent network, shared by every stacklib front end.

``StackConfig`` holds what the constructor of ``torch.nn.RNN/GRU/LSTM`` holds, plus stacklib's
two variants (``residual``, ``layer_norm``). The NumPy stack, the torch stack, the Keras bridge,
the parameter formulas and the experiments all take one, so its arguments are checked in one
place, once, when it is made. ``CELLS`` is the one table of what stacklib knows about each cell.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import warnings
from dataclasses import dataclass

from stacklib._validate import check_bool, check_choice, check_int, check_probability


@dataclass(frozen=True)
class CellKind:
    """What every front end needs to know about a cell, looked up by its name in ``CELLS``."""

    gates: int  # gate blocks per layer: W_ih and W_hh have gates * hidden_size rows
    gate_names: tuple[str, ...]  # its named gates in torch.nn's block order (a plain RNN: none)
    torch_nn: str  # its torch.nn class, the name in capitals: torch.nn.LSTM
    keras: str  # its Keras 3 layer: keras.layers.SimpleRNN, GRU, LSTM
    title: str  # what the lecture calls a stack of it


CELLS: dict[str, CellKind] = {
    "rnn": CellKind(1, (), "RNN", "SimpleRNN", "Stacked RNN"),
    "gru": CellKind(3, ("r", "z", "n"), "GRU", "GRU", "Stacked GRU"),
    "lstm": CellKind(4, ("i", "f", "g", "o"), "LSTM", "LSTM", "Stacked LSTM"),
}
NONLINEARITIES: tuple[str, ...] = ("tanh", "relu", "linear")
LN_EPS = 1e-5  # layer norm's epsilon: torch.nn.LayerNorm's default


def param_name(part: str, layer: int) -> str:
    """torch.nn's flat name of a parameter of layer ``layer`` (0-based).

    >>> param_name("weight_ih", 0)
    'weight_ih_l0'
    """
    return f"{part}_l{layer}"


def torch_nn_class(cell: str):
    """The ``torch.nn`` class of ``cell`` (imports torch): ``torch_nn_class("lstm") is nn.LSTM``."""
    import torch.nn

    return getattr(torch.nn, CELLS[check_choice("cell", cell, tuple(CELLS))].torch_nn)


def warn_idle_dropout(config: StackConfig) -> None:
    """Warn, like torch, when ``dropout`` has no layer boundary to act on. Called directly by
    the stacks' public constructors, so ``stacklevel=3`` is the line that called them."""
    if config.dropout > 0 and config.num_layers == 1:
        warnings.warn(f"dropout: applied between layers only, so dropout={config.dropout} "
                      "does nothing with num_layers=1", UserWarning, stacklevel=3)


def check_unsupported(bidirectional: object = False, proj_size: object = 0) -> None:
    """torch.nn's arguments that stacklib's stacks do not implement, refused by name."""
    if check_bool("bidirectional", bidirectional):
        raise ValueError("bidirectional: stacklib's stacks run forward in time only, "
                         "got bidirectional=True")
    if check_int("proj_size", proj_size, minimum=0):
        raise ValueError(f"proj_size: stacklib's stacks have no projection, got {proj_size}")


@dataclass(frozen=True)
class StackConfig:
    """The shape and semantics of a stack of ``num_layers`` recurrent layers.

    Layer l (1..L, as in the lecture) reads x[l]_t (x[1]_t = x_t) and its own previous state;
    what it hands upward is u[l]_t, and the top layer's is the output::

        h[l]_t = Cell(x[l]_t, h[l]_{t-1})
        a[l]_t = LayerNorm(h[l]_t)      if layer_norm            else h[l]_t
        u[l]_t = a[l]_t + x[l]_t        if residual and l >= 2   else a[l]_t
        x[l+1]_t = Dropout(u[l]_t)      in training, below the top layer
        y_t = u[L]_t

    Without ``residual`` and ``layer_norm`` this is ``torch.nn.RNN/GRU/LSTM(num_layers=L)``.

    Args:
        input_size: features of the input x_t.
        hidden_size: features of every layer's state h_t (and c_t).
        num_layers: stacked layers. Default: 1.
        cell: ``"rnn"``, ``"gru"`` or ``"lstm"``. Default: ``"lstm"``.
        nonlinearity: ``"tanh"``, ``"relu"`` or ``"linear"`` (``cell="rnn"`` only). Default:
            ``"tanh"``.
        bias: whether the layers have the biases ``b_ih`` and ``b_hh``. Default: True.
        batch_first: inputs and outputs as (B, T, feature) instead of (T, B, feature).
            Default: False.
        dropout: probability of zeroing an entry of every layer's output but the last, in
            training. Default: 0.
        residual: add a layer's input to its output from layer 2 on. Default: False.
        layer_norm: layer-normalise every layer's output (before the residual sum).
            Default: False.

    Raises ``TypeError`` for an argument of the wrong type and ``ValueError`` for a bad value,
    naming the argument. The stacks built from it warn, like torch, when ``dropout`` has no
    layer boundary to act on.

    Examples::

        >>> cfg = StackConfig(100, 128, 3)
        >>> cfg.gates, cfg.layer_input_size(0), cfg.layer_input_size(1)
        (4, 100, 128)
        >>> cfg.param_shapes()["weight_hh_l2"]
        (512, 128)
        >>> StackConfig(100, 128, cell="gru", nonlinearity="relu")
        Traceback (most recent call last):
        ...
        ValueError: nonlinearity: only 'tanh' is defined for cell='gru', got 'relu'
    """

    input_size: int
    hidden_size: int
    num_layers: int = 1
    cell: str = "lstm"
    nonlinearity: str = "tanh"
    bias: bool = True
    batch_first: bool = False
    dropout: float = 0.0
    residual: bool = False
    layer_norm: bool = False

    def __post_init__(self) -> None:
        def put(name, value):  # frozen: normalised values (np.int64 -> int, ...) set once here
            object.__setattr__(self, name, value)

        for name in ("input_size", "hidden_size", "num_layers"):
            put(name, check_int(name, getattr(self, name)))
        put("cell", check_choice("cell", self.cell, tuple(CELLS)))
        put("nonlinearity", check_choice("nonlinearity", self.nonlinearity, NONLINEARITIES))
        if self.cell != "rnn" and self.nonlinearity != "tanh":
            raise ValueError(f"nonlinearity: only 'tanh' is defined for cell={self.cell!r}, "
                             f"got {self.nonlinearity!r}")
        for name in ("bias", "batch_first", "residual", "layer_norm"):
            put(name, check_bool(name, getattr(self, name)))
        put("dropout", check_probability("dropout", self.dropout))

    @property
    def gates(self) -> int:
        """Gate blocks per layer (RNN 1, GRU 3, LSTM 4)."""
        return CELLS[self.cell].gates

    def layer_input_size(self, layer: int) -> int:
        """Fan-in of layer ``layer`` (0-based): the input size for the first, H above it."""
        return self.input_size if layer == 0 else self.hidden_size

    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        """Parameter names and shapes, layer by layer, in torch.nn's flat convention:
        ``weight_ih_l{k}`` (G*H, fan-in), ``weight_hh_l{k}`` (G*H, H), ``bias_ih_l{k}`` and
        ``bias_hh_l{k}`` (G*H,) if ``bias``; ``ln_weight_l{k}``, ``ln_bias_l{k}`` (H,) if
        ``layer_norm``."""
        gh, h = self.gates * self.hidden_size, self.hidden_size
        shapes: dict[str, tuple[int, ...]] = {}
        for k in range(self.num_layers):
            shapes[param_name("weight_ih", k)] = (gh, self.layer_input_size(k))
            shapes[param_name("weight_hh", k)] = (gh, h)
            if self.bias:
                shapes[param_name("bias_ih", k)] = (gh,)
                shapes[param_name("bias_hh", k)] = (gh,)
            if self.layer_norm:
                shapes[param_name("ln_weight", k)] = (h,)
                shapes[param_name("ln_bias", k)] = (h,)
        return shapes

    def initial_constant(self, name: str) -> float | None:
        """torch.nn's initialisation of parameter ``name``: layer norm's gain 1 and shift 0
        (returned); None for every other weight and bias, drawn from U(-bound, bound) with
        ``bound = 1 / sqrt(hidden_size)`` (``init_bound``)."""
        if name.startswith("ln_"):
            return 1.0 if name.startswith("ln_weight") else 0.0
        return None

    @property
    def init_bound(self) -> float:
        return 1.0 / math.sqrt(self.hidden_size)

    def replace(self, **changes) -> StackConfig:
        """A copy with some fields changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def torch_kwargs(self) -> dict:
        """Constructor arguments of the equal ``torch.nn.RNN/GRU/LSTM`` (``torch_nn_class``);
        ``ValueError`` naming what torch.nn cannot express."""
        for name in ("residual", "layer_norm"):
            if getattr(self, name):
                raise ValueError(f"{name}: torch.nn.{CELLS[self.cell].torch_nn} has no such "
                                 f"option, got {name}=True")
        kwargs = dict(input_size=self.input_size, hidden_size=self.hidden_size,
                      num_layers=self.num_layers, bias=self.bias, batch_first=self.batch_first,
                      dropout=self.dropout)
        if self.cell == "rnn":
            if self.nonlinearity == "linear":
                raise ValueError("nonlinearity: torch.nn.RNN supports 'tanh' or 'relu', "
                                 "got 'linear'")
            kwargs["nonlinearity"] = self.nonlinearity
        return kwargs

    @classmethod
    def of(cls, module: object, name: str = "module") -> StackConfig:
        """The configuration of a ``torch.nn.RNN/GRU/LSTM`` or of a stacklib stack (``name``:
        the argument it came as, for the error message)."""
        own = getattr(module, "config", None)
        if isinstance(own, StackConfig):
            return own
        nn = sys.modules.get("torch.nn")  # a torch module exists only once torch is imported
        cell = next((c for c, kind in CELLS.items()
                     if nn is not None and isinstance(module, getattr(nn, kind.torch_nn))), None)
        if cell is None:
            raise TypeError(f"{name}: expected torch.nn.RNN, GRU or LSTM or a stacklib "
                            f"StackedRNN, got {type(module).__name__}")
        check_unsupported(module.bidirectional, getattr(module, "proj_size", 0))
        return cls(module.input_size, module.hidden_size, module.num_layers, cell=cell,
                   nonlinearity=getattr(module, "nonlinearity", "tanh"), bias=module.bias,
                   batch_first=module.batch_first, dropout=float(module.dropout))


class ConfigFields:
    """Mixin of both stacks: the configuration's fields read as attributes, like torch.nn's
    modules (``stack.hidden_size``), and cannot be set: the weights were shaped by them.
    ``from_config`` builds a stack with its ``_setup(config, **kwargs)``, what its constructor
    does once it has made the configuration."""

    config: StackConfig

    input_size = property(lambda self: self.config.input_size)
    hidden_size = property(lambda self: self.config.hidden_size)
    num_layers = property(lambda self: self.config.num_layers)
    cell = property(lambda self: self.config.cell)
    nonlinearity = property(lambda self: self.config.nonlinearity)
    bias = property(lambda self: self.config.bias)
    batch_first = property(lambda self: self.config.batch_first)
    dropout = property(lambda self: self.config.dropout)
    residual = property(lambda self: self.config.residual)
    layer_norm = property(lambda self: self.config.layer_norm)

    @classmethod
    def from_config(cls, config: StackConfig, **kwargs):
        """The stack of ``config``; ``kwargs``: the constructor's others (``dtype``, ...)."""
        if not isinstance(config, StackConfig):
            raise TypeError(f"config: expected a StackConfig, got {type(config).__name__}")
        stack = cls.__new__(cls)
        stack._setup(config, **kwargs)
        warn_idle_dropout(config)
        return stack
