"""``StackedRNN``: the NumPy stack (``stack.forward``, ``stack.backward``) behind torch.nn's
interface: weights under torch.nn's names and initialisation, seeding, dtype rules, train and
eval modes, batch-first and unbatched inputs, and every argument checked where it comes in.
Nothing here computes the recurrence; a reader of the stack can skip this file.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from stacklib._validate import (
    as_array,
    check_bool,
    check_int,
    check_shape,
    check_state,
    sequence_layout,
    state_pair,
    state_shape,
)
from stacklib.config import (
    ConfigFields,
    StackConfig,
    check_unsupported,
    torch_nn_class,
    warn_idle_dropout,
)
from stacklib.numpy.stack import Gradients, StackOutput, backward, forward


def float_dtype(dtype) -> np.dtype:
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise TypeError(f"dtype: expected a floating-point dtype, got {dtype}")
    return dtype


class StackedRNN(ConfigFields):
    """A stack of ``num_layers`` RNN, GRU or LSTM layers, from scratch in NumPy, with the
    interface of ``torch.nn.RNN/GRU/LSTM`` and a hand-written backward pass.

    Args:
        input_size, hidden_size, num_layers, cell, nonlinearity, bias, batch_first, dropout,
        residual, layer_norm: the stack's ``StackConfig`` (see there).
        bidirectional, proj_size: torch.nn's, refused unless False and 0.
        dtype: of the weights and of every input. Default: float32, like torch.
        seed, generator: where the initial weights and the dropout masks come from: an int
            seed or a ``numpy.random.Generator`` (at most one). Default: fresh randomness.

    Inputs: x, hx
        x: (T, B, input_size), (B, T, input_size) with ``batch_first``, or unbatched
            (T, input_size); of the stack's dtype (a NumPy array, a torch tensor or lists).
        hx: h0, or (h0, c0) for an LSTM, each (num_layers, B, hidden_size) ((num_layers,
            hidden_size) unbatched). Default: zeros.

    Outputs: a ``StackOutput``, which unpacks as torch.nn's ``(output, h_n)`` or
        ``(output, (h_n, c_n))`` and holds every layer's h, c and gates at every step.

    Like a torch module, a stack starts in training mode (dropout between layers, if any);
    ``eval()`` turns dropout off. ``backward(out, grad_output)`` is BPTT by hand.

    Examples::

        >>> stack = StackedRNN(10, 20, 2, seed=0)
        >>> x = np.ones((5, 3, 10), np.float32)     # T = 5 steps, B = 3 sequences
        >>> output, (h_n, c_n) = stack(x)
        >>> output.shape, h_n.shape
        ((5, 3, 20), (2, 3, 20))
        >>> out = stack(x)
        >>> out.h.shape, sorted(out.gates)          # every layer, every step
        ((2, 5, 3, 20), ['f', 'g', 'i', 'o'])
        >>> grads = stack.backward(out, np.ones_like(out.output))
        >>> grads.h_norm.shape                      # ||dLoss/dh^[l]_t|| for every (t, l)
        (5, 2)
    """

    def __init__(self, input_size, hidden_size, num_layers=1, *, cell="lstm",
                 nonlinearity="tanh", bias=True, batch_first=False, dropout=0.0,
                 residual=False, layer_norm=False, bidirectional=False, proj_size=0,
                 dtype=np.float32, seed=None, generator=None):
        check_unsupported(bidirectional, proj_size)
        config = StackConfig(input_size, hidden_size, num_layers, cell=cell,
                             nonlinearity=nonlinearity, bias=bias, batch_first=batch_first,
                             dropout=dropout, residual=residual, layer_norm=layer_norm)
        self._setup(config, dtype=dtype, seed=seed, generator=generator)
        warn_idle_dropout(config)

    def _setup(self, config: StackConfig, dtype=np.float32, seed=None, generator=None) -> None:
        self.config, self.dtype = config, float_dtype(dtype)
        if seed is not None and generator is not None:
            raise ValueError("seed: give a seed or a generator, not both")
        if generator is not None and not isinstance(generator, np.random.Generator):
            raise TypeError(f"generator: expected a numpy.random.Generator, got "
                            f"{type(generator).__name__}")
        if generator is None:
            generator = np.random.default_rng(
                None if seed is None else check_int("seed", seed, minimum=0))
        self.generator = generator
        self.training = True
        self.reset_parameters()

    # ------------------------------------------------------------------ parameters
    def reset_parameters(self) -> None:
        """torch.nn's initialisation (``StackConfig.initial_constant``), drawn from
        ``self.generator``."""
        cfg, params = self.config, {}
        for name, shape in cfg.param_shapes().items():
            constant = cfg.initial_constant(name)
            value = (np.full(shape, constant) if constant is not None else
                     self.generator.uniform(-cfg.init_bound, cfg.init_bound, shape))
            params[name] = value.astype(self.dtype)
        self._params = params  # a new dict: an earlier forward keeps the weights it ran with

    def state_dict(self) -> dict[str, np.ndarray]:
        """Copies of the weights under torch.nn's names (``weight_ih_l0``, ...)."""
        return {name: p.copy() for name, p in self._params.items()}

    def load_state_dict(self, state_dict) -> None:
        """Load weights (arrays, lists or torch tensors, converted to the stack's dtype), e.g.
        ``torch.nn.LSTM(...).state_dict()``: exactly the names and shapes of ``state_dict()``,
        checked whole before anything is loaded."""
        def convert(name, value):
            return np.array(as_array(name, value, self.dtype, cast=True))  # always a copy

        cfg = self.config
        self._params = check_state("state_dict", state_dict, cfg.param_shapes(),
                                   f"this stack ({cfg})", convert)

    def train(self, mode: bool = True) -> StackedRNN:
        """Training mode (dropout on) or not, like ``torch.nn.Module.train``."""
        self.training = check_bool("mode", mode)
        return self

    def eval(self) -> StackedRNN:
        return self.train(False)

    # ------------------------------------------------------------------ forward, backward
    def __call__(self, x, hx=None) -> StackOutput:
        return self.forward(x, hx)

    def forward(self, x, hx=None) -> StackOutput:
        """Run the stack over x; see the class docstring for the Inputs and Outputs."""
        cfg = self.config
        x = as_array("x", x, self.dtype)
        batched = sequence_layout("x", x.shape, cfg.input_size, cfg.batch_first)
        x = np.array(x[:, None] if not batched else  # the tape's own (T, B, in) copy
                     x.transpose(1, 0, 2) if cfg.batch_first else x)
        h0, c0 = self._states(hx, x.shape[1], batched)
        rng = self.generator if self.training else None  # masks drawn only if dropout > 0
        out = forward(cfg, self._params, x, h0, c0, rng)
        if not batched:  # drop the B = 1 axis the unbatched input ran with
            return dataclasses.replace(
                out, output=out.output[:, 0], h=out.h[:, :, 0],
                c=None if out.c is None else out.c[:, :, 0],
                gates={k: v[:, :, 0] for k, v in out.gates.items()})
        if cfg.batch_first:
            return dataclasses.replace(out, output=out.output.transpose(1, 0, 2))
        return out

    def _states(self, hx, batch: int, batched: bool):
        """h0 and c0 (None but for the LSTM) as (L, B, H) copies; zeros when not given."""
        cfg = self.config
        want = state_shape(cfg.num_layers, batch, cfg.hidden_size, batched)
        names = ("h0", "c0") if cfg.cell_state else ("h0",)
        given = [None] * len(names) if hx is None else state_pair(cfg.cell, cfg.cell_state, hx)
        states = []
        for name, value in zip(names, given, strict=True):
            if value is None:
                states.append(np.zeros((cfg.num_layers, batch, cfg.hidden_size), self.dtype))
                continue
            s = as_array(name, value, self.dtype)
            check_shape(name, s.shape, want, "(num_layers, B, hidden_size)" if batched else
                        "(num_layers, hidden_size) for an unbatched x")
            states.append(np.array(s if batched else s[:, None]))
        return states[0], (states[1] if cfg.cell_state else None)

    def backward(self, out: StackOutput, grad_output, grad_h_n=None,
                 grad_c_n=None) -> Gradients:
        """BPTT by hand, through time and down the stack: the gradients of the loss
        ``sum(output * grad_output) + sum(h_n * grad_h_n) + sum(c_n * grad_c_n)`` with respect
        to every parameter, the input and the initial states, for the forward pass that made
        ``out`` (with the weights it ran with; see ``stack.backward``)."""
        cfg = self.config
        if not isinstance(out, StackOutput):
            raise TypeError(f"out: expected the StackOutput of this stack's forward(), got "
                            f"{type(out).__name__}")
        if out.tape.config != cfg:
            raise ValueError(f"out: made by a stack of {out.tape.config}, not of this one's "
                             f"{cfg}")
        if grad_c_n is not None and not cfg.cell_state:
            raise ValueError(f"grad_c_n: only defined for a cell with a memory c, such as "
                             f"cell='lstm', got cell={cfg.cell!r}")
        batched = out.output.ndim == 3
        dy = self._grad("grad_output", grad_output, out.output.shape, batched)
        if batched and cfg.batch_first:
            dy = dy.transpose(1, 0, 2)
        dh_n = self._grad("grad_h_n", grad_h_n, out.h_n.shape, batched)
        dc_n = self._grad("grad_c_n", grad_c_n, out.h_n.shape, batched) \
            if cfg.cell_state else None
        g = backward(out.tape, dy, dh_n, dc_n)
        if not batched:
            return dataclasses.replace(g, input=g.input[:, 0], h0=g.h0[:, 0],
                                       c0=None if g.c0 is None else g.c0[:, 0])
        if cfg.batch_first:
            return dataclasses.replace(g, input=g.input.transpose(1, 0, 2))
        return g

    def _grad(self, name, value, shape, batched):
        """A given gradient (shaped like what it is the gradient of) as (…, B, H); None ->
        zeros."""
        if value is None:
            g = np.zeros(shape, self.dtype)
        else:
            g = as_array(name, value, self.dtype)
            check_shape(name, g.shape, shape, "(like the forward's)")
        return g if batched else g[:, None]

    # ------------------------------------------------------------------ torch.nn
    @classmethod
    def from_torch(cls, module, dtype=None) -> StackedRNN:
        """A NumPy twin of a ``torch.nn.RNN/GRU/LSTM`` or ``stacklib.torch.StackedRNN``, with
        its configuration, weights and mode; ``dtype`` defaults to the module's."""
        config = StackConfig.of(module)
        if not hasattr(module, "named_parameters"):  # a NumPy stack: from_config + state_dict
            raise TypeError(f"module: expected a torch module, got {type(module).__name__}")
        state = module.state_dict()
        if dtype is None:  # bfloat16 has no NumPy twin: float32 holds it exactly
            first = next(iter(state.values())).detach()
            bf16 = str(first.dtype) == "torch.bfloat16"
            dtype = np.float32 if bf16 else first.cpu().numpy().dtype
        stack = cls.__new__(cls)  # not warned again: torch warned when the module was built
        stack._setup(config, dtype=dtype)
        stack.load_state_dict(state)
        return stack.train(module.training)

    def to_torch(self):
        """The ``torch.nn.RNN/GRU/LSTM`` with this stack's configuration, weights and mode
        (plain stacks only: torch.nn has no residual or layer-norm option)."""
        import torch

        kwargs = self.config.torch_kwargs()
        module = torch_nn_class(self.config.cell)(**kwargs, dtype=getattr(torch, self.dtype.name))
        module.load_state_dict({k: torch.from_numpy(v) for k, v in self.state_dict().items()})
        return module.train(self.training)

    def __repr__(self) -> str:
        return f"StackedRNN({self.config}, dtype={self.dtype})"
