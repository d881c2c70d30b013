"""stacklib.lm: the fast stack, the text as truncated BPTT reads it, and the one training loop.

These are the code paths behind every trained number of the lecture. Each test states a
property that a plausible slip breaks: a chunk stride off by one, a state not carried from
chunk to chunk, a state carried across an epoch's start, a token scored twice or never.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import torch
from torch import nn
from toy_text import VOCAB, toy_text

from stacklib.config import StackConfig
from stacklib.lm.model import LM, LMConfig, detach
from stacklib.lm.text import LN2, bits_per_token, chunks, streams, training_batches
from stacklib.lm.train import TrainConfig, train


def _model(layers=3, residual=False, cell="lstm", seed=0):
    torch.manual_seed(seed)
    return LM(LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=layers,
                          residual=residual, cell=cell)).eval()


# ------------------------------------------------------------------------------ the model
@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
def test_plain_stack_computes_torch_nn_with_num_layers(cell):
    model = _model(layers=3, cell=cell)
    ref = getattr(nn, cell.upper())(5, 8, num_layers=3, batch_first=True)
    with torch.no_grad():
        for k, layer in enumerate(model.layers):
            for name, p in layer.named_parameters():
                getattr(ref, name.removesuffix("0") + str(k)).copy_(p)
    ids = torch.from_numpy(toy_text(40).reshape(2, 20))
    hidden, outputs, _ = model.run(ids)
    expected, _ = ref(model.embed(ids))
    torch.testing.assert_close(outputs[-1], expected, rtol=0, atol=0)
    assert all(h is u for h, u in zip(hidden, outputs, strict=True))  # no residual: u = h


def test_residual_stack_adds_each_layers_input_from_layer_two():
    model = _model(layers=3, residual=True)
    hidden, outputs, _ = model.run(torch.from_numpy(toy_text(40).reshape(2, 20)))
    torch.testing.assert_close(outputs[0], hidden[0])
    for k in (1, 2):
        torch.testing.assert_close(outputs[k], hidden[k] + outputs[k - 1])


@pytest.mark.parametrize("field, value, error", [
    ("hidden_size", 0, ValueError), ("num_layers", 1.5, TypeError), ("vocab_size", True, TypeError),
    ("residual", 1, TypeError), ("cell", "LSTM", ValueError), ("dropout", 1.0, ValueError),
    ("forget_bias", "1", TypeError)])
def test_model_config_refuses_bad_values_by_name(field, value, error):
    with pytest.raises(error, match=field):
        LMConfig.of(VOCAB, **{field: value})


@pytest.mark.parametrize("stack, name", [
    (StackConfig(5, 8, 2, batch_first=True, dropout=0.1), "stack.dropout"),
    (StackConfig(5, 8, 2, batch_first=True, layer_norm=True), "stack.layer_norm"),
    (StackConfig(5, 8, 2), "stack.batch_first")])
def test_model_refuses_a_stack_it_cannot_run_by_name(stack, name):
    with pytest.raises(ValueError, match=name):
        LMConfig(VOCAB, stack)


def test_forget_bias_needs_a_forget_gate():
    with pytest.raises(ValueError, match="forget_bias: cell 'gru' has no forget gate"):
        LMConfig.of(VOCAB, cell="gru", forget_bias=1.0)


def test_flat_description_round_trips():
    cfg = LMConfig.of(VOCAB, 5, 8, 3, cell="gru", residual=True, dropout=0.2)
    assert LMConfig.of(**cfg.flat()) == cfg
    assert cfg.replace(num_layers=1) == LMConfig.of(VOCAB, 5, 8, 1, cell="gru", residual=True,
                                                    dropout=0.2)


# ------------------------------------------------------------------ the text, cut in chunks
def test_streams_are_contiguous_rows():
    s = streams(np.arange(23), 4)
    assert s.tolist() == [list(range(k * 5, k * 5 + 5)) for k in range(4)]
    with pytest.raises(ValueError, match="ids: 23 tokens cannot fill 16 streams"):
        streams(np.arange(23), 16)


@pytest.mark.parametrize("whole", [False, True])
def test_chunks_join_exactly_and_cover_the_rows(whole):
    rows = streams(np.arange(4 * 23), 4)                       # 23 columns
    pieces = list(chunks(rows, 5, whole=whole))
    for (_, previous_targets), (inputs, _) in itertools.pairwise(pieces):
        assert torch.equal(inputs[:, 0], previous_targets[:, -1])
    for inputs, targets in pieces:
        assert torch.equal(targets[:, :-1], inputs[:, 1:])     # targets: shifted by one
    read = torch.cat([inputs for inputs, _ in pieces], dim=1)
    # every column is read once, in order; whole chunks stop before a short last one
    assert torch.equal(read, rows[:, : read.shape[1]])
    assert read.shape[1] == (20 if whole else 22)
    assert all(inputs.shape[1] == 5 for inputs, _ in pieces) == whole


def test_training_batches_carry_within_an_epoch_and_start_each_epoch_fresh():
    ids = np.arange(4 * 30)                                    # 30 columns; offsets 0..4
    batches = training_batches(ids, batch_size=4, seq_len=5, seed=0)
    seen = [next(batches) for _ in range(40)]
    starts = [k for k, (_, _, carry) in enumerate(seen) if not carry]
    assert starts[0] == 0 and len(starts) >= 6
    rng = np.random.default_rng(0)
    for start, end in zip(starts, [*starts[1:], None], strict=False):
        epoch = seen[start:end]
        offset = int(rng.integers(5))                          # the draw the epoch started at
        rows = streams(ids[offset:], 4)
        assert torch.equal(epoch[0][0][:, 0], rows[:, 0])
        for (_, previous, _), (inputs, _, carry) in itertools.pairwise(epoch):
            assert carry and torch.equal(inputs[:, 0], previous[:, -1])
        if end is not None:                                    # an epoch reads every whole chunk
            assert len(epoch) == (rows.shape[1] - 1) // 5


def test_training_batches_need_one_whole_chunk_at_every_offset_and_no_more():
    # 4 streams of a chunk of 5 and its targets (6 columns) from the latest offset, 4: 28 tokens
    batches = training_batches(np.arange(28), batch_size=4, seq_len=5, seed=0)
    assert all(next(batches)[0].shape == (4, 5) for _ in range(50))  # offsets 0..4 all drawn
    with pytest.raises(ValueError, match="ids: 27 tokens cannot fill 4 streams"):
        training_batches(np.arange(27), batch_size=4, seq_len=5, seed=0)


def test_carried_chunks_compute_what_one_pass_over_the_text_computes():
    model, ids = _model(layers=2, residual=True), torch.from_numpy(toy_text(60).reshape(2, 30))
    with torch.no_grad():
        whole, _ = model(ids)
        state, parts = None, []
        for inputs, _ in chunks(ids, 7):
            logits, state = model(inputs, state)
            parts.append(logits)
    torch.testing.assert_close(torch.cat(parts, dim=1), whole[:, :-1])


@pytest.mark.parametrize("seq_len", [1, 7, 250])
def test_bits_per_token_scores_every_token_once_whatever_the_chunk_length(seq_len):
    model, ids = _model(layers=2), toy_text(203)
    rows = streams(ids, 4)                                     # 50 columns, 3 tokens left over
    with torch.no_grad():
        logits, _ = model(rows[:, :-1])                        # one pass over each row
        nll = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), rows[:, 1:].reshape(-1))
    expected = float(nll) / LN2
    assert bits_per_token(model, ids, batch_size=4, seq_len=seq_len) == pytest.approx(
        expected, rel=1e-6)


def test_bits_per_token_of_a_uniform_model_is_log2_vocab():
    model = _model()
    with torch.no_grad():
        model.readout.weight.zero_()
        model.readout.bias.zero_()
    assert bits_per_token(model, toy_text(1000), batch_size=4, seq_len=30) == pytest.approx(
        math.log2(VOCAB))


# ---------------------------------------------------------------------------- the loop
def _cfg(**kw):
    base = dict(lr=1e-2, batch_size=4, seq_len=16, max_steps=40, eval_every=10, patience=2,
                lr_decay=0.5, grad_every=10)
    return TrainConfig(**{**base, **kw})


MODEL = LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=2)


def _batches(cfg, seed=None):
    return training_batches(toy_text(4000), cfg.batch_size, cfg.seq_len,
                            cfg.seed if seed is None else seed)


def test_the_loop_is_adam_with_clipping_and_the_state_carried_between_chunks():
    """Two steps of ``train`` against the same two steps written out by hand."""
    cfg = _cfg(max_steps=2, eval_every=1, patience=None, grad_every=2, clip=0.05, seed=3)
    _, hist = train(MODEL, cfg, _batches(cfg), score=lambda m: 0.0)

    torch.manual_seed(cfg.seed)
    model = LM(MODEL)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    batches, state, losses = _batches(cfg), None, []
    for _ in range(2):
        inputs, targets, carry = next(batches)
        assert carry == (state is not None)
        _, outputs, state = model.run(inputs, state)
        logits = model.readout(outputs[-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        opt.zero_grad()
        loss.backward()
        state = detach(state)
        grads = [float(torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1)
                                                           for p in layer.parameters()])))
                 for layer in model.layers]
        nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
        opt.step()
        losses.append(loss.item() / LN2)
    assert hist.train_bits == losses
    assert hist.grad_steps == [2] and hist.weight_grad == [grads]


def test_training_is_a_pure_function_of_its_configuration_and_learns():
    val = toy_text(800, seed=1)

    def fit():
        return train(MODEL, _cfg(), _batches(_cfg()), lambda m: bits_per_token(m, val))

    model, hist = fit()
    _, again = fit()
    assert hist.scores == again.scores
    assert hist.scores[-1] < hist.scores[0] < math.log2(VOCAB) + 0.5
    assert hist.steps == [10, 20, 30, 40] and hist.stopped == "max_steps"
    assert np.shape(hist.weight_grad) == np.shape(hist.output_grad) == (4, 2)
    assert bits_per_token(model, val) == pytest.approx(min(hist.scores))  # the best one


def _scripted(scores):
    """A score function that hands out ``scores`` in turn, and the models it was shown."""
    shown = []

    def score(model):
        shown.append({k: v.clone() for k, v in model.state_dict().items()})
        return scores[len(shown) - 1]

    return score, shown


def test_patience_ends_training_the_rate_falls_after_each_miss_and_the_best_is_kept():
    score, shown = _scripted([3.0, 2.0, 2.5, 2.4, 2.6, 1.0])
    model, hist = train(MODEL, _cfg(eval_every=5, max_steps=100, patience=3),
                        _batches(_cfg()), score)
    assert hist.stopped == "patience" and hist.steps == [5, 10, 15, 20, 25]
    assert hist.lr == [1e-2, 1e-2, 1e-2, 5e-3, 2.5e-3]         # two misses halve it twice
    assert hist.best_step == 10
    assert all(torch.equal(v, shown[1][k]) for k, v in model.state_dict().items())


def test_a_first_score_of_infinity_is_one_miss_and_a_first_batch_carries_nothing():
    score, _ = _scripted([math.inf, 1.0, 2.0, 3.0, 0.5])

    def first_marked_carry(batches):
        inputs, targets, _ = next(batches)
        yield inputs, targets, True                            # nothing before it to carry
        yield from batches

    _, hist = train(MODEL, _cfg(eval_every=5, max_steps=100, patience=2),
                    first_marked_carry(_batches(_cfg())), score)
    assert hist.stopped == "patience" and hist.steps == [5, 10, 15, 20]
    assert hist.best_step == 10


def test_two_scores_in_a_row_at_the_goal_end_training():
    score, _ = _scripted([0.5, 0.05, 0.2, 0.04, 0.01, 0.3])
    _, hist = train(MODEL, _cfg(eval_every=5, max_steps=100, patience=None, goal=0.05),
                    _batches(_cfg()), score)
    assert hist.stopped == "goal" and hist.steps == [5, 10, 15, 20, 25]
    assert hist.steps_run == 25


def test_a_diverging_run_stops_and_says_so():
    # steps this large overflow the readout of the residual path's raw embeddings
    cfg = _cfg(lr=1e20, clip=None, eval_every=0, max_steps=200)
    _, hist = train(LMConfig.of(VOCAB, 5, 5, 2, residual=True, cell="rnn"), cfg, _batches(cfg))
    assert hist.stopped == "diverged" and hist.steps_run < 200


@pytest.mark.parametrize("field, value, error", [
    ("lr", 0.0, ValueError), ("batch_size", 0, ValueError), ("clip", -1.0, ValueError),
    ("lr_decay", 1.5, ValueError), ("patience", True, TypeError), ("seq_len", 2.0, TypeError)])
def test_train_config_refuses_bad_values_by_name(field, value, error):
    with pytest.raises(error, match=field):
        TrainConfig(**{field: value})


def test_scoring_needs_a_score_function():
    with pytest.raises(ValueError, match="score"):
        train(MODEL, _cfg(), _batches(_cfg()))
