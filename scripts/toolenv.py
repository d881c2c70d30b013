"""Where the tools this project starts keep their state: inside the project, never in $HOME.

The one table every entry point uses — the scripts and the tests; the Makefile exports the same
values for the tools it runs directly (pip, mkdocs, mike), and a test (tests/test_toolenv.py)
keeps it in step with this table.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache"
STATE_DIRS = {  # variable -> directory under .cache/
    "MPLCONFIGDIR": "mpl",
    "IPYTHONDIR": "ipython",
    "KERAS_HOME": "keras",
    "XDG_CONFIG_HOME": "xdg",
    "XDG_CACHE_HOME": "xdg-cache",
}
FIXED = {"KERAS_BACKEND": "torch", "NO_MKDOCS_2_WARNING": "1", "PYTHONHASHSEED": "0"}


def defaults() -> dict[str, str]:
    """Every variable this project sets, with its project value."""
    return {**{k: str(CACHE / sub) for k, sub in STATE_DIRS.items()}, **FIXED}


def tool_env(base: dict[str, str] | None = None, **extra: str) -> dict[str, str]:
    """``base`` (default os.environ) with the project's values where the caller set none,
    then ``extra``."""
    env = dict(os.environ if base is None else base)
    for key, value in defaults().items():
        env.setdefault(key, value)
    env.update(extra)
    return env


def apply(make_dirs: bool = False) -> None:
    """Set the project's values in this process where the caller set none."""
    for key, value in defaults().items():
        os.environ.setdefault(key, value)
    if make_dirs:
        for key in STATE_DIRS:
            Path(os.environ[key]).mkdir(parents=True, exist_ok=True)
