"""scripts/benchmarks/stack.py runs and prints its ratios and guard. Speed itself is never asserted
here (wall-clock times on a shared machine are noise): the benchmark prints it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scripts.benchmarks import stack
from scripts.benchmarks.stack import guard_line, ratios_in_turns, report

ROOT = Path(__file__).resolve().parents[1]


def test_benchmark_runs_and_prints_every_ratio_and_the_guard():
    cmd = [sys.executable, "-m", "scripts.benchmarks.stack", "--rounds", "2",
           "--batch", "2", "1", "--seq-len", "3"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    for name in ("forward", "forward+backward"):
        for B in (2, 1):
            assert sum(line.split()[:2] == [name, f"B={B}"] for line in lines) == 1, run.stdout
    assert lines[-1].startswith("guard: stacklib.numpy forward within 3x of nn.LSTM at L=3: ")


def test_ratios_are_taken_round_by_round(monkeypatch):
    """On a clock that only the two functions move (3 ticks for ours, 1 for theirs), every
    round's ratio is exactly 3, whichever of the two runs first."""
    calls, clock = [], [0.0]

    def costs(name, ticks):
        def run():
            calls.append(name)
            clock[0] += ticks
        return run

    monkeypatch.setattr(stack.time, "perf_counter", lambda: clock[0])
    assert ratios_in_turns(costs("a", 3.0), costs("b", 1.0), 3) == [3.0, 3.0, 3.0]
    assert calls == ["a", "b", "a", "b", "b", "a", "a", "b"]  # warm-up, then alternating


def test_report_and_guard_lines():
    assert report("forward", 32, [1.0, 2.0, 4.0]).split()[:3] == ["forward", "B=32", "2.00x"]
    assert guard_line({32: 2.5, 1: 1.2}).endswith(": met (B=32: 2.50x, B=1: 1.20x)")
    assert ": NOT met (" in guard_line({32: 3.5, 1: 1.2})
