"""The live widget's pair of models (scripts/generation/shakespeare_live_config.py's LIVE): one
parameter budget, committed results that are the current code's and weights', the deep stack's
cells the probes' own, and the bits the generator checks the browser against."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

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


def test_the_live_models_are_the_tabulated_runs():
    """Each live model is its study run, as tabulated: the run's record is current under the
    code's key, and scoring the shipped weights gives the record's test bpc to 4 decimals."""
    from scripts.experiments.charlm_runs import training_key
    from scripts.study.plan import plan
    from stacklib.corpus import shakespeare

    by_name = {run.name: run for run in plan(len(shakespeare().vocab))}
    live = _json("shakespeare_live.json")["models"]
    for role, run in LIVE.items():
        record = _json(f"shakespeare/{run}.json")
        assert record["key"] == training_key(by_name[run]), f"{run}: record from other inputs"
        assert round(live[role]["test_bpc"], 4) == round(record["test_bpc"], 4), run


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


def test_the_live_weights_are_the_trainings_own(tmp_path, monkeypatch):
    """The runner copies a live run's weights from the training cache over the committed file
    when they differ, keeps the committed file where nothing was trained (a fresh clone), and
    names the command to run when there is neither."""
    from scripts.experiments.charlm_runs import training_key
    from scripts.study.plan import plan
    from stacklib.corpus import shakespeare

    committed, cache = tmp_path / "committed", tmp_path / "cache"
    committed.mkdir(), cache.mkdir()
    monkeypatch.setattr(experiment, "weights", lambda run: committed / f"{run}.pt")
    by_name = {run.name: run for run in plan(len(shakespeare().vocab))}
    deep, wide = LIVE["deep"], LIVE["wide"]
    (cache / f"{training_key(by_name[deep])}.pt").write_bytes(b"trained")
    (committed / f"{deep}.pt").write_bytes(b"older")
    (committed / f"{wide}.pt").write_bytes(b"committed")
    logged = []
    experiment.ship(LIVE, cache, log=logged.append)
    assert (committed / f"{deep}.pt").read_bytes() == b"trained" and len(logged) == 1
    assert (committed / f"{wide}.pt").read_bytes() == b"committed"
    experiment.ship(LIVE, cache, log=logged.append)      # the same bytes: nothing copied again
    assert len(logged) == 1
    (committed / f"{wide}.pt").unlink()
    with pytest.raises(SystemExit, match=f"--runs {wide}"):
        experiment.ship(LIVE, cache)
