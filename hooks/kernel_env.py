"""MkDocs hook: keep the notebook kernel's state in the project and its log quiet.

Before anything runs, point the tools mkdocs-jupyter starts (IPython, matplotlib, Keras, XDG
caches) at .cache/ unless the caller set them, so nothing writes to $HOME, and write an
IPython kernel profile whose log level hides ipykernel's per-notebook "Kernel is running over
TCP without encryption" warning (the kernel only listens on localhost for the build).

The code-lab notebook is executed at build time, which needs the full environment (torch,
keras): without it the build stops at once with a message naming the torch-free preview, not
with a notebook traceback minutes in.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))
from _toolenv import apply  # noqa: E402  (the project's one table of tool state dirs)

KERNEL_CONFIG = 'c.IPKernelApp.log_level = "ERROR"\n'


def ensure_env() -> None:
    apply()
    profile = Path(os.environ["IPYTHONDIR"]) / "profile_default"
    profile.mkdir(parents=True, exist_ok=True)
    config = profile / "ipython_kernel_config.py"
    if not config.is_file() or config.read_text(encoding="utf-8") != KERNEL_CONFIG:
        config.write_text(KERNEL_CONFIG, encoding="utf-8")


NOTEBOOK_NEEDS = ("torch", "keras")


def check_notebook_kernel(config, find_spec=importlib.util.find_spec) -> None:
    """Raise PluginError if the notebook will be executed but its imports are missing."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if not (plugin and plugin.config.get("execute")):
        return
    missing = [name for name in NOTEBOOK_NEEDS if find_spec(name) is None]
    if missing:
        raise PluginError(
            f"the code-lab notebook is executed at build time and needs {', '.join(missing)}, "
            "which this environment lacks. Full environment: `make serve`. Prose-only preview "
            "without torch or keras: `make preview` (or set STACK_EXECUTE_NOTEBOOK=false).")


def on_startup(command, dirty):
    ensure_env()


def on_config(config):
    ensure_env()  # `mkdocs build` without on_startup support (older hooks API) still gets it
    check_notebook_kernel(config)
    return config
