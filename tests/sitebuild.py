"""The one strict build of the site a test session shares, and its HTML parsed for the tests.

tests/conftest.py offers it as the `built_site` fixture (and `site`, which fails the test when the
build failed) to every suite: site checks, browser, delivery (PDF, offline copy, versions).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GENERATED = DOCS / "generated"
# The site and PDF the tests check are kept here: CI uploads them rather than building again.
ARTIFACTS = ROOT / "build"

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
    text: str = ""  # visible prose: outside script/style/code/pre/math and code cells' copies
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
            # mkdocs-jupyter's hidden copy of a code cell (for its copy button) is code too
            code_copy = "clipboard-copy-txt" in (a.get("class") or "").split()
            self.stack.append((tag, code_copy))

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _ in self.stack):
            while self.stack and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        open_tags = {open_tag for open_tag, _ in self.stack}
        if not (SKIP_TEXT & open_tags or any(code for _, code in self.stack)):
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
    pages: dict[str, Page]


def parse_site(site: Path) -> dict[str, Page]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        page = parse_page(path, site)
        pages[page.rel] = page
    return pages


def build(site: Path) -> Build:
    """`mkdocs build --strict` into ``site``; the log is kept, a failure is not raised."""
    from scripts.site import build as mkdocs_build

    proc = mkdocs_build(site, check=False)
    pages = parse_site(site) if proc.returncode == 0 else {}
    return Build(site, proc.returncode, proc.stdout + proc.stderr, pages)


def build_once(site: Path) -> Build:
    """`build`, once per test run even when pytest-xdist runs the tests in several processes:
    the first to take the lock builds and records how it went; the others read the record."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # set in xdist's workers only
    if run is None:
        return build(site)
    site.parent.mkdir(parents=True, exist_ok=True)
    record = site.with_name(f"{site.name}.build.json")
    with open(site.with_name(f"{site.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if record.is_file() and (done := json.loads(record.read_text()))["run"] == run:
            pages = parse_site(site) if done["returncode"] == 0 else {}
            return Build(site, done["returncode"], done["output"], pages)
        result = build(site)
        record.write_text(json.dumps({"run": run, "returncode": result.returncode,
                                      "output": result.output}))
        return result


def git_dir(tmp: Path, origin: str | None) -> str:
    """A scratch git repository (its .git path, for GIT_DIR), with remote `origin` when given:
    what hooks/repo.py reads in a build."""
    tmp.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(tmp)], check=True)
    if origin:
        subprocess.run(["git", "-C", str(tmp), "remote", "add", "origin", origin], check=True)
    return str(tmp / ".git")
