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

NONLINEARITIES: tuple[str, ...] = ("tanh", "relu", "linear")
TORCH_NONLINEARITIES: tuple[str, ...] = ("tanh", "relu")  # what torch.nn.RNN's takes
# A layer's parameters under torch.nn's names: W_ih, W_hh, b_ih, b_hh.
LAYER_PARAMS: tuple[str, ...] = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")


@dataclass(frozen=True)
class CellKind:
    """What stacklib knows of a cell, looked up by its name in ``CELLS``: the stacks, the
    parameter formulas, the bridges and the pages all read it here. A new cell is a row of
    ``CELLS`` and its steps (stacklib/numpy/cells.py, stacklib/torch/cells.py)."""

    name: str  # what the pages call it: "LSTM"
    gates: int  # gate blocks per layer: W_ih and W_hh have gates * hidden_size rows
    gate_names: tuple[str, ...]  # its named gates in torch.nn's block order (a plain RNN: none)
    cell_state: bool = False  # it carries a memory c beside h: its state is (h, c)
    nonlinearities: tuple[str, ...] = ("tanh",)  # what its ``nonlinearity`` may be
    params: tuple[str, ...] = LAYER_PARAMS  # a layer's parameters (param_name adds the layer)
    torch_nn: str | None = None  # its torch.nn class, the name in capitals: torch.nn.LSTM
    keras: str | None = None  # its Keras 3 layer: keras.layers.SimpleRNN, GRU, LSTM
    keras_gates: tuple[str, ...] | None = None  # Keras' block order, where it is not torch's
    keras_biases: int = 1  # bias vectors Keras keeps (torch.nn keeps two: b_ih and b_hh)
    keras_options: tuple[tuple[str, object], ...] = ()  # for Keras' layer to compute the same

    @property
    def title(self) -> str:
        """What the lecture calls a stack of it: "Stacked LSTM"."""
        return f"Stacked {self.name}"

    def label(self, nonlinearity: str = "tanh") -> str:
        """Its name, with its nonlinearity where it has a choice of one: "tanh RNN", "GRU"."""
        return f"{nonlinearity} {self.name}" if len(self.nonlinearities) > 1 else self.name


CELLS: dict[str, CellKind] = {
    "rnn": CellKind("RNN", 1, (), nonlinearities=NONLINEARITIES, torch_nn="RNN",
                    keras="SimpleRNN"),
    "gru": CellKind("GRU", 3, ("r", "z", "n"), torch_nn="GRU", keras="GRU",
                    keras_gates=("z", "r", "n"), keras_biases=2,
                    keras_options=(("reset_after", True),)),
    "lstm": CellKind("LSTM", 4, ("i", "f", "g", "o"), cell_state=True, torch_nn="LSTM",
                     keras="LSTM"),
}
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

    return getattr(torch.nn, _torch_nn(check_choice("cell", cell, tuple(CELLS))))


def _torch_nn(cell: str) -> str:
    """The name of ``cell``'s torch.nn class; ``ValueError`` where torch.nn has none."""
    kind = CELLS[cell]
    if kind.torch_nn is None:
        raise ValueError(f"cell: torch.nn has no {kind.name} layer, got cell={cell!r}")
    return kind.torch_nn


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
        allowed = CELLS[self.cell].nonlinearities
        if self.nonlinearity not in allowed:
            raise ValueError(f"nonlinearity: only {' or '.join(map(repr, allowed))} is defined "
                             f"for cell={self.cell!r}, got {self.nonlinearity!r}")
        for name in ("bias", "batch_first", "residual", "layer_norm"):
            put(name, check_bool(name, getattr(self, name)))
        put("dropout", check_probability("dropout", self.dropout))

    @property
    def gates(self) -> int:
        """Gate blocks per layer (RNN 1, GRU 3, LSTM 4)."""
        return CELLS[self.cell].gates

    @property
    def cell_state(self) -> bool:
        """Whether the cell carries a memory c beside h (the LSTM): states (h, c), not h."""
        return CELLS[self.cell].cell_state

    def layer_input_size(self, layer: int) -> int:
        """Fan-in of layer ``layer`` (0-based): the input size for the first, H above it."""
        return self.input_size if layer == 0 else self.hidden_size

    def layer_params(self, layer: int) -> tuple[str, ...]:
        """Layer ``layer``'s (0-based) parameters in torch.nn's flat names: W_ih, W_hh, b_ih,
        b_hh (``weight_ih_l0``, ...; the biases' names also where ``bias`` is False)."""
        return tuple(param_name(part, layer) for part in CELLS[self.cell].params)

    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        """Parameter names and shapes, layer by layer, in torch.nn's flat convention:
        ``weight_ih_l{k}`` (G*H, fan-in), ``weight_hh_l{k}`` (G*H, H), ``bias_ih_l{k}`` and
        ``bias_hh_l{k}`` (G*H,) if ``bias``; ``ln_weight_l{k}``, ``ln_bias_l{k}`` (H,) if
        ``layer_norm``."""
        gh, h = self.gates * self.hidden_size, self.hidden_size
        shapes: dict[str, tuple[int, ...]] = {}
        for k in range(self.num_layers):
            w_ih, w_hh, b_ih, b_hh = self.layer_params(k)
            shapes[w_ih] = (gh, self.layer_input_size(k))
            shapes[w_hh] = (gh, h)
            if self.bias:
                shapes[b_ih] = (gh,)
                shapes[b_hh] = (gh,)
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
        torch_nn = _torch_nn(self.cell)
        for name in ("residual", "layer_norm"):
            if getattr(self, name):
                raise ValueError(f"{name}: torch.nn.{torch_nn} has no such option, got "
                                 f"{name}=True")
        kwargs = dict(input_size=self.input_size, hidden_size=self.hidden_size,
                      num_layers=self.num_layers, bias=self.bias, batch_first=self.batch_first,
                      dropout=self.dropout)
        if len(CELLS[self.cell].nonlinearities) > 1:  # a choice: torch.nn's class takes it too
            if self.nonlinearity not in TORCH_NONLINEARITIES:
                raise ValueError(f"nonlinearity: torch.nn.{torch_nn} supports "
                                 f"{' or '.join(map(repr, TORCH_NONLINEARITIES))}, got "
                                 f"{self.nonlinearity!r}")
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
        cell = next((c for c, kind in CELLS.items() if nn is not None and kind.torch_nn
                     and isinstance(module, getattr(nn, kind.torch_nn))), None)
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
