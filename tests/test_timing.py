"""stacklib.timing, the one way functions are timed side by side, and the character models'
timing through it."""

from __future__ import annotations

import pytest
import torch

from stacklib import timing
from stacklib.charlm.timing import TimingConfig, time_models
from stacklib.lm.model import LMConfig


def test_functions_take_turns_in_an_order_that_rotates(monkeypatch):
    """A warm-up call each, then per round every function reps times, the first of the last
    round going last; the median of the rounds' milliseconds per call."""
    clock, calls = [0.0], []
    monkeypatch.setattr(timing.time, "perf_counter", lambda: clock[0])

    def costs(name, seconds):
        def fn():
            calls.append(name)
            clock[0] += seconds
        return fn

    ms = timing.time_in_turns({"a": costs("a", 0.001), "b": costs("b", 0.003),
                               "c": costs("c", 0.002)}, rounds=3, reps=2)
    assert calls == ["a", "b", "c"] + ["a"] * 2 + ["b"] * 2 + ["c"] * 2 \
        + ["b"] * 2 + ["c"] * 2 + ["a"] * 2 + ["c"] * 2 + ["a"] * 2 + ["b"] * 2
    assert ms == pytest.approx({"a": 1.0, "b": 3.0, "c": 2.0})


def test_character_models_are_timed_per_step_and_per_character():
    threads = torch.get_num_threads()
    models = {f"L{n}": LMConfig.of(11, embed_size=4, hidden_size=6, num_layers=n)
              for n in (1, 2)}
    cfg = TimingConfig(batch_size=2, seq_len=5, latency_chars=3, rounds=2, reps=1)
    ms = time_models(models, cfg)
    assert set(ms) == set(models)
    assert all(set(m) == {"train_step_ms", "char_latency_ms"} and min(m.values()) > 0
               for m in ms.values())
    assert torch.get_num_threads() == threads
