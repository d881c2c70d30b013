"""What the tests of the pages' claims read: a page's markdown as one line of text, and the
committed results under docs/generated/ (no torch needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def page_text(name: str) -> str:
    """docs/<name> with every run of whitespace one space: a sentence reads as on the page."""
    return re.sub(r"\s+", " ", (DOCS / name).read_text(encoding="utf-8"))


def generated(rel: str):
    """A JSON file under docs/generated/."""
    return json.loads((DOCS / "generated" / rel).read_text(encoding="utf-8"))
