"""Shared test setup: keep every tool's state inside the project, never in $HOME."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_CACHE = ROOT / ".cache"
for _var, _sub in {
    "MPLCONFIGDIR": "mpl",
    "IPYTHONDIR": "ipython",
    "KERAS_HOME": "keras",
    "XDG_CONFIG_HOME": "xdg",
    "XDG_CACHE_HOME": "xdg-cache",
}.items():
    os.environ.setdefault(_var, str(_CACHE / _sub))
os.environ.setdefault("KERAS_BACKEND", "torch")
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
