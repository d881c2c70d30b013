"""§11 code lab: run each lab file for real and capture what it prints.

generated/partials/codelab_{pytorch,keras,numpy}_out.md  the stdout of
                                                          `python code_lab/<name>_lab.py`
generated/data/codelab.json                               the same outputs, parsed
generated/partials/codelab_{bidirectional_pytorch,bidirectional_keras,handoff_pytorch}_out.md
    the stdout of `python code_lab/<name>.py`: the bidirectional stack in both frameworks,
    and the encoder-to-decoder handoff
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
LABS = ("pytorch", "keras", "numpy")  # the three tabs of one stack: code_lab/<name>_lab.py
EXAMPLES = ("bidirectional_pytorch", "bidirectional_keras", "handoff_pytorch")  # <name>.py


def lab_file(name: str) -> str:
    return f"{name}_lab.py" if name in LABS else f"{name}.py"


def run_lab(name: str, timeout: float = 300) -> str:
    """Run a code-lab file (a name of LABS or EXAMPLES) in a fresh interpreter, as a reader
    would; return its stdout."""
    path = ROOT / "code_lab" / lab_file(name)
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
    names = (*LABS, *EXAMPLES)
    with ThreadPoolExecutor(len(LABS)) as pool:  # three interpreters at once
        outputs = dict(zip(names, pool.map(run_lab, names), strict=True))
    for name, stdout in outputs.items():
        body = f"```text\n$ python code_lab/{lab_file(name)}\n{stdout.rstrip()}\n```\n"
        out.text(f"generated/partials/codelab_{name}_out.md", header_comment(__name__) + body)
    out.json("generated/data/codelab.json", {name: parse_output(outputs[name]) for name in LABS})
