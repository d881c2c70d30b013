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
