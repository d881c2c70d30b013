"""Helpers the browser tests import: pages of each widget, the site's URL path, generated data,
and small Playwright utilities. (Fixtures live in conftest.py, which imports these.)

How a browser test waits: on what the page says it has done, never on time, so that a busy
machine makes a test slower, never red.

- A widget says it is live (or failed) with `data-widget-state` (runtime.js): `web.settle()`
  waits for every widget of the page, and for a11y.js's patches (`StackA11y.pending` false).
- A widget says what it shows with its own attributes, set when it has drawn it (`data-step`,
  `data-playing`, `data-ticking`, its UI's `is-visible` class...): wait for the one the test
  needs with `page.wait_for_function` (or read it, after an action that sets it synchronously).
  A widget without such a state gets one, set where it has finished drawing (one attribute on
  its element, nothing a reader sees), before a test waits on it.
- The page says its skipped blocks are drawn with `<html data-blocks="drawn">` (a11y.js):
  BLOCKS_DRAWN.
- What the last change set off (a layout shift, a block drawn, a resize) is reported within two
  frames: FRAMES.
- A request the test holds is a `Held`: it waits until Playwright hands the request over.

No `wait_for_timeout`, `time.sleep` or `timeout=`: the one timeout is SAFETY_NET_MS, every page's
default (conftest.py), a net for a page that never answers, not what a test relies on.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "docs" / "generated"
SUB = "/sub/"  # a second mount point: the site must also work under a sub-path

PAGES = {  # widget -> page (site-relative URL)
    "hero-lamps": "", "lenses": "02-motivation/", "blueprint": "03-blueprint/",
    "follow-dot": "04-step-by-step/", "price": "05-cell-flavors/", "live-stack": "06-live-stack/",
    "symbols": "07-equations/", "climb": "08-hand-computed/", "vanishing": "09-vanishing-paths/",
    "verdict": "10-verdict/", "quiz": "13-mastery-check/", "depth-data": "10b-depth-and-data/",
    "curves": "10-verdict/", "shakespeare-live": "06b-shakespeare-layers/",
}

# The one timeout of the browser tests: a net for a page that never answers, far above what any
# wait takes on a machine busy with other work (a test waits on events, never on time).
SAFETY_NET_MS = 120_000

PHONE = {"width": 412, "height": 823}  # Lighthouse's mobile screen
LAPTOP = {"width": 1350, "height": 940}  # Lighthouse's desktop screen

# Layout shifts not caused by the reader, from the start of the load, but for the prose a widget
# keeps beside its controls (.w-keep), which the controls move as they take the static figure's
# place (test_reserved_heights.py allows it too), and for formulas alone settling by a pixel or
# two when the math font arrives after the first paint (font-display: swap, math.css).
# Chromium reports a sub-pixel re-rounding of a box as a shift scored about 1e-5; a reader sees
# nothing, and Lighthouse scores CLS to two decimals. A block drawn over its placeholder scores
# far above this.
WATCH_SHIFTS = """(() => {
  window.shifts = [];
  const SEEN = 1e-4;
  const kept = (node) => node && node.nodeType === 1 && (node.closest(".w-keep") ||
    node.namespaceURI === "http://www.w3.org/1998/Math/MathML");
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const moved = e.sources.filter((s) => !kept(s.node));
      if (e.hadRecentInput || !moved.length || e.value < SEEN) continue;
      window.shifts.push([e.value, moved.map((s) =>
        `${s.node && s.node.nodeName} ${s.previousRect.top} -> ${s.currentRect.top}`)]);
    }
  }).observe({type: "layout-shift", buffered: true});
})()"""
# Tables that start on the first screen and whose columns change when all rows but the first
# are taken away: drawn while their rows still arrive (a busy machine parses in slices), their
# cells would move sideways when a wider row came.
TABLES_WAITING_FOR_ROWS = """() => [...document.querySelectorAll(".md-typeset table")]
  .filter((t) => t.tBodies[0] && t.getBoundingClientRect().top < innerHeight &&
                 t.getBoundingClientRect().width > 0)
  .filter((t) => {
    const columns = () => [...t.rows[0].cells].map((c) => c.getBoundingClientRect().width)
      .join();
    const whole = columns(), later = [...t.tBodies[0].rows].slice(1);
    later.forEach((row) => row.remove());
    const first = columns();
    later.forEach((row) => t.tBodies[0].append(row));
    return first !== whole;
  }).map((t) => t.rows[0].textContent.trim().slice(0, 40))"""
# Two frames drawn: what the last change moved has been reported.
FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
# The page's word that every block skipped at load is drawn (a11y.js), to wait on ...
BLOCKS_DRAWN = "() => document.documentElement.dataset.blocks === 'drawn'"
# ... and what it means: every block of the article, and every notebook cell, laid out.
ALL_DRAWN = """() => [...document.querySelectorAll(
  ".md-typeset > *, .jupyter-wrapper .jp-Notebook > .jp-CodeCell")].every((block) =>
  getComputedStyle(block).contentVisibility !== "auto")"""


class Held:
    """The requests of `page` for `pattern`, held unanswered (a held script or image also
    holds the page's load event) until the test lets them go."""

    def __init__(self, page, pattern: str):
        self.page, self.pattern, self.routes = page, pattern, []
        page.route(pattern, lambda route: self.routes.append(route))

    def wait(self) -> Held:
        """Until the page has asked for it. Playwright hands a request to Python between the
        page's events, while the test waits on the page: give it those turns until it has."""
        deadline = time.monotonic() + SAFETY_NET_MS / 1000
        while not self.routes:
            assert time.monotonic() < deadline, f"{self.pattern} was never requested"
            self.page.evaluate(FRAMES)
        return self

    def release(self, **response) -> None:
        """Answer the held request: with `response` (route.fulfill's arguments) or, without,
        with what the server has."""
        route = self.wait().routes[0]
        if response:
            route.fulfill(**response)
        else:
            route.continue_()


def data(rel: str):
    """A generated JSON file, as the widgets read it (docs/generated/<rel>)."""
    return json.loads((GENERATED / rel).read_text(encoding="utf-8"))


def shown(loc) -> str:
    """Visible text of a locator, whitespace-collapsed."""
    return " ".join(loc.inner_text().split())


def set_range(loc, value) -> None:
    """Set a range input as a script (or a tampered URL) would, then fire `input`."""
    loc.evaluate("(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }",
                 str(value))


def minus(text: str) -> str:
    return text.replace("\u2212", "-")


def patch_json(web, name: str, change) -> None:
    """Serve generated/data/<name> with `change(json)` applied (as another build would)."""
    def handle(route):
        response = route.fetch()
        body = response.json()
        change(body)
        route.fulfill(response=response, json=body)

    web.page.route(f"**/generated/data/{name}", handle)
