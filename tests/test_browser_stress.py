"""scripts/benchmarks/browser_stress.py's own logic, without a browser: the failures per test it
reads from pytest's JUnit XML, its table, its exit status, and the CPU hogs it always stops."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from scripts.benchmarks import browser_stress
from scripts.benchmarks.browser_stress import NO_REPORT, report, tally

# A module whose tests pass or fail as the run number (environment) says: as a flaky suite.
SUITE = """
import os
import pytest

RUN = int(os.environ["RUN"])

def test_steady():
    pass

@pytest.mark.parametrize("rel", ["", "10-verdict/"])
def test_page(rel):
    assert not (rel and RUN < 2)

class TestWidget:
    def test_keys(self):
        assert RUN != 1

@pytest.fixture
def broken():
    raise RuntimeError("set-up failed")

def test_set_up(broken):
    pass

@pytest.mark.skip(reason="not here")
def test_skipped():
    pass
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two real runs of pytest on SUITE (tests/browser/test_suite.py): their JUnit XML."""
    root = tmp_path_factory.mktemp("stress")
    (root / "tests" / "browser").mkdir(parents=True)
    (root / "tests" / "browser" / "test_suite.py").write_text(textwrap.dedent(SUITE))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    xmls = []
    for run in (1, 2):
        xml = root / f"run-{run}.xml"
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-o", "addopts=", f"--junitxml={xml}", "tests/browser/test_suite.py"],
                       cwd=root, env={**env, "RUN": str(run)}, capture_output=True,
                       timeout=120, check=False)
        xmls.append(xml)
    return root, xmls


def test_failures_are_counted_per_test_over_the_runs(runs, monkeypatch):
    root, xmls = runs
    monkeypatch.setattr(browser_stress, "ROOT", root)
    failures, tests = tally(xmls)
    suite = "tests/browser/test_suite.py::"
    assert failures == {f"{suite}test_page[10-verdict/]": 1, f"{suite}TestWidget::test_keys": 1,
                        f"{suite}test_set_up": 2}
    assert tests == 6  # the skipped test ran, and did not fail


def test_a_run_without_a_report_is_a_failure(runs, monkeypatch, tmp_path):
    root, xmls = runs
    monkeypatch.setattr(browser_stress, "ROOT", root)
    failures, _ = tally([xmls[1], None, tmp_path / "missing.xml"])
    assert failures[NO_REPORT] == 2


def test_the_table_lists_each_failing_test_with_its_failures_out_of_the_runs():
    failures = {"t.py::test_a": 1, "t.py::test_b[x]": 3}
    lines = report(failures, tests=10, runs=3).splitlines()
    assert lines[2].split() == ["t.py::test_b[x]", "3", "of", "3"]  # most failures first
    assert lines[3].split() == ["t.py::test_a", "1", "of", "3"]
    assert lines[-1] == "4 failures in 3 runs of 10 tests"
    assert report({}, tests=10, runs=3) == "0 failures in 3 runs of 10 tests"


def test_the_hogs_spin_during_the_runs_and_are_stopped_even_when_a_run_fails(
        runs, monkeypatch, tmp_path):
    root, xmls = runs
    monkeypatch.setattr(browser_stress, "ROOT", root)
    monkeypatch.setattr(browser_stress, "OUT", tmp_path)
    hogs = []
    start = browser_stress.start_hogs

    def start_hogs(count):
        hogs.extend(start(count))
        return hogs

    monkeypatch.setattr(browser_stress, "start_hogs", start_hogs)

    def run_suite(site, xml, args):  # each run sees the hogs spinning
        assert len(hogs) == 2 and all(hog.poll() is None for hog in hogs)
        return xmls[int(xml.stem[-1]) - 1]

    monkeypatch.setattr(browser_stress, "run_suite", run_suite)
    assert browser_stress.main(["--runs", "2", "--site", str(tmp_path)]) == 1
    assert all(hog.poll() is not None for hog in hogs)

    hogs.clear()
    monkeypatch.setattr(browser_stress, "run_suite", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        browser_stress.main(["--site", str(tmp_path)])
    assert len(hogs) == 2 and all(hog.poll() is not None for hog in hogs)


def test_no_failure_exits_zero(monkeypatch, tmp_path):
    monkeypatch.setattr(browser_stress, "OUT", tmp_path)
    monkeypatch.setattr(browser_stress, "start_hogs", lambda count: [])
    clean = tmp_path / "clean.xml"
    clean.write_text('<testsuites><testsuite><testcase classname="tests.test_x" name="test_a"/>'
                     '</testsuite></testsuites>')
    monkeypatch.setattr(browser_stress, "run_suite", lambda *args: clean)
    assert browser_stress.main(["--site", str(tmp_path)]) == 0
