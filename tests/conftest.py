"""Shared test setup: the project's tool environment, one site build, one browser per session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))

from _toolenv import apply  # noqa: E402

apply()  # every tool's state inside the project, never in $HOME (before keras/matplotlib load)

from sitebuild import Build, build  # noqa: E402


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Build:
    """`mkdocs build --strict` once per session, into a temp dir, shared by every suite."""
    return build(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="session")
def site(built_site) -> Build:
    """The build, or a failure explaining why there is none (tests that need HTML use this)."""
    if built_site.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built_site.output[-4000:]}")
    return built_site


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
