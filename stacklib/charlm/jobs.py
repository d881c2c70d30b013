"""One run of the Shakespeare study, as the runner executes it: train, score on the held-out plays.

Its result is a plain dict (JSON-ready) in the study's terms: scores are bits per character
(bpc), and the model, training and data settings are flattened into one ``config``.
"""

from __future__ import annotations

import dataclasses
import math
import time

import numpy as np

from stacklib.corpus import Corpus
from stacklib.lm.model import LMConfig, parameter_count
from stacklib.lm.text import bits_per_token, training_batches
from stacklib.lm.train import TrainConfig, train


@dataclasses.dataclass(frozen=True)
class Texts:
    """The three splits as character ids (encoded once, shared by every run of a worker)."""

    train: np.ndarray
    validation: np.ndarray
    test: np.ndarray

    @classmethod
    def of(cls, corpus: Corpus) -> Texts:
        return cls(corpus.encode(corpus.train.text), corpus.encode(corpus.validation.text),
                   corpus.encode(corpus.test.text))


@dataclasses.dataclass(frozen=True)
class Job:
    """What a run's result depends on, besides the corpus and the code."""

    model: LMConfig
    train: TrainConfig
    train_chars: int | None = None  # train on the first this many characters (None: all)
    test: bool = True               # score the test plays (a search's runs never read them)

    def describe(self) -> dict:
        """The job as plain values, as a record stores it."""
        return {"model": self.model.flat(), **dataclasses.asdict(self.train),
                "train_chars": self.train_chars, "test": self.test}


def fit(job: Job, texts: Texts):
    """Train one job; returns (model, result dict)."""
    cpu = time.process_time()
    cfg = job.train
    train_ids = texts.train if job.train_chars is None else texts.train[: job.train_chars]
    batches = training_batches(train_ids, cfg.batch_size, cfg.seq_len, cfg.seed)
    model, hist = train(job.model, cfg, batches,
                        score=lambda m: bits_per_token(m, texts.validation))
    steps = hist.steps[-1] if hist.steps else 0
    history = dataclasses.asdict(hist)
    history["train_bpc"], history["val_bpc"] = history.pop("train_bits"), history.pop("scores")
    result = {
        "config": job.describe(),
        "params": parameter_count(model),
        "train_chars": len(train_ids),
        "steps": steps,
        "epochs": steps * cfg.batch_size * cfg.seq_len / len(train_ids),
        "history": history,
        "val_bpc": min(hist.scores) if hist.scores else math.nan,
        "test_bpc": bits_per_token(model, texts.test) if job.test else None,
        # on (up to a test set's worth of) the characters it was trained on
        "train_bpc": bits_per_token(model, train_ids[: len(texts.test)]),
        "cpu_seconds": time.process_time() - cpu,
    }
    return model.cpu(), result
