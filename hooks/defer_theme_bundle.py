"""MkDocs hook: Material's bundle.js is loaded with `defer`, so it never holds up the first paint.

Material's template puts its bundle at the end of <body> as a parser-blocking <script>, and a
slow phone may then paint nothing until the bundle, and the work it starts, have run. Deferred,
it still runs before DOMContentLoaded and before our deferred scripts (deferred scripts run in
document order), which is all that Material, runtime.js and a11y.js need; the inline scripts of
a page use only the helpers Material defines in <head>.

Every HTML file of the site is rewritten after the build, so the pages that print-site and the
404 template write outside MkDocs' page events are deferred too. A file without exactly one
tag of the bundle fails the strict build: Material changed its template, and this hook must
follow.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import mkdocs.plugins

log = logging.getLogger("mkdocs.hooks.defer_theme_bundle")

BUNDLE = re.compile(r'<script src="([^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js)">')


def defer_bundle(html: str) -> tuple[str, int]:
    """The page with its bundle tag deferred, and how many tags there were."""
    return BUNDLE.subn(r'<script defer src="\1">', html)


@mkdocs.plugins.event_priority(-100)  # after print-site has written its page
def on_post_build(config) -> None:
    site = Path(config.site_dir)
    for path in sorted(site.rglob("*.html")):
        deferred, found = defer_bundle(path.read_text(encoding="utf-8"))
        if found != 1:
            log.warning("%s: expected one tag of Material's bundle.js, found %d",
                        path.relative_to(site), found)
        path.write_text(deferred, encoding="utf-8")
