"""The strict build: passes, warns about nothing, renders every page of the nav."""

from __future__ import annotations

import re

from scripts.site import nav, page_url


def nav_pages() -> list[str]:
    """docs/ paths listed in mkdocs.yml's nav, in order."""
    return [src for _, src in nav()]


def built_path(src: str) -> str:
    return page_url(src) + "index.html"


def test_strict_build_passes(built_site):
    assert built_site.returncode == 0, built_site.output[-4000:]


def test_build_has_no_warnings(site):
    noisy = [line for line in site.output.splitlines() if re.search(r"\b(WARNING|ERROR)\b", line)]
    assert not noisy, "\n".join(noisy)


def test_every_nav_page_is_built(site):
    pages = nav_pages()
    assert pages[0] == "index.md" and "code_lab.ipynb" in pages
    missing = [src for src in pages if built_path(src) not in site.pages]
    assert not missing, missing


def test_nav_order_follows_the_lecture(site):
    numbered = [p for p in nav_pages() if p[:2].isdigit()]
    assert numbered == sorted(numbered)
    # every section number once, in order; a section may run over two pages (10, 10b)
    assert sorted({p[:2] for p in numbered}) == [f"{n:02d}" for n in range(1, 14)]
    assert all(p[2] == "-" or p[2:4] == "b-" for p in numbered), numbered


def test_print_page_and_notebook_download(site):
    assert "print_page/index.html" in site.pages
    assert (site.site / "code_lab" / "code_lab.ipynb").is_file()
    # generated partials are included by snippets, never built as pages of their own
    assert not any(rel.startswith("generated/partials/") for rel in site.pages)
