"""stacklib.charlm.probes and .export: the text features, the probes and cells, the int8
export and its float64 reference; and the committed probe results are the current code's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from scripts.generation import shakespeare_live_config as live
from scripts.study.probes import ranking
from stacklib.charlm import export, probes
from stacklib.lm.model import LM, LMConfig

ROOT = Path(__file__).resolve().parents[1]
TEXT = ("HAMLET:\nTo be, or not. Yes!\n\nLORD POLONIUS:\nI hear him.\nSpeak:\n\n"
        "Speak to me:\nNow 'tis done")


def at(feature: str, t: int):
    values, defined = probes.text_features(TEXT)[feature]
    return values[t] if defined[t] else None


def test_the_features_of_a_small_text():
    name_end = TEXT.index(":")                                    # "HAMLET:"
    assert [at("heading", t) for t in range(name_end + 2)] == [1] * (name_end + 1) + [0]
    polonius = TEXT.index("LORD POLONIUS:")
    assert at("heading", polonius + 5) == 1                      # two capitalised words
    assert at("heading", TEXT.index("Speak:")) == 0              # not after a blank line
    assert at("heading", TEXT.index("Speak to me")) == 0         # a lowercase word
    to = TEXT.index("To")
    assert (at("line_position", to), at("line_position", to + 3)) == (0, 3)
    assert at("char_class", to) == probes.CLASSES.index("capital")
    assert at("char_class", to + 2) == probes.CLASSES.index("space")
    assert at("char_class", name_end + 1) == probes.CLASSES.index("newline")
    assert at("next_space", to + 1) == 1 and at("next_space", to) == 0
    tis = TEXT.index("'tis")
    assert [at("word_position", tis + k) for k in range(4)] == [0, 1, 2, 3]
    assert at("word_position", tis - 1) is None                  # a space: outside words
    stop = TEXT.index(".")
    assert at("since_stop", stop - 1) is None                    # no stop read yet
    assert at("since_stop", stop + 3) == pytest.approx(np.log2(1 + 3))
    assert at("speech_line", to) == 0                            # the speech's first line
    assert at("speech_line", TEXT.index("I hear")) == 0
    assert at("speech_line", TEXT.index("Speak:")) == pytest.approx(1.0)   # log2(2)
    assert at("speech_line", polonius) is None                   # a name line itself


def test_probes_read_what_is_linearly_there_and_not_what_is_not():
    rng = np.random.default_rng(0)
    cfg = probes.ProbeConfig()
    x = rng.standard_normal((4000, 8))
    y = 2 * x[:, 0] - x[:, 3]

    def score(feature, target):  # fitted on the first 3,000 positions, scored on the rest
        return probes.probe_score(feature, x[:3000], target[:3000], x[3000:], target[3000:], cfg)

    assert score("word_position", y) > 0.999                     # a count: R^2
    noise = rng.standard_normal(4000)
    assert score("word_position", noise) < 0.01
    labels = np.argmax(x[:, :3], axis=1)                         # linearly separable
    assert score("char_class", labels) > 0.95                    # a class: accuracy
    h = np.column_stack([noise, y + 0.01 * noise])
    assert np.argmax(probes.selectivity(h, y, "count")) == 1
    assert probes.selectivity(h[:, 1:], y, "count")[0] > 0.99
    assert probes.selectivity(np.column_stack([labels, noise]), labels, "class")[0] == \
        pytest.approx(1.0)


def test_positions_leave_out_each_streams_warm_up():
    cfg = probes.ProbeConfig(streams=4, warmup=10, stride=3)
    rows, cols = probes.positions(400, cfg)
    assert set(rows) == {0, 1, 2, 3} and cols.min() == 10 and cols.max() < 100
    assert np.all(np.diff(cols[rows == 0]) == 3)


def test_int8_rows_round_trip_within_half_a_step():
    w = np.random.default_rng(1).standard_normal((6, 10)).astype(np.float32)
    w[2] = 0                                                     # an all-zero row
    q, scale = export.quantize_rows(w)
    assert q.dtype == np.int8 and scale.dtype == np.float32 and np.abs(q).max() == 127
    assert np.all(np.abs(export.dequantize(q, scale) - w) <= scale[:, None] / 2 + 1e-7)
    with pytest.raises(ValueError, match="w: expected a matrix"):
        export.quantize_rows(np.zeros(3))


def test_the_shipped_state_and_its_float64_reference():
    torch.manual_seed(0)
    model = LM(LMConfig.of(12, embed_size=5, hidden_size=7, num_layers=3, residual=True))
    state = export.shipped_state(model.state_dict())
    assert set(state) == set(model.state_dict())
    assert torch.equal(state["layers.1.bias_ih_l0"], model.state_dict()["layers.1.bias_ih_l0"])
    assert not torch.equal(state["layers.1.weight_hh_l0"],
                           model.state_dict()["layers.1.weight_hh_l0"])
    model.load_state_dict(state)
    ids = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    hidden, logp = export.reference(model, ids)
    with torch.no_grad():
        h32, out32, _ = model.run(torch.from_numpy(ids)[None])
        logp32 = torch.log_softmax(model.readout(out32[-1]), -1)[0].numpy()
    for a, b in zip(hidden, h32, strict=True):
        assert a.dtype == np.float64 and np.abs(a - b[0].numpy()).max() < 1e-5
    assert np.abs(logp - logp32).max() < 1e-5


def test_passages_start_at_their_speech_and_end_at_a_line_end():
    play = "A:\nOne line.\n\nB:\nTwo words here\nand more\n"
    assert live.passage(play, "words", 24) == "B:\nTwo words here\n"
    with pytest.raises(ValueError, match="words: 'absent'"):
        live.passage(play, "absent", 20)


def test_a_layer_is_best_only_when_the_seeds_tell_it_apart():
    # seeds' ranges that do not overlap are not enough: the 95 % interval must exclude 0
    spread_out = np.array([[0.70, 0.80], [0.78, 0.82], [0.79, 0.90]])
    assert ranking(spread_out) == {"best": 2, "ties": [1, 2], "clear": False}
    assert ranking(np.array([[0.70, 0.80], [0.71, 0.82], [0.72, 0.81]]))["clear"]
    table = np.array([[0.5, 0.80, 0.79], [0.5, 0.82, 0.83], [0.5, 0.81, 0.80]])
    assert ranking(table) == {"best": 2, "ties": [2, 3], "clear": False}
    assert ranking(table[:, :2]) == {"best": 2, "ties": [2], "clear": True}


def test_the_committed_probe_results_are_the_current_codes():
    """A change to the probe code, its config or the models' training inputs makes the
    committed results stale: run python -m scripts.experiments.shakespeare_probes."""
    from scripts.experiments.shakespeare_probes import PROBES, SHIPPED_WEIGHTS, probes_key, runs
    from scripts.generation.cache import sha256_file

    committed = json.loads(PROBES.read_text(encoding="utf-8"))
    assert committed["key"] == probes_key(runs(), probes.ProbeConfig())
    assert committed["shipped"]["sha256"] == sha256_file(SHIPPED_WEIGHTS)
    assert set(committed["runs"]) == {run.name for run in runs()}
