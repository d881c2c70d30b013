"""Experiment 3a: depth vs width at an equal parameter budget (§10) — held-out accuracy.

The seed compares one wide LSTM layer with three narrow ones at one budget
(stacklib.lecture.DEPTH_VS_WIDTH; both conventions in ``seed_scale``). Scaled down: 3 narrow
layers (H=32, input = embedding 24) against one wide layer whose width makes its recurrent
parameter count closest to the deep stack's. Both are trained as next-word models (several
seeds; seed 0 of the deep one is the hero stack) and scored on held-out agreement; the learning
curves show how long each needs. Latency: see `latency` (3b).

JSON schema (``depth_width.json``)::

    name, seed, config, versions
    params: {deep: int, wide: int, wide_hidden: int,              # recurrent weights, torch
             seed_scale: {torch: {wide, deep}, keras: {wide, deep}}}  # the seed's shapes
    training: {deep | wide: {layers: int, hidden: int,
        heldout_agreement: [per seed], heldout_agreement_mismatch: [per seed],
        mean: float, std: float, mean_mismatch: float, std_mismatch: float,
        steps_to_90: [per seed, int or null],     # first curve step with agreement >= 0.9
        steps_trained: [per seed],                # both arms stop at 99 % (see stacks.HERO)
        curve: {step: [int], heldout_agreement_mean: [float]}}}  # a stopped run counts
                                                                  # with its last value
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from stacklib import data
from stacklib.experiments.agreement import AgreementJob, evaluate, train_lm
from stacklib.experiments.budget import lstm_params
from stacklib.experiments.common import Timer, run, threads
from stacklib.experiments.stacks import HERO
from stacklib.lecture import DEPTH_VS_WIDTH, SEEDS
from stacklib.params import matched_width


@dataclass(frozen=True)
class DepthWidthConfig:
    deep: AgreementJob = HERO                  # 3 x 32 (the hero stack) for seed 0
    seeds: tuple[int, ...] = SEEDS
    seed: int = 0
    threads: int = 1

    @classmethod
    def tiny(cls) -> DepthWidthConfig:
        deep = dataclasses.replace(HERO, hidden_size=16, embed_size=16, steps=150,
                                   n_heldout=300, curve_every=50, n_curve=100)
        return cls(deep=deep, seeds=(0,))

    def train_jobs(self) -> list[AgreementJob]:
        return [dataclasses.replace(t, seed=s) for t in (self.deep, self.wide())
                for s in self.seeds]

    def wide(self) -> AgreementJob:
        d = self.deep
        width = matched_width(lstm_params(d.embed_size, d.hidden_size, d.num_layers), "lstm",
                              d.embed_size, 1, range(1, 8 * d.hidden_size))
        return dataclasses.replace(d, num_layers=1, hidden_size=width)


def train_seeds(tcfg: AgreementJob, seeds) -> dict:
    _, heldout = data.make_splits(4000, tcfg.n_heldout, tcfg.data_seed)
    acc, mism, to90, curves, trained = [], [], [], [], []
    for seed in seeds:
        model, hist = train_lm(dataclasses.replace(tcfg, seed=seed))
        curve = [(s, 1 - e) for s, e in zip(hist.steps, hist.scores, strict=True)]
        trained.append(hist.steps_run)
        ev = evaluate(model, heldout, tcfg.threads)
        acc.append(ev["agreement"])
        mism.append(ev["agreement_mismatch"])
        to90.append(next((s for s, a in curve if a >= 0.9), None))
        curves.append([a for _, a in curve] + [curve[-1][1]] * (tcfg.steps // tcfg.curve_every
                                                                 - len(curve)))
    return {"layers": tcfg.num_layers, "hidden": tcfg.hidden_size,
            "heldout_agreement": acc, "heldout_agreement_mismatch": mism,
            "mean": float(np.mean(acc)), "std": float(np.std(acc)),
            "mean_mismatch": float(np.mean(mism)), "std_mismatch": float(np.std(mism)),
            "steps_to_90": to90, "steps_trained": trained,
            "curve": {"step": list(range(tcfg.curve_every, tcfg.steps + 1, tcfg.curve_every)),
                      "heldout_agreement_mean": np.mean(curves, axis=0).tolist()}}


def depth_vs_width(cfg: DepthWidthConfig) -> dict:
    with Timer() as timer, threads(cfg.threads):
        d, w = cfg.deep, cfg.wide()
        e, h, L = d.embed_size, d.hidden_size, d.num_layers
        x = DEPTH_VS_WIDTH["input_size"]
        seed_scale = {fw: {arm: lstm_params(x, DEPTH_VS_WIDTH[arm][1], DEPTH_VS_WIDTH[arm][0], nb)
                           for arm in ("wide", "deep")}
                      for fw, nb in (("torch", 2), ("keras", 1))}
        params = {"deep": lstm_params(e, h, L), "wide": lstm_params(e, w.hidden_size, 1),
                  "wide_hidden": w.hidden_size, "seed_scale": seed_scale}
        training = {"deep": train_seeds(d, cfg.seeds), "wide": train_seeds(w, cfg.seeds)}
        body = {"params": params, "training": training}
    return {**run("depth_width", cfg, body), "duration_s": timer.seconds}
