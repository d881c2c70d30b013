"""The printed lecture for every reader: tagged (a structure tree a screen reader follows), an
outline of every section, the document language, clean metadata, no near-empty pages, and the
same bytes every time it is printed."""

from __future__ import annotations

import html
import re
import subprocess
from collections import Counter

import pytest
from test_pdf import norm, page_title

from scripts.site import load_config, nav

# Fewer characters than this on a page (about three lines of prose) is a page left nearly
# empty by a break: a heading, or the last line or two of a section.
MIN_PAGE_TEXT = 300


@pytest.fixture(scope="module")
def reader(lecture_pdf):
    from pypdf import PdfReader

    return PdfReader(str(lecture_pdf), strict=True)


def pdfinfo(path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True,
                         check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def structure(reader) -> list[dict]:
    """Every structure element of the tagged PDF, depth first."""
    found, todo = [], [reader.trailer["/Root"]["/StructTreeRoot"]]
    while todo:
        element = todo.pop().get_object()
        if not isinstance(element, dict):
            continue  # a marked-content id: the leaves of the tree
        if "/S" in element:
            found.append(element)
        kids = element.get("/K", [])
        todo.extend(reversed(kids) if isinstance(kids, list) else [kids])
    return found


def test_tagged_with_language_and_metadata(lecture_pdf, reader):
    info = {k: v.strip() for k, v in pdfinfo(lecture_pdf).items()}
    config = load_config()
    assert info["Tagged"] == "yes"
    assert info["Title"] == config["site_name"]  # the title once, not "page - site"
    assert info["Author"] == config["site_author"]
    assert info["Subject"] == norm(config["site_description"])
    assert reader.trailer["/Root"]["/Lang"] == config["theme"]["language"]


def test_outline_has_every_section_in_order(reader):
    titles = [norm(item.title) for item in reader.outline if not isinstance(item, list)]
    pos = 0
    for _, src in nav():
        title = page_title(src)
        assert title in titles[pos:], f"no bookmark for {title!r} (after {titles[:pos][-1:]})"
        pos = titles.index(title, pos) + 1
    nested = [item for item in reader.outline if isinstance(item, list)]
    assert sum(len(sub) for sub in nested) > 2 * len(nav()), "no bookmarks for the subsections"


def test_structure_tree_has_headings_lists_tables_and_described_figures(reader, lecture_site):
    elements = structure(reader)
    kinds = Counter(str(e["/S"]) for e in elements)
    assert kinds["/H1"] >= len(nav()) and kinds["/H2"] > len(nav()) and kinds["/H3"] > 0
    assert kinds["/L"] > 0 and kinds["/LI"] >= kinds["/L"]
    assert kinds["/Table"] > 0 and kinds["/TH"] > 0 and kinds["/TD"] > kinds["/TH"]
    page = (lecture_site / "print_page" / "index.html").read_text(encoding="utf-8")
    alts = [norm(html.unescape(a)) for a in re.findall(r'<img\b[^>]*\salt="([^"]+)"', page)]
    figures = [norm(str(e.get("/Alt", ""))) for e in elements if e["/S"] == "/Figure"]
    assert len(alts) >= 9 and all(alts)
    assert figures == alts  # every figure, in order, described by its alt text


def test_no_page_is_nearly_empty(pdf_text):
    """A figure or table moves to the next page whole, and chapters are not forced onto new
    pages, so no page after the cover holds only a heading or a line or two."""
    pages = [norm(page) for page in pdf_text.split("\f")]
    if pages and not pages[-1]:
        pages.pop()  # the form feed after the last page
    thin = {n: page[:80] for n, page in enumerate(pages[1:], 2) if len(page) < MIN_PAGE_TEXT}
    assert not thin, f"nearly empty pages (fewer than {MIN_PAGE_TEXT} characters): {thin}"


def test_printing_twice_gives_the_same_bytes(lecture_pdf, lecture_site, browser, tmp_path):
    from scripts.delivery.pdf import print_pdf

    again = print_pdf(lecture_site, tmp_path / "again.pdf", browser=browser)
    assert again.read_bytes() == lecture_pdf.read_bytes()
