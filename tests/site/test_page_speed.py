"""Page-speed properties of the built HTML (scripts/benchmarks/lighthouse.py measures the
scores): no render-blocking script, ours or the theme's; widget code only where a widget is; a
small math font that covers every formula; the notebook's CSS pruned; sized images; light
pages."""

from __future__ import annotations

import html
import importlib
import re

import pytest
from sitebuild import DOCS

SCRIPT = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
OUR_JS = re.compile(r'\ssrc="[^"]*?(?<![\w-])(?<!assets/)javascripts/([\w-]+)\.js"')
LECTURE = re.compile(r"^(\d\d-[\w-]+/|code_lab/|shakespeare(-layers)?/)?index\.html$")


def hook(name: str):
    """A MkDocs hook of hooks/ as a module (MkDocs loads the same files by path)."""
    return importlib.import_module(f"hooks.{name}")


def codepoints(unicode_range: str) -> set[int]:
    out = set()
    for part in unicode_range.split(","):
        lo, _, hi = part.strip().removeprefix("U+").partition("-")
        out.update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return out


def font_faces() -> dict[str, set[int]]:
    """math.css: font file name -> the code points its @font-face claims."""
    css = (DOCS / "assets" / "css" / "math.css").read_text(encoding="utf-8")
    faces = {}
    for body in re.findall(r"@font-face\s*\{([^}]*)\}", css):
        name = re.search(r'url\("?\.\./fonts/([^")]+)', body).group(1)
        faces[name] = codepoints(re.search(r"unicode-range:\s*([^;]+);", body).group(1))
    return faces


ITALIC = {**{c: 0x1D434 + i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")},
          **{c: 0x1D44E + i for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")},
          **{chr(0x391 + i): 0x1D6E2 + i for i in range(25)},
          **{chr(0x3B1 + i): 0x1D6FC + i for i in range(25)}, "h": 0x210E, "∂": 0x1D715}


def math_codepoints(page_html: str) -> set[int]:
    """What the browser draws with the math font: the text of every <math>, a one-letter <mi>
    in math italic (MathML's automatic italic)."""
    found = set()
    for formula in re.findall(r"<math\b.*?</math>", page_html, re.DOTALL):
        for attrs, text in re.findall(r"<mi\b([^>]*)>([^<]*)</mi>", formula):
            text = html.unescape(text)
            if len(text) == 1 and "mathvariant" not in attrs and text in ITALIC:
                found.add(ITALIC[text])
        found.update(ord(c) for c in html.unescape(re.sub(r"<[^>]+>", "", formula))
                     if not c.isspace())
    return found


def test_our_scripts_are_deferred_and_widget_code_is_not_in_the_html(site):
    """runtime.js and a11y.js, deferred, are the only scripts of ours a page names; runtime.js
    fetches a widget's script on pages that show the widget (tests/browser checks that)."""
    for page in site.pages.values():
        ours = [(m.group(1), OUR_JS.search(m.group(1)).group(1))
                for m in SCRIPT.finditer(page.html) if OUR_JS.search(m.group(1))]
        assert [name for _, name in ours] == ["runtime", "a11y"], (page.rel, ours)
        assert all(re.search(r"\sdefer\b", attrs) for attrs, _ in ours), (page.rel, ours)


def test_the_theme_bundle_is_deferred_on_every_page(site):
    """hooks/defer_theme_bundle.py: Material's bundle.js never blocks the parser, so it cannot
    hold up the first paint (the print page and 404.html included)."""
    assert {"print_page/index.html", "404.html"} <= set(site.pages)
    for page in site.pages.values():
        tags = [attrs for attrs in SCRIPT.findall(page.html)
                if "assets/javascripts/bundle." in attrs]
        assert len(tags) == 1 and re.search(r"\sdefer\b", tags[0]), (page.rel, tags)


def test_the_palette_stylesheet_restyles_nothing_while_the_colours_switch(site):
    """hooks/palette_switch_css.py: Material marks <body> as switching colours on every load;
    no rule of the served palette stylesheet depends on that mark, so marking it restyles
    nothing. The hook takes out exactly that rule (a palette rule of the same shape stays)."""
    sheets = list((site.site / "assets" / "stylesheets").glob("palette.*.css"))
    assert len(sheets) == 1
    css = sheets[0].read_text(encoding="utf-8")
    assert "[data-md-color-scheme=slate]" in css and "data-md-color-switching" not in css
    theirs = ("[data-md-color-scheme=slate]{--x:1}[data-md-color-switching] *,"
              "[data-md-color-switching] :after{transition-duration:0s!important}a{b:c}")
    assert hook("palette_switch_css").without_switching_rule(theirs) == (
        "[data-md-color-scheme=slate]{--x:1}a{b:c}", 1)


def test_math_font_faces_match_their_files():
    """Each @font-face claims exactly the characters of its part (font.CORE, the rest of
    font.BLOCKS) that its file has: no download for a glyph the file lacks."""
    from fontTools.ttLib import TTFont

    from scripts.delivery.font import BLOCKS, CORE, codepoints

    faces = font_faces()
    parts = {"lecture-math.woff2": codepoints(CORE),
             "lecture-math-ext.woff2": codepoints(BLOCKS) - codepoints(CORE)}
    assert list(faces) == list(parts)
    for name, claimed in faces.items():
        path = DOCS / "assets" / "fonts" / name
        assert path.read_bytes()[:4] == b"wOF2", name
        font = TTFont(str(path))
        assert "MATH" in font, f"{name}: stretchy operators need the OpenType MATH table"
        assert claimed == set(font.getBestCmap()) & parts[name], \
            f"{name}: unicode-range or file is stale, run python -m scripts.delivery.font"
    assert 0x20 in faces["lecture-math.woff2"]  # the core is the family's primary font


def test_lecture_math_needs_only_the_core_font(site):
    """Every formula is drawn from lecture-math.woff2 alone: no page downloads the extension.
    (A formula that needs a new symbol: add its block to CORE in scripts/delivery/font.py.)"""
    core = font_faces()["lecture-math.woff2"]
    for page in site.pages.values():
        missing = math_codepoints(page.html) - core
        assert not missing, f"{page.rel}: " + " ".join(f"U+{c:04X} {chr(c)}" for c in missing)


def test_notebook_page_carries_only_the_css_it_uses(site):
    html = site.pages["code_lab/index.html"].html
    css = "".join(re.findall(r"<style\b[^>]*>(.*?)</style>", html, re.DOTALL))
    assert len(css) < 60_000, f"{len(css)} bytes of inline CSS"
    for used in (".jp-CodeCell", ".jp-InputArea", ".jp-OutputArea", ".highlight-ipynb"):
        assert used in css, used
    assert ".jp-Dialog" not in css and "--md-red-50" not in css  # JupyterLab UI, palette


def test_notebook_css_pruning_rules():
    prune = hook("notebook_css").prune_notebook_css
    page = ('<style>.jupyter-wrapper .a{color:var(--jp-x)}.jupyter-wrapper .a:hover{color:red}'
            '.jupyter-wrapper .gone{color:blue}.jupyter-wrapper .b::before{content:"b"}'
            '[data-md-color-scheme=slate] .jupyter-wrapper .c{color:red}'
            '@media print{.jupyter-wrapper .gone{display:none}.jupyter-wrapper .a{margin:0}}'
            '.jupyter-wrapper .b{animation:spin 1s}@keyframes spin{to{opacity:1}}'
            '@keyframes unused{to{opacity:0}}.jupyter-wrapper{--jp-x:var(--jp-y);--jp-y:red;'
            '--jp-z:blue;--md-red-50:#fff}.jupyter-wrapper a[href$=".ipynb"]{color:red}</style>'
            '<div class="jupyter-wrapper"><p class="a">x</p><p class="b">y</p>'
            '<a href="x.ipynb">z</a></div>')
    css = re.search(r"<style>(.*)</style>", prune(page), re.DOTALL).group(1)
    for kept in (".a{", ".a:hover{", ".b::before{", "slate] .jupyter-wrapper .c{",
                 "@media print{.jupyter-wrapper .a{", "@keyframes spin", "--jp-x:", "--jp-y:",
                 'a[href$=".ipynb"]'):
        assert kept in css, kept
    for dropped in (".gone", "unused", "--jp-z", "--md-red-50"):
        assert dropped not in css, dropped


def test_pruned_notebook_css_is_reused_only_for_the_same_page(tmp_path, monkeypatch):
    notebook_css = hook("notebook_css")
    page = ('<style>.jupyter-wrapper .a{color:red}.jupyter-wrapper .gone{color:blue}</style>'
            '<div class="jupyter-wrapper"><p class="a">x</p></div>')
    first = notebook_css.cached_prune(page, tmp_path)
    assert first == notebook_css.prune_notebook_css(page) and ".gone" not in first
    assert len(list(tmp_path.iterdir())) == 1

    def no_pruning(html):
        raise AssertionError("pruned again")

    monkeypatch.setattr(notebook_css, "prune_notebook_css", no_pruning)
    assert notebook_css.cached_prune(page, tmp_path) == first  # the same page: from the cache
    with pytest.raises(AssertionError, match="pruned again"):  # another page: pruned afresh
        notebook_css.cached_prune(page.replace('"a"', '"gone"'), tmp_path)


def test_local_images_carry_their_intrinsic_size(site):
    sized = hook("img_size").intrinsic_size
    images = 0
    for page in site.pages.values():
        for tag in re.findall(r"<img\b[^>]*>", page.html):
            src = re.search(r'\ssrc="([^"]+)"', tag).group(1)
            if re.match(r"^[a-z]+:", src):
                continue
            images += 1
            size = sized((page.path.parent / src).resolve())
            assert size and f'width="{size[0]}" height="{size[1]}"' in tag, (page.rel, tag[:120])
    assert images >= 9


@pytest.mark.parametrize(("root", "expected"), [
    ('<svg width="720pt" height="432pt" viewBox="0 0 720 432">', (960, 576)),
    ('<svg viewBox="0 0 340 340" xmlns="http://www.w3.org/2000/svg">', (340, 340)),
    ('<svg width="100%" viewBox="0 0 10 20">', (10, 20)),
])
def test_svg_intrinsic_size(tmp_path, root, expected):
    path = tmp_path / "x.svg"
    path.write_text(f'<?xml version="1.0"?>\n{root}</svg>', encoding="utf-8")
    assert hook("img_size").intrinsic_size(path) == expected
