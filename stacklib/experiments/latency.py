"""Experiment 3b: inference latency of deep vs wide stacks (the seed's "latency xL" claim).

Three LSTM stacks per scale: "wide" (1 layer), "deep" (3 narrow layers, about the same number of
parameters) and "narrow1" (1 narrow layer: same width as each deep layer). Scales: "trained"
(the sizes of experiment 3a: input 24, 1x66 vs 3x32) and "seed" (input 300, 1x512 vs 3x256).
Forward passes without gradients are timed in turns in one process (``stacklib.timing``):
every round times each model `reps` times, the order rotating, and the median over rounds is
reported. Wall-clock numbers vary between runs and machines; the ratios are the result (never
asserted). So a measurement is made again only when asked, or when what it times changes
(``LatencyConfig.timed``: the stacks' shapes and the timing settings), never because the
library's code did.

JSON schema (``latency.json``)::

    name, seed, config, versions
    runs: [ {scale: "trained" | "seed", input_size, hidden: {wide, deep, narrow1}, layers_deep,
             batch, seq_len, threads,
             ms: {wide, deep, narrow1},      # median milliseconds per forward pass
             ratio_deep_wide: float,         # equal parameters: 3 narrow layers / 1 wide layer
             ratio_deep_narrow1: float} ]    # equal width: 3 layers / 1 layer (the xL claim)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch

from stacklib.experiments.budget import lstm_params
from stacklib.experiments.common import Timer, run, threads
from stacklib.lecture import LATENCY_CASES
from stacklib.params import matched_width
from stacklib.timing import time_in_turns


@dataclass(frozen=True)
class LatencyConfig:
    # (scale, input_size, deep hidden, deep layers, wide hidden or 0 = matched, batch, seq_len)
    cases: tuple[tuple[str, int, int, int, int, int, int], ...] = LATENCY_CASES
    rounds: int = 7
    reps: int = 3
    seed: int = 0
    threads: int = 1

    def train_jobs(self) -> list:
        return []

    @classmethod
    def tiny(cls) -> LatencyConfig:
        return cls(cases=(("trained", 16, 16, 3, 0, 1, 6),), rounds=3, reps=2)

    def timed(self) -> dict:
        """What a measurement times: its settings and the stacks of every case."""
        return {**dataclasses.asdict(self), "stacks": [stacks(case) for case in self.cases]}


def stacks(case) -> dict:
    """A case's three stacks, {name: (input size, hidden size, layers)}, and its input."""
    _, inp, hid, layers, wide, batch, seq_len = case
    wide = wide or matched_width(lstm_params(inp, hid, layers), "lstm", inp, 1, range(1, 8 * hid))
    return {"wide": (inp, wide, 1), "deep": (inp, hid, layers), "narrow1": (inp, hid, 1),
            "batch": batch, "seq_len": seq_len}


def measure(cfg: LatencyConfig, case) -> dict:
    scale, inp, _, layers, _, batch, seq_len = case
    shapes = stacks(case)
    torch.manual_seed(cfg.seed)
    hidden = {name: shapes[name][1] for name in ("wide", "deep", "narrow1")}
    mods = {name: torch.nn.LSTM(*shapes[name]) for name in hidden}
    x = torch.randn(seq_len, batch, inp)

    def call(m):
        def f():
            with torch.no_grad():
                m(x)
        return f

    ms = time_in_turns({n: call(m.eval()) for n, m in mods.items()}, cfg.rounds, cfg.reps)
    return {"scale": scale, "input_size": inp, "hidden": hidden, "layers_deep": layers,
            "batch": batch, "seq_len": seq_len, "threads": cfg.threads, "ms": ms,
            "ratio_deep_wide": ms["deep"] / ms["wide"],
            "ratio_deep_narrow1": ms["deep"] / ms["narrow1"]}


def latency(cfg: LatencyConfig) -> dict:
    with Timer() as timer, threads(cfg.threads):
        body = {"runs": [measure(cfg, case) for case in cfg.cases]}
    return {**run("latency", cfg, body), "duration_s": timer.seconds}
