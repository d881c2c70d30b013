"""`make check-docs`, the prose contributor's check, runs without torch and keras.

It runs in the light docs environment (.venv-docs), which has neither. One import of either
anywhere under its tests, however indirect, breaks the check for every prose-only pull request
while the full suite, where both are installed, still passes; so here both are unimportable.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ("torch", "keras")
# Run, not only collected: their tests import more inside them, and they take seconds.
RUN_WITHOUT_TORCH = ("tests/test_prose_numbers.py", "tests/test_page_claims.py")


def check_docs_tests() -> list[str]:
    """The test files `make check-docs` runs: the Makefile's CHECK_DOCS_TESTS."""
    proc = subprocess.run(
        ["make", "-s", "--no-print-directory",
         "--eval", "print-check-docs-tests: ; @echo $(CHECK_DOCS_TESTS)", "print-check-docs-tests"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    return proc.stdout.split()


@pytest.fixture(scope="module")
def without_torch(tmp_path_factory) -> dict[str, str]:
    """An environment in which `import torch` and `import keras` fail, as in .venv-docs: a
    directory first on PYTHONPATH whose packages of those names raise ImportError."""
    blocker = tmp_path_factory.mktemp("blocker")
    for name in BLOCKED:
        (blocker / name).mkdir()
        (blocker / name / "__init__.py").write_text(
            f"raise ImportError('{name} is not installed where make check-docs runs')\n")
    # not this run's pytest options or xdist worker settings
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(blocker), env.get("PYTHONPATH")]))
    return env


def pytest_run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


@pytest.mark.parametrize("name", BLOCKED)
def test_the_environment_blocks(without_torch, name):
    proc = subprocess.run([sys.executable, "-c", f"import {name}"], env=without_torch,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode != 0 and "ImportError" in proc.stderr, proc.stderr


def test_check_docs_collects_without_torch(without_torch):
    tests = check_docs_tests()
    assert set(RUN_WITHOUT_TORCH) <= set(tests), tests
    assert all((ROOT / t).is_file() for t in tests), tests
    proc = pytest_run(without_torch, "--collect-only", *tests)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


def test_prose_checks_pass_without_torch(without_torch):
    proc = pytest_run(without_torch, *RUN_WITHOUT_TORCH)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
