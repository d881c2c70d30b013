"""stacklib.lm.train: the one training loop every experiment trains through.

The loop is checked against the same steps written out by hand, and its stopping rules against
scripted scores (a score function that hands out a fixed sequence), so each rule is seen to act
at the step it should: a score due at ``max_steps`` between two intervals, a tie that is not a
new best, a score exactly at the goal.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pytest
import torch
from torch import nn
from toy_text import VOCAB, toy_text

from stacklib.lm.model import LM, LMConfig, detach
from stacklib.lm.text import LN2, bits_per_token, training_batches
from stacklib.lm.train import TrainConfig, train

TINY = LMConfig.of(VOCAB, embed_size=3, hidden_size=4, num_layers=1)  # for scripted scores
MODEL = LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=2)
TEXT = toy_text(400)


def _cfg(**kw):
    base = dict(lr=1e-2, batch_size=2, seq_len=4, max_steps=50, eval_every=1, patience=None,
                lr_decay=0.5)
    return TrainConfig(**{**base, **kw})


def _batches(cfg, text=TEXT):
    return training_batches(text, cfg.batch_size, cfg.seq_len, cfg.seed)


def _scripted(scores):
    """A score function that hands out ``scores`` in turn, and the models it was shown."""
    shown = []

    def score(model):
        if len(shown) == len(scores):
            pytest.fail(f"scored more than the {len(scores)} scripted times")
        shown.append({k: v.clone() for k, v in model.state_dict().items()})
        return scores[len(shown) - 1]

    return score, shown


# ------------------------------------------------------------------- the loop, by hand
def _norm(tensors):
    return float(torch.cat([t.reshape(-1) for t in tensors]).norm())


def _by_hand(model_cfg, cfg, batches):
    """``train``'s steps written out: the final weights, and per step the loss in bits and the
    gradient norms before clipping (whole model, each layer's weights, each layer's output)."""
    torch.manual_seed(cfg.seed)
    model = LM(model_cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    state, bits, grads = None, [], []
    for inputs, targets, carry in batches:
        if not carry:
            state = None                                       # a fresh start: zeros
        _, outputs, state = model.run(inputs, state)
        for u in outputs:
            u.retain_grad()
        logits = model.readout(outputs[-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        opt.zero_grad()
        loss.backward()
        state = detach(state)
        grads.append((_norm([p.grad for p in model.parameters()]),
                      [_norm([p.grad for p in layer.parameters()]) for layer in model.layers],
                      [_norm([u.grad]) for u in outputs]))
        nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
        opt.step()
        bits.append(loss.item() / LN2)
    return model, bits, grads


def test_the_loop_is_adam_with_clipping_and_truncated_bptt_across_epochs():
    """Seven steps of a three-layer model over epochs of two chunks each, scored every three
    steps and at the last: ``train`` against the same steps by hand."""
    cfg = _cfg(max_steps=7, eval_every=3, grad_every=2, clip=0.05, seed=3, device="cpu")
    model_cfg = LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=3)
    # 21 tokens in 2 streams of 9 or 10 columns, whatever the offset: two chunks of 4 an epoch
    batches = list(itertools.islice(_batches(cfg, toy_text(21)), 7))
    assert [carry for *_, carry in batches] == [False, True] * 3 + [False]
    score, _ = _scripted([3.0, 2.0, 1.0])                      # each a new best
    started = time.perf_counter()
    model, hist = train(model_cfg, cfg, iter(batches), score)
    elapsed = time.perf_counter() - started
    expected, bits, grads = _by_hand(model_cfg, cfg, batches)

    assert hist.steps == [3, 6, 7] and hist.steps_run == 7 and hist.stopped == "max_steps"
    # the training bits are the mean since the last score
    assert hist.train_bits == pytest.approx([np.mean(bits[:3]), np.mean(bits[3:6]), bits[6]])
    assert hist.lr == [cfg.lr] * 3 and hist.best_step == 7
    assert hist.grad_steps == [2, 4, 6]
    assert hist.grad_norm == pytest.approx([grads[k][0] for k in (1, 3, 5)])
    assert np.allclose(hist.weight_grad, [grads[k][1] for k in (1, 3, 5)])
    assert np.allclose(hist.output_grad, [grads[k][2] for k in (1, 3, 5)])
    assert np.shape(hist.weight_grad) == np.shape(hist.output_grad) == (3, 3)
    for name, p in expected.state_dict().items():
        torch.testing.assert_close(model.state_dict()[name], p)
    assert not model.training and next(model.parameters()).device == torch.device("cpu")
    assert 0 < hist.seconds <= elapsed                         # the loop's own duration


def test_an_unscored_run_returns_its_last_model():
    cfg = _cfg(max_steps=3, eval_every=0)
    model, hist = train(MODEL, cfg, _batches(cfg))
    expected, bits, _ = _by_hand(MODEL, cfg, itertools.islice(_batches(cfg), 3))
    assert hist.steps == hist.scores == hist.train_bits == [] and hist.best_step == 0
    assert hist.stopped == "max_steps" and hist.steps_run == 3 and len(bits) == 3
    for name, p in expected.state_dict().items():
        torch.testing.assert_close(model.state_dict()[name], p)


def test_training_is_a_pure_function_of_its_configuration_and_learns():
    val = toy_text(800, seed=1)
    cfg = _cfg(batch_size=4, seq_len=16, max_steps=40, eval_every=10, patience=2)

    def fit():
        return train(MODEL, cfg, _batches(cfg, toy_text(4000)), lambda m: bits_per_token(m, val))

    model, hist = fit()
    _, again = fit()
    assert hist.scores == again.scores
    assert hist.scores[-1] < hist.scores[0] < math.log2(VOCAB) + 0.5
    assert hist.steps == [10, 20, 30, 40] and hist.stopped == "max_steps"
    assert bits_per_token(model, val) == pytest.approx(min(hist.scores))  # the best one


# ------------------------------------------------------------------- the stopping rules
def test_patience_counts_misses_since_the_best_a_tie_is_a_miss_and_the_best_is_kept():
    score, shown = _scripted([3.0, 4.0, 2.0, 2.0, 2.5])
    model, hist = train(TINY, _cfg(patience=2), _batches(_cfg()), score)
    # a miss, a new best (the count starts again), a tie and a miss: two misses in a row
    assert hist.stopped == "patience" and hist.steps == [1, 2, 3, 4, 5]
    assert hist.lr == [1e-2, 1e-2, 5e-3, 5e-3, 2.5e-3]         # halved after each miss
    assert hist.best_step == 3                                 # the tie at 4 is not a new best
    assert all(torch.equal(v, shown[2][k]) for k, v in model.state_dict().items())


def test_a_first_score_of_infinity_is_one_miss_and_a_first_batch_carries_nothing():
    score, _ = _scripted([math.inf, 1.0, 2.0, 3.0])

    def first_marked_carry(batches):
        inputs, targets, _ = next(batches)
        yield inputs, targets, True                            # nothing before it to carry
        yield from batches

    _, hist = train(TINY, _cfg(patience=2), first_marked_carry(_batches(_cfg())), score)
    assert hist.stopped == "patience" and hist.steps == [1, 2, 3, 4]
    assert hist.best_step == 2


@pytest.mark.parametrize("scores, stop", [
    ([0.05, 0.05], 2),              # exactly at the goal counts; two scores are enough
    ([0.01, 0.5, 0.04, 0.05], 4),   # one score below is not; the two must be the latest two
])
def test_two_scores_in_a_row_at_or_below_the_goal_end_training(scores, stop):
    score, _ = _scripted(scores)
    _, hist = train(TINY, _cfg(goal=0.05), _batches(_cfg()), score)
    assert hist.stopped == "goal" and hist.steps_run == stop


def test_a_diverging_run_stops_and_says_so():
    # Adam moves each weight by about the rate a step: at 1e37, within a few dozen steps the
    # weights pass float32's largest value (3.4e38), on any machine
    cfg = _cfg(lr=1e37, clip=None, eval_every=0, max_steps=200, batch_size=4, seq_len=16)
    _, hist = train(LMConfig.of(VOCAB, 5, 5, 2, residual=True, cell="rnn"), cfg,
                    _batches(cfg, toy_text(4000)))
    assert hist.stopped == "diverged" and hist.steps_run < 200


# ------------------------------------------------------------------- the configuration
@pytest.mark.parametrize("field, value, error", [
    ("lr", 0.0, ValueError), ("batch_size", 0, ValueError), ("seq_len", 2.0, TypeError),
    ("patience", True, TypeError), ("patience", 0, ValueError), ("eval_every", -1, ValueError),
    ("clip", 0.0, ValueError), ("clip", True, TypeError), ("clip", "1", TypeError),
    ("lr_decay", 0.0, ValueError), ("lr_decay", 1.5, ValueError), ("goal", "0.1", TypeError),
    ("device", 0, TypeError), ("device", "abacus", ValueError)])
def test_train_config_refuses_bad_values_by_name(field, value, error):
    with pytest.raises(error, match=rf"^{field}:"):
        TrainConfig(**{field: value})


@pytest.mark.parametrize("field, value", [("lr_decay", "0.5"), ("goal", "0.1")])
def test_no_clipping_still_checks_the_numbers_after_clip(field, value):
    """clip=None is allowed, and the fields checked after it are still checked."""
    with pytest.raises(TypeError, match=rf"^{field}:"):
        TrainConfig(clip=None, **{field: value})


def test_scoring_needs_a_score_function():
    with pytest.raises(ValueError, match=r"^score:"):
        train(MODEL, _cfg(), _batches(_cfg()))
