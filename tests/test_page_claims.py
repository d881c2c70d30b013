"""What the prose says about measured results holds in the committed measurements.

The pages never type an experiment's numbers (they live in generated figures and tables), but
they do describe them in words: "the faster of the two", "read best above layer 1", "several
times more gradient". Each test below quotes such a claim and checks it against the data the
site is built from (docs/generated), or, for the examples stacklib computes, against stacklib.
After a regeneration that breaks one of them, fix the prose, not the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from stacklib import data as language
from stacklib.examples import gradient_path_growth, growth_tanh_slopes

DOCS = Path(__file__).resolve().parents[1] / "docs"
GENERATED = DOCS / "generated"


def _load(name):
    return json.loads((GENERATED / name).read_text())


def test_verdict_latency_claims():
    """§10 "The latency row, measured" (docs/10-verdict.md)."""
    runs = _load("experiments/latency.json")["runs"]
    by = {(r["scale"], r["batch"]): r for r in runs}
    assert set(by) == {("trained", 1), ("trained", 32), ("seed", 1), ("seed", 32)}
    for r in runs:  # "×3 holds, roughly": §02, §10, §12 "about ×L at realistic sizes (the
        # table's) and somewhat less at tiny ones"
        L, ratio = r["layers_deep"], r["ratio_deep_narrow1"]
        if r["scale"] == "seed":
            assert 0.9 * L <= ratio <= 1.1 * L, r
        else:  # "somewhat less": below L, by more than timing noise
            assert 0.7 * L < ratio < 0.95 * L, r
    assert by["seed", 1]["ratio_deep_wide"] < 1.0  # "one sequence at a time, the faster"
    assert 0.8 <= by["seed", 32]["ratio_deep_wide"] <= 1.25  # "took about the same time"
    for b in (1, 32):  # trained sizes: "slower, but by much less than three times"
        assert 1.0 < by["trained", b]["ratio_deep_wide"] < 2.5
    # §02 "What it costs", §10 and §12: against a wide layer of equal cost "never ×L slower";
    # §12: "at most about twice as slow at the tiny trained sizes, and about as fast as the wide
    # layer, or faster, at the larger ones"
    assert all(r["ratio_deep_wide"] < r["layers_deep"] for r in runs)
    assert max(by["trained", b]["ratio_deep_wide"] for b in (1, 32)) <= 2.25
    assert max(by["seed", b]["ratio_deep_wide"] for b in (1, 32)) <= 1.1


def test_verdict_latency_against_multiply_adds():
    """§10 "The latency row, measured": the measured ratios beside the multiply-add counts the
    latency table prints (scripts/generation/latency.py)."""
    from scripts.generation.latency_table import counted

    by = {(r["scale"], r["batch"]): r for r in _load("experiments/latency.json")["runs"]}
    seed1, seed32 = by["seed", 1], by["seed", 32]
    # "the head-to-head table's stack reads 300-wide vectors into layers of 256, so its upper
    # layers cost less than layer 1. It does fewer than three times the multiply-adds"
    assert seed1["input_size"] > seed1["hidden"]["deep"]
    assert counted(seed1)["narrow1"] < seed1["layers_deep"]

    def off(run, key):
        """How far a measured ratio strays from the multiply-adds' ratio."""
        return abs(run[f"ratio_deep_{key}"] / counted(run)[key] - 1)

    # "against a wide layer of equal cost, the multiply-adds are about equal, and so is the time
    # when the work is large and batched"
    assert abs(counted(seed32)["wide"] - 1) < 0.05
    for key in ("narrow1", "wide"):
        # "those close to the multiply-add count ... those that stray from it, at tiny sizes and
        # one sequence at a time"
        assert off(seed32, key) < 0.05, key
        assert off(seed1, key) > off(seed32, key), key
        # "stray" means by more than a tenth, twice the band called close
        assert all(off(by["trained", b], key) > 0.1 for b in (1, 32)), key


def test_lens_probe_claims():
    """§02 under the lenses, and §06 "check the story against the data"."""
    lenses = _load("data/lenses.json")
    acc, feats = lenses["accuracy"], lenses["features"]
    assert lenses["probe_layers"][1:] == ["layer 1", "layer 2", "layer 3"]
    for name in ("pos", "word_number"):  # "surface properties are readable from every layer"
        assert min(acc[name][1:]) >= feats[name]["majority"] + 0.2, name
    plain, mismatch = acc["subject_number"], acc["subject_number_mismatch"]
    # "already fairly readable from layer 1": well above the majority class
    assert plain[1] >= feats["subject_number"]["majority"] + 0.2
    # "read best above it, and the gain is largest right after a mismatched attractor,
    # exactly where layer 1 is most often fooled"
    gain = {k: max(v[2:]) - v[1] for k, v in (("plain", plain), ("mismatch", mismatch))}
    assert gain["plain"] > 0 and gain["mismatch"] > gain["plain"], gain
    assert mismatch[1] < plain[1]
    # "means over three copies"; "in two copies layer 1 is fooled at one attractor in ten, in
    # the third it already reads the subject's number without a single error"
    per_seed = _load("experiments/probes.json")["models"]["hero"]["accuracy_per_seed"]
    assert lenses["seeds"] == len(per_seed["pos"]) == 3
    layer1 = [(per_seed["subject_number"][i][1], per_seed["subject_number_mismatch"][i][1])
              for i in range(3)]
    perfect = [i for i, (p, m) in enumerate(layer1) if p == m == 1.0]
    fooled = [i for i, (_, m) in enumerate(layer1) if 0.085 <= 1 - m <= 0.115]
    assert len(perfect) == 1 and len(fooled) == 2, layer1


def test_live_stack_speed_claims():
    """§06: "the two layers move by similar amounts from word to word, layer 2 if anything a
    little more ... in each of three copies", and the note: "in each of its three trained copies,
    layer 2 changes a little more from word to word than layer 1, not less"."""
    for probe in _load("data/live_stack.json")["probes"]:  # the sentences in the figure
        h = np.asarray(probe["h"])  # (layers, words, H)
        assert h.shape[0] == 2
        moves = np.abs(np.diff(h, axis=1)).mean(axis=(1, 2))  # mean |Δh| per word, per layer
        assert 1.0 < moves[1] / moves[0] <= 1.25, (probe["text"], moves)
    moves = _load("experiments/probes.json")["models"]["live"]["mean_abs_dh"]  # held-out words
    assert len(moves) == 3
    for layer1, layer2 in moves:
        assert 1.0 < layer2 / layer1 <= 1.25, moves


def test_vanishing_measured_panel_claims():
    """§09's last paragraph, about the measured panels at the deepest stacks (8 layers)."""
    v = _load("data/vanishing.json")
    depth = str(max(v["depths"]))
    assert depth == "8"
    bottom = {(c, var): v["measured"][c][var][depth] for c in v["cells"] for var in v["variants"]}
    for cell in v["cells"]:
        plain = bottom[cell, "plain"]
        assert plain[0] < 0.05, cell  # "loses the gradient by orders of magnitude"
        # "layer norm alone slows the decay without stopping it"
        assert plain[0] < bottom[cell, "layer_norm"][0] < 1.0, cell
        # "the residual connection holds every layer within a hair of the top layer's level or
        # above it, at every depth measured" (and §09's "nothing decays geometrically any more")
        for depth_runs in v["measured"][cell]["residual"].values():
            assert min(depth_runs) >= 0.99, cell
        # "with layer norm added, the bottom ... receives several times more gradient than the top"
        assert bottom[cell, "residual_layer_norm"][0] >= 3.0, cell
    # "the LSTM even faster than the tanh RNN"
    assert bottom["lstm", "plain"][0] < bottom["rnn", "plain"][0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_growth_example_claims(seed):
    """§09 under the growth table: "the stack's number is not the smaller one ... its upper
    layers, fed bounded states instead of raw inputs, saturate less"."""
    example = {"hidden_size": 32, "seq_len": 50, "num_layers": 3, "seed": seed}
    g = gradient_path_growth(**example)
    assert g["deep"]["grad_norm_first_step_bottom"] > g["shallow"]["grad_norm_first_step_bottom"]
    assert g["shallow"]["grad_norm_first_step_bottom"] < 1e-10  # "next to nothing"
    slope = growth_tanh_slopes(**example)  # mean tanh' per layer of the example's stack
    assert slope[0] < slope[1] < slope[2], slope  # 0.74 in layer 1, "but 0.88 ... and 0.92"
    # "52 Jacobians instead of 50" and "one route": the one-layer chain is T long
    assert g["shallow"]["jacobians_per_path"] == 50 and g["shallow"]["paths_to_first_input"] == 1
    assert g["deep"]["recurrent_matrices"] == 3


def test_price_fan_in_claim():
    """§05: the fan-in "changes from D to H exactly once, above layer 1 — up at these defaults"."""
    d = _load("data/params.json")["defaults"]
    assert d["input_size"] < d["hidden_size"]


def test_hero_lamp_claims():
    """Home, "What the brightness shows": the prepositions glow brightest in every layer, the
    determiners are the top layer's dimmest, and a preposition is always followed by "the"."""
    hero = _load("data/hero.json")
    words = [w.lower() for w in hero["words"]]
    for row in hero["lamp"]:
        order = np.argsort(row)[::-1]
        assert [words[i] for i in order[:2]] == ["to", "on"], row
    dimmest = np.argsort(hero["lamp"][-1])[:3]
    assert sorted(words[i] for i in dimmest) == ["the", "the", "the"]
    # "Two more copies ... agree on the determiners; one agrees on the prepositions too, while
    # in the other the full stop is among the two brightest words in every layer, beside a
    # preposition" (probe 1's lamps of every seed; the first is the stack above)
    seeds = [np.asarray(lamps[0]) for lamps in
             _load("experiments/probes.json")["models"]["hero"]["lamps"]]
    np.testing.assert_allclose(seeds[0], hero["lamp"], atol=1e-4)
    top2 = [[sorted(words[i] for i in np.argsort(row)[::-1][:2]) for row in lamps]
            for lamps in seeds[1:]]
    assert all(sorted(words[i] for i in np.argsort(lamps[-1])[:3]) == ["the", "the", "the"]
               for lamps in seeds[1:])
    agrees, other = sorted(top2, key=lambda rows: "." in rows[0])
    assert agrees == [["on", "to"]] * 3
    assert all(row[0] == "." and row[1] in ("on", "to") for row in other), other
    train, _ = language.make_splits(n_train=500, n_heldout=100)
    for s in train:
        for word, nxt in zip(s.tokens, s.tokens[1:], strict=False):
            if word in language.PREPOSITIONS:
                assert nxt == "the", s.text


def test_live_probe_table_claims():
    """§06 under the 2-layer model's probe tables (partials/live_probes.md), over its seeds."""
    model = _load("experiments/probes.json")["models"]["live"]
    acc, per_seed = model["accuracy"], model["accuracy_per_seed"]
    emb, l1, l2 = 0, 1, 2
    seeds = range(len(model["seeds"]))
    assert len(model["seeds"]) == 3  # "the same model was trained three times"
    # "part of speech is read almost perfectly from either" layer, in every copy
    assert min(min(per_seed["pos"][i][l1:]) for i in seeds) >= 0.95
    # the word's own number: "well from both — best of all from the word vectors ..., in every
    # copy"
    assert min(acc["word_number"][l1:]) >= 0.85
    assert all(per_seed["word_number"][i][emb] > max(per_seed["word_number"][i][l1:])
               for i in seeds)
    plain, mismatch = per_seed["subject_number"], per_seed["subject_number_mismatch"]
    better = [i for i in seeds if plain[i][l2] > plain[i][l1]]
    assert len(better) == 2  # "in two of them ... read better from layer 2 than from layer 1"
    for i in better:
        # "the gap is widest at the mismatched attractors"
        assert mismatch[i][l2] - mismatch[i][l1] > plain[i][l2] - plain[i][l1]
        # "layer 1 gets about one attractor in ten wrong, or more, and layer 2 fewer than one
        # in twenty"
        assert 1 - mismatch[i][l1] >= 0.095 and 1 - mismatch[i][l2] < 0.05
    (third,) = set(seeds) - set(better)
    # "in the third, layer 1 already reads the subject's number without a single error, and
    # layer 2 keeps it almost as well"
    assert plain[third][l1] == mismatch[third][l1] == 1.0
    assert min(plain[third][l2], mismatch[third][l2]) >= 0.95
    # "the average favours layer 2"
    assert acc["subject_number"][l2] > acc["subject_number"][l1]
    assert acc["subject_number_mismatch"][l2] > acc["subject_number_mismatch"][l1]


def test_live_channel_claims():
    """§06 under the channel table: one layer-2 channel holds the subject's number from subject
    to verb (faintly at a few words), none in layer 1, and none follows each noun's number."""
    from scripts.generation.trained_tables import channel_roles

    stacks = _load("experiments/stacks.json")
    roles = channel_roles(stacks)
    assert [len(r["holds"]) for r in roles] == [0, 1]
    assert all(not r["follows"] for r in roles)
    channel = roles[1]["holds"][0]["channel"] - 1
    for meta, run in zip(stacks["probes"], stacks["models"]["live"]["probes"], strict=True):
        span = np.asarray(run["h"])[1, meta["subject_index"]:meta["verb_index"], channel]
        plural = meta["number"][meta["subject_index"]] == "pl"
        assert np.all(span < 0) if plural else np.all(span > 0)  # "below zero under keys"
        assert np.min(np.abs(span)) < 0.15  # "faintly at a few words"
    table = (GENERATED / "partials/live_channels.md").read_text(encoding="utf-8")
    assert f"channel {channel + 1} (" in table


def test_same_budget_claims():
    """§10 "Both shapes, trained at one budget"."""
    tr = _load("experiments/depth_width.json")["training"]
    wide, deep = tr["wide"], tr["deep"]
    # "the same near-perfect held-out agreement, even at mismatched attractors"
    for arm in (wide, deep):
        assert arm["mean"] >= 0.99 and arm["mean_mismatch"] >= 0.99
    assert wide["mean"] >= deep["mean"] - 0.005  # "the wide layer did not lose"
    # "in less than half the steps, on every seed"
    for w, d in zip(wide["steps_to_90"], deep["steps_to_90"], strict=True):
        assert 2 * w < d
    # "climbs at once; the deep stack's stays near chance for its first few hundred steps"
    at = {k: dict(zip(tr[k]["curve"]["step"], tr[k]["curve"]["heldout_agreement_mean"],
                      strict=True)) for k in ("wide", "deep")}
    assert at["wide"][300] >= 0.99
    assert all(at["deep"][step] <= 0.55 for step in (100, 200, 300, 400, 500))
    assert _load("experiments/depth_width.json")["config"]["deep"]["residual"] is False


def test_depth_data_claims():
    """§10 "Depth and the size of your dataset": the design and both measures' stories."""
    dd = _load("experiments/depth_data.json")
    base, sizes, depths = dd["config"]["base"], dd["sizes"], dd["depths"]
    # "every stack here has residual connections ... 300 training steps on batches of 32"
    assert base["residual"] is True and base["steps"] == 300 and base["batch_size"] == 32
    assert depths == [1, 2, 3, 4] and sizes == sorted(sizes)
    mean = {k: np.asarray(v["mean"]) for k, v in dd["summary"].items()}  # [depth][size]
    small, large = (0, 1), len(sizes) - 1
    # loss: "training loss falls (or holds) with depth while held-out loss rises"
    for n in small:
        assert np.all(np.diff(mean["train_loss"][:, n]) <= 0.01), n
        assert np.all(np.diff(mean["heldout_loss"][:, n]) > 0), n
    # "so the shaded gap opens wider with each layer" (everywhere but the largest set)
    assert np.all(np.diff(mean["gap_loss"][:, :large], axis=0) > 0)
    # "on the largest training set the gap nearly closes at every depth ... a shade below"
    assert np.all(mean["gap_loss"][:, large] < 0.1)
    assert np.all(mean["heldout_loss"][1:, large] < mean["heldout_loss"][0, large])
    # agreement: "on the two smallest sets ... training sentences right, held-out wrong close to
    # half the time"; "the gap is wide but flat across depth"
    for n in small:
        assert np.all(mean["train_error"][:, n] <= 0.01), n
        assert np.all((0.35 <= mean["heldout_error"][:, n]) & (mean["heldout_error"][:, n] <= 0.55))
        assert np.ptp(mean["gap_error"][:, n]) < 0.05, n
    # "with enough data, held-out error falls towards zero at every depth, and the single layer
    # is the one that lags"
    assert np.all(mean["heldout_error"][:, large] < 0.05)
    for n in range(2, len(sizes)):
        assert mean["heldout_error"][0, n] > mean["heldout_error"][1:, n].max(), n


def _exercises() -> str:
    """§13 from its first exercise (headed "### E1 · …") on."""
    page = (DOCS / "13-mastery-check.md").read_text(encoding="utf-8")
    return page[re.search(r"^### E\d+ ·", page, re.M).start():]


def test_every_exercise_has_an_answer():
    """§13's exercises and the appendix's generated answers match one to one; E6's answer
    ("above", "about the same") holds in the data it quotes."""
    asked = re.findall(r"^### (E\d+) ·", _exercises(), re.M)
    key = (GENERATED / "partials/exercise_answers.md").read_text(encoding="utf-8")
    assert asked == re.findall(r"^\| (E\d+) \|", key, re.M) and len(asked) >= 5
    dd = _load("experiments/depth_data.json")
    s, one, four = dd["summary"], dd["depths"].index(1), dd["depths"].index(4)
    assert s["heldout_loss"]["mean"][four][0] > s["heldout_loss"]["mean"][one][0]
    assert abs(s["heldout_error"]["mean"][four][0] - s["heldout_error"]["mean"][one][0]) < 0.05
