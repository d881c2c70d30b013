"""Every work the lecture cites has a full entry on the references page (authors, year, title,
venue, a public link), every in-text citation links to its entry, and no citation is ambiguous:
a link's text names the entry's first author and year, and "et al." or the co-authors where the
entry has them."""

from __future__ import annotations

import re
import unicodedata
from html import unescape

import pytest
from reading import article

from scripts.site import nav, page_url

REFERENCES = "references/index.html"
# The entries other pages link to by anchor: renaming one breaks their links.
REQUIRED = {
    "graves-mohamed-hinton-2013", "graves-2013", "sutskever-vinyals-le-2014", "wu-et-al-2016",
    "hermans-schrauwen-2013", "karpathy-johnson-fei-fei-2015",
    "collins-sohl-dickstein-sussillo-2017", "el-hihi-bengio-1996", "koutnik-et-al-2014",
    "chung-ahn-bengio-2017", "gers-schmidhuber-cummins-2000",
    "jozefowicz-zaremba-sutskever-2015", "hochreiter-schmidhuber-1997", "cho-et-al-2014",
    "pascanu-mikolov-bengio-2013", "pascanu-et-al-2014",
}
# An unlinked citation: a name, or "Name & Name", or "Name et al.", then a year.
CITATION = re.compile(r"\b[A-Z][\w'-]+(?: et al\.| (?:&|and) [A-Z][\w'-]+)?"
                      r"(?:,| \() ?(?:19|20)\d\d\b")
NAV = [src for _, src in nav()]


def entries(site) -> dict[str, str]:
    """id -> the entry's HTML."""
    html = site.pages[REFERENCES].html
    return dict(re.findall(r'<p class="reference" id="([^"]+)">(.*?)</p>', html, re.S))


def citations(site) -> list[tuple[str, str, str]]:
    """(page, anchor, link text) of every link to a reference, on every other page."""
    found = []
    for src in NAV:
        rel = page_url(src) + "index.html"
        if rel == REFERENCES:
            continue
        for anchor, text in re.findall(r'<a href="[^"]*references/#([^"]+)">(.*?)</a>',
                                       article(site.pages[rel].html), re.S):
            found.append((src, anchor, unescape(re.sub(r"<[^>]+>", "", text))))
    return found


def test_every_entry_is_complete(site):
    found = entries(site)
    assert REQUIRED <= set(found), REQUIRED - set(found)
    for anchor, entry in found.items():
        year = re.search(r"\((\d{4})\)", entry)
        assert year and re.search(rf"-{year.group(1)}(-|$)", anchor), \
            f"{anchor}: authors (year) first, the anchor ending in the year (and a word)"
        assert "<strong>" in entry and "<em>" in entry, \
            f"{anchor}: authors in bold, title in italics"
        assert re.search(r'<a href="https://', entry), f"{anchor}: no public link"


def plain(text: str) -> str:
    """Lower case, accents dropped, spaces as hyphens: how an anchor spells a name."""
    text = unicodedata.normalize("NFKD", text.lower()).encode("ascii", "ignore").decode()
    return text.replace(" ", "-")


def test_every_citation_links_to_an_entry_and_names_it(site):
    """An anchor is the authors' surnames (or the first and "et-al"), the year, and for two
    works of one author and year a word that tells them apart: the link text must give the
    first surname, the year, that word, and say whether there are co-authors."""
    found, cited = entries(site), citations(site)
    assert cited
    for page, anchor, text in cited:
        assert anchor in found, f"{page}: link to a missing entry #{anchor}"
        parts = anchor.split("-")
        at = next(i for i, part in enumerate(parts) if re.fullmatch(r"\d{4}", part))
        names, year, which = parts[:at], parts[at], "-".join(parts[at + 1:])
        assert year in text and names[0] in plain(text) and which in plain(text), \
            f"{page}: {text!r} does not name #{anchor}"
        several = bool(re.search(r"et al\.|&| and ", text))
        assert several == (len(names) > 1), f"{page}: {text!r} could be another entry"


@pytest.mark.parametrize("src", [s for s in NAV if s != "references.md"])
def test_no_citation_without_a_link(site, src):
    html = article(site.pages[page_url(src) + "index.html"].html)
    html = re.sub(r'<a href="[^"]*references/#[^"]+">.*?</a>', " ", html, flags=re.S)
    html = re.sub(r"<(pre|code|math|script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    unlinked = CITATION.findall(text)
    assert not unlinked, f"{src}: citations without a link: {unlinked}"


def test_the_citation_pattern_finds_unlinked_citations():
    for text in ("as shown (Wu et al., 2016).", "Graves, 2013 showed", "Ba & Kiros (2016) did",
                 "Pascanu et al. (2013)"):
        assert CITATION.search(text), text
    for text in ("the 2013–16 systems", "Keras 3 and PyTorch 2", "§10, 2 layers"):
        assert not CITATION.search(text), text


def test_every_entry_is_cited(site):
    """An entry no page cites is not a reference of this lecture."""
    uncited = set(entries(site)) - {anchor for _, anchor, _ in citations(site)}
    assert not uncited, f"entries no page links to: {sorted(uncited)}"
