"""Markdown lint (pymarkdownlnt, .pymarkdown.json) and codespell (.codespellrc) on the prose."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.site import ROOT

PAGES = sorted((ROOT / "docs").glob("*.md"))
PROSE = [*PAGES, ROOT / "CONTRIBUTING.md", ROOT / ".github" / "pull_request_template.md"]


def tool(name: str) -> str:
    exe = Path(sys.executable).parent / name
    found = str(exe) if exe.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} not installed (pip install pymarkdownlnt codespell)")
    return found


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=False)


def test_markdown_lint():
    assert PAGES
    files = [str(p.relative_to(ROOT)) for p in PROSE if p.name != "pull_request_template.md"]
    proc = run([tool("pymarkdown"), "--config", ".pymarkdown.json", "scan", *files])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_codespell():
    files = [str(p.relative_to(ROOT)) for p in PROSE]
    files += [str(p.relative_to(ROOT)) for p in sorted((ROOT / "code_lab").glob("*.py"))]
    proc = run([tool("codespell"), *files])
    assert proc.returncode == 0, proc.stdout + proc.stderr
