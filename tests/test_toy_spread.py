"""The toy studies' spreads over seeds (scripts/study/toy.py): the sample standard deviation
that every page's ± means, computed from each seed's score in the records."""

from __future__ import annotations

import numpy as np
import pytest

from scripts.study import toy


def test_an_arms_agreement_is_the_mean_and_sample_sd_of_its_seeds():
    arm = {"heldout_agreement": [0.9, 1.0, 0.95], "heldout_agreement_mismatch": [0.8, 0.8, 0.9]}
    a = toy.agreement(arm)
    assert a["all"]["mean"] == pytest.approx(0.95) and a["all"]["sd"] == pytest.approx(0.05)
    assert a["mismatch"]["sd"] == pytest.approx(np.std([0.8, 0.8, 0.9], ddof=1))


def test_a_probes_sd_is_taken_per_layer_over_the_seeds():
    model = {"accuracy_per_seed": {"pos": [[0.5, 0.9], [0.7, 0.9], [0.6, 0.6]]}}
    assert toy.probe_sd(model)["pos"] == pytest.approx([0.1, np.std([0.9, 0.9, 0.6], ddof=1)])


def test_a_grid_holds_each_depth_and_size_and_the_gap_run_by_run():
    runs = [{"num_layers": d, "n_train": n, "seed": s, "train_loss": 1.0 + s + d,
             "heldout_loss": 2.0 + 3 * s + n / 100}
            for d in (1, 2) for n in (100, 400) for s in (0, 1, 2)]
    data = {"depths": [1, 2], "sizes": [100, 400], "runs": runs[::-1]}   # any order
    train = toy.grid(data, "train", "loss")
    assert np.array(train["mean"]) == pytest.approx(np.array([[3.0, 3.0], [4.0, 4.0]]))
    assert np.array(train["sd"]) == pytest.approx(np.ones((2, 2)))
    gap = toy.grid(data, "gap", "loss")          # 1 + 2 s + n/100 - d: its own spread
    assert np.array(gap["mean"]) == pytest.approx(np.array([[3.0, 6.0], [2.0, 5.0]]))
    assert np.array(gap["sd"]) == pytest.approx(2 * np.ones((2, 2)))
