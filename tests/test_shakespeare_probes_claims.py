"""What the page "Inside a stack trained on Shakespeare" says about its probes holds in their
committed results (docs/generated/experiments/shakespeare_probes.json).

Each test quotes a claim of docs/06b-shakespeare-layers.md and checks it against the probes,
summarised as the page's table is (scripts.study.probes: a layer is best only when its
three seeds are apart from every other layer's). After a re-run that breaks one, fix the prose,
not the test.
"""

from __future__ import annotations

import numpy as np
import pytest
from claim_sources import generated, page_text, states

from scripts.study.probes import runs_of, scores, stack_summary
from stacklib.charlm.probes import FEATURES, ProbeConfig

PAGE = "06b-shakespeare-layers.md"
STACKS = ("L3-h128-res", "L3-h128")
COUNTS = [name for name, f in FEATURES.items() if f.kind == "count"]


@pytest.fixture(scope="module")
def probes():
    return generated("experiments/shakespeare_probes.json")


@pytest.fixture(scope="module")
def summary(probes):
    return {stack: stack_summary(probes, stack) for stack in STACKS}


def page() -> str:
    return page_text(PAGE)


def best_layer_per_seed(probes, stack: str, feature: str) -> list[int]:
    return [int(k) + 1 for k in np.argmax(scores(probes, stack, feature), axis=1)]


def test_the_character_stays_in_every_layer(probes, summary):
    """"Every layer reads the character's class almost perfectly, and layer 1 best, in both
    stacks." (the character alone reads it perfectly)"""
    for stack in STACKS:
        s = summary[stack]["char_class"]
        assert all(layer["mean"] >= 0.98 for layer in s["layers"]), stack
        assert s["best"] == 1 and s["clear"], stack
    assert probes["baseline"]["char_class"] >= 0.999


def test_what_comes_next_is_read_at_the_top(probes, summary):
    """"Whether a space follows is read best from layer 3 in both stacks. Every layer reads it
    better than the character alone does.\""""
    for stack in STACKS:
        s = summary[stack]["next_space"]
        assert s["best"] == 3 and s["clear"], stack
        assert scores(probes, stack, "next_space").min() > probes["baseline"]["next_space"]


def test_sentences_and_speeches_are_read_above_layer_1(probes, summary):
    """"... read better from the best upper layer than from layer 1, in both stacks. In the
    residual stacks, layer 2 reads the line of the speech best. In the plain stacks the seeds
    disagree on which upper layer reads these counts.\""""
    for stack in STACKS:
        for feature in ("since_stop", "speech_line"):
            table = scores(probes, stack, feature)
            best = summary[stack][feature]["best"]
            assert best > 1 and table[:, 0].max() < table[:, best - 1].min(), (stack, feature)
    speech = summary["L3-h128-res"]["speech_line"]
    assert speech["best"] == 2 and speech["clear"]
    for feature in ("since_stop", "speech_line"):
        assert len(set(best_layer_per_seed(probes, "L3-h128", feature))) > 1, feature


def test_where_a_line_stands_has_no_fixed_layer(probes, summary):
    """"The position in the line is read best from layer 1 in one residual seed and from layer
    2 in the two others. In both stacks the layers tie.\""""
    assert sorted(best_layer_per_seed(probes, "L3-h128-res", "line_position")) == [1, 2, 2]
    for stack in STACKS:
        assert summary[stack]["line_position"]["ties"] == [1, 2, 3], stack


def test_a_random_stack_already_holds_much_of_it(probes, summary):
    """The note on the untrained stacks: the position in the word read better untrained in
    layers 2 and 3; the speaker's name nearly as well, the character class in layers 1 and 2;
    learned beyond the seeds' spread: a space next (every layer, both stacks), the line of the
    speech (residual layers 2 and 3), the speaker's name."""
    for stack in STACKS:
        s = summary[stack]
        trained, untrained = (np.array([v["mean"] for v in s["word_position"][k]])
                              for k in ("layers", "untrained"))
        assert np.all(untrained[1:] > trained[1:]), stack
        for feature, layers in (("heading", range(3)), ("char_class", range(2))):
            gap = [s[feature]["layers"][k]["mean"] - s[feature]["untrained"][k]["mean"]
                   for k in layers]
            assert max(gap) < 0.01 + 0.01 * (feature == "char_class"), (stack, feature, gap)
        assert s["next_space"]["learned"] == [True, True, True], stack
        assert s["heading"]["learned"] == [True, True, True], stack
    assert summary["L3-h128-res"]["speech_line"]["learned"] == [False, True, True]
    assert summary["L3-h128-res"]["since_stop"]["learned"] == [False, True, False]


def test_the_sentence_count_rises_above_layer_1_without_training(summary):
    """"Training's mark on these counts is clear only in the residual stacks' upper layers: an
    untrained stack also reads the distance since a full stop better above layer 1"; "their
    layer 1 reads it better than a trained layer 1 does"."""
    for stack in STACKS:
        stop = summary[stack]["since_stop"]
        untrained = [layer["mean"] for layer in stop["untrained"]]
        assert min(untrained[1:]) > untrained[0], stack
        assert stop["layers"][0]["mean"] < untrained[0], stack
    for feature in ("since_stop", "speech_line"):
        assert not any(summary["L3-h128"][feature]["learned"]), feature


def test_no_single_cell_reads_a_count_as_well_as_the_probe(probes):
    """"Squared, the best cell's correlation stays below the probe's R² for every count, layer
    and stack"; "in the residual stack of seed 0, one cell of layer 2 rises with the distance
    since the last full stop, and the same cell follows the line of the speech.\""""
    for stack in STACKS:
        for run in runs_of(probes, stack):
            result = probes["runs"][run]["trained"]
            for feature in COUNTS:
                for cell, score in zip(result["cells"][feature], result["scores"][feature],
                                       strict=True):
                    assert cell["test"] ** 2 < score, (run, feature)
    cells = probes["runs"]["L3-h128-res-s0"]["trained"]["cells"]
    stop, speech = cells["since_stop"][1], cells["speech_line"][1]
    assert stop["unit"] == speech["unit"] and stop["sign"] == speech["sign"] == 1


def test_the_toy_model_reads_structure_above_layer_1_too():
    """"There, the word's own form was readable from every layer, and the subject's number ...
    was read best above layer 1" (§02's probes; index 0 is the embedding)."""
    toy = generated("experiments/probes.json")
    hero, features = toy["models"]["hero"], toy["features"]
    for surface in ("pos", "word_number"):
        assert min(hero["accuracy"][surface][1:]) > features[surface]["majority"] + 0.3
    subject = hero["accuracy"]["subject_number"]
    assert max(subject[2:]) > subject[1]


def test_the_method_note_is_the_probes_config():
    """"sixteen streams", "The first two hundred characters", "every third character"."""
    cfg, text = ProbeConfig(), page()
    assert states(text, cfg.streams) and states(text, cfg.warmup) and cfg.stride == 3

