"""Helpers the browser tests import: pages of each widget, the site's URL path, generated data,
and small Playwright utilities. (Fixtures live in conftest.py, which imports these.)"""

from __future__ import annotations

import json
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
# Two frames drawn: what the last change moved has been reported.
FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
# Every block of the article, and every notebook cell, laid out: none is left to skip.
ALL_DRAWN = """() => [...document.querySelectorAll(
  ".md-typeset > *, .jupyter-wrapper .jp-Notebook > .jp-CodeCell")].every((block) =>
  getComputedStyle(block).contentVisibility !== "auto")"""


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
