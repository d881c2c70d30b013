"""One run of the study, as the runner executes it: train, score on the test plays, summarise.

Its result is a plain dict (JSON-ready) and the trained model, so the runner can store both.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from stacklib.charlm.model import count_model_params
from stacklib.charlm.train import TrainConfig, bits_per_char, train
from stacklib.corpus import Corpus


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


def fit(cfg: TrainConfig, texts: Texts):
    """Train one configuration; returns (model, result dict)."""
    cpu = time.process_time()
    model, hist = train(cfg, texts.train, texts.validation)
    train_chars = len(texts.train) if cfg.train_chars is None else min(cfg.train_chars,
                                                                        len(texts.train))
    steps = hist.steps[-1] if hist.steps else 0
    result = {
        "config": dataclasses.asdict(cfg),
        "params": count_model_params(model),
        "train_chars": train_chars,
        "steps": steps,
        "epochs": steps * cfg.batch_size * cfg.seq_len / train_chars,
        "history": dataclasses.asdict(hist),
        "val_bpc": min(hist.val_bpc),
        "test_bpc": bits_per_char(model, texts.test),
        # on (up to a test set's worth of) the characters it was trained on
        "train_bpc": bits_per_char(model, texts.train[: min(train_chars, len(texts.test))]),
        "cpu_seconds": time.process_time() - cpu,
    }
    return model, result
