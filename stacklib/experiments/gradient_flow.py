"""§09: the gradient reaching every layer and step of a stack at initialisation.

Stacks of depth 1..8 (RNN tanh, GRU, LSTM; torch's default initialisation, layer-norm gain 1 and
bias 0) read T steps of standard-normal input; the loss is a fixed random projection of the top
output at the last step, L = <r, y_T> (r ~ N(0, I/H)), averaged over the batch. For every layer l
and step t we record ||dL/dh^[l]_t|| (root-mean-square over the batch of the per-example norm),
then the geometric mean over seeds. Variants: plain, residual (from layer 2 on), layer norm, and
both — the stack semantics of ``stacklib.numpy.StackedRNN``, whose hand-written BPTT reports
the gradient reaching every (t, l) directly (float64).

Per-layer factor (the §09 slider's quantity): at the last step t = T, the geometric mean of the
ratio ||dL/dh^[l]_T|| / ||dL/dh^[l+1]_T|| over consecutive layers of the depth-8 stack (< 1 means
the gradient shrinks on its way down). The time factor is the same along time on the top layer.

JSON schema (``gradient_flow.json``)::

    name, seed, config, versions
    depths: [int], grid_depths: [int], cells: [str], variants: [str], seq_len: T, hidden_size: H
    runs: [ {cell, variant, depth,
             norm: [T][depth] | null,     # norm reaching h^[l]_t (t = 1..T, l = 1..depth), only
                                          # for depths in grid_depths (else null: file size)
             last_step: [depth],          # norm[T-1]: the depth profile where the loss is read
             min_last_step: float,        # min over layers of last_step
             layer_factor: float | null,  # geometric mean lower/upper ratio at t = T (depth >= 2)
             time_factor: float} ]        # geometric mean earlier/later ratio on the top layer
    factors: {cell: {variant: layer_factor of the deepest stack}}
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from stacklib.config import StackConfig, torch_nn_class
from stacklib.experiments.common import Timer, run, threads
from stacklib.lecture import GRADIENT_FLOW, SEEDS
from stacklib.numpy import StackedRNN

VARIANTS = {"plain": (False, False), "residual": (True, False), "layer_norm": (False, True),
            "residual_layer_norm": (True, True)}


@dataclass(frozen=True)
class GradientFlowConfig:
    depths: tuple[int, ...] = GRADIENT_FLOW["depths"]
    grid_depths: tuple[int, ...] = GRADIENT_FLOW["grid_depths"]  # full (T, depth) grid exported
    cells: tuple[str, ...] = ("rnn", "gru", "lstm")
    variants: tuple[str, ...] = tuple(VARIANTS)
    seq_len: int = GRADIENT_FLOW["seq_len"]
    hidden_size: int = GRADIENT_FLOW["hidden_size"]
    input_size: int = GRADIENT_FLOW["input_size"]
    batch: int = GRADIENT_FLOW["batch"]
    seeds: tuple[int, ...] = SEEDS
    seed: int = 0
    threads: int = 1

    def train_jobs(self) -> list:
        return []

    @classmethod
    def tiny(cls) -> GradientFlowConfig:
        return cls(depths=(1, 8), grid_depths=(8,), variants=("plain", "residual"), seq_len=6,
                   hidden_size=16, input_size=16, batch=4, seeds=(0,))


def init_stack(cell: str, cfg: GradientFlowConfig, depth: int, residual: bool,
               layer_norm: bool, seed: int) -> StackedRNN:
    """A float64 NumPy stack carrying torch's default initialisation (LN gain 1, bias 0)."""
    config = StackConfig(cfg.input_size, cfg.hidden_size, depth, cell=cell, residual=residual,
                         layer_norm=layer_norm)
    torch.manual_seed(seed)
    module = torch_nn_class(cell)(**config.replace(residual=False, layer_norm=False).torch_kwargs())
    stack = StackedRNN.from_config(config, dtype=np.float64)
    state = stack.state_dict()  # keeps the LN parameters at their (1, 0) init
    state.update(module.state_dict())
    stack.load_state_dict(state)
    return stack


def grad_norms(cell: str, variant: str, depth: int, cfg: GradientFlowConfig,
               seed: int) -> np.ndarray:
    """||dL/dh^[l]_t|| (RMS over the batch) as an array (T, depth) for one initialisation."""
    residual, layer_norm = VARIANTS[variant]
    stack = init_stack(cell, cfg, depth, residual, layer_norm, seed)
    gen = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(cfg.seq_len, cfg.batch, cfg.input_size, generator=gen)
    r = torch.randn(cfg.hidden_size, generator=gen) / cfg.hidden_size ** 0.5
    out = stack(x.double().numpy())
    grad = np.zeros_like(out.output)
    grad[-1] = r.double().numpy() / cfg.batch  # L = mean_b <r, y_T,b>
    # h_norm is the Frobenius norm over the batch; the RMS of per-example norms is that / sqrt(B)
    return stack.backward(out, grad).h_norm / np.sqrt(cfg.batch)


def geometric_factor(first: float, last: float, steps: int) -> float | None:
    if steps < 1 or first <= 0 or last <= 0:
        return None
    return float((first / last) ** (1.0 / steps))


def gradient_flow(cfg: GradientFlowConfig) -> dict:
    with Timer() as timer, threads(cfg.threads):
        runs, factors = [], {c: {} for c in cfg.cells}
        for cell in cfg.cells:
            for variant in cfg.variants:
                for depth in cfg.depths:
                    logs = [np.log(np.maximum(grad_norms(cell, variant, depth, cfg, s), 1e-30))
                            for s in cfg.seeds]
                    norm = np.exp(np.mean(logs, axis=0))            # (T, depth)
                    last = norm[-1]
                    runs.append({
                        "cell": cell, "variant": variant, "depth": depth,
                        "norm": norm.tolist() if depth in cfg.grid_depths else None,
                        "last_step": last.tolist(),
                        "min_last_step": float(last.min()),
                        "layer_factor": geometric_factor(last[0], last[-1], depth - 1),
                        "time_factor": geometric_factor(norm[0, -1], norm[-1, -1],
                                                        cfg.seq_len - 1)})
                factors[cell][variant] = runs[-1]["layer_factor"]
        body = {"depths": list(cfg.depths), "grid_depths": list(cfg.grid_depths),
                "cells": list(cfg.cells),
                "variants": list(cfg.variants), "seq_len": cfg.seq_len,
                "hidden_size": cfg.hidden_size, "runs": runs, "factors": factors}
    return {**run("gradient_flow", cfg, body), "duration_s": timer.seconds}
