"""python -m scripts.generation: cached by what each generator imports, deterministic, no drift."""

from __future__ import annotations

import doctest
import json
import shutil

import pytest
from sitebuild import DOCS, ROOT

from scripts.experiments import runner
from scripts.generation import pipeline, write
from scripts.generation.cache import Manifest, sha256_file, source_files
from scripts.generation.compare import compare_files, compare_json
from scripts.generation.write import json_text
from stacklib.experiments import REGISTRY

QUIET = {"log": lambda *a, **k: None}
# Every generator but those that train a model for a minute or more: the Shakespeare notebook
# is checked by its manifest entry below and by tests/site/test_shakespeare_notebook.py, and
# executed in full by `python -m scripts.generation --check`.
QUICK = [name for name in pipeline.GENERATORS if name not in pipeline.TRAINING]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """One from-scratch run of the quick generators (the trained experiments are inputs)."""
    out = tmp_path_factory.mktemp("docs")
    status = pipeline.generate(out, names=QUICK, force=True, **QUIET)
    return out, status


@pytest.mark.endtoend
def test_every_generator_runs_and_writes(fresh):
    out, status = fresh
    assert status == dict.fromkeys(QUICK, "ran")
    entries = Manifest(out).entries
    assert all(entries[name]["outputs"] for name in QUICK)


@pytest.mark.endtoend
def test_no_drift_against_committed_outputs(fresh):
    """Markdown, SVG and the executed notebook byte for byte, JSON within rtol 1e-6, and no
    committed generated file that no generator writes."""
    diffs = pipeline.drift(fresh[0])
    assert not diffs, "run `python -m scripts.generation` and commit:\n" + "\n".join(diffs[:30])


@pytest.mark.endtoend
def test_second_run_is_cached(fresh):
    status = pipeline.generate(fresh[0], names=QUICK, **QUIET)
    assert set(status.values()) == {"cached"}, status


@pytest.mark.endtoend
def test_hand_edit_is_regenerated(fresh):
    out = fresh[0]
    target = out / "generated" / "partials" / "params_rnn.md"
    original = target.read_text(encoding="utf-8")
    target.write_text(original.replace("95,488", "95,489"), encoding="utf-8")
    status = pipeline.generate(out, names=["parameter_tables"], **QUIET)
    assert status == {"parameter_tables": "ran"}
    assert target.read_text(encoding="utf-8") == original


def test_committed_tree_is_up_to_date_with_its_sources():
    """Every manifest entry's inputs key is today's: nobody changed stacklib, a generator, a data
    file or an experiment without regenerating (quick: it only hashes)."""
    assert pipeline.stale() == [], "run `python -m scripts.generation` and commit"
    entries = Manifest().entries
    for name in REGISTRY:
        assert entries[runner.entry(name)]["inputs"] == runner.experiment_key(name), \
            f"experiment {name} is stale: run `python -m scripts.experiments`"


def test_committed_outputs_are_not_hand_edited():
    """Every committed output, generated or trained, has the content its entry recorded."""
    edited = [rel for entry in Manifest().entries.values() for rel, digest in
              entry["outputs"].items()
              if not (DOCS / rel).is_file() or sha256_file(DOCS / rel) != digest]
    assert not edited, f"edited or missing: {edited}; run python -m scripts.generation"


def _repository_copy(tmp_path):
    """What the cache reads (sources, code lab, committed generated tree) in a scratch root."""
    for folder in ("stacklib", "scripts", "code_lab", "docs/generated"):
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for notebook in DOCS.glob("*.ipynb"):
        shutil.copy2(notebook, tmp_path / "docs" / notebook.name)
    return tmp_path


# Edited module -> the generators and experiments that import it, directly or not. The code lab
# and its notebook import no stacklib module (the weights are written out in
# code_lab/shared_weights.py).
DEPENDENTS = {
    "code_lab/shared_weights.py": ({"codelab_outputs", "codelab_notebook"}, set()),
    "stacklib/walkthrough.py": ({"walkthrough_tables", "quiz_answers", "prose_numbers"}, set()),
    "stacklib/params.py": ({"parameter_tables", "example_tables", "quiz_answers",
                            "parameter_figures", "trained_data", "shakespeare_tables",
                            "latency_table",
                            "shakespeare_figures", "shakespeare_curves", "shakespeare_scale",
                            "prose_numbers", "tuned_search", "tuned_verdict", "tuned_deep"},
                           {"depth_width"}),
    "scripts/study/summary.py": ({"shakespeare_tables", "shakespeare_figures",
                                    "shakespeare_curves", "shakespeare_scale", "prose_numbers",
                                    "shakespeare_probes", "tuned_search", "tuned_verdict",
                                    "tuned_deep", "testbed_tables", "trained_tables",
                                    "trained_figures", "trained_data", "depth_data_figures"},
                                   set()),
    # a timing is keyed by what it times, never by the code: editing the library does not
    # re-time it (test_a_timing_is_remade_only_when_what_it_times_changes)
    "stacklib/experiments/agreement.py": (set(), set(REGISTRY) - {"gradient_flow", "latency"}),
    "stacklib/config.py": (set(pipeline.GENERATORS) - {
        "codelab_notebook", "codelab_outputs", "depth_data_figures", "diagram_figures",
        "layer_colours", "shakespeare_notebook", "testbed_tables", "trained_figures",
        "trained_tables"}, set(REGISTRY) - {"latency"}),
    "stacklib/experiments/stacks.py": (set(), {"stacks", "probes", "depth_width"}),
    "stacklib/experiments/budget.py": (set(), {"depth_width"}),
    "stacklib/lecture.py": ({"parameter_tables", "example_tables", "walkthrough_tables",
                             "quiz_answers", "parameter_figures", "gradient_figures",
                             "trained_data", "prose_numbers", "layer_colours"},
                            set(REGISTRY) - {"latency"}),
}


@pytest.mark.parametrize("edited", sorted(DEPENDENTS))
def test_editing_a_module_reruns_exactly_what_imports_it(tmp_path, edited):
    root = _repository_copy(tmp_path)
    manifest = Manifest(root / "docs")
    trained = lambda: {n for n in REGISTRY  # noqa: E731
                       if not manifest.up_to_date(runner.entry(n),
                                                  runner.experiment_key(n, root=root))}
    assert pipeline.stale(root=root) == [] and trained() == set()
    with (root / edited).open("a", encoding="utf-8") as f:
        f.write("\n# one line more\n")
    generators, experiments = DEPENDENTS[edited]
    assert set(pipeline.stale(root=root)) == generators
    assert trained() == experiments


def test_a_timing_is_remade_only_when_what_it_times_changes(monkeypatch):
    """The latency measurement's key is its settings and the shapes of the stacks it times:
    another shape, or another setting, makes it stale; the library's code does not (above)."""
    import dataclasses

    from stacklib.experiments import latency

    cfg = latency.LatencyConfig()
    key = runner.config_key("latency", cfg)
    assert key == runner.experiment_key("latency")
    assert runner.config_key("latency", dataclasses.replace(cfg, rounds=cfg.rounds + 2)) != key
    case = cfg.cases[-1]
    wider = dataclasses.replace(cfg, cases=(*cfg.cases[:-1], (*case[:4], case[4] + 1, *case[5:])))
    assert runner.config_key("latency", wider) != key
    # the matched width comes from the parameter count: a count that changes it re-times
    monkeypatch.setattr(latency, "matched_width", lambda *args, **kwargs: 65)
    assert runner.config_key("latency", cfg) != key


def test_the_import_walk_follows_relative_imports_and_programs(tmp_path):
    pkg = tmp_path / "scripts" / "tool"
    pkg.mkdir(parents=True)
    for path, text in {"scripts/__init__.py": "", "scripts/tool/__init__.py": "",
                       "scripts/tool/a.py": "def f():\n    from .b import g\n",
                       "scripts/tool/b.py": "import stacklib.c\n",
                       "stacklib/__init__.py": "", "stacklib/c.py": "import numpy\n",
                       "lab/run.py": "from helper import x\n", "lab/helper.py": "import os\n",
                       }.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    found = source_files(["scripts.tool.a"], [tmp_path / "lab" / "run.py"], root=tmp_path)
    assert {p.relative_to(tmp_path).as_posix() for p in found} == {
        "scripts/__init__.py", "scripts/tool/__init__.py", "scripts/tool/a.py",
        "scripts/tool/b.py", "stacklib/__init__.py", "stacklib/c.py", "lab/run.py",
        "lab/helper.py"}


def test_a_generator_reads_only_declared_data(tmp_path):
    out = write.Output(tmp_path, ["docs/generated/experiments/stacks.json"], ROOT)
    assert "models" in out.read_json("docs/generated/experiments/stacks.json")
    with pytest.raises(ValueError, match="not among this generator's DATA"):
        out.read_json("docs/generated/experiments/probes.json")


# -- the JSON format and the comparison -------------------------------------------------------

def test_json_format():
    assert doctest.testmod(write).failed == 0
    assert json.loads(json_text({"x": 1 / 3})) == {"x": 0.333333333333}
    with pytest.raises(ValueError, match=r"\$\.a\[1\]: nan"):
        json_text({"a": [1.0, float("nan")]})
    with pytest.raises(TypeError, match=r"\$\.s: set"):
        json_text({"s": {1}})
    assert json_text(write.non_finite_as_none({"a": [1.0, float("inf")]})) == \
        '{\n "a": [1.0, null]\n}\n'


def test_compare_json_tolerance():
    assert compare_json({"a": [1.0, 2.0]}, {"a": [1.0 + 1e-9, 2.0]}) == []
    assert compare_json({"a": 1.0}, {"a": 1.0 + 1e-3})
    assert compare_json({"a": 1}, {"a": 2})
    assert compare_json({"a": 1}, {"b": 1})
    assert compare_json([1, 2], [1, 2, 3])
    assert compare_json(True, 1)
    assert compare_json({"x": 1e-12}, {"x": 2e-12}) == []  # within atol


def test_compare_files(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        (root / "p").mkdir(parents=True)
        (root / "p" / "t.md").write_text("| 1 |\n")
    (a / "d.json").write_text(json.dumps({"v": 0.5}))
    (b / "d.json").write_text(json.dumps({"v": 0.5 * (1 + 1e-8)}))
    assert compare_files(a, b, ["p/t.md", "d.json"]) == []
    (b / "p" / "t.md").write_text("| 2 |\n")
    diffs = compare_files(a, b, ["p/t.md", "d.json", "gone.svg"])
    assert any("t.md: content differs (line 1" in d for d in diffs)
    assert any("gone.svg: missing" in d for d in diffs)
