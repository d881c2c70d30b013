"""The Shakespeare study's pages are cut from a complete study, never from part of one."""

from __future__ import annotations

import json

import pytest

from scripts.generation import shakespeare_records
from scripts.generation.write import Output


def _output(tmp_path, names):
    folder = tmp_path / shakespeare_records.STUDY
    folder.mkdir(parents=True)
    record = {"config": {"model": {"vocab_size": 76}}}
    rels = []
    for name in names:
        (folder / f"{name}.json").write_text(json.dumps({**record, "name": name}))
        rels.append(f"{shakespeare_records.STUDY}/{name}.json")
    return Output(tmp_path / "docs", rels, tmp_path)


def test_a_partial_study_is_an_error_naming_the_missing_runs_and_the_command(tmp_path):
    out = _output(tmp_path, ["L1-h128-s0"])
    from scripts.study.plan import plan

    missing = sorted(r.name for r in plan(76)
                     if r.group in shakespeare_records.SHOWN and r.name != "L1-h128-s0")
    missing = rf"{len(missing)} planned runs missing \({missing[0]}, {missing[1]}.*"
    with pytest.raises(FileNotFoundError, match=missing + "python -m scripts.experiments"):
        shakespeare_records.load(out)


def test_no_study_at_all_is_an_error_naming_the_command(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"no runs; run `python -m scripts\.experiments"):
        shakespeare_records.load(Output(tmp_path / "docs", [], tmp_path))
