"""The fast stack every experiment trains: token embedding -> L recurrent layers -> readout.

Each layer is its own single-layer ``torch.nn.RNN``, ``GRU`` or ``LSTM`` (torch's fast kernels),
so every layer's states are at hand for the probes and analyses. Without residual connections
the stack computes what ``torch.nn.LSTM(num_layers=L)`` computes, bit for bit, from the same
initial weights. With ``residual=True`` layer l >= 2 adds its input to its output,
x^[l+1] = h^[l] + x^[l], as stacklib's ``residual`` option does. The next token's logits are a
linear readout of the top layer's output: logits_t = W u^[L]_t + b.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch import Tensor, nn

CELL_NAMES = ("rnn", "gru", "lstm")  # torch.nn's layer of each is its name in capitals


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int
    embed_size: int = 64
    hidden_size: int = 128
    num_layers: int = 1
    residual: bool = False
    cell: str = "lstm"

    def __post_init__(self):
        for name in ("vocab_size", "embed_size", "hidden_size", "num_layers"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name}: expected an int, got {value!r}")
            if value < 1:
                raise ValueError(f"{name}: expected an integer >= 1, got {value}")
        if not isinstance(self.residual, bool):
            raise TypeError(f"residual: expected a bool, got {self.residual!r}")
        if self.cell not in CELL_NAMES:
            raise ValueError(f"cell: expected one of {', '.join(CELL_NAMES)}, got {self.cell!r}")


# Per layer: (h, c) for an LSTM, h for a GRU or RNN; each (1, B, H).
State = list[Tensor | tuple[Tensor, Tensor]]


class LM(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        layer = getattr(nn, cfg.cell.upper())
        self.embed = nn.Embedding(cfg.vocab_size, cfg.embed_size)
        sizes = [cfg.embed_size] + [cfg.hidden_size] * (cfg.num_layers - 1)
        self.layers = nn.ModuleList(layer(n, cfg.hidden_size, batch_first=True) for n in sizes)
        self.readout = nn.Linear(cfg.hidden_size, cfg.vocab_size)

    def run(self, ids: Tensor, state: State | None = None
            ) -> tuple[list[Tensor], list[Tensor], State]:
        """Over ``ids`` (B, T): every layer's hidden state h^[l] and output u^[l] (what it
        hands upward; u = h without residual connections), each (B, T, H), and the final
        state."""
        x = self.embed(ids)                                   # (B, T, E)
        hidden, outputs, new_state = [], [], []
        for k, layer in enumerate(self.layers):
            h, last = layer(x, None if state is None else state[k])
            x = h + x if self.cfg.residual and k >= 1 else h  # (B, T, H)
            hidden.append(h)
            outputs.append(x)
            new_state.append(last)
        return hidden, outputs, new_state

    def forward(self, ids: Tensor, state: State | None = None) -> tuple[Tensor, State]:
        """Next-token logits (B, T, V) and the state to carry into the next chunk."""
        _, outputs, state = self.run(ids, state)
        return self.readout(outputs[-1]), state


def detach(state: State) -> State:
    """The state without its history: truncated BPTT carries values, not gradients."""
    return [tuple(s.detach() for s in last) if isinstance(last, tuple) else last.detach()
            for last in state]


def parameter_count(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
