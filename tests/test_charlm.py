"""The Shakespeare study's analyses of a trained model, and its plan."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch
from toy_text import VOCAB, toy_text

from scripts.study import plan as study
from stacklib.charlm import analysis
from stacklib.corpus import shakespeare
from stacklib.lm.model import LM, LMConfig


def _model(layers=3, residual=False, vocab=VOCAB):
    torch.manual_seed(0)
    return LM(LMConfig.of(vocab, embed_size=5, hidden_size=8, num_layers=layers,
                          residual=residual)).eval()


def test_timescales_and_step_sizes_have_one_entry_per_layer():
    model = _model(layers=2)
    cfg = analysis.TimescaleConfig(positions=6, context=10, horizon=7)
    out = analysis.timescales(model, toy_text(500), cfg)
    for state in ("h", "c"):
        assert np.shape(out[state]["curve"]) == (2, 7)
        for curve, half, peak in zip(out[state]["curve"], out[state]["half_life"],
                                     out[state]["peak"], strict=True):
            assert curve[peak] == max(curve) and curve[peak] > 0
            assert half is None or curve[peak + half] <= curve[peak] / 2
    assert len(analysis.step_sizes(model, toy_text(500))) == 2
    with pytest.raises(ValueError, match="too few"):
        analysis.timescales(model, toy_text(20), cfg)


def test_sampling_is_seeded():
    model, prompt = _model(), toy_text(5)
    a = analysis.sample(model, prompt, 20, 0.7, seed=3)
    assert np.array_equal(a, analysis.sample(model, prompt, 20, 0.7, seed=3))
    assert a.shape == (20,) and a.min() >= 0 and a.max() < VOCAB
    with pytest.raises(ValueError, match="temperature"):
        analysis.sample(model, prompt, 5, 0.0, seed=0)


def test_equal_budget_widths_are_within_two_percent():
    reference = LMConfig.of(77, embed_size=64, hidden_size=128, num_layers=3)
    for layers, cell in ((1, "lstm"), (2, "lstm"), (4, "lstm"), (1, "gru"), (3, "gru")):
        width = study.budget_width(reference, layers, cell=cell)
        model = reference.replace(num_layers=layers, hidden_size=width, cell=cell)
        assert abs(study.stack_params(model) / study.stack_params(reference) - 1) <= 0.02
        assert abs(study.total_params(model) / study.total_params(reference) - 1) <= 0.03
    with pytest.raises(ValueError, match="no width of 1 layers is within 0%"):
        study.budget_width(LMConfig.of(77, 8, 12, 3), 1, tolerance=1e-4)


def test_each_scale_budgets_shapes_cost_the_same_and_span_eight_times():
    runs = [r for r in study.plan(76) if r.group == "scale" and r.job.train.seed == 0]
    budgets: dict[float, list] = {}
    for r in runs:
        deep = [s for s in runs if s.job.model.num_layers == 3 and s.job.model.residual]
        ref = min(deep, key=lambda s: abs(study.total_params(s.job.model)
                                          - study.total_params(r.job.model)))
        budgets.setdefault(study.stack_params(ref.job.model), []).append(r.job.model)
    reference = study.total_params(study.base_job(76).model.replace(num_layers=3))
    totals = sorted(study.total_params(min(ms, key=lambda m: m.num_layers)) / reference
                    for ms in budgets.values())
    assert [round(t, 1) for t in totals] == [0.3, 0.5, 2.0] and len(runs) == 10
    for stack, models in budgets.items():
        assert all(abs(study.stack_params(m) / stack - 1) <= 0.02 for m in models)


def test_the_plan_trains_every_configuration_with_three_seeds():
    runs = study.plan(77)
    names = [r.name for r in runs]
    assert len(names) == len(set(names))
    def unseeded(job, **changes):
        return dataclasses.replace(job, train=dataclasses.replace(job.train, seed=0, **changes))

    configs = {}
    for r in runs:
        configs.setdefault(unseeded(r.job), set()).add(r.job.train.seed)
    assert all(seeds == set(study.SEEDS) for seeds in configs.values())
    assert {r.group for r in runs} == {"depth", "budget", "data", "deep", "lr", "scale", "cell"}
    # depth x data: the subsets, and the full training set through the depth group's runs of
    # the same stacks, together span >= 30x
    sizes = sorted({r.job.train_chars for r in runs if r.group == "data"})
    full = {unseeded(r.job) for r in runs if r.group == "depth"}
    for r in runs:
        if r.group == "data":
            whole = dataclasses.replace(r.job, train_chars=None)
            assert unseeded(whole, eval_every=study.base_job(77).train.eval_every) in full
    assert len(shakespeare().train.text) / sizes[0] >= 30 > sizes[-1] / sizes[0]
    headline = study.headline(runs)
    reference = study.base_job(76).model.replace(num_layers=study.REFERENCE_LAYERS)
    assert len(headline) == 6 and not any(r.job.model.residual for r in headline)
    assert {(r.job.model.num_layers, r.job.model.hidden_size) for r in headline} == {
        (1, study.budget_width(reference, 1)), (study.REFERENCE_LAYERS, 128)}


def test_play_scores_read_each_test_play_apart():
    from stacklib.charlm.plays import play_bpc
    from stacklib.corpus import plays
    from stacklib.lm.text import bits_per_token

    corpus = shakespeare()
    model = _model(3, vocab=len(corpus.vocab))
    scores = play_bpc(model, corpus, limit=600)
    assert list(scores) == list(corpus.test.names)
    first = corpus.test.names[0]
    assert scores[first] == bits_per_token(model, corpus.encode(plays()[first][:600]))
    assert len(set(scores.values())) == len(scores)     # each play read on its own
