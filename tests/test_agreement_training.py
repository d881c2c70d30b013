"""The toy experiments' training (stacklib.experiments.agreement): batches of whole sentences,
padding never scored, the error rate as the loop's score, agreement read at the verb, and the
states and embeddings the probes read.

Each test states a property a plausible slip breaks: a batch cut short of (or beyond) its
longest sentence, padding scored as a word, a score that is not 1 - agreement, the verb read
one position off, a state read one word off, a model remembered with other weights.
"""

from __future__ import annotations

import dataclasses
import math
import time
import warnings

import numpy as np
import pytest
import torch
from torch import nn

from stacklib import data
from stacklib.experiments import agreement
from stacklib.experiments.agreement import IGNORED, AgreementJob, evaluate, sentence_batches
from stacklib.lm.model import LM, LMConfig
from stacklib.lm.states import flat_weights
from stacklib.lm.text import LN2

SENTENCES = data.make_splits(4000, 1000, 0)[0][:40]
TINY = AgreementJob(num_layers=2, hidden_size=8, embed_size=8, steps=20, n_train=200,
                    n_heldout=200, curve_every=10, n_curve=60)


def test_a_batch_is_whole_sentences_cut_after_the_longest_with_padding_unscored():
    x_all, y_all = data.batch(SENTENCES)
    batches = sentence_batches(SENTENCES, batch_size=6, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(8):
        inputs, targets, carry = next(batches)
        rows = rng.integers(0, len(SENTENCES), 6)            # drawn with replacement
        lengths = [len(SENTENCES[i].tokens) for i in rows]
        assert not carry                                      # every sentence from zeros
        assert inputs.shape == targets.shape == (6, max(lengths))
        assert torch.equal(inputs, torch.from_numpy(x_all[rows, : max(lengths)]))
        for b, (i, n) in enumerate(zip(rows, lengths, strict=True)):
            assert targets[b, :n].tolist() == y_all[i, :n].tolist()
            assert (targets[b, n:] == IGNORED).all()          # padding: not a word to predict


def test_the_loop_scores_no_padding():
    """One step on sentences of unequal length: the loss is the mean over their words only."""
    job = dataclasses.replace(TINY, steps=1, curve_every=1)
    inputs, targets, _ = next(sentence_batches(SENTENCES[:4], 4, 0))
    _, hist = agreement.train(job.model_config(), job.train_config(),
                              iter([(inputs, targets, False)]), lambda model: 0.0)
    torch.manual_seed(job.seed)
    with torch.no_grad():
        logits, _ = LM(job.model_config())(inputs)
    words = targets != IGNORED
    assert not words.all()                                    # the batch holds padding
    nll = nn.functional.cross_entropy(logits[words], targets[words])
    assert hist.train_bits[0] == pytest.approx(float(nll) / LN2, rel=1e-6)


def test_the_job_is_the_models_and_the_loops_configuration():
    job = dataclasses.replace(TINY, stop_at=0.95, lr=0.02, seed=4, threads=2, batch_size=16,
                              residual=True, cell="gru", num_layers=3)
    cfg = job.train_config()
    assert (cfg.eval_every, cfg.max_steps, cfg.lr, cfg.seed) == (10, 20, 0.02, 4)
    assert (cfg.batch_size, cfg.threads) == (16, 2)
    assert cfg.goal == pytest.approx(0.05) and TINY.train_config().goal is None
    assert job.model_config() == LMConfig.of(len(data.VOCAB), 8, 8, 3, residual=True, cell="gru")
    with pytest.raises(ValueError, match="hidden_size"):
        AgreementJob(hidden_size=0)


def test_the_score_is_the_error_rate_on_the_jobs_language_and_the_best_model_is_kept():
    job = dataclasses.replace(TINY, data_seed=1)
    agreement.forget()
    model, hist = agreement.train_lm(job)
    assert agreement.train_lm(job)[0] is model              # memoised per job
    curve = data.make_splits(4000, job.n_heldout, job.data_seed)[1][: job.n_curve]
    assert 1 - evaluate(model, curve)["agreement"] == pytest.approx(min(hist.scores))
    agreement.forget()


def test_the_held_out_score_runs_on_the_jobs_threads():
    """Training and scoring both run on the job's threads: the score is not left to
    ``evaluate``'s default of one."""
    job = dataclasses.replace(TINY, threads=2, steps=2, curve_every=1)
    seen = set()
    hook = nn.modules.module.register_module_forward_pre_hook(
        lambda *_: seen.add(torch.get_num_threads()))
    try:
        _, hist, *_ = agreement.train_state(job)
    finally:
        hook.remove()
    assert len(hist.scores) == 2 and seen == {2}


def test_the_training_subset_is_a_seeded_sample_of_the_jobs_training_split():
    job = dataclasses.replace(TINY, data_seed=1, seed=3)
    split = data.make_splits(4000, job.n_heldout, job.data_seed)[0]
    subset = agreement.train_subset(job)
    assert len(subset) == job.n_train and agreement.train_subset(job) == subset
    order = [split.index(s) for s in subset]
    assert order == sorted(order)                            # in the split's order
    assert subset != agreement.train_subset(dataclasses.replace(job, seed=4))
    assert agreement.train_subset(dataclasses.replace(job, n_train=4000)) == split


def test_agreement_is_read_at_the_verb():
    torch.manual_seed(0)
    model = LM(TINY.model_config()).eval()
    sentences = data.make_splits(4000, 1000, 0)[1][:50]
    res = evaluate(model, sentences)
    x, y = data.batch(sentences)
    with torch.no_grad():
        logits, _ = model(torch.from_numpy(x))
    ok = [float(logits[b, s.verb_index, data.WORD_TO_ID[s.tokens[s.verb_index]]]
                > logits[b, s.verb_index, data.WORD_TO_ID[s.wrong_verb]])
          for b, s in enumerate(sentences)]
    mism = [s.mismatch for s in sentences]
    assert res["agreement"] == pytest.approx(np.mean(ok))
    assert res["agreement_mismatch"] == pytest.approx(np.mean(np.array(ok)[mism]))
    assert (res["n"], res["n_mismatch"]) == (50, sum(mism))
    words = torch.from_numpy(y) != data.PAD
    assert res["loss"] == pytest.approx(float(nn.functional.cross_entropy(
        logits[words], torch.from_numpy(y)[words])), rel=1e-6)


def _model(residual=False):
    torch.manual_seed(0)
    return LM(dataclasses.replace(TINY, residual=residual).model_config()).eval()


def test_the_probes_read_each_layers_state_after_each_word_and_each_words_embedding():
    model, sentences = _model(residual=True), SENTENCES[:6]
    h, c, mask = agreement.layer_states(model, sentences)
    emb = agreement.embeddings(model, sentences)
    longest = max(len(s.tokens) for s in sentences)           # one column per word, no more
    assert h.shape[2] == c.shape[2] == mask.shape[1] == emb.shape[1] == longest
    for b, s in enumerate(sentences):
        ids = torch.tensor([[data.BOS, *data.encode(s.tokens)]])  # the sentence alone
        n = len(s.tokens)
        assert mask[b].sum() == n and mask[b, :n].all()
        with torch.no_grad():
            hidden, _, final = model.run(ids)
            np.testing.assert_allclose(emb[b, :n], model.embed(ids[0, 1:]).numpy())
        for k, layer in enumerate(hidden):                    # h, not the residual sum
            np.testing.assert_allclose(h[k, b, :n], layer[0, 1:].numpy(), rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(c[k, b, n - 1], final[k][1][0, 0].numpy(), rtol=1e-5,
                                       atol=1e-6)             # the last word's cell state


def test_the_flat_weights_are_torch_nn_names_of_the_layers_own_weights():
    model = _model()
    flat = flat_weights(model)
    assert set(flat) == set(nn.LSTM(8, 8, num_layers=2).state_dict())
    assert flat["weight_hh_l1"] is model.layers[1].weight_hh_l0
    assert agreement.recurrent_params(model) == sum(p.numel() for p in flat.values())


def test_a_model_trained_elsewhere_is_remembered_as_it_was_trained():
    job = dataclasses.replace(TINY, steps=2, curve_every=1, seed=5)
    started, cpu = time.perf_counter(), time.process_time()
    state, hist, wall_s, cpu_s = agreement.train_state(job)
    # the run's own durations: within the caller's
    assert 0 < wall_s <= time.perf_counter() - started
    assert 0 < cpu_s <= time.process_time() - cpu
    agreement.forget()
    agreement.remember(job, state, hist)
    model, remembered = agreement.train_lm(job)
    assert remembered is hist and not model.training
    assert all(np.array_equal(v.numpy(), state[k]) for k, v in model.state_dict().items())
    agreement.forget()


def test_agreement_on_mismatched_cases_is_nan_without_any_quietly():
    matched = [s for s in data.make_splits(4000, 1000, 0)[1] if not s.mismatch][:10]
    with warnings.catch_warnings():
        warnings.simplefilter("error")                        # no mean of an empty slice
        res = evaluate(_model(), matched)
    assert res["n_mismatch"] == 0 and math.isnan(res["agreement_mismatch"])


def test_a_tie_between_the_two_verbs_is_not_agreement():
    model = _model()
    with torch.no_grad():                                     # every word scored alike
        model.readout.weight.zero_()
        model.readout.bias.zero_()
    res = evaluate(model, data.make_splits(4000, 1000, 0)[1][:20])
    assert res["agreement"] == 0.0 and res["agreement_mismatch"] == 0.0
