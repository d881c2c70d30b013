"""What §06, §10 and §10b say the Shakespeare study found holds in its committed results.

The pages show the study through generated tables and figures and describe it in words ("three
are ahead of two", "the curves never cross"); each test quotes such a claim and checks it against
docs/generated/data/shakespeare.json, the summary the tables are cut from. Two models are
compared only by the lecture's one rule (scripts.study.verdict.compare: "ahead" or "behind" when
the 95 % interval of the difference excludes 0, "not resolved" otherwise). After a re-run of the
study that breaks one, fix the prose, not the test.
"""

from __future__ import annotations

import re

import numpy as np
from claim_sources import (
    DOCS,
    mean,
    page_text,
    plain,
    residual,
    states,
    unresolved,
    versus,
    word,
)

from scripts.generation.shakespeare_tables import (
    latency_groups,
    multiply_adds,
)
from scripts.study.plan import LEARNING_RATES, SEEDS, base_job
from scripts.study.summary import crossing
from scripts.study.verdict import slope
from stacklib.charlm.analysis import TimescaleConfig


def test_every_configuration_has_every_seed(study):
    for group in ("depth", "budget", "data", "deep"):
        for name, cfg in study[group].items():
            assert cfg["seeds"] == list(SEEDS), name


def test_setup_numbers_are_the_studys():
    """§06 "The measurement": 200 characters read before the change, 256 places."""
    text, cfg = page_text("06-live-stack.md"), TimescaleConfig()
    assert states(text, cfg.context) and states(text, cfg.positions)


def test_same_width_latency_claims(study):
    """§10 "The latency row, measured": the Shakespeare models' times against the count of
    multiply-adds, at one width (fan-in) and at one budget."""
    from scripts.study.plan import base_job

    base = base_job(76)
    timing, configs = study["timing"], {**study["depth"], **study["budget"]}
    groups = latency_groups(study)
    width, budget = groups["same width"], groups["same budget"]
    assert [configs[n]["layers"] for n in width] == [1, 2, 3, 4]

    def ratios(names, count):
        return [count(n) / count(names[0]) for n in names]

    latency = ratios(width, lambda n: timing[n]["char_latency_ms"])
    counted = ratios(width, lambda n: multiply_adds(configs[n], base))
    # "the Shakespeare models read a 64-wide embedding into layers of 128. Each upper layer costs
    # more than layer 1, and the stacks took more than ×L the time per character"
    assert base.model.embed_size < base.model.hidden_size
    for L in (2, 3, 4):
        assert counted[L - 1] > L and latency[L - 1] > L, L
        # "measured time follows ... the multiply-adds" (within a few percent here)
        assert abs(latency[L - 1] / counted[L - 1] - 1) < 0.08, L
    # "on Shakespeare at one budget ... the multiply-adds stayed level"
    assert all(abs(r - 1) < 0.03 for r in ratios(budget, lambda n: multiply_adds(configs[n], base)))


def test_depth_claims(study):
    """§10 "More layers, same width": "With plain stacks, the seeds could not tell any depth from
    one layer. Two layers have the lowest mean, 0.081 bpc below one layer, but the 95 % interval
    of that difference runs from −0.170 to +0.009 and includes zero. Three and four layers are not
    ahead of two either [...] With residual connections from layer 2 up, two layers are ahead of
    one and three are ahead of two; whether a fourth helps, the seeds could not tell. The residual
    stacks of three and four layers are ahead of the plain stacks of the same shape; at two layers
    the seeds could not tell." (the typed numbers are registered in prose_numbers)"""
    one = plain(study, 1)
    assert all(unresolved(plain(study, L), one) for L in (2, 3, 4))
    means = {L: mean(plain(study, L)) for L in (1, 2, 3, 4)}
    assert min(means, key=means.get) == 2
    assert all(word(plain(study, L), plain(study, 2)) != "ahead" for L in (3, 4))
    assert word(residual(study, 2), one) == "ahead"
    assert word(residual(study, 3), residual(study, 2)) == "ahead"
    assert unresolved(residual(study, 4), residual(study, 3))
    assert unresolved(residual(study, 2), plain(study, 2))
    for L in (3, 4):
        assert word(residual(study, L), plain(study, L)) == "ahead", L


def test_budget_claims(study):
    """§10 "One budget, split among layers"."""
    budget = study["budget"]
    by_layers = {cfg["layers"]: cfg for cfg in budget.values()}
    assert sorted(by_layers) == [1, 2, 3, 4]
    ref = by_layers[3]["params"]
    assert all(abs(cfg["params"] / ref - 1) <= 0.02 for cfg in budget.values())  # "within 2 %"
    one, two = by_layers[1], by_layers[2]
    # "Three and four plain layers are behind the wide layer, and three are behind two; the
    # seeds could not tell two layers from the wide one"; the card "Width is enough when…": "a
    # plain wide layer was ahead of plain stacks of three and four layers of the same cost; the
    # seeds could not tell it from the two-layer one"
    assert all(word(by_layers[L], one) == "behind" for L in (3, 4))
    assert word(by_layers[3], two) == "behind"
    assert unresolved(two, one)
    # "the curves never cross" (the deep ones stay above the shallow ones)
    for shallow in (1, 2):
        for deep in (3, 4):
            assert crossing(by_layers[deep]["curve"], by_layers[shallow]["curve"]) is None
    # "each added layer made a character slower, but far from L times slower ... a training step
    # took about as long for every split of the budget"
    timing = study["timing"]
    names = {cfg["layers"]: name for name, cfg in budget.items()}
    latency = [timing[names[L]]["char_latency_ms"] for L in (1, 2, 3, 4)]
    assert latency == sorted(latency)
    assert all(latency[L - 1] / latency[0] < 0.75 * L for L in (2, 3, 4))
    step = [timing[names[L]]["train_step_ms"] for L in (1, 2, 3, 4)]
    assert all(s / step[0] <= 1.15 for s in step)
    # "The residual stack of three layers of 128 has exactly the plain one's parameters. Unlike
    # the plain stack, it is not behind the wide layer: the seeds could not tell the two apart"
    res3 = residual(study, 3)
    assert res3["params"] == plain(study, 3)["params"]
    assert unresolved(res3, one)
    # "The best mean score, the four-layer residual stack's, came with a third more parameters,
    # and the seeds could not tell it from either"
    res4 = residual(study, 4)
    everything = [*study["depth"].values(), *budget.values()]
    assert mean(res4) == min(mean(c) for c in everything)
    for rival in (res3, one):
        assert unresolved(rival, res4)
    assert 1.25 <= res4["params"] / ref <= 1.4
    # the card "Depth pays when…": "a third layer put a stack ahead only with residual
    # connections, and even then not ahead of one wide layer of the same cost"
    assert word(res3, residual(study, 2)) == "ahead"
    assert word(plain(study, 3), plain(study, 2)) != "ahead"
    assert word(res3, one) != "ahead"


def test_learning_rates_are_the_studys(study):
    assert sorted(float(lr) for lr in study["lr"]["val_bpc"]["1"]) == sorted(
        [*LEARNING_RATES, base_job(76).train.lr])


def test_budget_curve_claims(study):
    """§10: "the gap between the wide layer and the plain three-layer stack shrank over the first
    third of training, then stayed between 0.11 and 0.15 bpc ... The three- and four-layer
    stacks' curves never changed places with another; the wide layer's and the two-layer
    stack's, which the seeds could not tell apart at the end, last did at step 5,000 ... most
    runs ended at the 6,000-step cap"."""
    budget = {cfg["layers"]: cfg for cfg in study["budget"].values()}
    wide, deep = budget[1]["curve"], budget[3]["curve"]
    gap = {s: deep["mean"][deep["step"].index(s)] - wide["mean"][wide["step"].index(s)]
           for s in wide["step"] if s in deep["step"]}
    assert gap[min(gap)] > 2 * gap[max(gap)]  # "from more than twice its final size"
    late = [g for s, g in gap.items() if s >= base_job(76).train.max_steps // 3]  # "first third"
    assert 0.11 <= min(late) and max(late) <= 0.15  # "stayed between 0.11 and 0.15 bpc"
    swaps = {(a, b): crossing(budget[a]["curve"], budget[b]["curve"])
             for a in budget for b in budget if a < b}
    assert all(swap is None for (a, b), swap in swaps.items() if b >= 3)  # "never changed places"
    assert swaps[(1, 2)] == 5000                                        # "last did at step 5,000"
    assert unresolved(budget[2], budget[1])            # "which the seeds could not tell apart"
    stops = [stop for cfg in study["budget"].values() for stop in cfg["stopped"]]
    assert sum(stop == "max_steps" for stop in stops) > len(stops) / 2
    # "the four-layer stack's [gap may narrow] most, as on average it was still improving
    # fastest when the cap came; the three-layer stack's gap had held steady for two thirds"
    late_gain = {L: np.mean(cfg["late_gain"]) for L, cfg in budget.items()}
    assert max(late_gain, key=late_gain.get) == 4
    assert states(page_text("10-verdict.md"), base_job(76).train.max_steps)  # "the 6,000-step cap"


def test_depth_data_claims(study):
    """§10b "On real text"."""
    from scripts.study.plan import DATA_SIZES
    from stacklib.corpus import shakespeare

    text, corpus = page_text("10b-depth-and-data.md"), shakespeare()
    # "31,250 characters (about a quarter of one play) to all 3.9 million"
    assert states(text, DATA_SIZES[0]) and states(text, f"{len(corpus.train.text) / 1e6:.1f}")
    assert 0.2 <= DATA_SIZES[0] / (len(corpus.train.text) / len(corpus.train.names)) <= 0.3
    full = {L: plain(study, L) for L in (1, 3)}
    rows = {L: [*sorted((c for c in study["data"].values() if c["layers"] == L),
                        key=lambda c: c["train_chars"]), full[L]] for L in (1, 3)}
    sizes = [c["train_chars"] for c in rows[1][:-1]]
    # "On every training set smaller than the full one, the three-layer stack is behind the single
    # layer on the test plays. On the very smallest its mean training bpc is higher too, but its
    # seeds scatter too widely to resolve that."
    assert all(word(deep, one) == "behind" for one, deep in zip(rows[1][:-1], rows[3][:-1],
                                                                 strict=True))
    smallest = versus(rows[3][0], rows[1][0], "train_bpc")
    assert smallest.diff > 0 and not smallest.apart
    # "The deep stack's disadvantage shrinks as the data grows, a trend its 95 % interval
    # resolves. On the full training plays the seeds cannot tell the two apart"
    trend = slope([*sizes, len(corpus.train.text)],
                  [versus(deep, one) for one, deep in zip(rows[1], rows[3], strict=True)])
    assert trend["resolved"] and trend["per_doubling"] < 0
    assert unresolved(full[3], full[1])
    # the closing paragraph: "the plain three-layer stack does not even fit its training text
    # better than one layer" (on little real text: the two smallest sets)
    assert all(word(rows[3][i], rows[1][i], "train_bpc") != "ahead" for i in (0, 1))
    # "At half a million characters, the three-layer stack is ahead of the single layer on its
    # training text but behind it on the held-out plays: its gap between training and test is the
    # wider of the two. On the full set the seeds cannot tell the two stacks apart on either
    # score, or on their gaps."
    i = sizes.index(500_000)
    assert word(rows[3][i], rows[1][i], "train_bpc") == "ahead"
    assert word(rows[3][i], rows[1][i]) == "behind"

    def gap(c):
        """Each seed's test bpc minus its training bpc."""
        return {"gap": {"values": [t - tr for t, tr in zip(c["test_bpc"]["values"],
                                                           c["train_bpc"]["values"],
                                                           strict=True)]}}

    assert word(gap(rows[3][i]), gap(rows[1][i]), "gap") == "behind"  # wider: more bits
    for key in ("test_bpc", "train_bpc"):
        assert unresolved(full[3], full[1], key), key
    assert unresolved(gap(full[3]), gap(full[1]), "gap")
    # "The gap is smallest on the full set. For the single layer, [it] falls with every step up
    # in data. For the three-layer stack it falls with every step from 125,000 characters up;
    # from 31,250 to 125,000 [...] the seeds cannot tell."
    for L in (1, 3):
        assert all(word(gap(rows[L][-1]), gap(c), "gap") == "ahead" for c in rows[L][:-1]), L
    steps = {L: [word(gap(b), gap(a), "gap") for a, b in zip(rows[L], rows[L][1:], strict=False)]
             for L in (1, 3)}
    assert steps[1] == ["ahead"] * 3
    assert steps[3][0] == "not resolved" and steps[3][1:] == ["ahead"] * 2
    # the single layer's training bpc "is higher on the full set than on half a million
    # characters"
    assert word(full[1], rows[1][i], "train_bpc") == "behind"
    # "fewer passes ... about five times ... thirty times"
    subsets = [c["epochs"]["mean"] for L in (1, 3) for c in rows[L][:-1]]
    assert round(full[1]["epochs"]["mean"]) == 5 and round(min(subsets)) >= 30
    capped = {L: [len(c["early"]) - sum(c["early"]) for c in rows[L]] for L in (1, 3)}
    for L in (1, 3):  # "on the full set every run reaches the step cap"
        assert capped[L][-1] == len(SEEDS)
    # "as does one run on half a million characters": the only capped run on a smaller set
    assert sum(capped[1][:-1]) + sum(capped[3][:-1]) == 1
    assert capped[3][sizes.index(500_000)] == 1
    for L in (1, 3):  # the table's note: a capped run had all but converged, lr halved >= 3x
        for c in rows[L]:
            for gain, halved, early in zip(c["late_gain"], c["lr_halvings"], c["early"],
                                           strict=True):
                assert early or (gain < 0.02 and halved >= 3)


def test_budget_table_counts_in_the_convention_it_names():
    """The budget table's note names the convention its LSTM column counts in: PyTorch's two
    bias vectors and Keras's one give different counts."""
    from scripts.study.plan import BASE
    from stacklib.params import count_params

    table = (DOCS / "generated/partials/shakespeare_budget.md").read_text(encoding="utf-8")
    row = next(line for line in table.splitlines() if re.match(r"\| 1\W+268 \|", line))
    counted = {fw: count_params("lstm", BASE["embed_size"], 268, 1, framework=fw)
               for fw in ("torch", "keras")}
    assert counted["torch"] != counted["keras"]  # the convention changes the count
    assert row.split("|")[2].strip() == f"{counted['torch']:,}" and "PyTorch" in table
