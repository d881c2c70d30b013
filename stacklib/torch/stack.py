"""StackedRNN: one cell-agnostic skeleton for deep (stacked) RNN, GRU and LSTM networks.

The whole idea of depth fits in two nested loops: one loop over time, and at every time step one
climb over the layers, where the output of layer l is the input of layer l + 1:

    for t in 1..T:                   x^[1]_t = x_t
        for l in 1..L:
            h^[l]_t (, c^[l]_t) = Cell^[l](x^[l]_t, h^[l]_{t-1} (, c^[l]_{t-1}))
            a^[l]_t = LayerNorm(h^[l]_t)            if layer_norm  else h^[l]_t
            u^[l]_t = a^[l]_t + x^[l]_t             if residual and l >= 2  else a^[l]_t
            x^[l+1]_t = Dropout(u^[l]_t)            for l < L (training only)
        y_t = u^[L]_t

With residual=False, layer_norm=False (and dropout=0 or eval mode) this is exactly
torch.nn.RNN / GRU / LSTM with num_layers=L: same parameter names, shapes and results.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from stacklib._validate import LN_EPS, as_float_array, check_state

from ._checks import check_config, check_hx, check_input
from .cells import CELLS

_TORCH_NN = {"rnn": nn.RNN, "gru": nn.GRU, "lstm": nn.LSTM}


class StackedRNN(nn.Module):
    """A stack of ``num_layers`` recurrent cells (``cell`` in "rnn", "gru", "lstm").

    forward(x, hx=None) returns ``(output, (h_n, c_n))`` for LSTM and ``(output, h_n)`` otherwise,
    with torch.nn's shapes: x (T, B, in), or (B, T, in) if batch_first, or unbatched (T, in).
    ``state_dict()`` uses the module's own names (``cells.0.weight_ih``, ...);
    ``flat_state_dict()`` / ``load_flat_state_dict()`` speak torch.nn's (``weight_ih_l0``, ...).
    ``device`` and ``dtype`` are torch.nn's factory arguments. Not supported: ``bidirectional``,
    ``proj_size``.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        *,
        cell: str = "lstm",
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        residual: bool = False,
        layer_norm: bool = False,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        flags = dict(bias=bias, batch_first=batch_first, residual=residual, layer_norm=layer_norm)
        check_config(input_size, hidden_size, num_layers, cell, nonlinearity, dropout, flags)
        self.input_size = int(input_size)
        self.hidden_size = H = int(hidden_size)
        self.num_layers = L = int(num_layers)
        self.cell = cell
        self.nonlinearity = nonlinearity
        self.bias = bool(bias)
        self.batch_first = bool(batch_first)
        self.dropout = float(dropout)
        self.residual = bool(residual)
        self.layer_norm = bool(layer_norm)

        extra = {"nonlinearity": nonlinearity} if cell == "rnn" else {}
        fan_in = [self.input_size] + [H] * (L - 1)  # layer 1 reads x, layer l >= 2 reads x^[l]
        self.cells = nn.ModuleList(CELLS[cell](n, H, bias, **extra) for n in fan_in)
        self.norms = (
            nn.ModuleList(nn.LayerNorm(H, eps=LN_EPS) for _ in range(L)) if layer_norm else None
        )
        if device is not None or dtype is not None:  # torch.nn's factory arguments
            floating = isinstance(dtype, torch.dtype) and dtype.is_floating_point
            if dtype is not None and not floating:
                raise ValueError(f"dtype: expected a floating torch.dtype, got {dtype!r}")
            self.to(device=device, dtype=dtype)

    # ------------------------------------------------------------------ forward
    def forward(self, x: Tensor, hx: Tensor | tuple[Tensor, Tensor] | None = None):
        L, H = self.num_layers, self.hidden_size
        dtype = self.cells[0].weight_ih.dtype
        x, batched = check_input(x, self.input_size, self.batch_first, dtype)  # (T, B, in)
        T, B, _ = x.shape

        # state[l] = (h^[l],) or (h^[l], c^[l]), each (B, H); zeros unless hx is given
        if hx is None:
            state = [c.init_state(B, x.dtype, x.device) for c in self.cells]
        else:
            h0s = check_hx(hx, self.cell, L, B, H, batched, dtype)  # each (L, B, H)
            state = [tuple(s[l] for s in h0s) for l in range(L)]

        outputs = []
        for t in range(T):                                 # one loop over time ...
            inp = x[t]                                     # x^[1]_t: (B, in)
            for l, cell in enumerate(self.cells):          # ... one climb over the layers
                state[l] = cell(inp, state[l])             # h^[l]_t (, c^[l]_t): (B, H)
                a = state[l][0]                            # (B, H)
                if self.norms is not None:
                    norm = self.norms[l]
                    a = F.layer_norm(a, (H,), norm.weight, norm.bias, LN_EPS)
                u = a + inp if self.residual and l > 0 else a  # (B, H)
                if l < L - 1:                              # x^[l+1]_t: (B, H)
                    inp = F.dropout(u, self.dropout, self.training)
                else:
                    inp = u                                # the top is never dropped
            outputs.append(inp)                            # y_t = u^[L]_t: (B, H)

        output = torch.stack(outputs)                      # (T, B, H)
        h_n = torch.stack([s[0] for s in state])           # (L, B, H)
        c_n = torch.stack([s[1] for s in state]) if self.cell == "lstm" else None
        if not batched:
            output, h_n = output.squeeze(1), h_n.squeeze(1)  # (T, H), (L, H)
            c_n = c_n.squeeze(1) if c_n is not None else None
        elif self.batch_first:
            output = output.transpose(0, 1)                # (B, T, H)
        return (output, (h_n, c_n)) if self.cell == "lstm" else (output, h_n)

    # ------------------------------------------------------- flat state dicts
    def _flat_params(self) -> dict[str, nn.Parameter]:
        """name -> Parameter, with torch.nn's flat names (weight_ih_l0, ...)."""
        params: dict[str, nn.Parameter] = {}
        for k, cell in enumerate(self.cells):
            params[f"weight_ih_l{k}"] = cell.weight_ih
            params[f"weight_hh_l{k}"] = cell.weight_hh
            if self.bias:
                params[f"bias_ih_l{k}"] = cell.bias_ih
                params[f"bias_hh_l{k}"] = cell.bias_hh
        if self.norms is not None:
            for k, norm in enumerate(self.norms):
                params[f"ln_weight_l{k}"] = norm.weight
                params[f"ln_bias_l{k}"] = norm.bias
        return params

    def flat_state_dict(self) -> dict[str, Tensor]:
        """Copies of all parameters under torch.nn's flat names (plus ln_weight/bias_l{k})."""
        return {k: p.detach().clone() for k, p in self._flat_params().items()}

    def load_flat_state_dict(self, state: Mapping[str, object]) -> None:
        """Load a flat state dict (tensors or numpy arrays), e.g. nn.LSTM(...).state_dict().

        Keys must match exactly and shapes strictly; nothing is loaded if anything is wrong.
        """
        params = self._flat_params()
        values = check_state(
            "state", state, {k: p.shape for k, p in params.items()},
            f"a {self.num_layers}-layer {self.cell!r} stack (bias={self.bias}, "
            f"layer_norm={self.layer_norm})",
            lambda key, v: torch.from_numpy(np.array(as_float_array(key, v, np.float64))))
        with torch.no_grad():
            for key, p in params.items():
                p.copy_(values[key].to(dtype=p.dtype, device=p.device))

    # ----------------------------------------------------- torch.nn bridges
    def to_torch_nn(self) -> nn.RNNBase:
        """An nn.RNN / nn.GRU / nn.LSTM with identical weights (plain stacks only)."""
        if self.residual or self.layer_norm:
            raise ValueError(
                "residual/layer_norm: torch.nn.RNN/GRU/LSTM has neither; expected "
                f"residual=False and layer_norm=False, got residual={self.residual}, "
                f"layer_norm={self.layer_norm}"
            )
        kwargs = {}
        if self.cell == "rnn":
            if self.nonlinearity == "linear":
                raise ValueError(
                    "nonlinearity: torch.nn.RNN supports 'tanh' or 'relu', got 'linear'"
                )
            kwargs["nonlinearity"] = self.nonlinearity
        ref = self.cells[0].weight_ih
        module = _TORCH_NN[self.cell](
            self.input_size,
            self.hidden_size,
            self.num_layers,
            bias=self.bias,
            batch_first=self.batch_first,
            dropout=self.dropout,
            dtype=ref.dtype,
            device=ref.device,
            **kwargs,
        )
        module.load_state_dict(self.flat_state_dict())
        return module.train(self.training)

    @classmethod
    def from_torch_nn(cls, module: nn.Module) -> StackedRNN:
        """Build a StackedRNN with the configuration and weights of nn.RNN / GRU / LSTM."""
        cell = next((c for c, t in _TORCH_NN.items() if isinstance(module, t)), None)
        if cell is None:
            raise ValueError(
                f"module: expected torch.nn.RNN, GRU or LSTM, got {type(module).__name__}"
            )
        if module.bidirectional:
            raise ValueError("module: bidirectional=True is not supported, got a bidirectional one")
        if getattr(module, "proj_size", 0):
            raise ValueError(f"module: proj_size must be 0, got {module.proj_size}")
        ref = module.weight_ih_l0
        stack = cls(
            module.input_size,
            module.hidden_size,
            module.num_layers,
            cell=cell,
            nonlinearity=module.nonlinearity if cell == "rnn" else "tanh",
            bias=module.bias,
            batch_first=module.batch_first,
            dropout=float(module.dropout),
            device=ref.device,
            dtype=ref.dtype,
        )
        stack.load_flat_state_dict(module.state_dict())
        return stack.train(module.training)

    def extra_repr(self) -> str:
        return (
            f"cell={self.cell!r}, input_size={self.input_size}, hidden_size={self.hidden_size}, "
            f"num_layers={self.num_layers}, residual={self.residual}, "
            f"layer_norm={self.layer_norm}, dropout={self.dropout}"
        )
