"""The browser suite on a busy machine: does any test fail only because the CPU is shared?

    python -m scripts.benchmarks.browser_stress [--runs 3] [--hogs 2] [--site DIR] [-- PYTEST...]

Builds the site once (or reuses `--site DIR`) and runs the browser suite (`pytest -m browser
tests/browser`) `--runs` times on it (STACK_BROWSER_SITE, tests/browser/conftest.py), with
`--hogs` processes spinning on the CPU beside it the whole time, as a training job or the other
half of `make test` would. Each run's results come from its JUnit XML; it prints, per test that
failed at least once, how many of the runs it failed, and exits non-zero if any did. A test
that fails here waits on time somewhere instead of on what the page does (browser_helpers.py
says how to wait). A measurement, not a test: it takes the suite's time, times the runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from scripts.site import ROOT, build

OUT = ROOT / "build" / "browser-stress"
HOG = "while True: pass"
# A safety net for a run that hangs; a run takes minutes.
RUN_LIMIT_S = 3600
NO_REPORT = "(no report: the run ended before pytest wrote its results)"


def test_id(case: ET.Element) -> str:
    """pytest's node id of a JUnit <testcase>: its classname is the module's dotted path (and
    the class's name, if any), its name the test's."""
    parts = case.get("classname", "").split(".")
    module = next((i for i in range(len(parts), 0, -1)
                   if (ROOT / Path(*parts[:i])).with_suffix(".py").is_file()), len(parts))
    path = "/".join(parts[:module]) + ".py"
    return "::".join([path, *parts[module:], case.get("name", "")])


def results(xml: Path) -> dict[str, bool]:
    """Test id -> failed, from one run's JUnit XML (an error in set-up or tear-down fails the
    test too; a skipped test did not fail)."""
    root = ET.parse(xml).getroot()
    return {test_id(case): case.find("failure") is not None or case.find("error") is not None
            for case in root.iter("testcase")}


def tally(runs: list[Path | None]) -> tuple[Counter, int]:
    """Failures per test over the runs (None: a run that wrote no report, which counts as one
    failure of NO_REPORT), and how many distinct tests ran."""
    failures: Counter = Counter()
    seen: set[str] = set()
    for xml in runs:
        if xml is None or not xml.is_file():
            failures[NO_REPORT] += 1
            continue
        for test, failed in results(xml).items():
            seen.add(test)
            failures[test] += failed
    return +failures, len(seen)


def report(failures: Counter, tests: int, runs: int) -> str:
    """A table of the tests that failed at least once (test id, failures out of `runs`), most
    failures first, then a line with the total."""
    rows = sorted(failures.items(), key=lambda item: (-item[1], item[0]))
    width = max([len("test"), *(len(test) for test, _ in rows)])
    lines = [f"{'test':<{width}}  failures", f"{'-' * width}  --------"] if rows else []
    lines += [f"{test:<{width}}  {n} of {runs}" for test, n in rows]
    lines.append(f"{sum(failures.values())} failures in {runs} runs of {tests} tests")
    return "\n".join(lines)


def start_hogs(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(count)]


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.kill()
    for process in processes:
        process.wait()


def run_suite(site: Path, xml: Path, pytest_args: list[str]) -> Path | None:
    """One run of the browser suite on `site`; its JUnit XML, or None if it wrote none."""
    xml.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "pytest", "-m", "browser", "tests/browser", "-q",
           "-p", "no:cacheprovider", f"--junitxml={xml}", *pytest_args]
    env = {**os.environ, "STACK_BROWSER_SITE": str(site)}
    try:
        subprocess.run(cmd, cwd=ROOT, env=env, timeout=RUN_LIMIT_S, check=False)
    except subprocess.TimeoutExpired:
        print(f"the run took over {RUN_LIMIT_S} s and was stopped", flush=True)
    return xml if xml.is_file() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--hogs", type=int, default=2, help="processes spinning beside it")
    parser.add_argument("--site", type=Path, help="a built site to reuse (else built once)")
    parser.add_argument("pytest_args", nargs="*", help="after --: more arguments for pytest")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    site = args.site
    if site is None:
        site = OUT / "site"
        print(f"building the site once into {site.relative_to(ROOT)}", flush=True)
        build(site)
    xmls: list[Path | None] = []
    hogs = start_hogs(args.hogs)
    try:
        for n in range(1, args.runs + 1):
            print(f"run {n} of {args.runs}, {args.hogs} CPU hogs beside it", flush=True)
            xmls.append(run_suite(site.resolve(), OUT / f"run-{n}.xml", args.pytest_args))
    finally:
        stop(hogs)
    failures, tests = tally(xmls)
    print(report(failures, tests, args.runs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
