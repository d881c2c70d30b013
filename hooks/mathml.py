"""MkDocs hook: LaTeX -> MathML at build time (no math JavaScript, no CDN).

* Markdown pages: pymdownx.arithmatex (``generic: true``) wraps math as
  ``<span class="arithmatex">\\(...\\)</span>`` / ``<div class="arithmatex">\\[...\\]</div>``;
  each is replaced by the MathML Core that ``math-core`` produces.
* Notebook pages (mkdocs-jupyter): markdown cells keep raw ``$...$`` / ``$$...$$``; they are
  converted the same way outside ``<pre>``, ``<code>``, ``<script>`` and ``<style>``. The
  MathJax / Mermaid / RequireJS loaders that nbconvert adds (all CDN) are removed.

Runs at priority 50 so print-site (last plugin) collects the converted HTML. A formula that does
not parse is logged as a warning, which fails ``mkdocs build --strict``.
"""

from __future__ import annotations

import html
import logging
import re

import math_core
import mkdocs.plugins
from mkdocs.utils import get_relative_url

log = logging.getLogger("mkdocs.hooks.mathml")

# \Cell etc. are not needed: plain \mathrm{Cell} renders as one identifier with math-core.
_CONVERTER = math_core.LatexToMathML(fancy_error=False)

_ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\s*(?P<body>.*?)\s*</(?P=tag)>', re.DOTALL
)
_PROTECTED = re.compile(
    r"(<(pre|code|script|style|math)\b.*?</\2>)", re.DOTALL | re.IGNORECASE
)
# $$...$$ first (display), then $...$ (inline, no newline-spanning, not "\$").
_DOLLARS = re.compile(
    r"(?<![\\$])\$\$(?P<block>.+?)\$\$|(?<![\\$])\$(?P<inline>[^$\n]+?)(?<!\\)\$", re.DOTALL
)
_CDN_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc=\"(?:https?://[^\"]*)?\"[^>]*>\s*</script>"
    r"|<script\b[^>]*>(?:(?!</script>).)*?(?:cdnjs|x-mathjax-config|MathJax)"
    r"(?:(?!</script>).)*?</script>"
    r"|<script type=\"text/x-mathjax-config\">.*?</script>",
    re.DOTALL,
)
_COMMENT = re.compile(r"<!-- (Load mathjax|MathJax configuration|End of mathjax configuration) -->")


def to_mathml(tex: str, display: bool, where: str = "") -> str:
    """Convert one LaTeX formula (no delimiters) to MathML; on error keep escaped TeX + warn."""
    try:
        out = _CONVERTER.convert_with_local_state(tex.strip(), displaystyle=display)
    except math_core.LatexError as exc:
        log.warning("mathml: cannot convert %r in %s: %s", tex, where or "?", exc)
        return html.escape(tex)
    return f'<div class="mathml-block">{out}</div>' if display else out


def _strip_delims(body: str) -> tuple[str, bool]:
    body = body.strip()
    for left, right, display in (("\\[", "\\]", True), ("\\(", "\\)", False),
                                 ("$$", "$$", True), ("$", "$", False)):
        if body.startswith(left) and body.endswith(right) and len(body) >= len(left) + len(right):
            return body[len(left): len(body) - len(right)], display
    if body.startswith("\\begin{"):
        return body, True
    return body, False


def convert_arithmatex(content: str, where: str = "") -> str:
    """Replace arithmatex generic spans/divs by MathML."""

    def repl(m: re.Match) -> str:
        tex, display = _strip_delims(html.unescape(m.group("body")))
        return to_mathml(tex, display or m.group("tag") == "div", where)

    return _ARITHMATEX.sub(repl, content)


def convert_dollars(content: str, where: str = "") -> str:
    """Replace raw $...$ / $$...$$ outside pre/code/script/style/math by MathML."""

    def repl(m: re.Match) -> str:
        if m.group("block") is not None:
            return to_mathml(html.unescape(m.group("block")), True, where)
        return to_mathml(html.unescape(m.group("inline")), False, where)

    parts = _PROTECTED.split(content)
    # split() with 2 groups yields [text, whole, tagname, text, whole, tagname, ...]
    out = []
    for i, part in enumerate(parts):
        kind = i % 3
        if kind == 0:
            out.append(_DOLLARS.sub(repl, part))
        elif kind == 1:
            out.append(part)
    return "".join(out)


def strip_cdn_scripts(content: str) -> str:
    """Drop nbconvert's CDN loaders (MathJax, Mermaid, an empty `src=""`) from notebook HTML."""
    return _COMMENT.sub("", _CDN_SCRIPT.sub("", content))


def is_notebook(page) -> bool:
    return str(page.file.src_uri).endswith(".ipynb")


@mkdocs.plugins.event_priority(50)
def on_page_content(html_content: str, page, config, files):
    where = page.file.src_uri
    out = convert_arithmatex(html_content, where)
    if is_notebook(page):
        out = convert_dollars(strip_cdn_scripts(out), where)
    return out


# The math font is found late (only when a formula's text is laid out) and swaps in when it
# arrives: where the reader's fallback math font has other widths, the formulas then change
# width. A page with formulas asks for the font while its head is read, so it is almost always
# there before the first layout.
MATH_FONT = "assets/fonts/lecture-math.woff2"


def on_post_page(output: str, page, config):
    if "<math" not in output:
        return output
    href = get_relative_url(MATH_FONT, page.url)
    link = f'<link rel="preload" href="{href}" as="font" type="font/woff2" crossorigin>'
    return output.replace("</head>", f"{link}\n</head>", 1)
