"""Collapsible notes hold methods and caveats: closed on screen, every one of them printed open.
The PDF carries the opening words of each `??? note` block of every page."""

from __future__ import annotations

import re

import pytest
from test_pdf import norm

from scripts.site import ROOT

NOTE = re.compile(r'^\?\?\? note "[^"]*"\n((?:\n|    .*\n)+)', re.M)


def opening_words(markdown: str, count: int = 6) -> list[str]:
    """The first `count` words of every note's first paragraph of prose, as plain text (a
    note that holds only code is left to the code-lab tests)."""
    found = []
    for body in NOTE.findall(markdown):
        # code and included files are checked elsewhere: only the note's own prose counts
        prose = [p for p in re.split(r"\n\s*\n", body)
                 if p.strip() and "```" not in p and not p.strip().startswith("--8<--")]
        if not prose:
            continue
        paragraph = prose[0]
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", paragraph)  # links: their text
        text = re.sub(r"^\s*(?:[-*]|\d+\.)\s+", "", text)  # a list item's marker
        # emphasis marks go; inside `code` an underscore is part of a name and is printed
        pieces = re.split(r"`([^`]*)`", text)
        text = "".join(p if i % 2 else re.sub(r"[*_]", "", p) for i, p in enumerate(pieces))
        found.append(" ".join(text.split()[:count]))
    return found


NOTES = [(page.name, words) for page in sorted((ROOT / "docs").glob("*.md"))
         for words in opening_words(page.read_text(encoding="utf-8"))]


def test_there_are_notes_to_print():
    assert len(NOTES) >= 2


@pytest.mark.parametrize(("page", "words"), NOTES)
def test_every_note_is_printed(pdf_text, page, words):
    assert norm(words) in norm(pdf_text), f"{page}: the note opening {words!r} is not printed"
