"""The live widget's pair of models (scripts/generation/shakespeare_live_config.py's LIVE): one
parameter budget, committed results that are the current code's and weights', the deep stack's
cells the probes' own, and the bits the generator checks the browser against."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from scripts.experiments import shakespeare_live as experiment
from scripts.generation import shakespeare_live as generator
from scripts.generation.shakespeare_live_config import LIVE
from scripts.study.plan import stack_params
from stacklib.charlm.probes import ProbeConfig
from stacklib.lm.model import LMConfig

STUDY = Path(__file__).resolve().parents[1] / "docs" / "generated" / "experiments"


def _json(rel: str):
    return json.loads((STUDY / rel).read_text(encoding="utf-8"))


def test_the_pair_is_deep_and_wide_at_one_budget():
    """Within 2 %: the same recurrent parameters spent on three layers or on one."""
    configs = {role: LMConfig.of(**_json(f"shakespeare/{run}.json")["config"]["model"])
               for role, run in LIVE.items()}
    assert configs["deep"].num_layers > 1 and configs["wide"].num_layers == 1
    deep, wide = (stack_params(configs[role]) for role in ("deep", "wide"))
    assert abs(wide / deep - 1) <= 0.02


def test_the_committed_live_results_are_the_current_codes_and_weights():
    """A change to the scoring code, the probe config, the pair or its weights makes the
    committed results stale: run python -m scripts.experiments.shakespeare_live."""
    from scripts.generation.cache import sha256_file

    result = _json("shakespeare_live.json")
    assert result["key"] == experiment.live_key(LIVE, ProbeConfig())
    for role, run in LIVE.items():
        assert result["models"][role]["run"] == run
        assert result["models"][role]["sha256"] == sha256_file(experiment.weights(run))


def test_the_deep_stacks_cells_are_the_probes():
    """The cells the widget draws for the deep stack are those the probes found in it."""
    live = _json("shakespeare_live.json")["models"]["deep"]["cells"]
    probes = _json("shakespeare_probes.json")["runs"][LIVE["deep"]]["trained"]["cells"]
    assert live.keys() == probes.keys()
    for feature, cells in live.items():
        assert [c["unit"] for c in cells] == [c["unit"] for c in probes[feature]], feature
        assert [c["sign"] for c in cells] == [c["sign"] for c in probes[feature]], feature


def test_bits_are_the_next_characters_surprise():
    """Each character after the first costs -log2 of the probability given to it."""
    p = np.array([[0.5, 0.25, 0.25], [0.125, 0.875, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    with np.errstate(divide="ignore"):
        logp = np.log(p)
    assert np.allclose(generator.bits(logp, np.array([2, 1, 0])), [2.0, 3.0])
    assert math.isclose(generator.bits(logp, np.array([0, 0]))[0], 1.0)
