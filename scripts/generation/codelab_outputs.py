"""§11 code lab: run each lab file for real and capture what it prints.

generated/partials/codelab_{pytorch,keras,numpy}_out.md  the stdout of
                                                          `python code_lab/<name>_lab.py`
generated/data/codelab.json                               the same outputs, parsed
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from scripts.generation.cache import ROOT
from scripts.generation.markdown import header_comment
from scripts.generation.write import Output
from scripts.toolenv import tool_env

DATA = ["code_lab/*.py"]  # run as programs: their imports count too
LABS = ("pytorch", "keras", "numpy")


def run_lab(name: str, timeout: float = 300) -> str:
    """Run code_lab/<name>_lab.py in a fresh interpreter, as a reader would; return its stdout."""
    path = ROOT / "code_lab" / f"{name}_lab.py"
    proc = subprocess.run([sys.executable, str(path)], cwd=ROOT, env=tool_env(),
                          capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{path.relative_to(ROOT)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout.replace("\r\n", "\n")


def parse_output(text: str) -> dict[str, list]:
    """'h_n    = [[0.1234, -0.5678],' lines (continuations indented) -> {'h_n': [...], ...}."""
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


def run(out: Output) -> None:
    parsed = {}
    with ThreadPoolExecutor(len(LABS)) as pool:  # three interpreters at once
        outputs = dict(zip(LABS, pool.map(run_lab, LABS), strict=True))
    for name, stdout in outputs.items():
        parsed[name] = parse_output(stdout)
        body = f"```text\n$ python code_lab/{name}_lab.py\n{stdout.rstrip()}\n```\n"
        out.text(f"generated/partials/codelab_{name}_out.md", header_comment(__name__) + body)
    out.json("generated/data/codelab.json", parsed)
