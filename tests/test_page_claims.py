"""What the prose says about measured results holds in the committed measurements.

The pages never type an experiment's numbers (they live in generated figures and tables), but
they do describe them in words: "the faster of the two", "read best above layer 1", "several
times more gradient". Each test below quotes such a claim and checks it against the data the
site is built from (docs/generated), or, for the examples stacklib computes, against stacklib.
After a regeneration that breaks one of them, fix the prose, not the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stacklib.examples import gradient_path_growth
from stacklib.numpy import StackedRNN

GENERATED = Path(__file__).resolve().parents[1] / "docs" / "generated"


def _load(name):
    return json.loads((GENERATED / name).read_text())


def test_verdict_latency_claims():
    """§10 "The latency row, measured" (docs/10-verdict.md)."""
    runs = _load("experiments/latency.json")["runs"]
    by = {(r["scale"], r["batch"]): r for r in runs}
    assert set(by) == {("trained", 1), ("trained", 32), ("seed", 1), ("seed", 32)}
    for r in runs:  # "×3 holds against one layer of the same width"
        assert 2.0 <= r["ratio_deep_narrow1"] <= 3.5, r
    assert by["seed", 1]["ratio_deep_wide"] < 1.0  # "one sequence at a time, the faster"
    assert 0.8 <= by["seed", 32]["ratio_deep_wide"] <= 1.25  # "took about the same time"
    for b in (1, 32):  # trained sizes: "slower, but by much less than three times"
        assert 1.0 < by["trained", b]["ratio_deep_wide"] < 2.5


def test_lens_probe_claims():
    """§02 under the lenses, and §06 "check the story against the data"."""
    lenses = _load("data/lenses.json")
    acc, feats = lenses["accuracy"], lenses["features"]
    assert lenses["probe_layers"][1:] == ["layer 1", "layer 2", "layer 3"]
    for name in ("pos", "word_number"):  # "surface properties are readable from every layer"
        assert min(acc[name][1:]) >= feats[name]["majority"] + 0.2, name
    plain, mismatch = acc["subject_number"], acc["subject_number_mismatch"]
    # "already fairly readable from layer 1": well above the majority class
    assert plain[1] >= feats["subject_number"]["majority"] + 0.2
    # "read best above it, and the gain is largest right after a mismatched attractor,
    # exactly where layer 1 is most often fooled"
    gain = {k: max(v[2:]) - v[1] for k, v in (("plain", plain), ("mismatch", mismatch))}
    assert gain["plain"] > 0 and gain["mismatch"] > gain["plain"], gain
    assert mismatch[1] < plain[1]


def test_live_stack_speed_claims():
    """§06: "the two layers move by similar amounts from word to word", and the note: this model
    does not show a slower upper layer at all."""
    for probe in _load("data/live_stack.json")["probes"]:
        h = np.asarray(probe["h"])  # (layers, words, H)
        assert h.shape[0] == 2
        moves = np.abs(np.diff(h, axis=1)).mean(axis=(1, 2))  # mean |Δh| per word, per layer
        assert 0.9 <= moves[1] / moves[0] <= 1.5, (probe["text"], moves)


def test_vanishing_measured_panel_claims():
    """§09's last paragraph, about the measured panels at the deepest stacks (8 layers)."""
    v = _load("data/vanishing.json")
    depth = str(max(v["depths"]))
    assert depth == "8"
    bottom = {(c, var): v["measured"][c][var][depth] for c in v["cells"] for var in v["variants"]}
    for cell in v["cells"]:
        plain = bottom[cell, "plain"]
        assert plain[0] < 0.05, cell  # "loses the gradient by orders of magnitude"
        # "layer norm alone slows the decay without stopping it"
        assert plain[0] < bottom[cell, "layer_norm"][0] < 1.0, cell
        # "the residual connection holds every layer within a hair of the top layer's level or
        # above it, at every depth measured" (and §09's "nothing decays geometrically any more")
        for depth_runs in v["measured"][cell]["residual"].values():
            assert min(depth_runs) >= 0.99, cell
        # "with layer norm added, the bottom ... receives several times more gradient than the top"
        assert bottom[cell, "residual_layer_norm"][0] >= 3.0, cell
    # "the LSTM even faster than the tanh RNN"
    assert bottom["lstm", "plain"][0] < bottom["rnn", "plain"][0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_growth_example_claims(seed):
    """§09 under the growth table: "the stack's number is not the smaller one ... its upper
    layers, fed bounded states instead of raw inputs, saturate less"."""
    g = gradient_path_growth(hidden_size=32, seq_len=50, num_layers=3, seed=seed)
    assert g["deep"]["grad_norm_first_step_bottom"] > g["shallow"]["grad_norm_first_step_bottom"]
    assert g["shallow"]["grad_norm_first_step_bottom"] < 1e-10  # "next to nothing"
    stack = StackedRNN(32, 32, 3, cell="rnn", dtype=np.float64, seed=seed)  # the example's
    out = stack(np.random.default_rng(seed).standard_normal((50, 32)))  # stack and input
    slope = [float(np.mean(1.0 - h**2)) for h in out.h]  # mean tanh' per layer
    assert slope[0] < min(slope[1:]), slope


def test_price_fan_in_claim():
    """§05: the fan-in "changes from D to H exactly once, above layer 1 — up at these defaults"."""
    d = _load("data/params.json")["defaults"]
    assert d["input_size"] < d["hidden_size"]
