"""Shared test setup: keep every tool's state inside the project, never in $HOME."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

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

if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for the whole session (Playwright's sync API allows only
    one running instance per thread, so every suite — browser, PDF, offline — shares it)."""
    from _sitelib import CHROMIUM, CHROMIUM_FLAGS
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} missing: install Debian's chromium package (see .ci/run)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()
