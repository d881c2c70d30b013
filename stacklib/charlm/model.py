"""A character-level language model: embedding -> stacked LSTM -> linear readout.

Each layer is its own single-layer ``torch.nn.LSTM``, so every layer's states are at hand (the
timescale and gradient analyses read them); without residual connections the stack computes
exactly what ``torch.nn.LSTM(num_layers=L)`` computes. With ``residual=True`` layer l >= 2 adds
its input to its output, x^[l+1] = h^[l] + x^[l], the stack of ``stacklib``'s ``residual``
option. The prediction for the next character is a linear readout of the top layer's output:
logits_t = W u^[L]_t + b.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch import Tensor, nn


@dataclass(frozen=True)
class ModelConfig:
    vocab_size: int
    embed_size: int = 64
    hidden_size: int = 128
    num_layers: int = 1
    residual: bool = False

    def __post_init__(self):
        for name in ("vocab_size", "embed_size", "hidden_size", "num_layers"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected an integer >= 1, got {value!r}")
        if not isinstance(self.residual, bool):
            raise TypeError(f"residual: expected a bool, got {self.residual!r}")


State = list[tuple[Tensor, Tensor]]  # per layer (h, c), each (1, B, H)


class CharLM(nn.Module):
    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.embed_size)
        sizes = [cfg.embed_size] + [cfg.hidden_size] * (cfg.num_layers - 1)
        self.layers = nn.ModuleList(nn.LSTM(n, cfg.hidden_size, batch_first=True) for n in sizes)
        self.readout = nn.Linear(cfg.hidden_size, cfg.vocab_size)

    def run(self, ids: Tensor, state: State | None = None
            ) -> tuple[list[Tensor], list[Tensor], State]:
        """Over ``ids`` (B, T): every layer's hidden state h^[l] and output u^[l] (what it
        hands upward; u = h without residual connections), each (B, T, H), and the final
        state."""
        x = self.embed(ids)                                   # (B, T, E)
        hidden, outputs, new_state = [], [], []
        for k, layer in enumerate(self.layers):
            h, hc = layer(x, None if state is None else state[k])
            x = h + x if self.cfg.residual and k >= 1 else h  # (B, T, H)
            hidden.append(h)
            outputs.append(x)
            new_state.append(hc)
        return hidden, outputs, new_state

    def forward(self, ids: Tensor, state: State | None = None) -> tuple[Tensor, State]:
        """Next-character logits (B, T, V) and the state to carry into the next chunk."""
        _, outputs, state = self.run(ids, state)
        return self.readout(outputs[-1]), state


def detach(state: State) -> State:
    """The state without its history: truncated BPTT carries values, not gradients."""
    return [(h.detach(), c.detach()) for h, c in state]


def count_model_params(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())
