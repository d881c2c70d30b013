"""scripts/generate.py: cached, deterministic, and the committed docs/generated/ has no drift."""

from __future__ import annotations

import json
import time

import gen_common
import generate
import pytest
from sitebuild import GENERATED
from gen_compare import compare_json, compare_trees

QUIET = {"log": lambda *a, **k: None}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """One from-scratch run (everything but the slow trained experiments)."""
    out = tmp_path_factory.mktemp("generated")
    start = time.perf_counter()
    status = generate.generate(out, force=True, skip={"experiments"}, **QUIET)
    return out, status, time.perf_counter() - start


def test_fresh_run_generates_everything(fresh):
    out, status, _ = fresh
    assert {k for k, v in status.items() if v == "ran"} >= {
        "params", "examples", "walkthrough", "quiz", "codelab", "notebook", "fig_diagrams",
        "fig_charts", "fig_trained"}
    for rel in ("partials/params_lstm.md", "partials/walkthrough_layer1.md",
                "figures/blueprint.svg", "data/params.json", "_docs/code_lab.ipynb"):
        assert (out / rel).is_file(), rel


def test_no_drift_against_committed_outputs(fresh):
    """Markdown/SVG/notebook byte for byte, JSON within rtol 1e-6: regenerate and commit."""
    diffs = generate.drift(fresh[0])
    assert not diffs, "run `python scripts/generate.py` and commit:\n" + "\n".join(diffs[:30])


def test_generation_is_deterministic(fresh, tmp_path):
    """A second from-scratch run writes identical bytes (code lab: see test_codelab)."""
    generate.generate(tmp_path, force=True, skip={"experiments", "codelab"}, **QUIET)
    first, second = fresh[0], tmp_path
    files = [p.relative_to(second).as_posix() for p in second.rglob("*")
             if p.is_file() and p.name != "manifest.json"]
    assert files
    differ = [rel for rel in files if (first / rel).read_bytes() != (second / rel).read_bytes()]
    assert not differ, differ


def test_second_run_is_cached(fresh):
    """Nothing changed: every generator is a cache hit (speed is the benchmark's business)."""
    status = generate.generate(fresh[0], skip={"experiments"}, **QUIET)
    assert set(status.values()) <= {"cached", "skipped"}, status


def test_hand_edit_is_regenerated(fresh):
    out = fresh[0]
    target = out / "partials" / "params_rnn.md"
    original = target.read_text(encoding="utf-8")
    target.write_text(original.replace("95,488", "95,489"), encoding="utf-8")
    status = generate.generate(out, only={"params"}, **QUIET)
    assert status["params"] == "ran"
    assert target.read_text(encoding="utf-8") == original


def test_committed_outputs_are_not_hand_edited():
    """Every committed output matches the hash its generator recorded in the manifest.

    (Experiments are left to scripts/run_experiments.py's own cache: re-training takes minutes.)
    """
    manifest = json.loads((GENERATED / "manifest.json").read_text(encoding="utf-8"))
    edited = []
    for name, entry in manifest["generators"].items():
        if name == "experiments":
            continue
        for rel, digest in entry["outputs"].items():
            path = gen_common.resolve(GENERATED, rel)
            if not path.is_file() or gen_common.sha256_bytes(path.read_bytes()) != digest:
                edited.append(rel)
    assert not edited, f"edited or missing: {edited}; run python scripts/generate.py"


def test_svgs_have_no_dates_and_fixed_ids():
    for svg in (GENERATED / "figures").glob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        assert "<dc:date>" not in text, svg.name
        assert "<title>" in text or "<dc:title>" in text, svg.name


# -- the comparison function itself ---------------------------------------------------------

def test_compare_json_tolerance():
    assert compare_json({"a": [1.0, 2.0]}, {"a": [1.0 + 1e-9, 2.0]}) == []
    assert compare_json({"a": 1.0}, {"a": 1.0 + 1e-3})
    assert compare_json({"a": 1}, {"a": 2})
    assert compare_json({"a": 1}, {"b": 1})
    assert compare_json([1, 2], [1, 2, 3])
    assert compare_json(True, 1)
    assert compare_json({"x": 1e-12}, {"x": 2e-12}) == []  # within atol


def test_compare_trees(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "partials").mkdir(parents=True)
    (a / "partials" / "t.md").write_text("| 1 |\n")
    (b / "partials" / "t.md").write_text("| 1 |\n")
    (a / "d.json").write_text(json.dumps({"v": 0.5}))
    (b / "d.json").write_text(json.dumps({"v": 0.5 * (1 + 1e-8)}))
    assert compare_trees(a, b) == []
    (b / "partials" / "t.md").write_text("| 2 |\n")
    (b / "extra.svg").write_text("<svg/>")
    diffs = compare_trees(a, b)
    assert any("t.md: content differs" in d for d in diffs)
    assert any("extra.svg: not in" in d for d in diffs)
    assert compare_trees(a, b, only={"d.json"}) == []
