"""The toy experiments' model: a next-word language model of the agreement language.

Model and training are stacklib.lm's: the fast stack (embedding -> RNN, GRU or LSTM layers ->
readout, residual from layer 2 on if asked) and the one training loop (Adam, gradient clipping
at norm 1, fixed seeds), here on batches of whole sentences drawn at random, each read from a
fresh state, padding not scored. Agreement accuracy at the main verb: the model is right when
it scores the verb with the subject's number above the same verb with the other number
(chance = 0.5).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from stacklib import data
from stacklib.experiments.common import threads
from stacklib.lm.model import LM, LMConfig
from stacklib.lm.states import layer_states as reference_states
from stacklib.lm.text import Batch
from stacklib.lm.train import History, TrainConfig, train

IGNORED = -100  # cross_entropy's ignore_index: the padding after a sentence is not scored


@dataclass(frozen=True)
class AgreementJob:
    """One model to train on the agreement language: its shape, its training, its data."""

    cell: str = "lstm"
    num_layers: int = 3
    hidden_size: int = 32
    embed_size: int = 24
    residual: bool = False
    steps: int = 600          # at most this many training steps
    batch_size: int = 32
    lr: float = 0.01
    n_train: int = 4000       # sentences drawn from the training split
    n_heldout: int = 1000
    data_seed: int = 0        # the language sample (splits)
    seed: int = 0             # init, batch order and training subsample
    threads: int = 1
    curve_every: int = 0      # > 0: held-out agreement every so many steps (n_curve sentences)
    n_curve: int = 300
    stop_at: float = 0.0      # > 0: stop once two curve points in a row reach this agreement

    def __post_init__(self):
        self.model_config(), self.train_config()  # bad values are refused where they are used

    def model_config(self) -> LMConfig:
        return LMConfig.of(len(data.VOCAB), self.embed_size, self.hidden_size, self.num_layers,
                           residual=self.residual, cell=self.cell)

    def train_config(self) -> TrainConfig:
        """The loop's settings: its held-out score is the error rate, 1 - agreement."""
        return TrainConfig(lr=self.lr, batch_size=self.batch_size, max_steps=self.steps,
                           eval_every=self.curve_every,
                           goal=1 - self.stop_at if self.stop_at else None, seed=self.seed,
                           threads=self.threads)


def recurrent_params(model: LM) -> int:
    return sum(p.numel() for p in model.layers.parameters())


def train_subset(job: AgreementJob) -> tuple[data.Sentence, ...]:
    train_split, _ = data.make_splits(4000, job.n_heldout, job.data_seed)
    if job.n_train >= len(train_split):
        return train_split
    idx = np.random.default_rng(job.seed + 7).permutation(len(train_split))[: job.n_train]
    return tuple(train_split[i] for i in sorted(idx))


def sentence_batches(sentences, batch_size: int, seed: int) -> Iterator[Batch]:
    """Batches of sentences drawn with replacement (from ``seed``), cut after the longest."""
    x_all, y_all = (torch.from_numpy(a) for a in data.batch(sentences))
    y_all = y_all.masked_fill(y_all == data.PAD, IGNORED)
    rng = np.random.default_rng(seed)
    while True:
        idx = torch.from_numpy(rng.integers(0, len(sentences), batch_size))
        x, y = x_all[idx], y_all[idx]
        t = int((y != IGNORED).sum(1).max())
        yield x[:, :t], y[:, :t], False


Trained = tuple[LM, History]
_MEMO: dict[AgreementJob, Trained] = {}


def train_lm(job: AgreementJob) -> Trained:
    """(model, history), memoised per job: experiments sharing a model train it once per
    process; ``remember`` fills the memo with models trained elsewhere (a worker process
    running ``train_state``)."""
    if job not in _MEMO:
        _MEMO[job] = _train(job)
    return _MEMO[job]


def train_state(job: AgreementJob) -> tuple[dict, History, float, float]:
    """Train without memoising: picklable (state_dict as numpy, history, wall s, CPU s)."""
    start, cpu = time.perf_counter(), time.process_time()
    model, hist = _train(job)
    state = {k: v.numpy().copy() for k, v in model.state_dict().items()}
    return state, hist, time.perf_counter() - start, time.process_time() - cpu


def remember(job: AgreementJob, state: dict, hist: History) -> None:
    model = LM(job.model_config())
    model.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    _MEMO[job] = (model.eval(), hist)


def forget() -> None:
    _MEMO.clear()


def _train(job: AgreementJob) -> Trained:
    curve_set = data.make_splits(4000, job.n_heldout, job.data_seed)[1][: job.n_curve]

    def error(model):
        return 1 - evaluate(model, curve_set, job.threads)["agreement"]

    batches = sentence_batches(train_subset(job), job.batch_size, job.seed)
    return train(job.model_config(), job.train_config(), batches, error)


@torch.no_grad()
def evaluate(model: LM, sentences, n_threads: int = 1) -> dict:
    """Agreement accuracy (all sentences, mismatched-attractor ones) and mean token loss."""
    model.eval()
    with threads(n_threads):
        x, y = (torch.from_numpy(a) for a in data.batch(sentences))
        logits, _ = model(x)
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
    """Every layer's state after reading each word: h (L, B, T, H), c or None, mask (B, T),
    computed by the NumPy reference from the model's weights (``stacklib.lm.states``). The
    embeddings, layer 0, are not included (see ``embeddings``)."""
    x, _ = data.batch(sentences)
    full = np.concatenate([x, np.full((len(sentences), 1), data.PAD)], axis=1)
    for b, s in enumerate(sentences):
        full[b, len(s.tokens)] = data.WORD_TO_ID[s.tokens[-1]]
    h, c = reference_states(model, full)  # every layer after every token of ``full``
    h = h[:, :, 1:]
    c = c[:, :, 1:] if c is not None else None
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
