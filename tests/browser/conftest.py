"""Browser tests of the live widgets: Playwright (sync API) driving Debian's Chromium.

The session's shared strict build (`built_site`, tests/conftest.py), served by the site helper's
static server under site_url's path and again under /sub/ (to prove the widgets find their JSON
from any base), one browser per session, one context + page per test. Every test's page records
console errors, uncaught exceptions and requests leaving 127.0.0.1 (those are aborted); the `web`
fixture fails the test if any happened, unless the test declared them expected.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_helpers import ALL_DRAWN, BLOCKS_DRAWN, FRAMES, PAGES, SAFETY_NET_MS, SUB

from scripts.site import serve, site_path, site_url


@pytest.fixture(scope="session")
def site_dir(request) -> Path:
    """The session's shared strict build (tests/conftest.py); STACK_BROWSER_SITE=DIR reuses an
    existing build instead (quick local iterations on widget code)."""
    if os.environ.get("STACK_BROWSER_SITE"):
        return Path(os.environ["STACK_BROWSER_SITE"])
    built_site = request.getfixturevalue("built_site")
    if built_site.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built_site.output[-4000:]}")
    return Path(built_site.site)


@pytest.fixture(scope="session")
def server(site_dir):
    with serve(site_dir, (site_path(), SUB)) as origin:
        yield origin


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

    SETTLED = ("() => window.StackWidgets"
               " && [...document.querySelectorAll('.widget[data-widget]')].every(e =>"
               " e.dataset.widgetState === 'live' || e.dataset.widgetState === 'error')"
               " && window.StackA11y && !window.StackA11y.pending")

    def settle(self):
        """Wait until every widget of the page is live or has failed (no loading left) and the
        page's accessibility patch (a11y.js, run when the page is idle) has run."""
        self.page.wait_for_function(self.SETTLED)
        # What the last change set off (a block the browser drew, a resize) asks for its run
        # within two frames: wait for that run too.
        self.page.evaluate(FRAMES)
        self.page.wait_for_function(self.SETTLED)

    def blocks_drawn(self):
        """Wait until the page says every block it skipped at load is drawn (a11y.js), and check
        that it is so."""
        self.page.wait_for_function(BLOCKS_DRAWN)
        assert self.page.evaluate(ALL_DRAWN), "a block is still skipped"

    def press(self, widget, attr: str, presses) -> None:
        """Press keys in turn on the focused control; after each (key, want) with want not None,
        the widget's ``attr`` must read want (the message names the key)."""
        for key, want in presses:
            self.page.keyboard.press(key)
            if want is not None:
                assert widget.get_attribute(attr) == want, f"{key}: {attr}"

    def widget(self, name: str, rel: str | None = None):
        """Open the page of widget `name`; return its `.widget` locator, checked live."""
        self.goto(PAGES[name] if rel is None else rel)
        loc = self.page.locator(f'.widget[data-widget="{name}"]')
        state = loc.get_attribute("data-widget-state")
        assert state == "live", f"{name}: {state}: {loc.locator('.w-error').all_inner_texts()}"
        return loc


@pytest.fixture(scope="session")
def context(browser, server, site_dir):
    """One browser context for the session (each test gets its own page); requests leaving
    127.0.0.1 are aborted and charged to the running test. Material's instant navigation maps
    sitemap.xml's URLs to the serving host but keeps site_url's port, so the sitemap is served
    with our port (as `mkdocs serve` on site_url's port would see it). The search index comes
    with its settings and no documents: every page load has Material's search worker index what
    it gets, the whole site's text each time, and no browser test searches (the offline copy's
    search is tested in tests/delivery/test_offline.py)."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    ctx.external = []
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site_url()))
    index = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))
    no_documents = json.dumps({**index, "docs": []})

    def route(r):
        url = r.request.url
        if url.startswith(server) and url.endswith("/sitemap.xml"):
            response = r.fetch()
            return r.fulfill(response=response, body=response.text().replace(origin, server))
        if url.startswith(server) and url.endswith("/search/search_index.json"):
            return r.fulfill(content_type="application/json", body=no_documents)
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
    page.set_default_timeout(SAFETY_NET_MS)  # a net: every wait ends on an event
    w = Web(page, server)
    yield w
    page.close()
    assert not context.external, f"requests left 127.0.0.1: {context.external}"
    assert not w.errors, "\n".join(w.errors)


