"""The fast stack every experiment trains: token embedding -> L recurrent layers -> readout.

The recurrent part is described by stacklib's one ``StackConfig`` (its input is the embedding);
``LMConfig`` adds what a language model has around it: the vocabulary, dropout on the
non-recurrent connections and the forget gate's starting bias.

Each layer is its own single-layer ``torch.nn.RNN``, ``GRU`` or ``LSTM`` (torch's fast kernels),
so every layer's states are at hand for the probes and analyses. Without residual connections
and dropout the stack computes what ``torch.nn.LSTM(num_layers=L)`` computes, bit for bit, from
the same initial weights. With ``residual`` layer l >= 2 adds its input to its output,
x^[l+1] = h^[l] + x^[l], as stacklib's ``residual`` option does. The next token's logits are a
linear readout of the top layer's output: logits_t = W u^[L]_t + b.

Dropout, in training only, acts where Zaremba et al. (2014) put it, on the connections that do
not run through time: the embedding entering layer 1, and each layer's own output before it is
handed on (upward, or to the readout). In a residual stack that is the branch before the sum,
x^[l+1] = D(h^[l]) + x^[l], never the skip path, so a layer's input reaches the top undropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from stacklib._validate import check_int, check_probability
from stacklib.config import CELLS, StackConfig, torch_nn_class


@dataclass(frozen=True)
class LMConfig:
    """A character (or token) language model around a recurrent stack.

    Args:
        vocab_size: tokens the embedding reads and the readout scores.
        stack: the recurrent layers; ``stack.input_size`` is the embedding's size. It must be
            batch-first (the model reads ids as (B, T)), without layer norm, and without its
            own dropout (``dropout`` below says where the model drops).
        dropout: probability of zeroing an entry of the embedding and of each layer's output,
            in training (see the module's docstring). Default: 0.
        forget_bias: None keeps torch's initial biases (the forget gate's two summed biases
            then start near 0); a number starts that sum at it: ``bias_ih``'s forget slice is
            set to it and ``bias_hh``'s to 0. Only for cells with a forget gate. Default: None.

    Raises ``TypeError`` or ``ValueError`` naming the argument, like ``StackConfig``.
    """

    vocab_size: int
    stack: StackConfig
    dropout: float = 0.0
    forget_bias: float | None = None

    def __post_init__(self):
        object.__setattr__(self, "vocab_size", check_int("vocab_size", self.vocab_size))
        if not isinstance(self.stack, StackConfig):
            raise TypeError(f"stack: expected a StackConfig, got {type(self.stack).__name__}")
        if not self.stack.batch_first:
            raise ValueError("stack.batch_first: the model reads ids as (B, T); expected True")
        if self.stack.layer_norm:
            raise ValueError("stack.layer_norm: torch.nn's layers have none; expected False")
        if self.stack.dropout:
            raise ValueError(f"stack.dropout: the model drops on its own connections; set "
                             f"LMConfig.dropout instead, got {self.stack.dropout}")
        object.__setattr__(self, "dropout", check_probability("dropout", self.dropout))
        if self.forget_bias is not None:
            if isinstance(self.forget_bias, bool) or not isinstance(self.forget_bias,
                                                                    int | float):
                raise TypeError(f"forget_bias: expected a number or None, got "
                                f"{type(self.forget_bias).__name__}")
            if "f" not in CELLS[self.stack.cell].gate_names:
                raise ValueError(f"forget_bias: cell {self.stack.cell!r} has no forget gate, "
                                 f"got {self.forget_bias}")
            object.__setattr__(self, "forget_bias", float(self.forget_bias))

    @classmethod
    def of(cls, vocab_size: int, embed_size: int = 64, hidden_size: int = 128,
           num_layers: int = 1, *, cell: str = "lstm", residual: bool = False,
           dropout: float = 0.0, forget_bias: float | None = None) -> LMConfig:
        """The model from its flat description (the inverse of ``flat``; a record from before
        ``dropout`` and ``forget_bias`` existed had neither, their defaults)."""
        return cls(vocab_size, StackConfig(embed_size, hidden_size, num_layers, cell=cell,
                                           residual=residual, batch_first=True),
                   dropout, forget_bias)

    def flat(self) -> dict:
        """What a record stores: every field that shapes the model, in one flat dict."""
        s = self.stack
        return {"vocab_size": self.vocab_size, "embed_size": s.input_size,
                "hidden_size": s.hidden_size, "num_layers": s.num_layers, "cell": s.cell,
                "residual": s.residual, "dropout": self.dropout,
                "forget_bias": self.forget_bias}

    def replace(self, **flat_changes) -> LMConfig:
        """A copy with some of ``flat``'s fields changed (validated again)."""
        return LMConfig.of(**{**self.flat(), **flat_changes})

    # the stack's fields, read through (the model's shape is the stack's)
    embed_size = property(lambda self: self.stack.input_size)
    hidden_size = property(lambda self: self.stack.hidden_size)
    num_layers = property(lambda self: self.stack.num_layers)
    cell = property(lambda self: self.stack.cell)
    residual = property(lambda self: self.stack.residual)


# Per layer: (h, c) for an LSTM, h for a GRU or RNN; each (1, B, H).
State = list[Tensor | tuple[Tensor, Tensor]]


class LM(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        if not isinstance(cfg, LMConfig):
            raise TypeError(f"cfg: expected an LMConfig, got {type(cfg).__name__}")
        self.cfg = cfg
        stack = cfg.stack
        layer = torch_nn_class(stack.cell)
        self.embed = nn.Embedding(cfg.vocab_size, stack.input_size)
        self.layers = nn.ModuleList(  # layer k alone, as torch.nn describes it
            layer(**stack.replace(input_size=stack.layer_input_size(k), num_layers=1,
                                  residual=False).torch_kwargs())
            for k in range(stack.num_layers))
        self.readout = nn.Linear(stack.hidden_size, cfg.vocab_size)
        self.drop = nn.Dropout(cfg.dropout)
        if cfg.forget_bias is not None:
            self._start_forget_gate(cfg.forget_bias)

    @torch.no_grad()
    def _start_forget_gate(self, value: float) -> None:
        """The forget gate's summed bias starts at ``value``: one vector holds it, the other 0."""
        H = self.cfg.hidden_size
        f = CELLS[self.cfg.cell].gate_names.index("f")
        for layer in self.layers:
            layer.bias_ih_l0[f * H:(f + 1) * H] = value
            layer.bias_hh_l0[f * H:(f + 1) * H] = 0.0

    def _dropped(self, x: Tensor) -> Tensor:
        # p = 0 skips the module: it would still draw from the generator in training
        return self.drop(x) if self.cfg.dropout else x

    def run(self, ids: Tensor, state: State | None = None
            ) -> tuple[list[Tensor], list[Tensor], State]:
        """Over ``ids`` (B, T): every layer's hidden state h^[l] and output u^[l] (what it
        hands upward; u = h without residual connections and dropout), each (B, T, H), and
        the final state."""
        x = self._dropped(self.embed(ids))                    # (B, T, E)
        hidden, outputs, new_state = [], [], []
        for k, layer in enumerate(self.layers):
            h, last = layer(x, None if state is None else state[k])
            a = self._dropped(h)
            x = a + x if self.cfg.residual and k >= 1 else a  # (B, T, H)
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

