"""The stacked recurrent network in NumPy: one skeleton, three cells, torch.nn's interface.

Layer l at step t needs only layer l - 1 at step t and itself at step t - 1, so running layer 1
over all steps, then layer 2, and so on computes the same numbers as climbing the stack step by
step (the order the lecture narrates), while letting each layer's input term be one product.
"""

from __future__ import annotations

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
    param_name,
    torch_nn_class,
)
from stacklib.numpy.backward import stack_backward
from stacklib.numpy.between_layers import dropout_mask, layer_norm
from stacklib.numpy.layer import LayerWeights, cell_of, layer_forward
from stacklib.numpy.outputs import Gradients, LayerTape, StackOutput, Tape


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

    Outputs: a ``StackOutput``, which is ``(output, h_n)`` or ``(output, (h_n, c_n))`` like
        torch.nn's, plus every layer's h, c and gates at every step.

    Like a torch module, a stack starts in training mode (dropout between layers, if any);
    ``eval()`` turns dropout off. ``backward(out, grad_output)`` is BPTT by hand.

    Examples::

        >>> stack = StackedRNN(10, 20, 2, seed=0)
        >>> x = np.ones((5, 3, 10), np.float32)     # T = 5 steps, B = 3 sequences
        >>> output, (h_n, c_n) = stack(x)
        >>> output.shape, h_n.shape
        ((5, 3, 20), (2, 3, 20))
        >>> out = stack(x)
        >>> out.h.shape, sorted(out.gates(0))       # every layer, every step
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
        self.config = StackConfig(input_size, hidden_size, num_layers, cell=cell,
                                  nonlinearity=nonlinearity, bias=bias, batch_first=batch_first,
                                  dropout=dropout, residual=residual, layer_norm=layer_norm)
        self.dtype = float_dtype(dtype)
        if seed is not None and generator is not None:
            raise ValueError("seed: give a seed or a generator, not both")
        if generator is not None and not isinstance(generator, np.random.Generator):
            raise TypeError(f"generator: expected a numpy.random.Generator, got "
                            f"{type(generator).__name__}")
        if generator is None:
            generator = np.random.default_rng(
                None if seed is None else check_int("seed", seed, minimum=0))
        self.generator = generator
        self._cell = cell_of(self.config)
        self.training = True
        self._version = 0  # bumped by every change of weights: older outputs are refused
        self.reset_parameters()

    # ------------------------------------------------------------------ parameters
    def reset_parameters(self) -> None:
        """torch.nn's initialisation (``StackConfig.initial_constant``), drawn from
        ``self.generator``."""
        cfg, self._params = self.config, {}
        for name, shape in cfg.param_shapes().items():
            constant = cfg.initial_constant(name)
            value = (np.full(shape, constant) if constant is not None else
                     self.generator.uniform(-cfg.init_bound, cfg.init_bound, shape))
            self._params[name] = value.astype(self.dtype)
        self._version += 1

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
        self._version += 1

    def _weights(self, k: int) -> LayerWeights:
        p, zeros = self._params, np.zeros(self.config.gates * self.config.hidden_size,
                                          self.dtype)
        return LayerWeights(p[param_name("weight_ih", k)], p[param_name("weight_hh", k)],
                            p.get(param_name("bias_ih", k), zeros),
                            p.get(param_name("bias_hh", k), zeros))

    def train(self, mode: bool = True) -> StackedRNN:
        """Training mode (dropout on) or not, like ``torch.nn.Module.train``."""
        self.training = check_bool("mode", mode)
        return self

    def eval(self) -> StackedRNN:
        return self.train(False)

    # ------------------------------------------------------------------ forward
    def _inputs(self, x, hx):
        """x as a (T, B, input_size) copy, whether it was batched, and h0, c0 (L, B, H)."""
        cfg = self.config
        x = as_array("x", x, self.dtype)
        batched = sequence_layout("x", x.shape, cfg.input_size, cfg.batch_first)
        if not batched:
            x = x[:, None]
        elif cfg.batch_first:
            x = x.transpose(1, 0, 2)
        x = np.array(x)  # the tape's own copy: the caller may reuse its buffer
        B = x.shape[1]
        want = state_shape(cfg.num_layers, B, cfg.hidden_size, batched)
        names = ("h0", "c0") if cfg.cell == "lstm" else ("h0",)
        given = [None] * len(names) if hx is None else state_pair(cfg.cell, hx)
        states = []
        for name, value in zip(names, given, strict=True):
            if value is None:
                states.append(np.zeros((cfg.num_layers, B, cfg.hidden_size), self.dtype))
                continue
            s = as_array(name, value, self.dtype)
            check_shape(name, s.shape, want, "(num_layers, B, hidden_size)" if batched else
                        "(num_layers, hidden_size) for an unbatched x")
            states.append(np.array(s if batched else s[:, None]))
        return x, batched, states[0], (states[1] if cfg.cell == "lstm" else None)

    def forward(self, x, hx=None) -> StackOutput:
        """Run the stack over x; see the class docstring for the Inputs and Outputs."""
        x, batched, h0, c0 = self._inputs(x, hx)
        cfg, layers, inp = self.config, [], x
        dropping = self.training and cfg.dropout > 0
        for k in range(cfg.num_layers):  # layer k over the whole sequence, then k + 1
            c0k = None if c0 is None else c0[k]
            hs, cs, steps = layer_forward(self._cell, inp, h0[k], c0k, self._weights(k))
            a, ln = hs, None  # (T, B, H)
            if cfg.layer_norm:
                a, ln = layer_norm(hs, self._params[param_name("ln_weight", k)],
                                   self._params[param_name("ln_bias", k)])
            u = a + inp if cfg.residual and k >= 1 else a  # what layer k hands upward
            mask = None
            if dropping and k < cfg.num_layers - 1:  # never on the top layer's output
                mask = dropout_mask(u.shape, cfg.dropout, self.generator, self.dtype)
            layers.append(LayerTape(inp, h0[k], c0k, hs, cs, steps, ln, u, mask))
            inp = u if mask is None else u * mask
        tape = Tape(self, self._version, tuple(layers), batched)
        return StackOutput(tape, cfg.cell, cfg.batch_first)

    __call__ = forward

    def backward(self, out: StackOutput, grad_output, grad_h_n=None,
                 grad_c_n=None) -> Gradients:
        """BPTT by hand, through time and down the stack: the gradients of the loss
        ``sum(output * grad_output) + sum(h_n * grad_h_n) + sum(c_n * grad_c_n)`` with respect
        to every parameter, the input and the initial states (see ``backward.py``)."""
        if not isinstance(out, StackOutput):
            raise TypeError(f"out: expected the StackOutput of this stack's forward(), got "
                            f"{type(out).__name__}")
        if out.tape.stack is not self or out.tape.version != self._version:
            raise ValueError("out: computed by another stack, or by this one before its "
                             "weights changed (load_state_dict, reset_parameters); run "
                             "forward() again")
        cfg = self.config
        weights = [self._weights(k) for k in range(cfg.num_layers)]
        ln_gains = ([self._params[param_name("ln_weight", k)] for k in range(cfg.num_layers)]
                    if cfg.layer_norm else None)
        return stack_backward(out.tape, cfg, weights, ln_gains, out.output.shape, grad_output,
                              grad_h_n, grad_c_n)

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
        stack = cls.from_config(config, dtype=dtype)
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
