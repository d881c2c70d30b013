"""One description of a stacked recurrent network, shared by every stacklib front end.

``StackConfig`` holds what the constructor of ``torch.nn.RNN/GRU/LSTM`` holds, plus stacklib's
two variants (``residual``, ``layer_norm``). The NumPy stack, the torch stack, the Keras bridge,
the parameter formulas and the experiments all take one, so its arguments are checked in one
place, once, when it is made. The names, counts and maps every front end needs live here too.
"""

from __future__ import annotations

import dataclasses
import math
import os
import sys
import warnings
from dataclasses import dataclass

from stacklib._validate import check_bool, check_choice, check_int, check_probability

CELLS: tuple[str, ...] = ("rnn", "gru", "lstm")
# Gate blocks per layer: W_ih and W_hh have GATES[cell] * hidden_size rows.
GATES: dict[str, int] = {"rnn": 1, "gru": 3, "lstm": 4}
# The named gates of each cell, in torch.nn's block order (a plain RNN has none).
GATE_NAMES: dict[str, tuple[str, ...]] = {"rnn": (), "gru": ("r", "z", "n"),
                                          "lstm": ("i", "f", "g", "o")}
NONLINEARITIES: tuple[str, ...] = ("tanh", "relu", "linear")
LN_EPS = 1e-5  # layer norm's epsilon: torch.nn.LayerNorm's default
TORCH_NN = {"rnn": "RNN", "gru": "GRU", "lstm": "LSTM"}  # cell -> its torch.nn class name


def param_name(part: str, layer: int) -> str:
    """torch.nn's flat name of a parameter of layer ``layer`` (0-based).

    >>> param_name("weight_ih", 0)
    'weight_ih_l0'
    """
    return f"{part}_l{layer}"


def torch_nn_class(cell: str):
    """The ``torch.nn`` class of ``cell`` (imports torch): ``torch_nn_class("lstm") is nn.LSTM``."""
    import torch.nn

    return getattr(torch.nn, TORCH_NN[check_choice("cell", cell, CELLS)])


def check_unsupported(bidirectional: object = False, proj_size: object = 0) -> None:
    """torch.nn's arguments that stacklib's stacks do not implement, refused by name."""
    if check_bool("bidirectional", bidirectional):
        raise ValueError("bidirectional: stacklib's stacks run forward in time only, "
                         "got bidirectional=True")
    if check_int("proj_size", proj_size, minimum=0):
        raise ValueError(f"proj_size: stacklib's stacks have no projection, got {proj_size}")


def _user_stacklevel() -> int:
    """``warnings.warn``'s stacklevel that points at the first caller outside stacklib (the
    user's line, whether it made a StackConfig or a stack)."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(2), 2  # the caller of the function that warns
    while frame is not None and (frame.f_code.co_filename.startswith(package)
                                 or frame.f_code.co_filename == "<string>"):  # dataclass code
        frame, level = frame.f_back, level + 1
    return level


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
    naming the argument; warns, like torch, when ``dropout`` has no layer to act on.

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
        put("cell", check_choice("cell", self.cell, CELLS))
        put("nonlinearity", check_choice("nonlinearity", self.nonlinearity, NONLINEARITIES))
        if self.cell != "rnn" and self.nonlinearity != "tanh":
            raise ValueError(f"nonlinearity: only 'tanh' is defined for cell={self.cell!r}, "
                             f"got {self.nonlinearity!r}")
        for name in ("bias", "batch_first", "residual", "layer_norm"):
            put(name, check_bool(name, getattr(self, name)))
        put("dropout", check_probability("dropout", self.dropout))
        if self.dropout > 0 and self.num_layers == 1:
            warnings.warn(f"dropout: applied between layers only, so dropout={self.dropout} "
                          "does nothing with num_layers=1", UserWarning,
                          stacklevel=_user_stacklevel())

    @property
    def gates(self) -> int:
        """Gate blocks per layer (RNN 1, GRU 3, LSTM 4)."""
        return GATES[self.cell]

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
                raise ValueError(f"{name}: torch.nn.{TORCH_NN[self.cell]} has no such option, "
                                 f"got {name}=True")
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
        cell = next((c for c, class_name in TORCH_NN.items()
                     if nn is not None and isinstance(module, getattr(nn, class_name))), None)
        if cell is None:
            raise TypeError(f"{name}: expected torch.nn.RNN, GRU or LSTM or a stacklib "
                            f"StackedRNN, got {type(module).__name__}")
        check_unsupported(module.bidirectional, getattr(module, "proj_size", 0))
        return cls(module.input_size, module.hidden_size, module.num_layers, cell=cell,
                   nonlinearity=getattr(module, "nonlinearity", "tanh"), bias=module.bias,
                   batch_first=module.batch_first, dropout=float(module.dropout))


class ConfigFields:
    """Mixin of both stacks: the configuration's fields read as attributes
    (``stack.hidden_size``), like torch.nn's modules, read-only because the weights were
    shaped by them; and ``from_config``."""

    config: StackConfig

    @classmethod
    def from_config(cls, config: StackConfig, **kwargs):
        """The stack of ``config``; ``kwargs``: the constructor's others (``dtype``, ...)."""
        if not isinstance(config, StackConfig):
            raise TypeError(f"config: expected a StackConfig, got {type(config).__name__}")
        return cls(**dataclasses.asdict(config), **kwargs)


def _forward_field(name: str):
    def get(self):
        return getattr(self.config, name)

    def refuse(self, value):
        raise AttributeError(f"{name}: fixed by the stack's config; build a new stack with "
                             f"config.replace({name}=...)")

    return property(get, refuse, doc=f"``config.{name}``")


for _field in dataclasses.fields(StackConfig):
    setattr(ConfigFields, _field.name, _forward_field(_field.name))
