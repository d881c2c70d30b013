"""Every internal link and anchor resolves; no page loads anything from another site."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from scripts.site import site_url

SITE_URL = site_url()  # mkdocs.yml (SITE_URL in the environment overrides it)
RESOURCE_TAGS = {"script", "img", "source", "iframe", "embed", "object", "video", "audio",
                 "use", "image", "input"}


def _is_resource(tag: str, attr: str, url: str) -> bool:
    if tag.startswith("link"):
        return any(r in tag for r in ("stylesheet", "icon", "preload", "modulepreload",
                                       "manifest", "prefetch"))
    return tag in RESOURCE_TAGS and attr in ("src", "srcset", "data", "href")


def _target(site, page, url: str):
    """(file path, fragment) of an internal URL, or None for external / special URLs."""
    parts = urlsplit(url)
    if parts.scheme in ("mailto", "data", "javascript", "tel"):
        return None
    if parts.scheme or parts.netloc:
        if not url.startswith(SITE_URL):
            return None
        path = "/" + url[len(SITE_URL):]
    else:
        path = parts.path
    if path.startswith("/"):
        resolved = PurePosixPath(path.lstrip("/"))
    elif path:
        resolved = PurePosixPath(page.rel).parent / path
    else:
        resolved = PurePosixPath(page.rel)
    norm = []
    for part in resolved.parts:
        if part == "..":
            if norm:
                norm.pop()
        elif part not in (".", ""):
            norm.append(part)
    target = site.site.joinpath(*norm) if norm else site.site
    if target.is_dir() or url.endswith("/") or not norm:
        target = target / "index.html"
    return target, unquote(parts.fragment)


def test_internal_links_and_anchors_resolve(site):
    broken = []
    for page in site.pages.values():
        for tag, attr, url in page.links:
            if tag.startswith("link[rel=canonical") or not url:
                continue
            found = _target(site, page, url)
            if found is None:
                continue
            target, fragment = found
            if not target.exists():
                broken.append(f"{page.rel}: {tag}[{attr}]={url} -> missing {target}")
                continue
            if fragment and target.suffix == ".html":
                rel = target.relative_to(site.site).as_posix()
                ids = site.pages[rel].ids if rel in site.pages else set()
                if fragment not in ids:
                    broken.append(f"{page.rel}: {url} -> no anchor #{fragment} in {rel}")
    assert not broken, "\n".join(broken[:40])


def test_no_offsite_scripts_styles_fonts_or_images(site):
    offsite = []
    for page in site.pages.values():
        for tag, attr, url in page.links:
            parts = urlsplit(url)
            external = bool(parts.netloc) or url.startswith("//")
            if external and not url.startswith(SITE_URL) and _is_resource(tag, attr, url):
                offsite.append(f"{page.rel}: <{tag} {attr}={url}>")
        if "fonts.googleapis" in page.html or "fonts.gstatic" in page.html:
            offsite.append(f"{page.rel}: Google Fonts")
    assert not offsite, "\n".join(offsite[:40])


def test_no_offsite_urls_in_css(site):
    """Stylesheets we ship do not pull fonts or images from elsewhere either."""
    import re

    bad = []
    for path in site.site.rglob("*.css"):
        text = path.read_text(encoding="utf-8")
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", text):
            if url.startswith(("http:", "https:", "//")):
                bad.append(f"{path.relative_to(site.site)}: {url}")
        if re.search(r"@import\s+(url\()?['\"]?(https?:)?//", text):
            bad.append(f"{path.relative_to(site.site)}: @import from another site")
    assert not bad, bad


def test_material_does_not_query_github(site):
    """The repo link, when there is one, is plain: no data-md-component="source" (it would call
    api.github.com). tests/delivery/test_repo_links.py builds the site with a repository."""
    for page in site.pages.values():
        assert 'data-md-component="source"' not in page.html, page.rel
