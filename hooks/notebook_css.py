"""MkDocs hook: shrink the CSS that mkdocs-jupyter inlines into a notebook page.

mkdocs-jupyter inlines JupyterLab's whole stylesheet (~575 kB, 3 000+ rules, 450 custom
properties) into every notebook page. Our code-lab notebook uses a few dozen of those rules, but
the browser parses and matches all of them on every style recalculation: on a throttled phone
that costs about a second of main-thread time and ~85 kB of the page's transfer (Lighthouse
page speed). This hook keeps only what the notebook's HTML can use:

* a rule scoped to ``.jupyter-wrapper`` is kept when one of its selectors, with dynamic
  pseudo-classes (``:hover``, ``:focus``…) and pseudo-elements removed, matches an element of
  the notebook (soupsieve, after a quick class-name pre-check); rules not scoped to the
  notebook (``[data-md-color-scheme=slate] …``) and selectors soupsieve cannot parse are kept;
* ``@media`` / ``@supports`` blocks are pruned the same way, ``@keyframes`` kept only when a
  kept rule names them;
* JupyterLab's own custom properties (``--jp-*`` and the ``--md-<hue>-<shade>`` palette) are
  kept only when a kept rule, another kept property or an inline style refers to them.

Runs at priority 40: after hooks/mathml.py (50), so the rules are matched against the final
notebook HTML, and before print-site (0), so the print page gets the pruned CSS too. Only pages
built from ``.ipynb`` files are touched.

Pruning takes about a second per notebook page, and every build (each `mkdocs serve` reload,
the test suite's several builds) sees the same notebook HTML again: the result is kept under
$XDG_CACHE_HOME/notebook-css/, named by a hash of the page's HTML, this file and the versions of
the parsers it uses, so a changed notebook, rule or parser is pruned afresh.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from importlib.metadata import version
from pathlib import Path

import mkdocs.plugins
import soupsieve
import tinycss2
from bs4 import BeautifulSoup

log = logging.getLogger("mkdocs.hooks.notebook_css")

SCOPE = ".jupyter-wrapper"
_STYLE = re.compile(r"(<style\b[^>]*>)(.*?)(</style>)", re.DOTALL | re.IGNORECASE)
# What a static document cannot show: user-action / form-state pseudo-classes, pseudo-elements.
_DYNAMIC = re.compile(
    r"::?-(?:webkit|moz|ms)-[\w-]+(?:\([^()]*\))?"
    r"|::[\w-]+(?:\([^()]*\))?"
    r"|:(?:hover|focus|focus-visible|focus-within|active|visited|link|any-link|target"
    r"|checked|disabled|enabled|indeterminate|placeholder-shown|invalid|valid"
    r"|read-only|read-write|before|after)(?![\w-])"
)
_PARENS = re.compile(r"\([^()]*\)")
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_PRUNABLE_VAR = re.compile(r"--(?:jp-[\w-]+|md-[a-z]+(?:-[a-z]+)*-A?\d+)$")
_VAR_REF = re.compile(r"var\(\s*(--[\w-]+)")


class _Matcher:
    """Does a selector match anything in the notebook fragment? (cached per selector)"""

    def __init__(self, fragment: str):
        self.soup = BeautifulSoup(fragment, "html.parser")
        self.classes = {c for tag in self.soup.find_all(class_=True) for c in tag["class"]}
        self.cache: dict[str, bool] = {}

    def used(self, selector: str) -> bool:
        sel = selector.strip()
        if not sel.startswith(SCOPE) or "\\" in sel:
            return True  # not ours to judge
        sel = _DYNAMIC.sub("", sel).replace(":not()", "").strip()
        if sel not in self.cache:
            self.cache[sel] = self._match(sel)
        return self.cache[sel]

    def _match(self, sel: str) -> bool:
        bare = re.sub(r"\[[^\]]*\]", "", sel)  # attribute values may hold dots
        while _PARENS.search(bare):  # classes inside :not(...) etc. are not required
            bare = _PARENS.sub("", bare)
        if any(c not in self.classes for c in _CLASS.findall(bare)):
            return False
        try:
            return soupsieve.select_one(sel, self.soup) is not None
        except Exception:  # syntax soupsieve does not know: keep the rule
            return True


def _prune_rules(rules, matcher: _Matcher, keyframes: dict) -> list:
    """Kept rules as ("rule", selectors, [(name, value)]), ("block", "@media …", [...]) or
    ("raw", text); @keyframes go to `keyframes` (name -> text) for later."""
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            kept = [s.strip() for s in tinycss2.serialize(rule.prelude).split(",")
                    if matcher.used(s)]
            decls = [(d.name if d.name.startswith("--") else d.lower_name,
                      tinycss2.serialize(d.value).strip() + (" !important" if d.important else ""))
                     for d in tinycss2.parse_declaration_list(rule.content, True, True)
                     if d.type == "declaration"]
            if kept and decls:
                out.append(("rule", ",".join(kept), decls))
        elif rule.type == "at-rule":
            keyword = rule.lower_at_keyword
            if keyword in ("media", "supports") and rule.content is not None:
                inner = _prune_rules(tinycss2.parse_rule_list(rule.content, True, True),
                                     matcher, keyframes)
                if inner:
                    prelude = tinycss2.serialize(rule.prelude).strip()
                    out.append(("block", f"@{rule.at_keyword} {prelude}", inner))
            elif keyword.endswith("keyframes"):
                keyframes[tinycss2.serialize(rule.prelude).strip()] = rule.serialize()
            elif keyword != "charset":  # @charset is ignored inside <style> anyway
                out.append(("raw", rule.serialize()))
    return out


def _declarations(nodes):
    for node in nodes:
        if node[0] == "rule":
            yield from node[2]
        elif node[0] == "block":
            yield from _declarations(node[2])


def _serialize(nodes, drop: set[str]) -> str:
    out = []
    for node in nodes:
        if node[0] == "rule":
            body = ";".join(f"{name}:{value}" for name, value in node[2] if name not in drop)
            if body:
                out.append(f"{node[1]}{{{body}}}")
        elif node[0] == "block":
            inner = _serialize(node[2], drop)
            if inner:
                out.append(f"{node[1]}{{{inner}}}")
        else:
            out.append(node[1])
    return "".join(out)


def _unused_vars(sheets: list[list], inline: str) -> set[str]:
    """Prunable custom properties that no kept declaration or inline style refers to."""
    declared: dict[str, list[str]] = {}
    refs = set(_VAR_REF.findall(inline))
    for name, value in (d for nodes in sheets for d in _declarations(nodes)):
        if name.startswith("--"):
            declared.setdefault(name, []).append(value)
        else:
            refs.update(_VAR_REF.findall(value))
    todo = list(refs)
    while todo:  # a property in use may refer to others
        for value in declared.get(todo.pop(), []):
            for name in _VAR_REF.findall(value):
                if name not in refs:
                    refs.add(name)
                    todo.append(name)
    return {name for name in declared if _PRUNABLE_VAR.match(name) and name not in refs}


def prune_notebook_css(html: str) -> str:
    """The notebook HTML with each inline <style> reduced to what the notebook uses."""
    blocks = _STYLE.findall(html)
    if not blocks:
        return html
    matcher = _Matcher(_STYLE.sub("", html))
    keyframes: dict[str, str] = {}
    sheets = [_prune_rules(tinycss2.parse_stylesheet(css, True, True), matcher, keyframes)
              for _, css, _ in blocks]
    drop = _unused_vars(sheets, " ".join(re.findall(r'\sstyle="([^"]*)"', html)))
    pruned = [_serialize(nodes, drop) for nodes in sheets]
    animations = " ".join(value for nodes in sheets for name, value in _declarations(nodes)
                          if name in ("animation", "animation-name"))
    pruned[-1] += "".join(text for name, text in keyframes.items()
                          if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", animations))
    it = iter(pruned)
    return _STYLE.sub(lambda m: f"{m.group(1)}{next(it)}{m.group(3)}", html)


_SALT = "\n".join([Path(__file__).read_text(encoding="utf-8"),
                   *(f"{name} {version(name)}" for name in ("tinycss2", "soupsieve",
                                                           "beautifulsoup4"))])


def cached_prune(html: str, cache: Path) -> str:
    """prune_notebook_css(html), kept in ``cache`` under a name that changes with the input."""
    key = hashlib.sha256(f"{_SALT}\n{html}".encode()).hexdigest()
    path = cache / f"{key}.html"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    out = prune_notebook_css(html)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{key}.{os.getpid()}.tmp")  # concurrent builds never see half a file
    tmp.write_text(out, encoding="utf-8")
    tmp.replace(path)
    return out


def cache_dir(config) -> Path:
    """The project's tools keep their caches in $XDG_CACHE_HOME (the Makefile and the scripts
    set it inside the project); a bare `mkdocs build` uses .cache/ beside mkdocs.yml."""
    base = os.environ.get("XDG_CACHE_HOME") or Path(config.config_file_path).parent / ".cache"
    return Path(base) / "notebook-css"


@mkdocs.plugins.event_priority(40)
def on_page_content(html_content: str, page, config, files):
    if not str(page.file.src_uri).endswith(".ipynb"):
        return html_content
    out = cached_prune(html_content, cache_dir(config))
    log.debug("notebook_css: %s: %d -> %d bytes", page.file.src_uri, len(html_content), len(out))
    return out
