"""The code-lab files run as the page shows them, agree with each other and with stacklib,
and start with §08's step."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
from sitebuild import GENERATED, ROOT

from scripts.toolenv import tool_env

LAB = ROOT / "code_lab"
LABS = ("pytorch", "keras", "numpy")
FRAMEWORK = {"pytorch": "torch", "keras": "keras", "numpy": "numpy"}
MARK = "@@LAB-RESULT@@"
# Runs a lab file as `python x_lab.py` would, and also prints what it handed to show() at full
# precision, after a marker.
RUNNER = f"""
import json, runpy, sys
import numpy as np
import shared_weights
shown = {{}}
def capture(output, h_n, c_n, show=shared_weights.show):
    shown.update(output=output, h_n=h_n, c_n=c_n)
    show(output, h_n, c_n)
shared_weights.show = capture
runpy.run_path(sys.argv[1], run_name="__main__")
print({MARK!r} + json.dumps({{k: np.asarray(v, dtype=float).tolist() for k, v in shown.items()}}))
"""


def _run_lab(name: str, folder) -> tuple[str, dict]:
    """Run the tab in a folder that holds only it and shared_weights.py, as a reader would."""
    folder.mkdir()
    for file in (f"{name}_lab.py", "shared_weights.py"):
        shutil.copy2(LAB / file, folder / file)
    proc = subprocess.run([sys.executable, "-c", RUNNER, f"{name}_lab.py"], cwd=folder,
                          env=tool_env(), capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, f"{name}_lab.py failed:\n{proc.stderr[-3000:]}"
    printed, _, payload = proc.stdout.rpartition(MARK)
    return printed, {k: np.array(v) for k, v in json.loads(payload).items()}


@pytest.fixture(scope="module")
def lab_runs(tmp_path_factory) -> dict[str, tuple[str, dict]]:
    """name -> (what the file printed, full-precision results), each in a fresh interpreter
    (the three at once)."""
    from concurrent.futures import ThreadPoolExecutor

    root = tmp_path_factory.mktemp("code-lab")
    with ThreadPoolExecutor(len(LABS)) as pool:
        runs = pool.map(lambda name: _run_lab(name, root / name), LABS)
        return dict(zip(LABS, runs, strict=True))


def _imports(file: str) -> set[str]:
    tree = ast.parse((LAB / file).read_text(encoding="utf-8"))
    return {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names} | {node.module.split(".")[0] for node in ast.walk(tree)
                                        if isinstance(node, ast.ImportFrom)}


@pytest.mark.parametrize("name", LABS)
def test_a_tab_needs_only_its_framework_and_the_shown_weights(name):
    """What a tab imports is on the page: numpy, its framework and shared_weights.py, which
    imports numpy alone (no hidden helper reaches into the library)."""
    assert _imports(f"{name}_lab.py") <= {"os", "numpy", FRAMEWORK[name], "shared_weights"}
    assert _imports("shared_weights.py") == {"numpy"}


def test_the_shared_weights_are_the_walkthrough(lab_runs):
    import runpy

    from stacklib.walkthrough import walkthrough

    shared, w = runpy.run_path(str(LAB / "shared_weights.py")), walkthrough()
    assert (shared["INPUT_SIZE"], shared["HIDDEN_SIZE"], shared["NUM_LAYERS"]) == \
        (w.input_size, w.hidden_size, w.num_layers)
    assert set(shared["WEIGHTS"]) == set(w.weights)
    for name, value in w.weights.items():
        np.testing.assert_array_equal(shared["WEIGHTS"][name], np.array(value), err_msg=name)
    np.testing.assert_array_equal(shared["H0"], np.array(w.h_prev))
    np.testing.assert_array_equal(shared["C0"], np.array(w.c_prev))
    assert shared["X"].shape[0] > 1, "the lab runs a whole sequence"
    assert shared["X"][0].tolist() == [w.x_t]


@pytest.mark.parametrize("name", LABS)
def test_each_tab_runs_the_sequence_and_starts_with_section_08(lab_runs, name):
    from stacklib.walkthrough import EXPECTED_Y, walkthrough

    printed, result = lab_runs[name]
    assert printed.startswith("output = [[")
    assert result["output"].shape[0] > 1 and result["output"].shape[1:] == (2,)
    assert result["h_n"].shape == result["c_n"].shape == (2, 2)
    first = result["output"][0]
    assert [f"{v:.4f}" for v in first] == [f"{v:.4f}" for v in walkthrough().y]
    assert [f"{v:.4f}" for v in first] == [f"{v:.4f}" for v in EXPECTED_Y]


def test_the_tabs_agree_with_stacklib(lab_runs):
    """Every printed number is stacklib's: its NumPy stack, loaded with §08's weights, run over
    the lab's sequence (to 1e-12 for the NumPy tab, 1e-6 for the frameworks)."""
    import runpy

    from stacklib.walkthrough import build_stack

    shared = runpy.run_path(str(LAB / "shared_weights.py"))
    output, (h_n, c_n) = build_stack()(shared["X"], (shared["H0"], shared["C0"]))
    for name in LABS:
        result = lab_runs[name][1]
        for key, ref in (("output", output), ("h_n", h_n), ("c_n", c_n)):
            np.testing.assert_allclose(result[key], ref, rtol=0,
                                       atol=1e-12 if name == "numpy" else 1e-6,
                                       err_msg=f"{name}: {key}")


@pytest.mark.parametrize("other", ["keras", "numpy"])
def test_labs_agree_to_1e6(lab_runs, other):
    ref, res = lab_runs["pytorch"][1], lab_runs[other][1]
    for key in ("output", "h_n", "c_n"):
        np.testing.assert_allclose(res[key], ref[key], rtol=0, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name", LABS)
def test_page_shows_the_real_output(lab_runs, name):
    """The committed partial is exactly what the file prints today."""
    partial = (GENERATED / "partials" / f"codelab_{name}_out.md").read_text(encoding="utf-8")
    assert f"$ python code_lab/{name}_lab.py\n{lab_runs[name][0].rstrip()}\n```" in partial


def test_notebook_holds_the_lab_files_and_their_outputs(lab_runs):
    """The committed notebook is the lab files executed: its first cell is shared_weights.py,
    each tab's cell prints what the file prints (the site shows these outputs; it never runs a
    kernel)."""
    import nbformat

    from scripts.generation.codelab_notebook import lab_body, setup_source

    nb = nbformat.read(ROOT / "docs" / "code_lab.ipynb", as_version=4)
    cells = {c.id: c for c in nb.cells if c.cell_type == "code"}
    assert cells["setup"].source == setup_source().strip()
    assert "WEIGHTS = {" in cells["setup"].source
    for name in LABS:
        assert cells[name].source == lab_body(name).strip()
        printed = "".join(o.text for o in cells[name].outputs if o.output_type == "stream")
        assert printed == lab_runs[name][0]
    assert [c.execution_count for c in cells.values()] == list(range(1, len(cells) + 1))
    checks = cells["check"].outputs[0].text  # Keras, then NumPy, against PyTorch: both agree
    assert re.findall(r"\b(True|False)\b", checks) == ["True", "True"]


# ---------------------------------------------------------------- both directions, two stacks
BIDI = ("bidirectional_pytorch", "bidirectional_keras")
BIDI_MARK = "@@BIDI-RESULT@@"
BIDI_RUNNER = f"""
import json, runpy, sys
import numpy as np
import bidirectional_weights
shown = {{}}
def capture(output, h_n, params, show=bidirectional_weights.show):
    shown.update(output=np.asarray(output).tolist(), h_n=np.asarray(h_n).tolist(),
                 params=int(params))
    show(output, h_n, params)
bidirectional_weights.show = capture
runpy.run_path(sys.argv[1], run_name="__main__")
print({BIDI_MARK!r} + json.dumps(shown))
"""


@pytest.fixture(scope="module")
def bidi_runs(tmp_path_factory) -> dict[str, tuple[str, dict]]:
    """name -> (what the file printed, its full-precision output, h_n and parameter count),
    each run in a folder holding only it and bidirectional_weights.py."""
    root = tmp_path_factory.mktemp("bidirectional")
    runs = {}
    for name in BIDI:
        folder = root / name
        folder.mkdir()
        for file in (f"{name}.py", "bidirectional_weights.py"):
            shutil.copy2(LAB / file, folder / file)
        proc = subprocess.run([sys.executable, "-c", BIDI_RUNNER, f"{name}.py"], cwd=folder,
                              env=tool_env(), capture_output=True, text=True, timeout=300,
                              check=False)
        assert proc.returncode == 0, f"{name}.py failed:\n{proc.stderr[-3000:]}"
        printed, _, payload = proc.stdout.rpartition(BIDI_MARK)
        runs[name] = (printed, json.loads(payload))
    return runs


@pytest.mark.parametrize("name", BIDI)
def test_a_bidirectional_tab_needs_only_its_framework_and_the_shown_weights(name):
    assert _imports(f"{name}.py") <= {"os", "numpy", FRAMEWORK[name.split("_")[1]],
                                      "bidirectional_weights"}
    assert _imports("bidirectional_weights.py") == {"numpy"}


def test_the_bidirectional_tabs_agree_and_show_the_shapes(bidi_runs):
    """Both frameworks print the same numbers; output is (T, B, 2H) with the forward half
    first; h_n is (2L, B, H), forward row before backward row; the backward direction ends at
    the first step; the counts differ by one bias vector per gate block and direction."""
    import runpy

    w = runpy.run_path(str(LAB / "bidirectional_weights.py"))
    T, B, H, L = w["STEPS"], w["BATCH"], w["HIDDEN_SIZE"], w["NUM_LAYERS"]
    torch_run, keras_run = (bidi_runs[name][1] for name in BIDI)
    for key in ("output", "h_n"):
        np.testing.assert_allclose(keras_run[key], torch_run[key], rtol=0, atol=1e-6)
    output, h_n = np.array(torch_run["output"]), np.array(torch_run["h_n"])
    assert output.shape == (T, B, 2 * H) and h_n.shape == (2 * L, B, H)
    np.testing.assert_array_equal(h_n[-2], output[-1, :, :H])  # top layer, forward: last step
    np.testing.assert_array_equal(h_n[-1], output[0, :, H:])   # top layer, backward: first step
    assert torch_run["params"] - keras_run["params"] == L * 2 * 4 * H


@pytest.mark.parametrize("name", [*BIDI, "handoff_pytorch"])
def test_page_shows_what_the_example_prints(name, bidi_runs):
    partial = (GENERATED / "partials" / f"codelab_{name}_out.md").read_text(encoding="utf-8")
    if name in BIDI:
        printed = bidi_runs[name][0]
    else:
        proc = subprocess.run([sys.executable, f"{name}.py"], cwd=LAB, env=tool_env(),
                              capture_output=True, text=True, timeout=300, check=True)
        printed = proc.stdout
        assert printed.split()[-1] == "True"  # layer by layer, the same output as the stack
    assert f"$ python code_lab/{name}.py\n{printed.rstrip()}\n```" in partial


@pytest.mark.parametrize(("cell", "sizes"), [("lstm", (100, 128, 3)), ("gru", (7, 5, 2)),
                                             ("rnn", (3, 4, 4)), ("lstm", (3, 2, 1))])
def test_the_bidirectional_count_is_torchs(cell, sizes):
    """§07's table and E7's answer: the count built from one-layer counts with fan-in 2H above
    layer 1 is what torch.nn's bidirectional layers hold."""
    import torch

    from stacklib.params import bidirectional_params

    module = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU, "rnn": torch.nn.RNN}[cell]
    stack = module(sizes[0], sizes[1], num_layers=sizes[2], bidirectional=True)
    assert 2 * sum(bidirectional_params(cell, *sizes)) == sum(p.numel() for p in
                                                              stack.parameters())


def test_the_bidirectional_count_is_keras(bidi_runs):
    """Both conventions, against the two tabs' own counts (Keras: model.count_params())."""
    import runpy

    from stacklib.params import bidirectional_params

    w = runpy.run_path(str(LAB / "bidirectional_weights.py"))
    sizes = (w["INPUT_SIZE"], w["HIDDEN_SIZE"], w["NUM_LAYERS"])
    assert 2 * sum(bidirectional_params("lstm", *sizes, framework="keras")) == \
        bidi_runs["bidirectional_keras"][1]["params"]
    assert 2 * sum(bidirectional_params("lstm", *sizes)) == \
        bidi_runs["bidirectional_pytorch"][1]["params"]


def test_exercise_snippets_print_what_they_say(capsys):
    """§13: each exercise's snippet runs as shown and prints what its last comment says."""
    page = (ROOT / "docs" / "13-mastery-check.md").read_text(encoding="utf-8")
    exercises = page[re.search(r"^### E\d+ ·", page, re.M).start():]
    snippets = re.findall(r"```python\n(.*?)```", exercises, re.S)
    assert len(snippets) == 2
    for code in snippets:
        said = re.search(r"# prints (.+)$", code.strip().splitlines()[-1]).group(1)
        exec(compile(code, "<exercise>", "exec"), {})
        assert capsys.readouterr().out.strip() == said.strip()
