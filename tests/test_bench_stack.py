"""The speed benchmark runs, and its two GEMM floors compute the same products.

Speed itself is never asserted here (this machine is noisy): ``scripts/benchmarks/stack.py`` prints
it. These tests keep the benchmark working and its comparison of BLAS libraries honest.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from scripts.benchmarks.stack import split_gap
from scripts.benchmarks.stack_floors import lstm_gemm_floor
from stacklib.numpy import from_torch

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("B", [1, 3])
@pytest.mark.parametrize("backward", [False, True])
def test_gemm_floors_compute_the_same_products(B, backward):
    torch.manual_seed(0)
    T, L = 4, 2
    stack = from_torch(torch.nn.LSTM(5, 3, L), dtype=np.float32)
    xn = np.zeros((T, B, 5), np.float32)
    runs = {blas: lstm_gemm_floor(stack, xn, backward=backward, blas=blas)
            for blas in ("numpy", "torch")}
    per_layer = T + (B == 1)  # B = 1: a hoisted input GEMM, then one GEMV per step
    want = L * per_layer + (L * (T + 3) if backward else 0)  # + recurrent steps, dW_ih, dW_hh, dX
    for run in runs.values():
        for out in run.outputs:
            out[...] = np.nan
        run()
        assert len(run.outputs) == want
        assert all(np.isfinite(out).all() for out in run.outputs)
    for a, b in zip(runs["numpy"].outputs, runs["torch"].outputs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_benchmark_runs_and_reports_every_row():
    cmd = [sys.executable, "-m", "scripts.benchmarks.stack", "--cells", "lstm",
           "--layers", "1", "--batch", "1", "--budget", "0.05", "--settle", "0"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for impl in ("torch.nn", "stacklib.numpy", "numpy GEMMs only", "torch GEMMs only"):
        for mode in ("fwd", "fwd+bwd"):
            assert any(impl in line and mode in line.split() for line in out.splitlines()), (
                impl, mode, out)
    assert "glibc malloc: freed memory kept for reuse" in out
    assert out.count("not measured in this run") == 4  # the targets are at L = 3


def test_gap_split_adds_up_round_by_round():
    def row(impl, mode, B, per_round):
        return {"cell": "lstm", "L": 3, "B": B, "impl": impl, "pass": mode,
                "per_round": per_round, "ratio": sorted(per_round)[1]}
    rows = [row("stacklib.numpy", "fwd+bwd", 32, [1.5, 1.6, 1.9]),
            row("numpy GEMMs only", "fwd+bwd", 32, [1.4, 1.0, 1.1]),
            row("torch GEMMs only", "fwd+bwd", 32, [0.9, 0.9, 0.9]),
            row("stacklib.numpy", "fwd", 1, [1.0, 1.0, 1.0])]  # no floors: no line
    lines = split_gap(rows)
    assert len(lines) == 2
    # the rest per round: 0.1, 0.6, 0.8 -> 0.6 (the difference of the medians would be 0.5)
    assert lines[1] == ("  fwd+bwd  B=32: 1.10 + 0.60; 1.43x leaves the rest 0.33 after NumPy's "
                        "GEMMs, 0.53 after the same GEMMs in torch (0.90)")
    assert split_gap(rows[3:]) == []
