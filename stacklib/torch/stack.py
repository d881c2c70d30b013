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

import numpy as np
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from stacklib._validate import as_array, check_state
from stacklib.config import (
    LN_EPS,
    ConfigFields,
    StackConfig,
    check_unsupported,
    param_name,
    torch_nn_class,
    warn_idle_dropout,
)

from ._checks import check_hx, check_input
from .cells import cell_step


class StackedRNN(ConfigFields, nn.Module):
    """A stack of ``num_layers`` RNN, GRU or LSTM layers: ``torch.nn.RNN/GRU/LSTM``'s
    interface, parameters and results, written as the two loops of the lecture, plus stacklib's
    ``residual`` and ``layer_norm`` variants.

    Args:
        input_size, hidden_size, num_layers, cell, nonlinearity, bias, batch_first, dropout,
        residual, layer_norm: the stack's ``StackConfig`` (see there).
        bidirectional, proj_size: torch.nn's, refused unless False and 0.
        device, dtype: torch.nn's factory arguments.

    Inputs: x, hx
        x: (T, B, input_size), (B, T, input_size) with ``batch_first``, or unbatched
            (T, input_size), of the module's dtype.
        hx: h0, or (h0, c0) for an LSTM, each (num_layers, B, hidden_size) ((num_layers,
            hidden_size) unbatched). Default: zeros.

    Outputs: ``(output, h_n)``, or ``(output, (h_n, c_n))`` for an LSTM, as torch.nn's.

    Parameters are registered under torch.nn's names (``weight_ih_l0``, ``weight_hh_l0``,
    ``bias_ih_l0``, ...; with ``layer_norm`` also ``ln_weight_l{k}`` and ``ln_bias_l{k}``), so
    ``state_dict()`` has exactly ``torch.nn.LSTM``'s keys and loads its state dict.

    Examples::

        >>> _ = torch.manual_seed(0)
        >>> reference = nn.LSTM(10, 20, 2)
        >>> stack = StackedRNN(10, 20, 2)
        >>> stack.load_state_dict(reference.state_dict())
        <All keys matched successfully>
        >>> x = torch.randn(5, 3, 10)
        >>> output, (h_n, c_n) = stack(x)
        >>> output.shape, torch.allclose(output, reference(x)[0], atol=1e-6)
        (torch.Size([5, 3, 20]), True)
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, *,
                 cell: str = "lstm", nonlinearity: str = "tanh", bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, residual: bool = False,
                 layer_norm: bool = False, bidirectional: bool = False, proj_size: int = 0,
                 device: torch.device | str | None = None,
                 dtype: torch.dtype | None = None) -> None:
        check_unsupported(bidirectional, proj_size)
        config = StackConfig(input_size, hidden_size, num_layers, cell=cell,
                             nonlinearity=nonlinearity, bias=bias, batch_first=batch_first,
                             dropout=dropout, residual=residual, layer_norm=layer_norm)
        self._setup(config, device=device, dtype=dtype)
        warn_idle_dropout(config)

    def _setup(self, config: StackConfig, device=None, dtype=None) -> None:
        super().__init__()  # nn.Module's
        if dtype is not None and not (isinstance(dtype, torch.dtype) and dtype.is_floating_point):
            raise TypeError(f"dtype: expected a floating torch.dtype, got {dtype!r}")
        self.config = cfg = config
        for name, shape in cfg.param_shapes().items():
            self.register_parameter(name, nn.Parameter(torch.empty(shape, device=device,
                                                                   dtype=dtype)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """torch.nn's initialisation (``StackConfig.initial_constant``), from torch's RNG."""
        cfg = self.config
        for name, p in self.named_parameters():
            constant = cfg.initial_constant(name)
            if constant is not None:
                nn.init.constant_(p, constant)
            else:
                nn.init.uniform_(p, -cfg.init_bound, cfg.init_bound)

    def _layer(self, k: int) -> tuple:
        """Layer k's weight_ih, weight_hh, bias_ih, bias_hh (biases None without bias)."""
        return tuple(getattr(self, name, None) for name in self.config.layer_params(k))

    # ------------------------------------------------------------------ forward
    def forward(self, x: Tensor, hx: Tensor | tuple[Tensor, Tensor] | None = None):
        cfg = self.config
        L, H, dtype = cfg.num_layers, cfg.hidden_size, self.weight_ih_l0.dtype
        x, batched = check_input(x, cfg, dtype)            # (T, B, in)
        T, B, _ = x.shape
        if hx is None:                                     # zeros: one memory per layer
            zeros = x.new_zeros(L, B, H)
            hx = [zeros, zeros] if cfg.cell_state else [zeros]
        else:
            hx = check_hx(hx, cfg, B, batched, dtype)      # each (L, B, H)
        state = [tuple(s[l] for s in hx) for l in range(L)]  # state[l]: (h,) or (h, c)

        outputs = []
        for t in range(T):                                 # one loop over time ...
            inp = x[t]                                     # x^[1]_t: (B, in)
            for l in range(L):                             # ... one climb over the layers
                state[l] = cell_step(cfg, inp, state[l], self._layer(l))
                a = state[l][0]                            # h^[l]_t: (B, H)
                if cfg.layer_norm:
                    a = F.layer_norm(a, (H,), getattr(self, param_name("ln_weight", l)),
                                     getattr(self, param_name("ln_bias", l)), LN_EPS)
                u = a + inp if cfg.residual and l > 0 else a  # u^[l]_t: (B, H)
                if l < L - 1:                              # x^[l+1]_t: (B, H)
                    inp = F.dropout(u, cfg.dropout, self.training)
                else:
                    inp = u                                # the top is never dropped
            outputs.append(inp)                            # y_t = u^[L]_t: (B, H)

        output = torch.stack(outputs)                      # (T, B, H)
        h_n = torch.stack([s[0] for s in state])           # (L, B, H)
        c_n = torch.stack([s[1] for s in state]) if cfg.cell_state else None
        if not batched:
            output, h_n = output.squeeze(1), h_n.squeeze(1)  # (T, H), (L, H)
            c_n = c_n.squeeze(1) if c_n is not None else None
        elif cfg.batch_first:
            output = output.transpose(0, 1)                # (B, T, H)
        return (output, (h_n, c_n)) if cfg.cell_state else (output, h_n)

    # ------------------------------------------------------------------ state dicts
    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """torch.nn's, after checking the whole state dict first (strict: exactly the keys of
        ``state_dict()``; every value real, finite and of its parameter's shape; NumPy arrays
        accepted): a ``TypeError`` or ``ValueError`` naming the key, and nothing loaded."""
        if strict:
            def convert(key, value):  # checked as float64 (the widest); copy_ then converts
                checked = as_array(key, value, np.float64, cast=True)
                return value if isinstance(value, Tensor) else torch.from_numpy(checked)

            own = {k: tuple(p.shape) for k, p in self.named_parameters()}
            state_dict = check_state("state_dict", state_dict, own,
                                     f"this module ({self.config})", convert)
        return super().load_state_dict(state_dict, strict=strict, assign=assign)

    # ------------------------------------------------------------------ torch.nn
    @classmethod
    def from_torch(cls, module: nn.Module) -> StackedRNN:
        """A StackedRNN with the configuration, weights, device, dtype and mode of a
        ``torch.nn.RNN/GRU/LSTM`` (or of another stacklib.torch.StackedRNN)."""
        config = StackConfig.of(module)
        ref = next(module.parameters())
        stack = cls.__new__(cls)  # not warned again: torch warned when the module was built
        stack._setup(config, device=ref.device, dtype=ref.dtype)
        stack.load_state_dict(module.state_dict())
        return stack.train(module.training)

    def to_torch(self) -> nn.RNNBase:
        """The ``torch.nn.RNN/GRU/LSTM`` with identical configuration, weights and mode (plain
        stacks only: torch.nn has no residual or layer-norm option)."""
        ref = self.weight_ih_l0
        module = torch_nn_class(self.config.cell)(**self.config.torch_kwargs(),
                                                  dtype=ref.dtype, device=ref.device)
        module.load_state_dict(self.state_dict())
        return module.train(self.training)

    def extra_repr(self) -> str:
        return str(self.config)
