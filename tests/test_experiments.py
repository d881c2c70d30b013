"""The agreement language and tiny end-to-end runs of every experiment.

Margins are stated where they are asserted. Wall-clock time is measured, never asserted.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import torch
from claim_sources import DOCS

from stacklib import data
from stacklib.config import param_name
from stacklib.experiments import agreement
from stacklib.experiments.budget import lstm_params
from stacklib.experiments.depth_data import DepthDataConfig, depth_data
from stacklib.experiments.depth_width import DepthWidthConfig, depth_vs_width
from stacklib.experiments.gradient_flow import GradientFlowConfig, grad_norms, gradient_flow
from stacklib.experiments.latency import LatencyConfig, latency
from stacklib.experiments.probes import ProbesConfig, layer_probes
from stacklib.experiments.stacks import StacksConfig, trained_stacks
from stacklib.params import count_params

MARGIN = 0.25   # the tiny live stack must beat chance (0.5) by this on held-out attractor cases


@pytest.fixture(scope="module")
def stacks():
    return trained_stacks(StacksConfig.tiny())


# ---------------------------------------------------------------- the language
def test_generator_is_deterministic():
    a = data.make_splits.__wrapped__(300, 100, 3)
    b = data.make_splits.__wrapped__(300, 100, 3)
    assert a == b
    assert a != data.make_splits.__wrapped__(300, 100, 4)


def test_splits_are_disjoint_and_hold_out_attractor_pairs():
    train, test = data.make_splits(4000, 1000, 0)
    assert len(train) == 4000 and len(test) == 1000
    assert not {s.text for s in train} & {s.text for s in test}
    held = data.heldout_pairs(0)
    assert all(s.pair not in held for s in train if s.attractors)
    assert sum(s.mismatch for s in test) >= 300          # held-out attractor cases exist


def test_probes_are_in_the_language_and_never_trained_on():
    train, _ = data.make_splits(4000, 1000, 0)
    texts = {s.text for s in train}
    for probe in data.PROBES:
        s = data.parse(probe)
        assert set(s.tokens) <= set(data.VOCAB)
        assert s.text not in texts and s.mismatch
    # the pages' attractor example: a plural subject, a singular noun right before the verb
    s = data.parse(data.PROBES[0])
    assert s.subject_number == data.PL and s.attractors == (s.verb_index - 1,)
    assert s.number[s.attractors[0]] == data.SG
    # the probe sentences the pages quote are the ones the models are probed with
    quoted = {q for page in DOCS.glob("*.md") for q in
              re.findall(r'<p class="probe">“(.+?)”</p>', page.read_text(encoding="utf-8"))}
    assert quoted and quoted <= set(data.PROBES), quoted


def test_every_sentence_agrees_and_parses_back():
    train, _ = data.make_splits(4000, 1000, 0)
    for s in train[:500]:
        verb = s.tokens[s.verb_index]
        assert s.number[s.verb_index] == s.subject_number and verb != s.wrong_verb
        assert data.parse(s.text) == s
    with pytest.raises(ValueError, match="text"):
        data.tokenize("the keys to the galaxy")


def test_batch_shapes():
    sents = data.make_splits(4000, 1000, 0)[0][:5]
    x, y = data.batch(sents)
    assert x.shape == y.shape and (x[:, 0] == data.BOS).all()
    for b, s in enumerate(sents):
        n = len(s.tokens)
        assert list(y[b, :n]) == data.encode(s.tokens) and (y[b, n:] == data.PAD).all()
        assert (x[b, 1:n] == y[b, : n - 1]).all() and (x[b, n:] == data.PAD).all()


# ---------------------------------------------------------------- gradient norms
def test_gradient_norms_match_torch_autograd():
    """grad_norms (via stacklib.numpy's BPTT) against autograd through stacklib.torch."""
    cfg = GradientFlowConfig(seq_len=5, hidden_size=4, input_size=4, batch=3)
    ours = grad_norms("lstm", "residual", 3, cfg, seed=0)          # (T, L)
    torch.manual_seed(0)
    state = torch.nn.LSTM(4, 4, 3).double().state_dict()
    cells = []
    for k in range(3):  # one torch.nn.LSTMCell per layer, same weights: an independent oracle
        cell = torch.nn.LSTMCell(4, 4).double()
        cell.load_state_dict({p: state[param_name(p, k)] for p in
                              ("weight_ih", "weight_hh", "bias_ih", "bias_hh")})
        cells.append(cell)
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(5, 3, 4, generator=gen).double()
    r = (torch.randn(4, generator=gen) / 2.0).double()
    hc = [(torch.zeros(3, 4, dtype=torch.float64),) * 2 for _ in range(3)]
    hs = []
    for t in range(5):
        inp = x[t]
        for k in range(3):
            h, c = cells[k](inp, hc[k])
            h.retain_grad()
            hc[k] = (h, c)
            hs.append(h)
            inp = h + inp if k >= 1 else h  # residual from layer 2 on
    (inp @ r).mean().backward()
    want = np.array([h.grad.norm(dim=-1).pow(2).mean().sqrt().item() for h in hs]).reshape(5, 3)
    np.testing.assert_allclose(ours, want, rtol=1e-10)


# ---------------------------------------------------------------- experiments
def check_meta(result, name):
    assert result["name"] == name and isinstance(result["duration_s"], float)
    assert set(result["versions"]) == {"numpy", "stacklib", "torch"}
    json.dumps(result, allow_nan=True)                     # plain data only


def test_trained_stacks_export_the_shapes_the_widgets_expect(stacks):
    check_meta(stacks, "stacks")
    assert [p["text"] for p in stacks["probes"]] == list(data.PROBES)
    for name, layers in (("hero", 3), ("live", 2)):
        model = stacks["models"][name]
        assert model["num_layers"] == layers
        for info, run in zip(stacks["probes"], model["probes"], strict=True):
            words = len(data.tokenize(info["text"]))
            assert len(info["words"]) == len(info["tokens"]) == len(info["pos"]) == words
            for key in ("h", "c"):
                assert np.shape(run[key]) == (layers, words, model["hidden_size"])
            lamp = np.array(run["lamp"])
            assert lamp.shape == np.shape(run["mean_abs_h"]) == (layers, words)
            assert (lamp > 0).all() and np.allclose(lamp.max(1), 1.0)
            assert 0.0 <= run["verb"]["p_correct"] <= 1.0


def test_trained_live_stack_beats_chance_on_heldout_attractors(stacks):
    held = stacks["models"]["live"]["heldout"]
    assert held["n_mismatch"] >= 100
    assert held["agreement_mismatch"] >= 0.5 + MARGIN
    assert stacks["models"]["live"]["probes"][0]["verb"]["p_correct"] > 0.5


def test_training_is_deterministic():
    job = agreement.AgreementJob(num_layers=2, hidden_size=8, embed_size=8, steps=20, n_train=200,
                                 curve_every=10)
    a_state, a_hist, *_ = agreement.train_state(job)
    b_state, b_hist, *_ = agreement.train_state(job)
    assert a_hist.scores == b_hist.scores and len(a_hist.scores) == 2
    assert all(np.array_equal(a_state[k], b_state[k]) for k in a_state)


def test_probes_per_layer(stacks):
    res = layer_probes(ProbesConfig.tiny())
    check_meta(res, "probes")
    for name, layers in (("hero", 3), ("live", 2)):
        model = res["models"][name]
        acc = model["accuracy"]
        assert all(len(v) == layers + 1 and all(0 <= a <= 1 for a in v) for v in acc.values())
        # one trained model per seed; the mean and SD are over them
        assert model["seeds"] == [0, 1] and len(model["mean_abs_dh"]) == 2
        assert all(len(m) == layers and min(m) > 0 for m in model["mean_abs_dh"])
        for f, runs in model["accuracy_per_seed"].items():
            np.testing.assert_allclose(np.mean(runs, axis=0), acc[f])
            np.testing.assert_allclose(np.std(runs, axis=0), model["accuracy_sd"][f])
        assert model["accuracy_per_seed"]["pos"][0] != model["accuracy_per_seed"]["pos"][1]
    feats = res["features"]
    # a surface feature is linearly readable from the word embedding: 0.2 above the majority
    assert res["models"]["live"]["accuracy"]["pos"][0] >= feats["pos"]["majority"] + 0.2
    # the trained live stack carries the subject's number across the attractor (layer >= 1)
    assert max(res["models"]["live"]["accuracy"]["subject_number"][1:]) >= 0.5 + MARGIN


def test_depth_vs_width_matches_parameters():
    for biases, framework in ((1, "keras"), (2, "torch")):          # the seed's table
        assert lstm_params(300, 256, 3, biases=biases) == count_params("lstm", 300, 256, 3,
                                                                       framework=framework)
    res = depth_vs_width(DepthWidthConfig.tiny())
    check_meta(res, "depth_width")
    p = res["params"]
    assert abs(p["deep"] - p["wide"]) / p["deep"] < 0.03
    for arm in ("deep", "wide"):
        t = res["training"][arm]
        assert len(t["heldout_agreement"]) == 1 and 0 <= t["mean"] <= 1
        assert len(t["curve"]["step"]) == len(t["curve"]["heldout_agreement_mean"]) == 3


def test_latency_times_the_configured_stacks():
    """The three stacks are the ones compared (equal budget, equal width); the times are
    measured, never asserted."""
    cfg = LatencyConfig.tiny()
    res = latency(cfg)
    check_meta(res, "latency")
    for run, (_, inp, hid, layers, _, batch, seq_len) in zip(res["runs"], cfg.cases, strict=True):
        wide = run["hidden"]["wide"]
        assert run["hidden"] == {"wide": wide, "deep": hid, "narrow1": hid}
        deep_params = lstm_params(inp, hid, layers)
        assert all(abs(lstm_params(inp, w, 1) - deep_params)
                   >= abs(lstm_params(inp, wide, 1) - deep_params) for w in (wide - 1, wide + 1))
        assert (run["batch"], run["seq_len"], run["layers_deep"]) == (batch, seq_len, layers)


def test_depth_data_grid():
    cfg = DepthDataConfig.tiny()
    res = depth_data(cfg)
    check_meta(res, "depth_data")
    assert len(res["runs"]) == len(cfg.depths) * len(cfg.sizes) * len(cfg.seeds)
    for metric in res["summary"].values():
        assert np.shape(metric["mean"]) == np.shape(metric["std"]) == (2, 2)
    gap = np.array(res["summary"]["gap_loss"]["mean"])
    assert (gap[:, 0] > 0).all()          # 20 sentences: held-out loss above training loss


def test_residual_raises_the_minimum_gradient_across_8_layers():
    res = gradient_flow(GradientFlowConfig.tiny())
    check_meta(res, "gradient_flow")
    cfg = GradientFlowConfig.tiny()
    for cell in cfg.cells:
        by = {r["variant"]: r for r in res["runs"] if r["cell"] == cell and r["depth"] == 8}
        assert np.shape(by["plain"]["norm"]) == (cfg.seq_len, 8)
        assert by["residual"]["min_last_step"] > by["plain"]["min_last_step"]
        assert by["plain"]["layer_factor"] < 1.0


def test_runner_writes_stable_json_and_caches(tmp_path):
    from scripts.experiments.runner import run

    logged: list[str] = []
    args = {"docs": tmp_path, "tiny": True, "workers": 1, "log": logged.append}
    assert run(["gradient_flow"], **args) == ["gradient_flow"]
    folder = tmp_path / "generated" / "experiments"
    first = (folder / "gradient_flow.json").read_text()
    assert "duration_s" not in first and json.loads(first)["name"] == "gradient_flow"
    assert "duration_s" in (folder / "_timings.json").read_text()
    assert run(["gradient_flow"], **args) == []
    assert logged[-1].endswith("1 cached")
    assert (folder / "gradient_flow.json").read_text() == first
