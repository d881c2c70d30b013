"""Site tests share ONE strict build (session fixture) and one parse of its HTML pages."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
GENERATED = DOCS / "generated"
SCRIPTS = ROOT / "scripts"
BIN = Path(sys.executable).parent
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

SKIP_TEXT = {"script", "style", "code", "pre", "math", "svg", "textarea"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


@dataclass
class Page:
    """What the tests need from one built HTML page."""

    path: Path
    rel: str  # e.g. "08-hand-computed/index.html"
    html: str
    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, str, str]] = field(default_factory=list)  # (tag, attr, url)
    text: str = ""  # visible prose: outside script/style/code/pre/math
    full_text: str = ""  # everything visible, code included (outside script/style)


class _Collector(HTMLParser):
    def __init__(self, page: Page):
        super().__init__(convert_charrefs=True)
        self.page, self.stack, self.chunks, self.all = page, [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.page.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.page.ids.add(a["name"])
        for attr in ("href", "src", "data"):
            if a.get(attr) is not None:
                kind = f"{tag}[rel={a.get('rel', '')}]" if tag == "link" else tag
                self.page.links.append((kind, attr, a[attr]))
        if a.get("srcset"):
            for part in a["srcset"].split(","):
                self.page.links.append((tag, "srcset", part.strip().split(" ")[0]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        open_tags = set(self.stack)
        if not SKIP_TEXT & open_tags:
            self.chunks.append(data)
        if not {"script", "style"} & open_tags:
            self.all.append(data)


def parse_page(path: Path, site: Path) -> Page:
    page = Page(path, path.relative_to(site).as_posix(), path.read_text(encoding="utf-8"))
    collector = _Collector(page)
    collector.feed(page.html)
    page.text = " ".join(collector.chunks)
    page.full_text = " ".join(collector.all)
    return page


@dataclass
class Build:
    site: Path
    returncode: int
    output: str
    seconds: float
    pages: dict[str, Page]


def tool_env() -> dict[str, str]:
    env = dict(os.environ)
    cache = ROOT / ".cache"
    for key, sub in {"MPLCONFIGDIR": "mpl", "IPYTHONDIR": "ipython", "KERAS_HOME": "keras",
                     "XDG_CONFIG_HOME": "xdg", "XDG_CACHE_HOME": "xdg-cache"}.items():
        env.setdefault(key, str(cache / sub))
    env.setdefault("KERAS_BACKEND", "torch")
    env["NO_MKDOCS_2_WARNING"] = "1"
    env.pop("STACK_EXECUTE_NOTEBOOK", None)  # the tests always execute the notebook
    return env


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Build:
    """`mkdocs build --strict` once per session, into a temp dir."""
    site = tmp_path_factory.mktemp("site")
    mkdocs = BIN / "mkdocs"
    cmd = [str(mkdocs)] if mkdocs.exists() else [sys.executable, "-m", "mkdocs"]
    start = time.perf_counter()
    proc = subprocess.run([*cmd, "build", "--strict", "--site-dir", str(site)], cwd=ROOT,
                          env=tool_env(), capture_output=True, text=True, timeout=600,
                          check=False)
    seconds = time.perf_counter() - start
    pages = {}
    if proc.returncode == 0:
        for path in sorted(site.rglob("*.html")):
            page = parse_page(path, site)
            pages[page.rel] = page
    return Build(site, proc.returncode, proc.stdout + proc.stderr, seconds, pages)


@pytest.fixture(scope="session")
def site(built_site) -> Build:
    """The build, or a failure explaining why there is none (tests that need HTML use this)."""
    if built_site.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built_site.output[-4000:]}")
    return built_site
