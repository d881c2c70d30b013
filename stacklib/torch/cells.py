"""Three explicit recurrent cells with torch.nn's parameter names, shapes and gate orders.

Each cell owns one layer's parameters and computes ONE time step for a batch:

    weight_ih: (G*H, in)   weight_hh: (G*H, H)   bias_ih: (G*H,)   bias_hh: (G*H,)

with G = 1 (RNN), 3 (GRU, blocks r, z, n) or 4 (LSTM, blocks i, f, g, o), exactly as in
``torch.nn.RNN/GRU/LSTM``, so weights copy across without any reordering.

All cells share one calling convention so that the stack can be cell-agnostic:

    state = cell(x, state)      x: (B, in), state: tuple of (B, H) tensors, state[0] is h

The state tuple is ``(h,)`` for RNN and GRU and ``(h, c)`` for LSTM.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from stacklib._validate import NONLINEARITIES


class _Cell(nn.Module):
    """Shared parameter bookkeeping. Subclasses set ``gates`` and implement ``forward``."""

    gates: int = 1
    state_size: int = 1  # number of (B, H) tensors in the recurrent state

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        G, H = self.gates, hidden_size
        self.weight_ih = nn.Parameter(torch.empty(G * H, input_size))
        self.weight_hh = nn.Parameter(torch.empty(G * H, H))
        if bias:
            self.bias_ih = nn.Parameter(torch.empty(G * H))
            self.bias_hh = nn.Parameter(torch.empty(G * H))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Same as torch.nn: every parameter ~ U(-1/sqrt(H), 1/sqrt(H))."""
        bound = 1.0 / math.sqrt(self.hidden_size)
        for p in self.parameters():
            nn.init.uniform_(p, -bound, bound)

    def init_state(
        self, batch: int, dtype: torch.dtype, device: torch.device
    ) -> tuple[Tensor, ...]:
        h = torch.zeros(batch, self.hidden_size, dtype=dtype, device=device)
        return tuple(h.clone() for _ in range(self.state_size))

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}, bias={self.bias}"


class RNNCell(_Cell):
    """Elman cell: h' = act(W_ih x + b_ih + W_hh h + b_hh), act in tanh | relu | linear."""

    gates = 1

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh"
    ) -> None:
        if nonlinearity not in NONLINEARITIES:
            raise ValueError(
                f"nonlinearity: expected one of {NONLINEARITIES}, got {nonlinearity!r}"
            )
        super().__init__(input_size, hidden_size, bias)
        self.nonlinearity = nonlinearity

    def forward(self, x: Tensor, state: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        (h,) = state                                           # (B, H)
        pre = F.linear(x, self.weight_ih, self.bias_ih) + F.linear(
            h, self.weight_hh, self.bias_hh
        )                                                      # (B, H)
        if self.nonlinearity == "tanh":
            return (torch.tanh(pre),)
        if self.nonlinearity == "relu":
            return (torch.relu(pre),)
        return (pre,)                                          # linear

    def extra_repr(self) -> str:
        return super().extra_repr() + f", nonlinearity={self.nonlinearity!r}"


class GRUCell(_Cell):
    """GRU cell, torch convention (reset gate applied after the recurrent matmul):

    r = σ(W_ir x + b_ir + W_hr h + b_hr)
    z = σ(W_iz x + b_iz + W_hz h + b_hz)
    n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
    h' = (1 - z) * n + z * h
    """

    gates = 3

    def forward(self, x: Tensor, state: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        (h,) = state                                           # (B, H)
        gi = F.linear(x, self.weight_ih, self.bias_ih)         # (B, 3H) blocks r, z, n
        gh = F.linear(h, self.weight_hh, self.bias_hh)         # (B, 3H)
        i_r, i_z, i_n = gi.chunk(3, dim=-1)                    # each (B, H)
        h_r, h_z, h_n = gh.chunk(3, dim=-1)                    # each (B, H)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return ((1.0 - z) * n + z * h,)                        # (B, H)


class LSTMCell(_Cell):
    """LSTM cell, torch gate order (i, f, g, o):

    i, f, o = σ(·), g = tanh(·) of W_ih x + b_ih + W_hh h + b_hh (one block each)
    c' = f * c + i * g
    h' = o * tanh(c')
    """

    gates = 4
    state_size = 2

    def forward(self, x: Tensor, state: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
        h, c = state                                           # each (B, H)
        pre = F.linear(x, self.weight_ih, self.bias_ih) + F.linear(
            h, self.weight_hh, self.bias_hh
        )                                                      # (B, 4H) blocks i, f, g, o
        i, f, g, o = pre.chunk(4, dim=-1)                      # each (B, H)
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c = f * c + i * g                                      # (B, H)
        h = o * torch.tanh(c)                                  # (B, H)
        return (h, c)


CELLS: dict[str, type[_Cell]] = {"rnn": RNNCell, "gru": GRUCell, "lstm": LSTMCell}
