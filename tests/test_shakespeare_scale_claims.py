"""What §10 "Four budgets, one recipe" (and §12 after it) says about depth against width across
budgets holds in the study's committed results: the summary the table and figure are cut from
(docs/generated/data/shakespeare.json, ``scale``).

Each test quotes the page and checks the claim by the lecture's one comparison (the summary's
``versus_wide``: scripts.study.verdict.compare of each deeper shape with the wide layer, and
``trend``: verdict.slope); the numbers the sentences type are tied to the same summary by the
prose registry (scripts/generation/prose_numbers.py). After a re-run that breaks one, fix the
prose, not the test.
"""

from __future__ import annotations

import pytest
from claim_sources import generated

from scripts.study.plan import SCALE_STEPS, SHAPES
from scripts.study.verdict import compare

WIDE, RESIDUAL, PLAIN3, PLAIN2 = SHAPES


@pytest.fixture(scope="module")
def scale():
    return generated("data/shakespeare.json")["scale"]


def budgets_with(scale, shape: str) -> list[dict]:
    return [b for b in scale["lstm"] if shape in b["shapes"]]


def test_the_budgets_and_shapes_trained(scale):
    """The note: "Every budget trained one wide layer and three residual layers [...] The two
    smaller budgets also trained three and two plain layers.\""""
    assert [b["scale"] for b in scale["lstm"]] == [0.25, 0.5, 1.0, 2.0]
    assert all({WIDE, RESIDUAL} <= set(b["shapes"]) for b in scale["lstm"])
    for plain in (PLAIN3, PLAIN2):  # and at the reference budget, from the sections above
        assert [b["scale"] for b in budgets_with(scale, plain)] == [0.25, 0.5, 1.0]


def verdicts(scale, shape: str) -> dict[float, str]:
    """The word each budget's comparison with the wide layer allows, by budget."""
    return {b["scale"]: b["versus_wide"][shape]["verdict"] for b in scale["lstm"]
            if shape in b["versus_wide"]}


def test_depth_does_not_start_to_pay(scale):
    """"The one recipe also ran at four budgets, from a quarter of the 3 × 128 budget to twice
    it. Its three seeds a shape never put three residual layers ahead of the wide layer, nor
    behind it. Three plain layers were behind at every budget they were tried"; the note:
    "The residual stack's difference from the wide layer ran from −0.025 bpc at half the budget
    to +0.003 at twice it, neither ahead nor behind at any\""""
    budgets = [b["scale"] for b in scale["lstm"]]
    assert len(budgets) == 4 and max(budgets) / min(budgets) == 8
    assert set(verdicts(scale, RESIDUAL).values()) <= {"not resolved", "equivalent"}
    assert set(verdicts(scale, PLAIN3).values()) == {"behind"}
    diffs = {b["scale"]: b["versus_wide"][RESIDUAL]["diff"] for b in scale["lstm"]}
    assert min(diffs, key=diffs.get) == 0.5 and max(diffs, key=diffs.get) == 2.0


def test_no_stack_is_ahead_of_the_wide_layer(scale):
    """With one recipe for every shape, no stack was ahead of the wide layer at any budget (LSTM
    and GRU alike): §12's rule 1, "only three residual layers, tuned, were ahead of it"."""
    every = [c["verdict"] for b in [*scale["lstm"], scale["gru"]]
             for c in b["versus_wide"].values()]
    assert "ahead" not in every


def test_no_trend_is_resolved(scale):
    """The note: "Nor do the runs resolve a trend: per doubling of the budget, the difference
    rose by 0.011 bpc, with a 95 % interval from −0.003 to +0.025" (the numbers are
    registered)."""
    trend = scale["trend"][RESIDUAL]
    assert not trend["resolved"] and trend["per_doubling"] > 0
    assert trend["ci95"][0] < 0 < trend["ci95"][1]


def test_the_models_outgrow_the_text_at_twice_the_budget(scale):
    """"At twice the budget every run stopped early, each shape with a wider gap between training
    and test bpc than at any smaller budget: the models had begun to outgrow the text.\""""
    def overfit(c):
        return [t - tr for t, tr in zip(c["test_bpc"]["values"], c["train_bpc"]["values"],
                                        strict=True)]

    largest = scale["lstm"][-1]
    for name, shape in largest["shapes"].items():
        assert shape["stopped"] == ["patience"] * 3, name
        for b in scale["lstm"][:-1]:
            wider = compare(overfit(shape), overfit(b["shapes"][name]))
            assert wider.apart and wider.diff > 0, (name, b["scale"])


def test_two_plain_layers(scale):
    """The note: "Two plain layers were behind the wide layer at a quarter of the budget; at half
    and the full budget the seeds could not tell them apart.\""""
    assert verdicts(scale, PLAIN2) == {0.25: "behind", 0.5: "not resolved", 1.0: "not resolved"}


def test_the_gru_at_the_reference_budget(scale):
    """"With GRU cells at the reference budget, the seeds could not tell either three-layer stack
    from the wide GRU layer, residual or plain. Three plain LSTM layers of that budget were
    behind.\""""
    gru = scale["gru"]["versus_wide"]
    assert gru[RESIDUAL]["verdict"] == gru[PLAIN3]["verdict"] == "not resolved"
    assert verdicts(scale, PLAIN3)[1.0] == "behind"


def test_how_the_budgets_were_run(scale):
    """The note: "At a quarter and half the budget most runs ran to the 6,000-step cap [...] At
    twice the budget the cap is 12,000 steps"; "Past step 6,000, the best validation bpc fell
    by at most 0.001 on average, for either shape: the longer cap barely mattered" (the larger
    of the two shapes' gains past the usual cap is registered)."""
    small = [n for b in scale["lstm"] if b["scale"] < 1
             for c in b["shapes"].values() for n in c["steps"]]
    assert sum(n == 6000 for n in small) > len(small) / 2
    assert list(SCALE_STEPS) == [scale["lstm"][-1]["scale"]]
