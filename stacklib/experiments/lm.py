"""A small next-word language model on the agreement language, its training and evaluation.

Model: Embedding(V, E) -> torch.nn.LSTM/GRU/RNN(E, H, num_layers) -> Linear(H, V), trained with
cross-entropy on every word (Adam, gradient clipping, fixed seeds). With residual=True the stack
is one single-layer torch module per layer and x^[l+1] = h^[l] + x^[l] from layer 2 on (the
contract's residual semantics, no layer norm). Agreement accuracy at the
main verb: the model is right when it scores the verb with the subject's number above the same
verb with the other number (chance = 0.5).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from stacklib import data
from stacklib.config import StackConfig, param_name, torch_nn_class
from stacklib.experiments.common import threads
from stacklib.numpy import StackedRNN


@dataclass(frozen=True)
class TrainConfig:
    cell: str = "lstm"
    num_layers: int = 3
    hidden_size: int = 32
    embed_size: int = 24
    steps: int = 600
    batch_size: int = 32
    lr: float = 0.01
    n_train: int = 4000       # sentences drawn from the training split
    n_heldout: int = 1000
    data_seed: int = 0        # the language sample (splits)
    seed: int = 0             # init, batch order and training subsample
    threads: int = 1
    residual: bool = False
    curve_every: int = 0      # > 0: held-out agreement every so many steps (n_curve sentences)
    n_curve: int = 300
    stop_at: float = 0.0      # > 0: stop once two consecutive curve points reach it

    def stack(self) -> StackConfig:
        """The recurrent stack the model trains: it reads embeddings, batch-first."""
        return StackConfig(self.embed_size, self.hidden_size, self.num_layers, cell=self.cell,
                           batch_first=True, residual=self.residual)


class ResidualStack(nn.Module):
    """Single-layer torch RNNs in a ModuleList with a residual path from layer 2 on."""

    def __init__(self, stack: StackConfig):
        super().__init__()
        self.num_layers = stack.num_layers
        self.layers = nn.ModuleList(
            torch_nn_class(stack.cell)(stack.layer_input_size(k), stack.hidden_size,
                                       batch_first=True) for k in range(stack.num_layers))

    def forward(self, x):
        for k, layer in enumerate(self.layers):
            h = layer(x)[0]
            x = h + x if k >= 1 else h
        return x, None


class LM(nn.Module):
    def __init__(self, cfg: TrainConfig):
        super().__init__()
        self.stack = stack = cfg.stack()
        self.embed = nn.Embedding(len(data.VOCAB), cfg.embed_size)
        if stack.residual:
            self.rnn = ResidualStack(stack)
        else:
            self.rnn = torch_nn_class(stack.cell)(**stack.torch_kwargs())
        self.out = nn.Linear(cfg.hidden_size, len(data.VOCAB))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.rnn(self.embed(x))[0])

    def flat_weights(self) -> dict[str, torch.Tensor]:
        """The stack's weights under the contract's flat names (weight_ih_l{k}, ...)."""
        if isinstance(self.rnn, ResidualStack):  # each layer's own names end in _l0
            return {param_name(name.removesuffix("_l0"), k): p
                    for k, layer in enumerate(self.rnn.layers)
                    for name, p in layer.named_parameters()}
        return dict(self.rnn.named_parameters())


def recurrent_params(model: LM) -> int:
    return sum(p.numel() for p in model.rnn.parameters())


def train_subset(cfg: TrainConfig) -> tuple[data.Sentence, ...]:
    train, _ = data.make_splits(4000, cfg.n_heldout, cfg.data_seed)
    if cfg.n_train >= len(train):
        return train
    idx = np.random.default_rng(cfg.seed + 7).permutation(len(train))[: cfg.n_train]
    return tuple(train[i] for i in sorted(idx))


Trained = tuple[LM, tuple[float, ...], tuple[tuple[int, float], ...]]
_MEMO: dict[TrainConfig, Trained] = {}


def train_lm(cfg: TrainConfig) -> Trained:
    """(model, per-step losses, curve of (step, held-out agreement)), memoised per config.

    Experiments sharing a model train it once per process; `remember` fills the memo with
    models trained elsewhere (a worker process running `train_state`).
    """
    if cfg not in _MEMO:
        _MEMO[cfg] = _train(cfg)
    return _MEMO[cfg]


def train_state(cfg: TrainConfig) -> tuple[dict, tuple[float, ...], tuple, float, float]:
    """Train without memoising: picklable (state_dict as numpy, losses, curve, wall s, CPU s)."""
    start, cpu = time.perf_counter(), time.process_time()
    model, losses, curve = _train(cfg)
    state = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    return state, losses, curve, time.perf_counter() - start, time.process_time() - cpu


def remember(cfg: TrainConfig, state: dict, losses, curve) -> None:
    model = LM(cfg)
    model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    _MEMO[cfg] = (model.eval(), tuple(losses), tuple(curve))


def forget() -> None:
    _MEMO.clear()


def _train(cfg: TrainConfig) -> Trained:
    with threads(cfg.threads):
        torch.manual_seed(cfg.seed)
        model = LM(cfg)
        sents = train_subset(cfg)
        x_all, y_all = (torch.from_numpy(a) for a in data.batch(sents))
        opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, fused=True)
        lossf = nn.CrossEntropyLoss(ignore_index=data.PAD)
        rng = np.random.default_rng(cfg.seed)
        curve_set = data.make_splits(4000, cfg.n_heldout, cfg.data_seed)[1][: cfg.n_curve]
        losses, curve = [], []
        for step in range(1, cfg.steps + 1):
            idx = torch.from_numpy(rng.integers(0, len(sents), cfg.batch_size))
            x, y = x_all[idx], y_all[idx]
            t = int((y != data.PAD).sum(1).max())
            logits = model(x[:, :t])
            loss = lossf(logits.reshape(-1, logits.shape[-1]), y[:, :t].reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0, foreach=True)
            opt.step()
            losses.append(loss.item())
            if cfg.curve_every and step % cfg.curve_every == 0:
                model.eval()
                curve.append((step, evaluate(model, curve_set, cfg.threads)["agreement"]))
                model.train()
                if cfg.stop_at and len(curve) >= 2 and min(a for _, a in curve[-2:]) >= cfg.stop_at:
                    break
        model.eval()
    return model, tuple(losses), tuple(curve)


@torch.no_grad()
def evaluate(model: LM, sentences, n_threads: int = 1) -> dict:
    """Agreement accuracy (all sentences, mismatched-attractor ones) and mean token loss."""
    with threads(n_threads):
        x, y = (torch.from_numpy(a) for a in data.batch(sentences))
        logits = model(x)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1),
                                           ignore_index=data.PAD)
        rows = torch.arange(len(sentences))
        pos = torch.tensor([s.verb_index for s in sentences])
        right = torch.tensor([data.WORD_TO_ID[s.tokens[s.verb_index]] for s in sentences])
        wrong = torch.tensor([data.WORD_TO_ID[s.wrong_verb] for s in sentences])
        at = logits[rows, pos]
        ok = (at[rows, right] > at[rows, wrong]).numpy()
    mism = np.array([s.mismatch for s in sentences])
    return {"agreement": float(ok.mean()),
            "agreement_mismatch": float(ok[mism].mean()) if mism.any() else float("nan"),
            "n": len(sentences), "n_mismatch": int(mism.sum()), "loss": float(loss)}


@torch.no_grad()
def layer_states(model: LM, sentences) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Every layer's state after reading each word: h (L, B, T, H), c or None, mask (B, T).

    Layer 0 of the returned embeddings is not included (see `embeddings`).
    """
    x, _ = data.batch(sentences)
    full = np.concatenate([x, np.full((len(sentences), 1), data.PAD)], axis=1)
    for b, s in enumerate(sentences):
        full[b, len(s.tokens)] = data.WORD_TO_ID[s.tokens[-1]]
    emb = model.embed(torch.from_numpy(full)).numpy()  # (B, T, E)
    weights = {k: v.detach().numpy() for k, v in model.flat_weights().items()}
    stack = StackedRNN.from_config(model.stack, dtype=emb.dtype)  # the NumPy reference
    stack.load_state_dict(weights)
    out = stack(emb)  # out.h: (L, T, B, H), every layer at every step
    h = out.h.transpose(0, 2, 1, 3)[:, :, 1:]
    c = out.c.transpose(0, 2, 1, 3)[:, :, 1:] if out.c is not None else None
    mask = np.zeros((len(sentences), full.shape[1] - 1), dtype=bool)
    for b, s in enumerate(sentences):
        mask[b, : len(s.tokens)] = True
    return h, c, mask


@torch.no_grad()
def embeddings(model: LM, sentences) -> np.ndarray:
    """Word embeddings (B, T, E) of each word (the input 'layer 0')."""
    t = max(len(s.tokens) for s in sentences)
    ids = np.full((len(sentences), t), data.PAD)
    for b, s in enumerate(sentences):
        ids[b, : len(s.tokens)] = data.encode(s.tokens)
    return model.embed(torch.from_numpy(ids)).numpy()
