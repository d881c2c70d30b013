"""stacklib.lm.text: the text as truncated backpropagation through time reads it, and its score.

Each test states a property a plausible slip breaks: a chunk stride off by one, a last column
never read, a state carried across an epoch's start, a token scored twice or never.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import torch
from torch import nn
from toy_text import VOCAB, toy_text

from stacklib.lm.model import LM, LMConfig
from stacklib.lm.text import LN2, bits_per_token, chunks, streams, training_batches


def _model():
    torch.manual_seed(0)
    return LM(LMConfig.of(VOCAB, embed_size=5, hidden_size=8, num_layers=2)).eval()


def test_streams_are_contiguous_rows_of_at_least_two_columns():
    s = streams(np.arange(23), 4)
    assert s.tolist() == [list(range(k * 5, k * 5 + 5)) for k in range(4)]
    assert streams(np.arange(9), 4).tolist() == [[0, 1], [2, 3], [4, 5], [6, 7]]
    with pytest.raises(ValueError, match=r"^ids:"):
        streams(np.arange(7), 4)                               # one column: no target


@pytest.mark.parametrize("whole", [False, True])
def test_chunks_join_exactly_and_cover_the_rows(whole):
    rows = streams(np.arange(4 * 22), 4)                       # 22 columns: 4 chunks of 5, 1 over
    pieces = list(chunks(rows, 5, whole=whole))
    for (_, previous_targets), (inputs, _) in itertools.pairwise(pieces):
        assert torch.equal(inputs[:, 0], previous_targets[:, -1])
    for inputs, targets in pieces:
        assert torch.equal(targets[:, :-1], inputs[:, 1:])     # targets: shifted by one
    read = torch.cat([inputs for inputs, _ in pieces], dim=1)
    # every column is read once, in order, up to the last one's target (the last input is a
    # chunk of one column); whole chunks stop before it
    assert torch.equal(read, rows[:, : read.shape[1]])
    assert read.shape[1] == (20 if whole else 21)
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
    with pytest.raises(ValueError, match=r"^ids:"):
        training_batches(np.arange(27), batch_size=4, seq_len=5, seed=0)


@pytest.mark.parametrize("seq_len", [1, 7, 250])
def test_bits_per_token_scores_every_token_once_whatever_the_chunk_length(seq_len):
    model, ids = _model(), toy_text(203)
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
