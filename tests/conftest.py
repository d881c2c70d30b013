"""Shared test setup: the project's tool environment, one site build, one browser per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.toolenv import apply

apply()  # every tool's state inside the project, never in $HOME (before keras/matplotlib load)

from sitebuild import ARTIFACTS, Build, build_once  # noqa: E402  (after the environment is set)

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Mark the tests of tests/browser `browser` and of tests/delivery `delivery`, so
    `make test-fast` can leave both out, with the tests marked endtoend."""
    for item in items:
        folder = Path(str(item.fspath)).resolve().parent
        for name in ("browser", "delivery"):
            if folder.is_relative_to(HERE / name):
                item.add_marker(getattr(pytest.mark, name))


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: unknown where xdist is not installed
def pytest_xdist_make_scheduler(config, log):
    """Parallel runs (`-n 2 --dist loadscope`, as the Makefile runs them) give each worker whole
    files, so a module's fixture is made once, and each of two suites whole: the browser tests
    (one browser and one server; shared between both workers they ran no faster) and the
    delivery tests (one printed PDF).
    A scheduler rather than xdist_group marks: --dist loadgroup renames node ids, which
    pytest 9's nodes no longer read, so its groups never reach the scheduler."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BySuiteOrFile(LoadScopeScheduling):  # as xdist's own --dist loadfile is made
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return next((suite for suite in ("tests/browser/", "tests/delivery/")
                         if path.startswith(suite)), path)

    return BySuiteOrFile(config, log)


@pytest.fixture(scope="session")
def built_site() -> Build:
    """`mkdocs build --strict` once per test run into build/site/, shared by every suite."""
    return build_once(ARTIFACTS / "site")


@pytest.fixture(scope="session")
def site(built_site) -> Build:
    """The build, or a failure explaining why there is none (tests that need HTML use this)."""
    if built_site.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built_site.output[-4000:]}")
    return built_site


@pytest.fixture(scope="session")
def study() -> dict:
    """The Shakespeare study's committed summary (docs/generated/data/shakespeare.json), which
    the claim tests of several pages read."""
    from claim_sources import generated

    return generated("data/shakespeare.json")


@pytest.fixture(scope="session")
def browser():
    """One headless Debian Chromium for the whole session (Playwright's sync API allows only
    one running instance per thread, so every suite — browser, PDF, offline — shares it)."""
    from playwright.sync_api import sync_playwright

    from scripts.site import CHROMIUM, CHROMIUM_FLAGS

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} missing: install Debian's chromium package (see .ci/run)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()
