"""§10: depth x dataset size -> training and held-out error.

LSTM next-word models of depth 1..4 (same width; residual from layer 2 on, which removes the
long plateau plain deep stacks show before they learn agreement, so that depth measures capacity
rather than trainability) are trained for a fixed number of steps on
training sets of several sizes (subsampled from the training split, the subsample varying with
the seed), then scored on (up to n_eval of) their own training sentences and on held-out ones.
Two errors: next-word cross-entropy (nats/word, the language's own randomness sets its floor)
and agreement error at the main verb (chance 0.5).

JSON schema (``depth_data.json``)::

    name, seed, config, versions
    depths: [int], sizes: [int], seeds: [int]
    runs: [ {num_layers, n_train, seed, train_loss, heldout_loss, train_error, heldout_error,
             heldout_error_mismatch} ]
    summary: {metric: {mean: [depth][size], std: [depth][size]}}   # std over seeds (ddof 0)
        metric in train_loss, heldout_loss, gap_loss (heldout - train), train_error,
        heldout_error, gap_error, heldout_error_mismatch
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from stacklib import data
from stacklib.experiments.agreement import AgreementJob, evaluate, train_lm, train_subset
from stacklib.experiments.common import Timer, run
from stacklib.lecture import DEPTH_DATA_DEPTHS, DEPTH_DATA_MODEL, DEPTH_DATA_SIZES, SEEDS

BASE = AgreementJob(**DEPTH_DATA_MODEL)
METRICS = ("train_loss", "heldout_loss", "gap_loss", "train_error", "heldout_error",
           "gap_error", "heldout_error_mismatch")


@dataclass(frozen=True)
class DepthDataConfig:
    base: AgreementJob = BASE
    depths: tuple[int, ...] = DEPTH_DATA_DEPTHS
    sizes: tuple[int, ...] = DEPTH_DATA_SIZES
    seeds: tuple[int, ...] = SEEDS
    n_eval: int = 500
    seed: int = 0
    threads: int = 1

    @classmethod
    def tiny(cls) -> DepthDataConfig:
        base = dataclasses.replace(BASE, hidden_size=16, embed_size=16, steps=60, n_heldout=200)
        return cls(base=base, depths=(1, 2), sizes=(20, 80), seeds=(0, 1), n_eval=100)

    def train_jobs(self) -> list[AgreementJob]:
        return [dataclasses.replace(self.base, num_layers=d, n_train=n, seed=s,
                                    threads=self.threads)
                for d in self.depths for n in self.sizes for s in self.seeds]


def run_job(job: AgreementJob, n_eval: int) -> dict:
    """Train (or take from the memo) one model and score it."""
    model, _ = train_lm(job)
    train = train_subset(job)[:n_eval]
    heldout = data.make_splits(4000, job.n_heldout, job.data_seed)[1][:n_eval]
    tr, he = evaluate(model, train, job.threads), evaluate(model, heldout, job.threads)
    return {"num_layers": job.num_layers, "n_train": job.n_train, "seed": job.seed,
            "train_loss": tr["loss"], "heldout_loss": he["loss"],
            "train_error": 1 - tr["agreement"], "heldout_error": 1 - he["agreement"],
            "heldout_error_mismatch": 1 - he["agreement_mismatch"]}


def summarise(cfg: DepthDataConfig, runs: list[dict]) -> dict:
    out = {}
    for m in METRICS:
        grid = np.zeros((len(cfg.depths), len(cfg.sizes), len(cfg.seeds)))
        for r in runs:
            v = r["heldout_" + m[4:]] - r["train_" + m[4:]] if m.startswith("gap") else r[m]
            grid[cfg.depths.index(r["num_layers"]), cfg.sizes.index(r["n_train"]),
                 cfg.seeds.index(r["seed"])] = v
        out[m] = {"mean": grid.mean(-1).tolist(), "std": grid.std(-1).tolist()}
    return out


def depth_data(cfg: DepthDataConfig) -> dict:
    with Timer() as timer:
        runs = [run_job(job, cfg.n_eval) for job in cfg.train_jobs()]
        body = {"depths": list(cfg.depths), "sizes": list(cfg.sizes), "seeds": list(cfg.seeds),
                "runs": runs, "summary": summarise(cfg, runs)}
    return {**run("depth_data", cfg, body), "duration_s": timer.seconds}
