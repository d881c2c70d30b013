"""The three code-lab files execute, agree with each other, and reproduce §08."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from sitebuild import GENERATED, ROOT

from scripts.toolenv import tool_env

LABS = ("pytorch", "keras", "numpy")
MARK = "@@LAB-RESULT@@"
# Runs a lab file as `python code_lab/x.py` would (its folder importable: PYTHONPATH below),
# then prints its results at full precision after a marker.
RUNNER = f"""
import json, runpy, sys
import numpy as np
ns = runpy.run_path(sys.argv[1], run_name="__main__")
def arr(v):
    return np.asarray(v.detach() if hasattr(v, "detach") else v, dtype=float).tolist()
print({MARK!r} + json.dumps({{k: arr(ns[k]) for k in ("y", "output", "h_n", "c_n")}}))
"""


def _run_lab(name: str) -> tuple[str, dict]:
    path = ROOT / "code_lab" / f"{name}_lab.py"
    proc = subprocess.run([sys.executable, "-c", RUNNER, str(path)], cwd=ROOT,
                          env=tool_env(PYTHONPATH=str(path.parent)), capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"{path.name} failed:\n{proc.stderr[-3000:]}"
    printed, _, payload = proc.stdout.rpartition(MARK)
    return printed, {k: np.array(v) for k, v in json.loads(payload).items()}


@pytest.fixture(scope="module")
def lab_runs() -> dict[str, tuple[str, dict]]:
    """name -> (what the file printed, full-precision results), each in a fresh interpreter
    (the three at once)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(LABS)) as pool:
        return dict(zip(LABS, pool.map(_run_lab, LABS), strict=True))


@pytest.mark.parametrize("name", LABS)
def test_lab_executes_and_prints_y(lab_runs, name):
    printed, result = lab_runs[name]
    assert printed.startswith("y_t    = [")
    assert result["y"].shape == (2,) and result["h_n"].shape == (2, 2)


@pytest.mark.parametrize("other", ["keras", "numpy"])
def test_labs_agree_to_1e6(lab_runs, other):
    ref, res = lab_runs["pytorch"][1], lab_runs[other][1]
    for key in ("y", "output", "h_n", "c_n"):
        np.testing.assert_allclose(res[key], ref[key], rtol=0, atol=1e-6, err_msg=key)


def test_numpy_lab_reproduces_walkthrough_to_4_decimals(lab_runs):
    from stacklib.walkthrough import EXPECTED_Y, walkthrough

    y = lab_runs["numpy"][1]["y"]
    assert [round(v, 4) for v in y] == [round(v, 4) for v in walkthrough().y]
    assert [f"{v:.4f}" for v in y] == [f"{v:.4f}" for v in EXPECTED_Y]


def test_labs_share_the_walkthrough_weights():
    import runpy

    from stacklib.walkthrough import walkthrough

    shared = runpy.run_path(str(ROOT / "code_lab" / "shared_weights.py"))
    w = walkthrough()
    for name, value in w.weights.items():
        np.testing.assert_array_equal(shared["WEIGHTS"][name], np.array(value))
    np.testing.assert_array_equal(shared["H0"], np.array(w.h_prev))
    np.testing.assert_array_equal(shared["C0"], np.array(w.c_prev))


@pytest.mark.parametrize("name", LABS)
def test_page_shows_the_real_output(lab_runs, name):
    """The committed partial is exactly what the file prints today."""
    partial = (GENERATED / "partials" / f"codelab_{name}_out.md").read_text(encoding="utf-8")
    assert f"$ python code_lab/{name}_lab.py\n{lab_runs[name][0].rstrip()}\n```" in partial


@pytest.mark.parametrize("name", LABS)
def test_lab_files_stay_short(name):
    lines = (ROOT / "code_lab" / f"{name}_lab.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 45, f"{name}_lab.py has {len(lines)} lines: it is a page tab"


def test_notebook_holds_the_lab_files_and_their_outputs(lab_runs):
    """The committed notebook is the lab files executed: each tab's cell prints what the file
    prints (the site shows these outputs; it never runs a kernel)."""
    import nbformat

    from scripts.generation.notebook import lab_body

    nb = nbformat.read(ROOT / "docs" / "code_lab.ipynb", as_version=4)
    cells = {c.id: c for c in nb.cells if c.cell_type == "code"}
    for name in LABS:
        assert cells[name].source == lab_body(name).strip()
        printed = "".join(o.text for o in cells[name].outputs if o.output_type == "stream")
        assert printed == lab_runs[name][0]
    assert [c.execution_count for c in cells.values()] == list(range(1, len(cells) + 1))
    assert "PyTorch and Keras agree to 1e-6: True" in cells["check"].outputs[0].text
