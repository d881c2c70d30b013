"""The pages' sentences about eight layers in the tuned study, held to its generated data
(docs/generated/data/tuned_deep.json: scripts/study/tuned_summary.deep_summary)."""

from __future__ import annotations

import math

import pytest
from claim_sources import generated

from scripts.study import tuned


@pytest.fixture(scope="module")
def deep() -> dict:
    return generated("data/tuned_deep.json")


def _shape(deep: dict, residual: bool) -> dict:
    return next(d for d in deep["shapes"].values() if d["residual"] == residual)


def _ratios(d: dict) -> list[float]:
    """Layer 1's weight-gradient norm over the top layer's at every recorded step of every
    seed."""
    return [w[0] / w[-1] for h in d["curves"] for w in h["weight_grad"]]


def test_the_runs_are_the_ones_described(deep):
    """§09 "Eight layers, trained to the end": "plain and residual, three seeds each, until
    validation stopped improving. Each took the rate that §10's search chose for its three-layer
    shape, and a forget-gate bias of one"; the note: "A run stops after three scores in a row
    without a new best"."""
    winners = generated("data/tuned_search.json")["winners"]
    for residual, three in ((False, tuned.PLAIN), (True, tuned.RESIDUAL)):
        d = _shape(deep, residual)
        assert (d["layers"], len(d["seeds"])) == (8, 3)
        assert d["lr"] == winners[three]["lr"] and d["forget_bias"] == 1.0
        assert set(d["stopped"]) == {"patience"}
    assert deep["stopping"]["patience"] == 3


def test_eight_plain_layers_learned_nothing_beyond_letter_frequencies(deep):
    """"In every seed, their training and validation scores stayed at the unigram
    baseline" (home, §12: "eight plain layers did not train")."""
    plain, unigram = _shape(deep, False), deep["unigram_bpc"]
    for h in plain["curves"]:
        assert all(abs(v - unigram) < 0.05 for v in h["train_bpc"] + h["val_bpc"])
    assert all(abs(v - unigram) < 0.01 for v in plain["test_bpc"]["values"])


def test_in_the_plain_stack_layer_1_stayed_eleven_orders_below_the_top(deep):
    """"Layer 1's gradient stayed about eleven orders of magnitude below layer 8's
    throughout"."""
    ratios = _ratios(_shape(deep, False))
    assert all(10 <= -math.log10(r) < 13 for r in ratios)       # each step: within ~1.5
    assert round(-math.log10(_shape(deep, False)["gradients"]["bottom_over_top"]["mean"])) == 11


def test_eight_residual_layers_trained_and_their_layer_1_heard_the_loss(deep):
    """"Eight residual layers trained in every seed, and their layer 1 received a few times the
    top layer's gradient"; the table's note: residual ahead of plain."""
    residual, unigram = _shape(deep, True), deep["unigram_bpc"]
    assert all(h["train_bpc"][-1] < unigram - 2 for h in residual["curves"])
    assert 2 <= residual["gradients"]["bottom_over_top"]["mean"] < 10
    assert sum(1 <= r for r in _ratios(residual)) / len(_ratios(residual)) > 0.9
    assert deep["residual_minus_plain"]["verdict"] == "ahead"


def test_no_rate_tried_trained_eight_plain_layers(study, deep):
    """§09: "three rates, from below the residual stack's to above it, all failed"; home and its
    card: "at any of three learning rates"; §12: "None of three rates" (the one-recipe study's
    short runs at its own rate and a lower one, and the tuned runs)."""
    short = {float(lr): v["mean"] for lr, v in study["lr"]["val_bpc"]["8"].items()}
    rates = {**short, _shape(deep, False)["lr"]: _shape(deep, False)["val_bpc"]["mean"]}
    assert len(rates) == 3
    assert all(abs(v - deep["unigram_bpc"]) < 0.05 for v in rates.values())
    assert min(rates) < _shape(deep, True)["lr"] < max(rates)


def test_layer_1s_gradient_stayed_far_under_adams_epsilon(deep):
    """The note: "Adam [...] divides each weight's step by the recent size of its gradient plus
    a small constant, ε = 10⁻⁸ [...] the norm of layer 1's whole weight gradient stayed below
    10⁻¹², far under ε"."""
    import inspect

    import torch

    from stacklib.lm import train

    source = inspect.getsource(train)
    assert "torch.optim.Adam(" in source and "eps=" not in source       # torch's default ε
    eps = inspect.signature(torch.optim.Adam).parameters["eps"].default
    assert eps == 1e-8
    plain = _shape(deep, False)
    assert max(w[0] for h in plain["curves"] for w in h["weight_grad"]) < 1e-12 < eps / 1000
