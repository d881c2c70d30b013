"""The stacked recurrent network in NumPy: one skeleton, three cells.

Layer l = 1..L reads x^[l]_t (x^[1]_t = x_t) and its own previous state::

    h^[l]_t (, c^[l]_t) = Cell^[l](x^[l]_t, h^[l]_{t-1} (, c^[l]_{t-1}))
    a^[l]_t = LayerNorm^[l](h^[l]_t)            if layer_norm   else h^[l]_t
    u^[l]_t = a^[l]_t + x^[l]_t                 if residual and l >= 2   else a^[l]_t
    x^[l+1]_t = Dropout_p(u^[l]_t)              for l < L, training only
    y_t = u^[L]_t

With ``residual=False, layer_norm=False`` (and no dropout) this is exactly
``torch.nn.RNN/GRU/LSTM(num_layers=L)``, weights named and shaped as theirs. Layer l at step t
needs only layer l-1 at step t and itself at t-1, so running layer 1 over all steps, then layer 2,
computes the same numbers as climbing the stack step by step (the order the lecture narrates),
while letting each layer's input projection be one matrix product.
"""

from __future__ import annotations

import numpy as np

from stacklib._validate import (
    as_float_array,
    check_bool,
    check_cell,
    check_dropout,
    check_nonlinearity,
    check_positive_int,
    check_shape,
    check_state,
)
from stacklib.numpy import norm
from stacklib.numpy.cells import CELL_TYPES
from stacklib.numpy.outputs import Gradients, StackOutput, read_only
from stacklib.params import param_shapes


class StackedRNN:
    """From-scratch stacked RNN / GRU / LSTM mirroring ``torch.nn.LSTM``'s interface.

    Not supported (as in ``stacklib.torch``): ``bidirectional`` and ``proj_size``. Unlike a torch
    module, ``forward`` is in evaluation mode unless called with ``train=True`` (dropout).
    """

    def __init__(self, input_size, hidden_size, num_layers=1, *, cell="lstm", nonlinearity="tanh",
                 bias=True, batch_first=False, dropout=0.0, residual=False, layer_norm=False,
                 dtype=np.float64, seed=0):
        self.cell = check_cell(cell)
        self.input_size = check_positive_int("input_size", input_size)
        self.hidden_size = check_positive_int("hidden_size", hidden_size)
        self.num_layers = check_positive_int("num_layers", num_layers)
        self.nonlinearity = check_nonlinearity(self.cell, nonlinearity)
        self.bias = check_bool("bias", bias)
        self.batch_first = check_bool("batch_first", batch_first)
        self.dropout = check_dropout(dropout)
        self.residual = check_bool("residual", residual)
        self.layer_norm = check_bool("layer_norm", layer_norm)
        self.dtype = np.dtype(dtype)
        if self.dtype.kind != "f":
            raise ValueError(f"dtype: expected a floating dtype, got {self.dtype}")
        cls = CELL_TYPES[self.cell]
        self._cell = cls(self.nonlinearity) if self.cell == "rnn" else cls()
        self._params = self._init_params(np.random.default_rng(seed))
        self._kernels = None
        self._version = 0  # bumped by load_state_dict: outputs of older weights are refused

    # ------------------------------------------------------------------ parameters
    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        return param_shapes(self.cell, self.input_size, self.hidden_size, self.num_layers,
                            bias=self.bias, layer_norm=self.layer_norm)

    def _init_params(self, rng):
        bound = 1.0 / np.sqrt(self.hidden_size)  # torch's U(-1/sqrt(H), 1/sqrt(H))
        params = {}
        for name, shape in self.param_shapes().items():
            if name.startswith("ln_"):
                params[name] = np.full(shape, 1.0 if "weight" in name else 0.0, self.dtype)
            else:
                params[name] = rng.uniform(-bound, bound, shape).astype(self.dtype)
        return params

    def state_dict(self) -> dict[str, np.ndarray]:
        return {name: p.copy() for name, p in self._params.items()}

    def load_state_dict(self, state) -> None:
        def convert(name, value):  # arrays, lists or torch tensors (any float dtype)
            return np.array(as_float_array(name, value, self.dtype))  # always a copy

        self._params = check_state("state_dict", state, self.param_shapes(),
                                   f"this {self.num_layers}-layer {self.cell!r} stack "
                                   f"(bias={self.bias}, layer_norm={self.layer_norm})", convert)
        self._kernels = None
        self._version += 1

    def num_params(self) -> int:
        return int(sum(p.size for p in self._params.values()))

    def _layer_weights(self, k):
        p = self._params
        return {"w_ih": p[f"weight_ih_l{k}"], "w_hh": p[f"weight_hh_l{k}"],
                "b_ih": p.get(f"bias_ih_l{k}"), "b_hh": p.get(f"bias_hh_l{k}")}

    def kernels(self):
        if self._kernels is None:  # prepared once per set of weights
            self._kernels = [self._cell.prepare(self._layer_weights(k))
                             for k in range(self.num_layers)]
        return self._kernels

    # ------------------------------------------------------------------ forward
    @staticmethod
    def _callers_memory(given, array) -> bool:
        """Whether ``array`` (converted from ``given``) may be memory the caller can change."""
        if isinstance(given, np.ndarray):
            return np.may_share_memory(array, given)
        return hasattr(given, "detach")  # a torch tensor: .numpy() shares its memory

    def _inputs(self, x, hx):
        x_given = x
        x = as_float_array("x", x, self.dtype)
        if x.ndim not in (2, 3):
            raise ValueError(
                f"x: expected a 2-D (T, input_size) or 3-D array, got shape {x.shape}")
        unbatched = x.ndim == 2
        X = x[:, None, :] if unbatched else (x.transpose(1, 0, 2) if self.batch_first else x)
        T, B, feat = X.shape
        if feat != self.input_size:
            layout = "(T, input_size)" if unbatched else (
                "(B, T, input_size)" if self.batch_first else "(T, B, input_size)")
            raise ValueError(f"x: expected last dimension input_size={self.input_size} "
                             f"in layout {layout}, got shape {x.shape}")
        if T < 1 or B < 1:
            raise ValueError(f"x: expected at least one timestep and one sequence, got {x.shape}")
        L, H = self.num_layers, self.hidden_size
        want = (L, H) if unbatched else (L, B, H)
        states = []
        names = ("h0", "c0") if self.cell == "lstm" else ("h0",)
        if hx is not None and self.cell == "lstm":
            if not (isinstance(hx, tuple | list) and len(hx) == 2):
                raise ValueError("hx: expected a tuple (h0, c0) for cell='lstm'")
            given = list(hx)
        else:
            given = [hx] * len(names)
        for name, value in zip(names, given, strict=True):
            if value is None:
                states.append(np.zeros((L, B, H), self.dtype))
                continue
            s = as_float_array(name, value, self.dtype)
            check_shape(name, s, want, f"(num_layers={L}, {'' if unbatched else 'B, '}H={H})")
            states.append(s[:, None, :] if unbatched else s)
        c0 = states[1] if self.cell == "lstm" else None
        return X, unbatched, states[0], c0, self._callers_memory(x_given, x)

    def forward(self, x, hx=None, *, train=False, rng=None, grad=True) -> StackOutput:
        """Run the stack. ``train=True`` applies inter-layer dropout (masks drawn from ``rng``).

        ``grad=False`` is inference (what ``torch.no_grad()`` is to torch): only the hidden
        states and the final cell states are kept (``output``, ``h_n``, ``c_n``, ``h``,
        ``layer_outputs``), not the gates, the cell state of every step and the other
        intermediates backward needs, so the pass is faster and lighter; ``backward()``,
        ``gates()`` and ``c`` of its output raise ``ValueError``.
        """
        X, unbatched, h0, c0, callers = self._inputs(x, hx)
        if grad and callers:  # backward reads X, and the caller may change x before it runs
            X = X.copy()
        drop = check_bool("train", train) and self.dropout > 0 and self.num_layers > 1
        rng = np.random.default_rng(rng) if drop else None
        layers, inp = [], X
        L, lstm = self.num_layers, self.cell == "lstm"
        seqs = {"h": [], "c": [] if lstm else None, "u": []}
        # A plain stack feeds each layer's h straight to the next: a cell that offers
        # stack_buffers keeps all layers' states in one buffer laid out so (no copies).
        share = getattr(self._cell, "stack_buffers", None)
        zs = share(X, L, self.hidden_size) if share and not (
            self.layer_norm or self.residual or drop) else None
        bufs = [{}] * L if zs is None else [{"z": z} for z in zs]
        for k, kern in enumerate(self.kernels()):
            hseq, cseq, cache = self._cell.forward(kern, inp, h0[k], c0[k] if lstm else None,
                                                   grad, **bufs[k])
            seqs["h"].append(hseq)
            if lstm:
                seqs["c"].append(cseq)
            rec = {"cell": cache, "ln": None, "mask": None}
            u = hseq
            if self.layer_norm:
                u, rec["ln"] = norm.layer_norm(u, self._params[f"ln_weight_l{k}"],
                                               self._params[f"ln_bias_l{k}"])
            if self.residual and k >= 1:
                u = u + inp
            rec["u"] = u
            seqs["u"].append(u)
            layers.append(rec)
            inp = u
            if drop and k < L - 1:
                rec["mask"] = norm.dropout_mask(u.shape, self.dropout, rng, self.dtype)
                inp = u * rec["mask"]
        h_n = np.stack([s[-1] for s in seqs["h"]])
        c_n = np.stack([s[-1] for s in seqs["c"]]) if lstm else None
        y = read_only(layers[-1]["u"])
        if unbatched:
            out = StackOutput(y[:, 0], h_n[:, 0], None if c_n is None else c_n[:, 0])
        else:
            out = StackOutput(y.transpose(1, 0, 2) if self.batch_first else y, h_n, c_n)
        out._seqs = seqs
        out._cache = {"layers": layers, "X": X, "unbatched": unbatched, "cell": self._cell,
                      "grad": bool(grad), "stack": self, "version": self._version}
        return out

    __call__ = forward

    # ------------------------------------------------------------------ backward
    def backward(self, out: StackOutput, grad_output, grad_h_n=None, grad_c_n=None) -> Gradients:
        """Hand-written BPTT through time and down the stack; returns every gradient."""
        from stacklib.numpy.backward import stack_backward

        return stack_backward(self, out, grad_output, grad_h_n, grad_c_n)

    def __repr__(self):
        extras = "".join(f", {n}=True" for n in ("residual", "layer_norm") if getattr(self, n))
        return (f"StackedRNN({self.input_size}, {self.hidden_size}, num_layers={self.num_layers}, "
                f"cell={self.cell!r}, dropout={self.dropout}{extras}, dtype={self.dtype})")
