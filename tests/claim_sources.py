"""What the tests of the pages' claims read: a page's markdown as one line of text (and whether it
states a number), the committed results under docs/generated/, and two of the study's models
compared by the lecture's one rule (no torch needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scripts.study.verdict import compare

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


# -- the study's models, compared by the lecture's one rule (scripts.study.verdict.compare) ----

def mean(cfg: dict, key: str = "test_bpc") -> float:
    return cfg[key]["mean"]


def versus(a: dict, b: dict, key: str = "test_bpc"):
    """a against b by the lecture's one comparison (lower bpc is better: "ahead" is below)."""
    return compare(a[key]["values"], b[key]["values"])


def word(a: dict, b: dict, key: str = "test_bpc") -> str:
    """"ahead", "behind", "equivalent" or "not resolved": a against b."""
    return versus(a, b, key).verdict


def unresolved(a: dict, b: dict, key: str = "test_bpc") -> bool:
    """The seeds cannot tell a from b."""
    return not versus(a, b, key).apart


def plain(study: dict, layers: int) -> dict:
    """The plain stack of `layers` layers of width 128 in the study's summary."""
    return study["depth"][f"L{layers}-h128"]


def residual(study: dict, layers: int) -> dict:
    """The residual stack of `layers` layers of width 128 in the study's summary."""
    return study["depth"][f"L{layers}-h128-res"]
