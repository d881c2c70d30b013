"""The print page's links to a defined term or a references entry reach their target.

print-site keeps anchors unique on the print page by prefixing ids with their page's key
(`01-testbeds-attractor`), and rewrites every link that way, but it prefixes only the ids of
headings, list items and footnote marks. A <dfn id> (a term where it is defined) and a
references entry (<p class="reference" id>) keep their plain ids, so the rewritten links to
them would lead nowhere. This prefixes those ids within their page's section of the print page.
"""

from __future__ import annotations

import re
from pathlib import Path

import mkdocs.plugins

SECTION = re.compile(r'<section class="print-page" id="([^"]+)"')
TARGET = re.compile(r'(<(?:dfn|p class="reference")[\s][^>]*?\bid=")([^"]+)"')


def prefix_targets(html: str) -> str:
    """Every <dfn id> and references entry's id, prefixed with its section's page key."""
    before, *sections = SECTION.split(html)
    out = [before]
    for key, body in zip(sections[::2], sections[1::2], strict=True):
        body = TARGET.sub(lambda m, key=key: f'{m.group(1)}{key}-{m.group(2)}"', body)
        out += [f'<section class="print-page" id="{key}"', body]
    return "".join(out)


@mkdocs.plugins.event_priority(-100)  # after print-site has written the print page
def on_post_build(config) -> None:
    page = Path(config["site_dir"]) / "print_page" / "index.html"
    if page.is_file():  # no print page when STACK_PRINT_SITE=false
        page.write_text(prefix_targets(page.read_text(encoding="utf-8")), encoding="utf-8")
