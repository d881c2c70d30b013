"""What the pages show of the tuned study, from its records (scripts/study/tuned_summary.py):
the search as it ran, and each budget's verdict from the one comparison helper."""

from __future__ import annotations

import json
import math

import pytest
from tuned_scores import complete, search_bpc

from scripts.generation import tuned_deep, tuned_search, tuned_verdict
from scripts.generation.figures import mpl
from scripts.generation.markdown import NBSP
from scripts.generation.tuned_records import SHOWN, STUDY
from scripts.generation.write import Output
from scripts.study import tuned
from scripts.study.tuned_summary import (
    check_summary,
    deep_summary,
    near_best,
    search_summary,
    verdict_summary,
)
from scripts.study.verdict import compare

VOCAB = 77
PLAYS = ("hamlet", "twelfth-night")


def _history(steps: int, stopped: str, layers: int, bottom: float) -> dict:
    """Two evaluations, and two gradient records where layer 1 gets ``bottom`` times the top
    layer's gradient (the layers between on a geometric path)."""
    weights = [[bottom ** ((layers - 1 - k) / max(layers - 1, 1)) for k in range(layers)]] * 2
    return {"steps": [250, steps], "val_bpc": [2.4, 2.2], "train_bpc": [2.5, 2.1],
            "stopped": stopped, "grad_steps": [100, 200], "weight_grad": weights,
            "grad_norm": [0.5, 0.4]}


def _record(run, val, steps, stopped="patience", test=None, plays=None, bottom=1.0) -> dict:
    rec = {"name": run.name, "group": run.group, "val_bpc": val, "steps": steps,
           "cpu_seconds": 10.0,
           "history": _history(steps, stopped, run.job.model.num_layers, bottom),
           "params": 1000 * run.job.model.num_layers,
           "config": run.job.describe() | {"seed": run.job.train.seed}, "test_bpc": test,
           "train_bpc": val - 0.3}
    if plays is not None:
        rec["analysis"] = {"test_plays": plays}
    return rec


def _winners_settings(run) -> float:
    """A check's validation bpc that prefers the search's winning rate and dropout."""
    return 2.0 + abs(math.log(run.job.train.lr / 9e-3)) + abs(run.job.model.dropout - 0.2)


def _study(deep_edge: float = -0.02, check=_winners_settings):
    """Synthetic records of the whole tuned study: the search (rate 9e-3 and forget bias 1
    win; dropout 0.2), the dropout checks scored ``check(run)``, then final runs where every
    deeper shape needs ``deep_edge`` bits more than the wide layer (negative: fewer), seed by
    seed."""
    def record(run):
        m, t = run.job.model, run.job.train
        if run.group in ("A", "A2", "B"):
            return _record(run, search_bpc(run), 6000 if run.group == "B" else t.max_steps)
        if run.group.startswith("C"):
            return _record(run, check(run), t.max_steps)
        test = 2.1 + 0.001 * t.seed + (0 if m.num_layers == 1 else deep_edge)
        plain_deep = run.group == "deep" and not m.residual
        if plain_deep:                  # eight plain layers: letter frequencies, no gradient
            test += 2.6
        plays = {p: test + 0.01 * k for k, p in enumerate(PLAYS)}
        return _record(run, test - 0.05, 9000, "patience", test, plays,
                       bottom=1e-11 if plain_deep else 2.0)

    return complete(record, VOCAB)


def test_the_search_table_holds_every_trial_and_what_was_decided():
    runs, records, decided = _study()
    s = search_summary(runs, records, decided, tuned.Search())
    stages = [t["stage"] for t in s["trials"]]
    assert stages.count("A") == 36 and stages.count("B") == 8   # 6 rates: the grid grew once
    assert {t["shape"] for t in s["trials"]} == {tuned.WIDE, tuned.RESIDUAL, tuned.PLAIN}
    assert all(t["val_bpc"] == records[t["name"]]["val_bpc"] for t in s["trials"])
    assert s["cap"] == decided["cap"] == tuned.final_cap([6000] * 8, tuned.Search(), 250)
    assert s["b_at_cap"] == 0 and s["space"]["forget_biases"] == [0.0, 1.0]


def test_trials_that_a_grown_grid_set_aside_stay_in_the_table():
    def score(run):
        # the residual stack: higher rates look best in 1,500 steps, 5.8e-3 wins at 4,000
        if run.shape == tuned.RESIDUAL and run.group == "A":
            bpc = 3.0 - 10 * run.job.train.lr - 0.01 * (run.job.model.forget_bias or 0)
        else:
            bpc = search_bpc(run, 5.8e-3 if run.shape == tuned.RESIDUAL else 9e-3)
        return _record(run, bpc, 6000 if run.group == "B" else run.job.train.max_steps)

    stages = ("A", "A2", "B")
    # B ran for the residual stack before the wide layer's winner, on the grid's edge, grew it
    first = complete(score, VOCAB, stages, tuned.Search(extensions=0))[1]
    runs, records, decided = complete(score, VOCAB, stages, records=first)
    assert decided["winners"][tuned.RESIDUAL]["lr"] == 9e-3       # 5.8e-3 before the 0.014s
    s = search_summary(runs, {n: records[n] for n in records if n in {r.name for r in runs}},
                       decided, tuned.Search(), records)
    aside = [t for t in s["trials"] if not t["planned"]]
    assert {(t["stage"], t["shape"], t["lr"]) for t in aside} == {
        ("A2", tuned.RESIDUAL, 5.8e-3), ("A2", tuned.RESIDUAL, 9e-3),   # out of the best 3
        ("B", tuned.RESIDUAL, 5.8e-3)}
    assert len(aside) == 2 + 4 and len(s["trials"]) == len(records)
    assert len(s["b_steps"]) == 2 * len(tuned.Search().dropouts)   # the cap's: planned B only
    assert s["space"]["rates"][-1] == 0.014 and s["space"]["first_rates"][-1] == 9e-3
    settled = tuned.settle(lambda run: records.get(run.name), VOCAB)[1]
    assert set(settled) == set(records) - {t["name"] for t in aside}


@pytest.mark.parametrize("edge, word", [(-0.02, "ahead"), (0.0, "equivalent"),
                                        (0.02, "behind")])
def test_each_budgets_verdict_is_the_comparison_helpers(edge, word):
    runs, records, _ = _study(edge)
    v = verdict_summary(runs, records, ("x1", "x2", "x0.5"))
    assert [b["group"] for b in v["budgets"]] == ["x0.5", "x1", "x2"]      # smallest first
    x1 = v["budgets"][1]
    assert set(x1["shapes"]) == {tuned.WIDE, tuned.RESIDUAL, tuned.PLAIN}
    wide, res = x1["shapes"][tuned.WIDE], x1["shapes"][tuned.RESIDUAL]
    assert res["seeds"] == [1, 2, 3, 4, 5] and x1["shapes"][tuned.PLAIN]["seeds"] == [1, 2, 3]
    expected = compare(res["test_bpc"]["values"], wide["test_bpc"]["values"])
    assert x1["versus_wide"][tuned.RESIDUAL]["verdict"] == expected.verdict == word
    signs = set(x1["versus_wide"][tuned.RESIDUAL]["plays"].values())
    assert signs == {int(edge > 0) - int(edge < 0)}
    assert v["trend"]["ci95"][0] <= v["trend"]["per_doubling"] <= v["trend"]["ci95"][1]


def test_depth_eight_keeps_each_shapes_curves_and_the_gradient_that_reached_layer_1():
    runs, records, _ = _study()
    d = deep_summary(runs, records)
    plain, residual = d["shapes"]["8 plain layers"], d["shapes"]["8 residual layers"]
    assert (plain["layers"], plain["residual"], residual["residual"]) == (8, False, True)
    assert [len(s["curves"]) for s in (plain, residual)] == [3, 3]
    assert plain["gradients"]["bottom_over_top"]["mean"] == pytest.approx(1e-11)
    assert residual["gradients"]["bottom_over_top"]["mean"] == pytest.approx(2.0)
    expected = compare(residual["test_bpc"]["values"], plain["test_bpc"]["values"])
    assert d["residual_minus_plain"] == expected.as_dict()
    assert d["residual_minus_plain"]["verdict"] == "ahead"


def test_a_missing_final_run_is_an_error_not_a_partial_table():
    runs, records, _ = _study()
    del records[next(r.name for r in runs if r.group == "x1")]
    with pytest.raises(FileNotFoundError, match="final runs missing"):
        verdict_summary(runs, records, ("x1",))


def _docs(tmp_path, records: dict) -> Output:
    for name, record in records.items():
        path = tmp_path / STUDY / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record))
    data = [f"{STUDY}/{name}.json" for name in records]
    return Output(tmp_path / "docs", data, tmp_path)


def test_the_search_generator_writes_its_table_figure_and_data(tmp_path):
    runs, records, decided = _study()
    out = _docs(tmp_path, records)
    tuned_search.run(out)
    s = json.loads((tmp_path / "docs/generated/data/tuned_search.json").read_text())
    searched = [r for r in runs if r.group in ("A", "A2", "B")]
    assert s["cap"] == decided["cap"] and len(s["trials"]) == len(searched) > 30 + 8
    table = (tmp_path / "docs/generated/partials/tuned_search.md").read_text()
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 3                            # a header, a row per shape
    plt = mpl()
    fig = tuned_search.search_figure(plt, s, phone=True)
    assert [len(a.lines) for a in fig.axes] == [6, 2]   # A: shape x bias; B: two shapes
    plt.close(fig)


def test_the_search_table_gives_each_stage_the_winning_settings_own_score():
    """A row's stage scores are its chosen settings' (not the stage's best, which another
    rate or bias may hold after a short run)."""
    def trial(stage, lr, fb, dropout, val):
        return {"stage": stage, "shape": tuned.WIDE, "lr": lr, "forget_bias": fb,
                "dropout": dropout, "val_bpc": val, "planned": True}

    summary = {"winners": {tuned.WIDE: {"lr": 9e-3, "forget_bias": None, "dropout": 0.0}},
               "trials": [trial("A", 5.8e-3, None, 0.1, 2.20), trial("A", 9e-3, None, 0.1, 2.25),
                          trial("A", 9e-3, 1.0, 0.1, 2.21), trial("A2", 5.8e-3, None, 0.1, 2.12),
                          trial("A2", 9e-3, None, 0.1, 2.10), trial("B", 9e-3, None, 0.1, 2.04),
                          trial("B", 9e-3, None, 0.0, 2.06)],
               "space": {"rates": [5.8e-3, 9e-3], "first_rates": [5.8e-3, 9e-3],
                         "forget_biases": [0.0, 1.0], "probe_dropout": 0.1, "keep": 3,
                         "keep_within": 0.02, "dropouts": [0.0, 0.1], "cap_factor": 1.3,
                         "cap_quantile": 90.0},
               "cap": 10_000}
    row = next(line for line in tuned_search.table_md(summary).splitlines()
               if line.startswith(f"| {tuned.WIDE}"))
    assert row.split(" | ")[-3:] == ["2.250", "2.100", "2.060 |"]


def test_the_search_generator_refuses_an_incomplete_search(tmp_path):
    _, records, _ = _study()
    b = next(name for name in records if name.startswith("B-"))
    del records[b]
    with pytest.raises(FileNotFoundError, match="search is not complete"):
        tuned_search.run(_docs(tmp_path, records))


def test_the_verdict_generator_writes_its_table_figures_and_data(tmp_path):
    _, records, decided = _study(-0.02)
    tuned_verdict.run(_docs(tmp_path, records))
    v = json.loads((tmp_path / "docs/generated/data/tuned_verdict.json").read_text())
    assert [b["group"] for b in v["budgets"]] == sorted(SHOWN,
                                                         key=lambda g: float(g[1:]))
    assert v["cap"] == decided["cap"]
    table = (tmp_path / "docs/generated/partials/tuned_verdict.md").read_text()
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    shapes = sum(len(b["shapes"]) for b in v["budgets"])
    assert len(rows) == 1 + shapes
    verdicts = [vs["verdict"] for b in v["budgets"] for vs in b["versus_wide"].values()]
    assert set(verdicts) == {"ahead"} and table.count("| ahead |") == len(verdicts)
    assert "xploratory" not in table                    # no runs were set aside
    assert "exploratory" not in (tmp_path / "docs/generated/figures/tuned_verdict.svg").read_text()
    for layout in ("", ".phone"):
        assert (tmp_path / f"docs/generated/figures/tuned_verdict{layout}.svg").is_file()
    check = (tmp_path / "docs/generated/partials/tuned_check.md").read_text()
    rows = [line.split(" | ")[1:] for line in check.splitlines() if "| 2× |" in line]
    assert len(rows) == sum(len(c["trials"]) for c in v["checks"]["x2"]["shapes"].values()) == 8
    # each shape: one row the rule gave, one the check chose
    marks = [row[-1].strip(" |") for row in rows]
    assert sorted(m for m in marks if m) == ["chosen"] * 2 + ["the rule's"] * 2
    # a shape's rows by dropout, then rate
    for model in {line.split(" | ")[0] for line in check.splitlines() if "| 2× |" in line}:
        tried = [(float(c[3]), float(c[2])) for c in (line.split(" | ")
                 for line in check.splitlines()) if c[0] == model and c[1] == "2×"]
        assert tried == sorted(tried) and len(set(tried)) == len(tried) > 1


def test_the_check_table_names_the_rules_runs_that_the_verdict_leaves_out(tmp_path):
    runs, records, _ = _study(-0.02)
    final = next(r for r in runs if r.group == "x2" and r.shape == tuned.WIDE)
    rule = {**records[final.name], "val_bpc": 2.345, "test_bpc": 2.456,
            "config": {**records[final.name]["config"], "lr": 9e-3,
                       "model": {**records[final.name]["config"]["model"], "dropout": 0.3}}}
    name = final.name.rsplit("-lr", 1)[0] + "-lr0.009-d0.3-s1"
    tuned_verdict.run(_docs(tmp_path, {**records, name: rule}))
    v = json.loads((tmp_path / "docs/generated/data/tuned_verdict.json").read_text())
    assert list(v["checks"]["x2"]["superseded"]) == [name.rsplit("-s", 1)[0]]
    note = (tmp_path / "docs/generated/partials/tuned_check.md").read_text().split("\n\n")[-1]
    label = f"1{NBSP}×{NBSP}{final.job.model.hidden_size}"
    assert label in note and "2.345" in note and "2.456" in note
    # the verdict table marks that budget's rows, and only those, exploratory
    verdict_rows = [line.split(" | ")[1] for line in (
        tmp_path / "docs/generated/partials/tuned_verdict.md").read_text().splitlines()
        if line.startswith("| ") and "---" not in line][1:]
    assert {row for row in verdict_rows if "exploratory" in row} == {"2, exploratory"}
    assert sum("exploratory" in row for row in verdict_rows) == 2
    figure = (tmp_path / "docs/generated/figures/tuned_verdict.svg").read_text()
    assert figure.count(">exploratory<") == 1
    assert [b["group"] for b in v["budgets"]] == sorted(SHOWN, key=lambda g: float(g[1:]))


def test_the_verdict_shows_each_budget_once_all_its_runs_are_in(tmp_path):
    runs, records, _ = _study()
    for run in runs:                  # x1 is in; one run of x2 is still training
        if run.group == "x2" and run.job.train.seed == 3:
            del records[run.name]
    tuned_verdict.run(_docs(tmp_path, records))
    v = json.loads((tmp_path / "docs/generated/data/tuned_verdict.json").read_text())
    assert [b["group"] for b in v["budgets"]] == ["x0.25", "x0.5", "x1"]
    del records[next(r.name for r in runs if r.group == "x1")]
    with pytest.raises(FileNotFoundError, match="reference budget"):
        tuned_verdict.run(_docs(tmp_path / "again", records))


def test_the_depth_eight_generator_writes_its_table_figure_and_data(tmp_path):
    _, records, _ = _study()
    tuned_deep.run(_docs(tmp_path, records))
    d = json.loads((tmp_path / "docs/generated/data/tuned_deep.json").read_text())
    assert d["unigram_bpc"] > 4 and d["residual_minus_plain"]["verdict"] == "ahead"
    table = (tmp_path / "docs/generated/partials/tuned_deep.md").read_text()
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 2 and "10<sup>−11</sup>" in rows[1]
    for layout in ("", ".phone"):
        assert (tmp_path / f"docs/generated/figures/tuned_deep{layout}.svg").is_file()


def test_depth_eight_is_shown_only_once_all_its_runs_are_in(tmp_path):
    runs, records, _ = _study()
    del records[next(r.name for r in runs if r.group == "deep" and r.job.train.seed == 3)]
    with pytest.raises(FileNotFoundError, match="depth 8"):
        tuned_deep.run(_docs(tmp_path, records))
    assert not (tmp_path / "docs/generated/figures").exists()


def test_rates_near_best_take_the_better_forget_bias_and_the_margin():
    def a(lr, fb, bpc, shape=tuned.WIDE):
        return {"stage": "A", "shape": shape, "lr": lr, "forget_bias": fb, "val_bpc": bpc}

    trials = [a(1e-3, None, 2.50), a(1e-3, 1.0, 2.21),        # the better bias counts
              a(2e-3, None, 2.20), a(4e-3, None, 2.23), a(8e-3, None, 2.2301),
              a(8e-3, 1.0, None),                             # diverged: not a score
              {**a(1e-2, None, 2.0), "stage": "A2"},          # not stage A
              a(1e-3, None, 3.0, tuned.PLAIN)]
    assert near_best(trials, 0.03) == {tuned.WIDE: [1e-3, 2e-3, 4e-3], tuned.PLAIN: [1e-3]}


def test_a_check_reports_each_setting_tried_the_choice_and_the_runs_it_superseded():
    """At 2x the wide layer's check prefers the winner's dropout to the rule's and a lower
    rate, the residual stack's the rule's settings: the summary names the rule's and the
    chosen settings, every trial, and the rule's earlier final run of the wide layer, which
    the plan no longer holds."""
    def check(run):              # validation bpc: the wide layer prefers less dropout, 5.8e-3
        d, lr = run.job.model.dropout, run.job.train.lr
        best = 5.8e-3 if run.shape == tuned.WIDE else 9e-3
        return (2.0 + (d if run.shape == tuned.WIDE else -d)
                + abs(math.log(lr / best)))

    runs, records, decided = _study(check=check)
    c = check_summary(runs, records, decided, records)["x2"]
    wide, residual = c["shapes"][tuned.WIDE], c["shapes"][tuned.RESIDUAL]
    assert wide["rule"] == {"lr": 9e-3, "dropout": pytest.approx(0.3)}
    assert wide["chosen"] == {"lr": 5.8e-3, "dropout": 0.2}
    assert residual["chosen"] == residual["rule"] == {"lr": 9e-3, "dropout": pytest.approx(0.3)}
    assert [(t["lr"], t["dropout"]) for t in wide["trials"]] == [
        (9e-3, 0.2), (9e-3, pytest.approx(0.3)), (5.8e-3, 0.2), (1.4e-2, 0.2),
        (3.7e-3, 0.2)]                   # 5.8e-3 sat at the edge: one step further
    assert [t["val_bpc"] for t in wide["trials"]] == [check(r) for r in runs
                                                      if r.group == "C2" and r.shape == tuned.WIDE]
    assert not c["superseded"]
    final = next(r for r in runs if r.group == "x2" and r.shape == tuned.WIDE)
    stale = final.name.replace("-lr0.0058-d0.2-", "-lr0.009-d0.3-")  # the rule's, before
    model = {**records[final.name]["config"]["model"], "dropout": 0.3}
    every = {**records, stale: {**records[final.name], "config": {"lr": 9e-3, "model": model}}}
    c = check_summary(runs, records, decided, every)["x2"]
    assert c["superseded"] == {stale.rsplit("-s", 1)[0]: {
        "layers": 1, "hidden": final.job.model.hidden_size, "residual": False,
        "lr": 9e-3, "dropout": 0.3, "val_bpc": [records[final.name]["val_bpc"]],
        "test_bpc": [records[final.name]["test_bpc"]]}}


def test_below_the_reference_budget_the_check_steps_dropout_down_to_the_rules():
    """At half and a quarter of the budget the rule takes dropout 0.1 less per halving: the
    check tries the winner's dropout (0.2) down to the rule's at the winner's rate."""
    runs, records, decided = _study()
    checks = check_summary(runs, records, decided, records)
    for group, rule in (("x0.5", 0.1), ("x0.25", 0.0)):
        wide = checks[group]["shapes"][tuned.WIDE]
        assert wide["rule"] == {"lr": 9e-3, "dropout": pytest.approx(rule)}
        assert [t["dropout"] for t in wide["trials"] if t["lr"] == 9e-3] == pytest.approx(
            [0.2, 0.1, 0.0][:3 - round(10 * rule)])
        assert wide["chosen"] == {"lr": 9e-3, "dropout": 0.2}
