"""scripts/benchmarks/allocator.py compares what it claims to compare and reports it; its speed
is never asserted here (the benchmark prints it)."""

from __future__ import annotations

from scripts.benchmarks.allocator import environment, report
from scripts.experiments.shakespeare import WORKER_ENV


def test_only_the_memory_settings_differ(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "2")  # the caller's own settings are not measured
    default, study = environment("default"), environment("study")
    assert not any(k.startswith("MALLOC_") for k in default)
    assert default["OMP_NUM_THREADS"] == study["OMP_NUM_THREADS"] == "1"
    assert {k: v for k, v in study.items() if default.get(k) != v} == {
        k: v for k, v in WORKER_ENV.items() if k.startswith("MALLOC_")}


def _run(wall, bpc, faults=1000):
    return {"wall": wall, "user": wall, "sys": 0.1, "faults": faults, "peak_mib": 400.0,
            "val_bpc": bpc, "model": "3 x 128"}


def test_report_takes_the_ratio_round_by_round_and_checks_the_numbers():
    results = {"default": [_run(12.0, 2.5), _run(30.0, 2.5), _run(11.0, 2.5)],
               "study": [_run(10.0, 2.5), _run(20.0, 2.5), _run(10.0, 2.5)]}
    lines, same = report(results, 300)
    assert same and lines[0] == "300 training steps of 3 x 128, 3 round(s), median per setting"
    assert lines[1].split()[:3] == ["default", "wall", "12.0"]
    assert lines[-2] == "default / study wall time: 1.20x (median of rounds)"  # 1.2, 1.5, 1.1
    results["study"][1] = _run(20.0, 2.4)
    lines, same = report(results, 300)
    assert not same and lines[-1] == "same validation loss in every run: NO ([2.4, 2.5])"
