"""What the page "Inside a stack trained on Shakespeare" says about its probes holds in their
committed results (docs/generated/experiments/shakespeare_probes.json).

Each test quotes a claim of docs/06b-shakespeare-layers.md and checks it against the probes,
summarised as the page's table is (scripts.study.probes: a layer is best only when the
lecture's one comparison, scripts.study.verdict.compare, puts it ahead of every other
layer). After a re-run that breaks one, fix the prose, not the test.
"""

from __future__ import annotations

import numpy as np
import pytest
from claim_sources import generated, page_text, states

from scripts.study.probes import runs_of, scores, stack_summary
from scripts.study.verdict import compare
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


def test_the_probed_stacks_are_the_tabulated_runs(probes):
    """The page probes §10's runs: every probed run was trained under the current code's key,
    and its record, the one §10 tabulates, carries that key too."""
    from scripts.experiments.charlm_runs import training_key
    from scripts.study.plan import plan
    from stacklib.corpus import shakespeare

    by_name = {run.name: run for run in plan(len(shakespeare().vocab))}
    assert {name.rsplit("-s", 1)[0] for name in probes["runs"]} == set(STACKS)
    for name, probed in probes["runs"].items():
        record = generated(f"experiments/shakespeare/{name}.json")
        assert probed["training_key"] == record["key"] == training_key(by_name[name]), name


def best_layer_per_seed(probes, stack: str, feature: str) -> list[int]:
    return [int(k) + 1 for k in np.argmax(scores(probes, stack, feature), axis=1)]


def layers_ahead(probes, stack: str, feature: str, state: str = "trained",
                 below: str = "untrained") -> list[int]:
    """The layers (1-based) whose ``state`` scores are ahead of (above) ``below``'s at the same
    layer by the lecture's one comparison."""
    a, b = scores(probes, stack, feature, state), scores(probes, stack, feature, below)
    return [k + 1 for k in range(a.shape[1])
            if (c := compare(a[:, k], b[:, k])).apart and c.diff > 0]


def ahead(probes, stack: str, feature: str, layer: int, than: int) -> bool:
    """Is ``layer`` ahead of (reads the feature better than) layer ``than``?"""
    table = scores(probes, stack, feature)
    c = compare(table[:, layer - 1], table[:, than - 1])
    return c.apart and c.diff > 0


def test_the_character_stays_in_every_layer(probes, summary):
    """"Every layer reads the character's class almost perfectly. Layer 1 reads it best in the
    residual stack; in the plain stack the seeds cannot tell layer 1 from layer 2." (the
    character alone reads it perfectly)"""
    for stack in STACKS:
        s = summary[stack]["char_class"]
        assert all(layer["mean"] >= 0.98 for layer in s["layers"]), stack
        assert s["best"] == 1, stack
    assert summary["L3-h128-res"]["char_class"]["clear"]
    assert summary["L3-h128"]["char_class"]["ties"] == [1, 2]
    assert probes["baseline"]["char_class"] >= 0.999


def test_what_comes_next_is_read_at_the_top(probes, summary):
    """"Whether a space follows is read best from layer 3 in the residual stack; in the plain
    stack the seeds cannot tell layer 3 from layer 2. Every layer reads it better than the
    character alone does.\""""
    for stack in STACKS:
        s = summary[stack]["next_space"]
        assert s["best"] == 3, stack
        assert scores(probes, stack, "next_space").min() > probes["baseline"]["next_space"]
    assert summary["L3-h128-res"]["next_space"]["clear"]
    assert summary["L3-h128"]["next_space"]["ties"] == [2, 3]


def test_sentences_and_speeches_are_read_above_layer_1(probes, summary):
    """"Sentences and speeches are read above layer 1, in the residual stack. There, how far the
    text is from the last full stop, and which line of its speech it is on, are read better from
    layer 2 than from layer 1. Layer 2 reads the line of the speech best; for the full stop, the
    seeds cannot tell layer 2 from layer 3. In the plain stack they cannot tell any of its layers
    apart on either count.\""""
    res, plain = summary["L3-h128-res"], summary["L3-h128"]
    for feature in ("since_stop", "speech_line"):
        assert ahead(probes, "L3-h128-res", feature, 2, than=1), feature
        assert plain[feature]["ties"] == [1, 2, 3], feature
    assert res["speech_line"]["best"] == 2 and res["speech_line"]["clear"]
    assert res["since_stop"]["best"] == 2 and res["since_stop"]["ties"] == [2, 3]
    # §06b's last section: "in the residual stack, the top layer reads the line of the speech
    # worse than layer 2 does"
    assert ahead(probes, "L3-h128-res", "speech_line", 2, than=3)


def test_where_a_line_stands_has_no_fixed_layer(probes, summary):
    """"The position in the line is read best from layer 1 in one residual seed and from layer
    2 in the two others. In neither stack can the seeds tell its layers apart.\""""
    assert sorted(best_layer_per_seed(probes, "L3-h128-res", "line_position")) == [1, 2, 2]
    for stack in STACKS:
        assert summary[stack]["line_position"]["ties"] == [1, 2, 3], stack


def test_what_training_put_there(probes, summary):
    """The note on the untrained stacks: "It already reads the position in the word better than
    the trained residual stack in layers 2 and 3, and than the trained plain stack in layer 2.
    Where the trained stack is ahead of the untrained one [...] training put something there.
    That holds for whether a space comes next, in every layer of both stacks. It holds for the
    line of the speech in the residual stack's layers 2 and 3. It holds, by a hair, for the
    speaker's name in the residual stack's layers 2 and 3 and in every plain layer, and for the
    character class in plain layers 2 and 3 and residual layer 3. It holds nowhere for the
    distance since the last full stop.\""""
    res, plain = "L3-h128-res", "L3-h128"
    assert layers_ahead(probes, res, "word_position", "untrained", "trained") == [2, 3]
    assert layers_ahead(probes, plain, "word_position", "untrained", "trained") == [2]
    learned = {(stack, feature): [k + 1 for k, yes in enumerate(summary[stack][feature]["learned"])
                                  if yes]
               for stack in STACKS for feature in summary[stack]}
    # the summary's "learned" is the same comparison
    assert all(learned[stack, f] == layers_ahead(probes, stack, f) for stack, f in learned)
    assert learned[res, "next_space"] == learned[plain, "next_space"] == [1, 2, 3]
    assert learned[res, "speech_line"] == [2, 3]
    assert learned[res, "heading"] == [2, 3] and learned[plain, "heading"] == [1, 2, 3]
    assert learned[plain, "char_class"] == [2, 3] and learned[res, "char_class"] == [3]
    assert learned[res, "since_stop"] == learned[plain, "since_stop"] == []
    # no other feature and layer: speech lines in the plain stack, word and line positions
    for stack, feature in ((plain, "speech_line"), (res, "word_position"),
                           (plain, "word_position"), (res, "line_position"),
                           (plain, "line_position")):
        assert learned[stack, feature] == [], (stack, feature)
    for stack in STACKS:  # "by a hair": under a hundredth of accuracy
        s = summary[stack]["heading"]
        assert max(t["mean"] - u["mean"] for t, u in zip(s["layers"], s["untrained"],
                                                         strict=True)) < 0.01, stack


def test_the_sentence_count_rises_above_layer_1_without_training(probes):
    """"The untrained stacks read that distance better above layer 1 than in it, and the
    residual stack's untrained layer 1 reads it better than its trained layer 1 does.\""""
    for stack in STACKS:
        untrained = scores(probes, stack, "since_stop", "untrained")
        for layer in (2, 3):
            c = compare(untrained[:, layer - 1], untrained[:, 0])
            assert c.apart and c.diff > 0, (stack, layer)
    assert layers_ahead(probes, "L3-h128-res", "since_stop", "untrained", "trained")[:1] == [1]


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

