"""Nothing is used before it is introduced: every term of the lecture is defined (a <dfn> with an
id) on one page, and no page before it in the nav, nor any earlier line of that page, uses it.
§07's glossary links every term to its definition. Checked on the built pages, in nav order."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
from reading import article

from scripts.site import nav, page_url

# term -> (page that defines it, the <dfn>'s id, what counts as a use of it)
TERMS: dict[str, tuple[str, str, str]] = {
    "residual connection": ("index.md", "residual-connection", r"\bresidual\b"),
    "plain stack": ("index.md", "plain-stack", r"\bplain (?:stacks?|layers?)\b"),
    "the climb": ("index.md", "the-climb", r"\bthe climb\b"),
    "attractor": ("01-testbeds.md", "attractor", r"\battractors?\b"),
    "readout": ("01-testbeds.md", "readout", r"\breadouts?\b"),
    "held-out": ("01-testbeds.md", "held-out", r"\bheld[- ]out\b"),
    "seed": ("01-testbeds.md", "seed", r"\bseeds?\b"),
    "not resolved": ("01-testbeds.md", "not-resolved", r"\bnot resolved\b"),
    "bits per character": ("01-testbeds.md", "bpc", r"\bbpc\b|\bbits per character\b"),
    "uniform baseline": ("01-testbeds.md", "uniform-baseline", r"\buniform(?:ly)?\b"),
    "unigram baseline": ("01-testbeds.md", "unigram-baseline", r"\bunigram\b"),
    "teacher forcing": ("01-testbeds.md", "teacher-forcing", r"\bteacher[- ]forc"),
    "truncated BPTT": ("01-testbeds.md", "truncated-bptt", r"\btruncated\b|\bBPTT\b"),
    "gradient clipping": ("01-testbeds.md", "clipping", r"\bclip(?:s|ped|ping)?\b"),
    "validation": ("01-testbeds.md", "validation", r"\bvalidation\b"),
    "pass": ("01-testbeds.md", "pass", r"\bpasses over\b|\bone pass\b"),
    "probe": ("02-motivation.md", "probe", r"\bprob(?:e|es|ed|ing)\b"),
    "majority-class baseline": ("02-motivation.md", "majority-class-baseline",
                                r"\bmajority[- ]class\b"),
    "dropout": ("03-blueprint.md", "dropout", r"\bdropout\b"),
    "layer norm": ("03-blueprint.md", "layer-norm", r"\blayer[- ]norm"),
    "fan-in": ("05-cell-flavors.md", "fan-in", r"\bfan-in\b"),
    "bidirectional": ("07-equations.md", "bidirectional", r"\bbidirectional\b"),
    "encoder": ("07-equations.md", "encoder", r"\bencoders?\b"),
    "decoder": ("07-equations.md", "decoder", r"\bdecoders?\b"),
}
GLOSSARY = "07-equations.md"
DEFINED, END = "\x00", "\x01"  # mark where a <dfn> starts (with its id) and ends in a text
NAV = [src for _, src in nav()]


class _Text(HTMLParser):
    """What a reader sees of an article, headings and tables included (code, formulas and
    scripts left out), with DEFINED + id + DEFINED where each <dfn id> starts and END where it
    ends."""

    SKIP = frozenset({"script", "style", "pre", "code", "math", "svg"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chunks, self.skipping = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        if tag == "dfn" and dict(attrs).get("id"):
            self.chunks.append(f"{DEFINED}{dict(attrs)['id']}{DEFINED}")

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping -= 1
        if tag == "dfn":
            self.chunks.append(END)

    def handle_data(self, data):
        if not self.skipping:
            self.chunks.append(data)


def page_text(html: str) -> str:
    parser = _Text()
    parser.feed(article(html))
    return " ".join("".join(parser.chunks).split())


@pytest.fixture(scope="module")
def texts(site) -> dict[str, str]:
    return {src: page_text(site.pages[page_url(src) + "index.html"].html) for src in NAV}


def first_use(text: str, pattern: str) -> int | None:
    plain = re.sub(f"{DEFINED}[^{DEFINED}]*{DEFINED}|{END}", "", text)
    found = re.search(pattern, plain, re.I)
    return found.start() if found else None


@pytest.mark.parametrize("term", sorted(TERMS))
def test_term_is_defined_before_it_is_used(texts, term):
    page, dfn, pattern = TERMS[term]
    assert page in NAV, f"{term}: {page} is not in the nav"
    for earlier in NAV[:NAV.index(page)]:
        at = first_use(texts[earlier], pattern)
        assert at is None, (f"{term!r} is used in {earlier} ({texts[earlier][at:at + 80]!r}) "
                            f"before {page} defines it")
    text = texts[page]
    marker = f"{DEFINED}{dfn}{DEFINED}"
    assert text.count(marker) == 1, f"{page} has no <dfn id={dfn!r}> (or more than one)"
    before = text[:text.index(marker)]
    at = first_use(before, pattern)
    assert at is None, f"{page} uses {term!r} ({before[at:at + 80]!r}) before defining it"
    held = text[text.index(marker) + len(marker):].split(END, 1)[0]
    assert re.search(pattern, held, re.I), f"{page}: <dfn id={dfn!r}> holds {held!r}, not {term!r}"


def test_every_definition_is_in_the_term_list(texts):
    """A <dfn> the list does not know would go unchecked: add its term to TERMS."""
    defined = {(src, d) for src, text in texts.items()
               for d in re.findall(f"{DEFINED}([^{DEFINED}]*){DEFINED}", text)}
    assert defined == {(page, dfn) for page, dfn, _ in TERMS.values()}


def test_the_glossary_links_every_term_to_its_definition(site):
    """§07's table of terms: one row per term, its first cell linking to the <dfn>."""
    html = site.pages[page_url(GLOSSARY) + "index.html"].html
    table = next(t for t in re.findall(r"<table>.*?</table>", html, re.S)
                 if re.search(r"<th[^>]*>\s*Term\s*</th>", t))
    rows = re.findall(r"<tr>\s*<td>(.*?)</td>", table, re.S)
    here = "/" + page_url(GLOSSARY)
    linked = {urljoin(here, re.search(r'href="([^"]+)"', cell).group(1)) for cell in rows}
    expected = {f"/{page_url(page)}#{dfn}" for page, dfn, _ in TERMS.values()}
    assert len(rows) == len(TERMS) and linked == expected, linked ^ expected


def test_the_check_catches_a_use_before_the_definition():
    early = page_text('<article class="md-content__inner"><p>A residual stack.</p>'
                      '<p>A <dfn id="residual-connection">residual connection</dfn> adds.</p>'
                      "<pre><code>residual = True</code></pre></article>")
    marker = f"{DEFINED}residual-connection{DEFINED}"
    assert first_use(early[:early.index(marker)], TERMS["residual connection"][2]) == 2
    assert first_use(page_text('<article class="md-content__inner"><pre>residual</pre>'
                               "</article>"), r"\bresidual\b") is None
