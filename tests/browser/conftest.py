"""Browser tests of the live widgets: Playwright (sync API) driving Debian's Chromium.

One strict build per session (or the shared `built_site` fixture, if a parent conftest offers
one), one threaded static server on 127.0.0.1 that serves the site under site_url's path and
again under /sub/ (to prove the widgets find their JSON from any base), one browser per
session, one context + page per test. Every test's page records console errors, uncaught
exceptions and requests leaving 127.0.0.1 (those are aborted); the `web` fixture fails the test
if any happened, unless the test declared them expected.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "docs" / "generated"
SUB = "/sub/"  # a second mount point: the site must also work under a sub-path

PAGES = {  # widget -> page (site-relative URL)
    "hero-lamps": "", "lenses": "02-motivation/", "blueprint": "03-blueprint/",
    "follow-dot": "04-step-by-step/", "price": "05-cell-flavors/", "live-stack": "06-live-stack/",
    "symbols": "07-equations/", "climb": "08-hand-computed/", "vanishing": "09-vanishing-paths/",
    "verdict": "10-verdict/", "quiz": "13-mastery-check/", "depth-data": "10-verdict/",
}

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Mark every test of this folder `browser` (deselect with -m "not browser")."""
    for item in items:
        if Path(str(item.fspath)).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


def site_url() -> str:
    from _sitelib import site_url as configured

    return configured()


def site_path() -> str:
    path = urlsplit(site_url()).path or "/"
    return path if path.endswith("/") else path + "/"


def nav_pages() -> list[str]:
    """Site-relative URLs of every page in mkdocs.yml's nav, plus the print page."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", lambda loader, node: None)
    nav = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["nav"]
    found: list[str] = []

    def walk(item):
        if isinstance(item, str):
            stem = item.rsplit(".", 1)[0]
            found.append("" if stem == "index" else f"{stem}/")
        for value in item.values() if isinstance(item, dict) else (
                item if isinstance(item, list) else []):
            walk(value)

    walk(nav)
    return [*found, "print_page/"]


def data(rel: str):
    """A generated JSON file, as the widgets read it (docs/generated/<rel>)."""
    return json.loads((GENERATED / rel).read_text(encoding="utf-8"))


def _build(dest: Path) -> Path:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    mkdocs = Path(sys.executable).parent / "mkdocs"
    cmd = [str(mkdocs)] if mkdocs.exists() else [sys.executable, "-m", "mkdocs"]
    proc = subprocess.run([*cmd, "build", "--strict", "--site-dir", str(dest)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode:
        pytest.fail(f"mkdocs build --strict failed:\n{(proc.stdout + proc.stderr)[-4000:]}")
    return dest


@pytest.fixture(scope="session")
def site_dir(request, tmp_path_factory) -> Path:
    """The built site: the shared session build if one is visible from here, else our own.
    STACK_BROWSER_SITE=DIR reuses an existing build (quick local iterations on widget code)."""
    if os.environ.get("STACK_BROWSER_SITE"):
        return Path(os.environ["STACK_BROWSER_SITE"])
    try:
        shared = request.getfixturevalue("built_site")
    except pytest.FixtureLookupError:
        shared = None
    if shared is not None and getattr(shared, "returncode", 1) == 0:
        return Path(shared.site)
    return _build(tmp_path_factory.mktemp("browser-site"))


class _Handler(http.server.SimpleHTTPRequestHandler):
    base = "/"

    def translate_path(self, path):
        for prefix in (SUB, self.base):
            if path.startswith(prefix):
                path = "/" + path[len(prefix):]
                break
        return super().translate_path(path)

    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="session")
def server(site_dir):
    handler = type("Handler", (_Handler,), {"base": site_path()})
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


class Web:
    """One page of one test, with what it saw."""

    def __init__(self, page, origin: str):
        self.page, self.origin = page, origin
        self.errors: list[str] = []
        self.allowed = re.compile(r"$^")  # console errors a test expects (none by default)
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))

    def _console(self, msg):
        if msg.type == "error" and not self.allowed.search(msg.text):
            self.errors.append(f"console: {msg.text}")

    def url(self, rel: str = "", base: str | None = None) -> str:
        return self.origin + (base or site_path()) + rel

    def goto(self, rel: str = "", base: str | None = None, wait_widgets: bool = True):
        self.page.goto(self.url(rel, base), wait_until="domcontentloaded")
        if wait_widgets:
            self.settle()
        return self.page

    def settle(self, timeout: float = 10_000):
        """Wait until every widget of the page is live or has failed (no loading left)."""
        self.page.wait_for_function(
            "() => window.StackWidgets && [...document.querySelectorAll('.widget[data-widget]')]"
            ".every(e => e.dataset.widgetState === 'live' || e.dataset.widgetState === 'error')",
            timeout=timeout)

    def widget(self, name: str, rel: str | None = None):
        """Open the page of widget `name`; return its `.widget` locator, checked live."""
        self.goto(PAGES[name] if rel is None else rel)
        loc = self.page.locator(f'.widget[data-widget="{name}"]')
        state = loc.get_attribute("data-widget-state")
        assert state == "live", f"{name}: {state}: {loc.locator('.w-error').all_inner_texts()}"
        return loc


@pytest.fixture(scope="session")
def context(browser, server):
    """One browser context for the session (each test gets its own page); requests leaving
    127.0.0.1 are aborted and charged to the running test. Material's instant navigation maps
    sitemap.xml's URLs to the serving host but keeps site_url's port, so the sitemap is served
    with our port (as `mkdocs serve` on site_url's port would see it)."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    ctx.external = []
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site_url()))

    def route(r):
        url = r.request.url
        if url.startswith(server) and url.endswith("/sitemap.xml"):
            response = r.fetch()
            return r.fulfill(response=response, body=response.text().replace(origin, server))
        if urlsplit(url).hostname == "127.0.0.1" or url.startswith(("data:", "blob:")):
            return r.continue_()
        ctx.external.append(url)
        return r.abort()

    ctx.route("**/*", route)
    ctx.add_init_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
    yield ctx
    ctx.close()


@pytest.fixture
def web(context, server):
    context.external.clear()
    page = context.new_page()
    page.set_default_timeout(10_000)
    w = Web(page, server)
    start = time.perf_counter()
    yield w
    page.close()
    assert not context.external, f"requests left 127.0.0.1: {context.external}"
    assert not w.errors, "\n".join(w.errors)
    assert time.perf_counter() - start < 60, "one browser test should take seconds"


def shown(loc) -> str:
    """Visible text of a locator, whitespace-collapsed."""
    return " ".join(loc.inner_text().split())


def set_range(loc, value) -> None:
    """Set a range input as a script (or a tampered URL) would, then fire `input`."""
    loc.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }",
                 str(value))


def minus(text: str) -> str:
    return text.replace("\u2212", "-")
