"""§11 code lab: run each lab file for real and capture what it prints.

partials/codelab_{pytorch,keras,numpy}_out.md  the stdout of `python code_lab/<name>_lab.py`
data/codelab.json                               the same outputs, parsed, for tests and widgets
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gen_common import ROOT, header_comment, write_json, write_text

NAME = "codelab"
INPUTS = ["code_lab/*.py", "stacklib/walkthrough.py", "stacklib/__init__.py",
          "stacklib/_validate.py", "stacklib/numpy/*.py"]
LABS = ("pytorch", "keras", "numpy")


def run_lab(name: str, timeout: float = 300) -> str:
    """Run code_lab/<name>_lab.py in a fresh interpreter; return its stdout."""
    path = ROOT / "code_lab" / f"{name}_lab.py"
    env = dict(os.environ)
    env.setdefault("KERAS_BACKEND", "torch")
    proc = subprocess.run([sys.executable, str(path)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{path.relative_to(ROOT)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout.replace("\r\n", "\n")


def parse_output(text: str) -> dict[str, list]:
    """'y_t    = [0.7215, -0.0432]' lines (continuations indented) -> {'y_t': [...], ...}."""
    import ast

    values: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if "=" in line and not line.startswith(" "):
            current, rest = (part.strip() for part in line.split("=", 1))
            values[current] = rest
        elif current:
            values[current] += line.strip()
    return {k: ast.literal_eval(v) for k, v in values.items()}


def run(out: Path) -> list[str]:
    written, parsed = [], {}
    for name in LABS:
        stdout = run_lab(name)
        parsed[name] = parse_output(stdout)
        body = f"```text\n$ python code_lab/{name}_lab.py\n{stdout.rstrip()}\n```\n"
        written.append(write_text(out, f"partials/codelab_{name}_out.md",
                                  header_comment(NAME) + body))
    written.append(write_json(out, "data/codelab.json", parsed))
    return written
