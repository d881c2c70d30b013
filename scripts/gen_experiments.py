"""Trained-model experiments: delegates to scripts/run_experiments.py (experiments/*.json).

Slow (minutes), so it is cached like every generator and skipped by `generate.py --check`.
Experiment files already present but not yet in the manifest are adopted, not re-run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gen_common import ROOT, SCRIPTS, resolve

NAME = "experiments"
INPUTS = ["scripts/run_experiments.py", "stacklib/experiments/*.py", "stacklib/data.py",
          "stacklib/__init__.py", "stacklib/_validate.py", "stacklib/config.py",
          "stacklib/numpy/*.py", "stacklib/torch/*.py"]
SCRIPT = SCRIPTS / "run_experiments.py"


def available() -> bool:
    return SCRIPT.is_file()


def existing(out: Path) -> list[str]:
    """Experiment files already in `out` (adopted on the first run)."""
    folder = resolve(out, "experiments")
    return sorted(f"experiments/{p.name}" for p in folder.glob("*.json")) if folder.is_dir() else []


def run(out: Path) -> list[str]:
    """`python scripts/run_experiments.py --out DIR`: its own per-experiment cache and worker
    pool (spawned processes need it to run as a script, not imported)."""
    folder = resolve(out, "experiments")
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, str(SCRIPT), "--out", str(folder)], cwd=ROOT,
                          env=dict(os.environ), check=False)
    if proc.returncode:
        raise RuntimeError(f"scripts/run_experiments.py exited with {proc.returncode}")
    return existing(out)
