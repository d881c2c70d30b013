"""The tuned study's runner, in its quick mode: stages chain as records land, it resumes, and a
record is current under the key of the device it names."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scripts.experiments import charlm_runs, tuned
from scripts.study.plan import variant
from scripts.study.tuned import where_compute_allows


@pytest.mark.endtoend
def test_stages_chain_resume_and_list(tmp_path, capsys):
    args = ["--quick", "--out", str(tmp_path), "--upto", "A2", "--device", "cpu"]
    assert tuned.main(args) == 0
    out = capsys.readouterr().out
    assert "running 6 (A)" in out and "running 3 (A2)" in out   # A2 drawn from A's records
    runs, records, decided = tuned.state(tmp_path, quick=True, upto="A2")
    assert set(records) == {r.name for r in runs} and len(runs) == 9
    assert all(r["test_bpc"] is None and r["config"]["test"] is False for r in records.values())
    assert all(w is not None and w["dropout"] is None for w in decided["winners"].values())

    assert tuned.main(args) == 0                      # nothing left: nothing trains
    assert "running" not in capsys.readouterr().out
    assert tuned.main([*args, "--list"]) == 0
    listing = capsys.readouterr().out
    assert "9 of 9 planned runs current" in listing and "CPU-s on cpu" in listing


@pytest.mark.endtoend
def test_only_runs_the_stages_named_drawn_from_the_whole_plans_records(tmp_path, capsys):
    args = ["--quick", "--out", str(tmp_path), "--device", "cpu"]
    assert tuned.main([*args, "--only", "A"]) == 0
    assert "running 6 (A)" in capsys.readouterr().out
    assert {path.stem.split("-")[0] for path in tmp_path.glob("*.json")} == {"A"}
    assert tuned.main([*args, "--only", "A2", "B"]) == 0     # A2 from A's records, then B
    out = capsys.readouterr().out
    assert "running 3 (A2)" in out and "running 4 (B)" in out and "(A)" not in out
    assert {path.stem.split("-")[0] for path in tmp_path.glob("*.json")} == {"A", "A2", "B"}


def test_a_record_is_current_under_the_device_it_names_whatever_the_torch_build(tmp_path,
                                                                                monkeypatch):
    import torch

    run = tuned.state(tmp_path, quick=True, upto="A")[0][0]
    gpu = charlm_runs.on_device([run], "cuda")[0]
    release = torch.__version__.split("+")[0]
    monkeypatch.setattr(torch, "__version__", f"{release}+cu126")     # trained on a CUDA build
    record = {"name": run.name, "key": charlm_runs.training_key(gpu, quick=True),
              "config": gpu.job.describe()}
    (tmp_path / f"{run.name}.json").write_text(json.dumps(record))
    monkeypatch.setattr(torch, "__version__", f"{release}+cpu")        # read on the CPU build
    assert tuned.current(run, tmp_path, quick=True) == record
    monkeypatch.setattr(torch, "__version__", "0.0.1+cpu")            # another release: stale
    assert tuned.current(run, tmp_path, quick=True) is None
    monkeypatch.setattr(torch, "__version__", f"{release}+cpu")
    record["key"] = charlm_runs.training_key(run, quick=True)     # a CPU key beside "cuda": stale
    (tmp_path / f"{run.name}.json").write_text(json.dumps(record))
    assert tuned.current(run, tmp_path, quick=True) is None


def test_the_queue_follows_the_plan_not_the_longest_run_first(tmp_path):
    """The 4x runs cost the most, yet the verdict at the reference budget must land first."""
    run = tuned.state(tmp_path, quick=True, upto="A")[0][0]

    def as_stage(group, steps):
        return dataclasses.replace(run, name=f"{group}-{steps}", group=group,
                                   job=variant(run.job, max_steps=steps))

    planned = [as_stage("x1", 100), as_stage("x1", 200), as_stage("deep", 300),
               as_stage("x4", 900)]
    todo = [(r, True, "key", None) for r in reversed(planned)]
    queue = charlm_runs.schedule(todo, tuned.in_plan_order(planned))
    assert [t[0].name for t in queue] == [r.name for r in planned]
    # without a rank, the longest run starts first
    assert [t[0].name for t in charlm_runs.schedule(todo)] == [r.name for r in reversed(planned)]


@pytest.mark.endtoend
def test_stages_run_where_the_compute_allows_start_only_when_named(tmp_path, capsys,
                                                                    monkeypatch):
    monkeypatch.setattr(tuned.tuned, "where_compute_allows", lambda search: {"A2"})
    args = ["--quick", "--out", str(tmp_path), "--device", "cpu"]
    assert tuned.main(args) == 0                 # A2 left out, and B waits on A2's records
    out = capsys.readouterr().out
    assert "running 6 (A)" in out and "running 3" not in out and "(A2)" in out.splitlines()[-1]
    assert tuned.main([*args, "--upto", "A2"]) == 0
    assert "running 3 (A2)" in capsys.readouterr().out


def test_the_listing_counts_the_stages_run_where_the_compute_allows_apart(tmp_path):
    runs, _, decided = tuned.state(tmp_path, quick=True, upto="A")
    runs = [dataclasses.replace(r, group="C4") if k >= 4 else r for k, r in enumerate(runs)]
    records = {r.name: {"cpu_seconds": 3600, "config": {"device": "cpu"}} for r in runs[:5]}
    assert "5 of 6 planned runs current" in tuned.listing(runs, records, decided)
    lines = tuned.listing(runs, records, decided, optional={"C4"}).splitlines()
    assert "4 of 4 planned runs current" in lines[-1] and "1 of 2 planned so far (C4)" in lines[-1]
    assert "5.00 CPU-hours" in lines[-1]
    assert lines[5].endswith("to run where the compute allows") and "done" in lines[4]
    assert where_compute_allows() == {"C4", "x4"}
