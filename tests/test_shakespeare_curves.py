"""§10's live learning curves (generated/data/shakespeare_curves.json) show the committed runs'
numbers: every seed's validation bpc at every evaluation step, its test bpc and parameter count,
read here straight from the run records (docs/generated/experiments/shakespeare/), not through
the summary the generator uses."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scripts.generation.shakespeare_curves import DIGITS, curves
from scripts.study.plan import SEEDS

GENERATED = Path(__file__).resolve().parents[1] / "docs" / "generated"
TOLERANCE = 0.5 * 10 ** -DIGITS + 1e-12  # rounded to DIGITS decimals
GROUPS = {"depth": {f"L{L}-h128" for L in (1, 2, 3, 4)} | {f"L{L}-h128-res" for L in (2, 3, 4)},
          "budget": {"L1-h268", "L2-h163", "L3-h128", "L4-h109"}}


@pytest.fixture(scope="module")
def shown():
    return json.loads((GENERATED / "data/shakespeare_curves.json").read_text(encoding="utf-8"))


def runs(name: str) -> list[dict]:
    return [json.loads((GENERATED / f"experiments/shakespeare/{name}-s{seed}.json").read_text())
            for seed in SEEDS]


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_model_of_the_group_is_there_once(shown, group):
    names = [m["name"] for m in shown[group]["models"]]
    assert sorted(names) == sorted(GROUPS[group])
    assert shown["seeds"] == list(SEEDS)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_curves_scores_and_sizes_are_the_runs(shown, group):
    steps = shown[group]["steps"]
    for m in shown[group]["models"]:
        records = runs(m["name"])
        assert m["params"] == records[0]["params"]
        assert m["layers"] == records[0]["config"]["model"]["num_layers"]
        assert m["hidden"] == records[0]["config"]["model"]["hidden_size"]
        assert m["residual"] == records[0]["config"]["model"]["residual"]
        assert m["test_bpc"] == pytest.approx([r["test_bpc"] for r in records], abs=TOLERANCE)
        assert m["test_mean"] == pytest.approx(np.mean([r["test_bpc"] for r in records]),
                                               abs=TOLERANCE)
        scored = [dict(zip(r["history"]["steps"], r["history"]["val_bpc"], strict=True))
                  for r in records]
        for seed, (values, by_step) in enumerate(zip(m["val_bpc"], scored, strict=True)):
            assert set(by_step) <= set(steps), (m["name"], seed)
            for step, value in zip(steps, values, strict=True):
                if step in by_step:
                    assert value == pytest.approx(by_step[step], abs=TOLERANCE), (m["name"], step)
                else:  # the seed had stopped: nothing is drawn
                    assert value is None, (m["name"], seed, step)
        for step, value in zip(steps, m["mean"], strict=True):
            still = [c[step] for c in scored if step in c]
            assert value == pytest.approx(np.mean(still), abs=TOLERANCE), (m["name"], step)


def test_the_static_figures_y_range_is_the_widgets(shown):
    from scripts.generation.shakespeare_figures import BPC_AXIS

    assert shown["bpc_axis"] == list(BPC_AXIS)


def test_models_trained_with_different_seeds_are_an_error():
    def config(seeds):
        return {"seeds": seeds, "curve": {"step": [250], "val_bpc": [[3.0]], "mean": [3.0]},
                "layers": 1, "hidden": 8, "residual": False, "params": 10,
                "test_bpc": {"mean": 3.0, "values": [3.0]}}

    summary = {"depth": {"a": config([0, 1, 2])}, "budget": {"b": config([0, 1])}}
    with pytest.raises(ValueError, match="different seeds"):
        curves(summary)
