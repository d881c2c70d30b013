"""Depth against width across budgets: the summary, table and figure, on the quick study's
records (tiny models, a few steps: every code path, none of the study's numbers)."""

from __future__ import annotations

import json

import pytest

from scripts.experiments import shakespeare as runner
from scripts.generation import shakespeare_scale
from scripts.generation.figures import mpl
from scripts.study import plan as study
from scripts.study.summary import config_name, scale_summary, stopped_early
from scripts.study.verdict import compare


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("quick-study")
    groups = ["depth", "budget", "scale", "cell"]  # every shape of every budget
    assert runner.main(["--quick", "--out", str(out), "--workers", "1", "--groups", *groups]) == 0
    records = [json.loads(p.read_text()) for p in sorted(out.glob("L*.json"))]
    configs = {}
    for r in sorted(records, key=lambda r: r["config"]["seed"]):
        configs.setdefault(config_name(r), []).append(r)
    vocab = records[0]["config"]["model"]["vocab_size"]
    budgets = study.budgets(study.quick_base(vocab), tolerance=0.5)
    return records, scale_summary(configs, budgets)


@pytest.mark.endtoend
def test_every_budget_compares_its_shapes_with_its_wide_layer(quick):
    records, scale = quick
    by_name = {}
    for r in records:
        by_name.setdefault(config_name(r), []).append(r["test_bpc"])
    budgets = scale["lstm"]
    assert [b["scale"] for b in budgets] == sorted([*study.SCALES, 1.0])
    assert [b["params"] for b in budgets] == sorted(b["params"] for b in budgets)
    for budget in [*budgets, scale["gru"]]:
        wide = budget["shapes"]["1 wide layer"]
        assert budget["params"] == wide["params"]
        for shape, c in budget["shapes"].items():
            assert c["test_bpc"]["values"] == by_name[c["name"]]
            if shape == "1 wide layer":
                assert shape not in budget["versus_wide"]
                continue
            versus = budget["versus_wide"][shape]
            assert versus == compare(c["test_bpc"]["values"],
                                     wide["test_bpc"]["values"]).as_dict()
            assert versus["diff"] == pytest.approx(c["test_bpc"]["mean"]
                                                   - wide["test_bpc"]["mean"])
    # a trend per deeper LSTM shape trained at more than one budget
    assert set(scale["trend"]) == {shape for b in budgets[:-1] for shape in b["versus_wide"]}
    # plain stacks only below the reference budget's double; the GRU at the reference budget
    assert set(budgets[-1]["shapes"]) == {"1 wide layer", "3 residual layers"}
    assert all(c["name"].endswith("-gru") for c in scale["gru"]["shapes"].values())


@pytest.mark.endtoend
def test_the_table_has_a_row_per_shape_and_the_figure_draws(quick):
    _, scale = quick
    reference = {"layers": 3, "hidden": 4, "residual": False, "params": 1000}
    table = shakespeare_scale.table_md(scale, reference)
    rows = [line for line in table.splitlines()
            if line.startswith("| ") and not line.startswith(("| Budget", "| :--"))]
    shapes = sum(len(b["shapes"]) for b in scale["lstm"]) + len(scale["gru"]["shapes"])
    assert len(rows) == shapes
    plt = mpl()
    for phone in (False, True):
        fig = shakespeare_scale.scale_figure(plt, scale, phone)
        assert len(fig.axes) == 2
        plt.close(fig)


def _trained(steps, stopped, cap=6000):
    runs = [{"steps": n, "history": {"stopped": why}, "config": {"max_steps": cap}}
            for n, why in zip(steps, stopped, strict=True)]
    return {"steps": steps, "stopped": stopped, "early": [stopped_early(r) for r in runs]}


def test_the_steps_column_counts_the_seeds_that_stopped_before_the_cap():
    steps = shakespeare_scale._steps
    assert steps(_trained([6000, 5750, 6000], ["max_steps", "patience", "max_steps"])) \
        == "5,917 (1\xa0early)"
    assert steps(_trained([6000] * 3, ["max_steps"] * 3)) == "6,000"
    # patience that runs out at the cap's own step: the run had every step the cap allowed
    assert steps(_trained([6000, 6000], ["patience", "max_steps"])) == "6,000"
    with pytest.raises(ValueError, match="diverged"):
        steps(_trained([6000, 300, 6000], ["max_steps", "diverged", "max_steps"]))
