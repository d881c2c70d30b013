"""What the tests of the pages' claims read: a page's markdown as one line of text (and whether it
states a number), and the committed results under docs/generated/ (no torch needed)."""

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


# The numbers the pages spell out in words (a sentence may not start with a digit).
NUMBER_WORDS = {16: ("sixteen",), 50: ("fifty",), 200: ("two hundred",)}


def states(text: str, value: int | str) -> bool:
    """Whether `text` states the number `value`: in digits as the pages write it (6,000; 2.2), not
    as part of a longer number, or in words."""
    digits = f"{value:,}" if isinstance(value, int) else value
    if re.search(rf"(?<![\d.,]){re.escape(digits)}(?![\d]|[.,]\d)", text):
        return True
    words = NUMBER_WORDS.get(value, ()) if isinstance(value, int) else ()
    return any(re.search(rf"\b{word}\b", text, re.IGNORECASE) for word in words)
