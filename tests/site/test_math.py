"""Math is MathML, converted at build time: no TeX left, no math JavaScript, a local font."""

from __future__ import annotations

import re

from sitebuild import DOCS, ROOT

LEFTOVER = [
    (re.compile(r"\\\(|\\\)|\\\[|\\\]"), "TeX delimiter"),
    (re.compile(r"\$\$"), "$$"),
    (re.compile(r"(?<![\w$])\$[^$\s][^$]*?\$(?![\w$])"), "$...$"),
    (re.compile(r"\\(frac|mathrm|text|sigma|odot|tanh|left|right|begin|underbrace)\b"), "TeX"),
]

def _pages_with_source_math() -> list[str]:
    pages = []
    for md in sorted(DOCS.glob("*.md")):
        if "$" in md.read_text(encoding="utf-8"):
            pages.append("index.html" if md.stem == "index" else f"{md.stem}/index.html")
    return [*pages, "code_lab/index.html", "print_page/index.html"]


def test_no_tex_left_in_any_page(site):
    found = []
    for page in site.pages.values():
        for pattern, what in LEFTOVER:
            for match in pattern.finditer(page.text):
                around = page.text[max(0, match.start() - 40):match.end() + 40]
                found.append(f"{page.rel}: {what}: …{around!r}")
    assert not found, "\n".join(found[:30])


def test_no_arithmatex_wrappers_or_math_scripts(site):
    for page in site.pages.values():
        assert 'class="arithmatex"' not in page.html, page.rel
        low = page.html.lower()
        for needle in ("mathjax", "katex", "x-mathjax-config", "tex-mml", "tex-svg"):
            assert needle not in low, f"{page.rel}: {needle}"


def test_every_page_with_math_in_its_source_renders_mathml(site):
    missing = [rel for rel in _pages_with_source_math() if "<math" not in site.pages[rel].html]
    assert not missing, missing


def test_block_math_is_display_math(site):
    html = site.pages["index.html"].html
    assert '<div class="mathml-block"><math display="block">' in html


def test_math_font_is_self_hosted(site):
    css = (site.site / "assets" / "css" / "math.css").read_text(encoding="utf-8")
    url = re.search(r"url\(\"?([^\")]+)\"?\)", css).group(1)
    font = (site.site / "assets" / "css" / url).resolve()
    assert font.is_file() and font.suffix == ".woff2", font
    assert font.read_bytes()[:4] == b"wOF2"
    assert 'href="../assets/css/math.css"' in site.pages["08-hand-computed/index.html"].html
    assert (ROOT / "docs" / "assets" / "fonts" / "LICENSE-latinmodern-math.txt").is_file()


def test_a_page_with_formulas_asks_for_the_math_font_early(site):
    """A page with MathML preloads the core math font (so a table of formulas is not laid out
    again when the font swaps in); a page without formulas does not fetch it."""
    link = re.compile(r'<link rel="preload" href="([^"]+)" as="font" type="font/woff2" '
                      r'crossorigin>')
    with_math = [p for p in site.pages.values() if "<math" in p.html and "<head>" in p.html
                 and "print_page" not in p.rel]
    assert len(with_math) > 5
    for page in with_math:
        hrefs = link.findall(page.html.split("</head>")[0])
        assert len(hrefs) == 1, page.rel
        font = (page.path.parent / hrefs[0]).resolve()
        assert font == (site.site / "assets" / "fonts" / "lecture-math.woff2").resolve(), page.rel
    without = site.pages["references/index.html"]
    assert "<math" not in without.html and not link.search(without.html)


def test_hook_units():
    """The converter on its own: inline, display, notebook dollars, CDN scripts."""
    from hooks import mathml as hook

    inline = hook.convert_arithmatex('<span class="arithmatex">\\(a &lt; b\\)</span>')
    assert inline.startswith("<math>") and "&lt;" in inline and "\\(" not in inline
    block = hook.convert_arithmatex('<div class="arithmatex">\\[\\frac{1}{2}\\]</div>')
    assert '<math display="block"><mfrac>' in block
    nb = hook.convert_dollars("<p>$x_t$ and $$y$$</p><pre>cost: $5 and $6</pre>")
    assert nb.count("<math") == 2 and "<pre>cost: $5 and $6</pre>" in nb
    stripped = hook.strip_cdn_scripts('<script src="https://cdn.x/m.js"> </script>'
                                      '<script src=""> </script><script>ok()</script>')
    assert stripped == "<script>ok()</script>"
