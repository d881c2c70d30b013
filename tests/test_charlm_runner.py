"""The Shakespeare study's runner, in its quick mode: every code path on a slice of the text."""

from __future__ import annotations

import json
import os

import pytest

from scripts.experiments import charlm_runs
from scripts.experiments import shakespeare as runner
from scripts.study import plan as study
from stacklib.corpus import shakespeare


@pytest.mark.endtoend
def test_quick_study_runs_resumes_and_reanalyses(tmp_path, capsys):
    before = {name: os.environ.get(name) for name in charlm_runs.WORKER_ENV}
    assert runner.main(["--quick", "--out", str(tmp_path), "--workers", "2"]) == 0
    # the workers' settings never leak into the caller (here, every later test's programs)
    assert {name: os.environ.get(name) for name in charlm_runs.WORKER_ENV} == before
    runs = study.quick_plan(len(shakespeare().vocab))
    files = {p.stem: json.loads(p.read_text()) for p in tmp_path.glob("*.json")}
    assert set(files) == {r.name for r in runs}
    for run in runs:
        record = files[run.name]
        assert record["key"] == charlm_runs.training_key(run, quick=True)
        assert record["steps"] == record["history"]["steps"][-1] > 0
        assert 0 < record["test_bpc"] < 8
        assert ("analysis" in record) == bool(run.analyse)
        assert record["config"]["device"] == "cpu"   # every record names its device
        assert record["machine"]["cpu_capability"]   # and the instruction set it ran on
    sample = files["L2-h12-s0"]["analysis"]["sample"]
    assert sample["text"] and sample["prompt"] == "ROMEO:\n"

    # nothing left to do: a second run trains nothing
    capsys.readouterr()
    assert runner.main(["--quick", "--out", str(tmp_path)]) == 0
    assert "running 0" in capsys.readouterr().out

    # an analysis whose key is stale is redone from the saved weights, without training
    name = "L2-h12-s0"
    stale = {**files[name], "analysis_key": "old"}
    (tmp_path / f"{name}.json").write_text(json.dumps(stale))
    todo = charlm_runs.pending(runs, tmp_path, tmp_path / "weights", quick=True)
    assert [(run.name, retrain) for run, retrain, *_ in todo] == [(name, False)]
    assert runner.main(["--quick", "--out", str(tmp_path)]) == 0
    again = json.loads((tmp_path / f"{name}.json").read_text())
    assert again["analysis_key"] != "old" and again["history"] == files[name]["history"]


def test_a_run_another_runner_wrote_meanwhile_is_not_trained_again(tmp_path, capsys):
    """Two runners on one folder: the list is made at the start, but each run looks again
    when a worker takes it up, so a record written meanwhile is kept, not trained over."""
    run = next(r for r in study.quick_plan(len(shakespeare().vocab)) if not r.analyse)
    todo = charlm_runs.pending([run], tmp_path, tmp_path / "weights", quick=True)
    assert [t[0].name for t in todo] == [run.name]
    record = {"name": run.name, "key": charlm_runs.training_key(run, quick=True), "test_bpc": 1.5}
    path = tmp_path / f"{run.name}.json"
    path.write_text(json.dumps(record))              # the other runner's record lands
    charlm_runs.train_all(todo, tmp_path, tmp_path / "weights", workers=1, quick=True)
    assert "not trained again" in capsys.readouterr().out
    assert json.loads(path.read_text()) == record and not (tmp_path / "weights").exists()


def test_a_rerun_reproduces_a_record_to_the_decimals_it_kept():
    """Older records kept six significant digits: a re-run agreeing to those reproduces them,
    and one that moves the last kept digit does not."""
    old = {"test_bpc": 2.16095, "steps": 6000, "history": {"val_bpc": [2.61145, 2.39705]}}
    same = {"test_bpc": 2.16095157942, "steps": 6000,
            "history": {"val_bpc": [2.61145003807, 2.39705045855]}}
    assert charlm_runs.differences(old, same) == []
    moved = {"test_bpc": 2.16105, "steps": 6250, "history": {"val_bpc": [2.61145003807, 2.3971]}}
    assert charlm_runs.differences(old, moved) == ["steps", "test_bpc", "history.val_bpc"]
    assert charlm_runs.differences(old, {**same, "history": {"val_bpc": [2.61145]}}) \
        == ["history.val_bpc"]
