"""MkDocs hook: Material's palette stylesheet without its rule for the moment of a colour switch.

On every page load Material's script marks <body> as switching colours, reads a computed style,
and unmarks it a moment later; its palette stylesheet has a rule for everything inside a marked
body (`[data-md-color-switching] *`, no transitions). That rule makes each mark and unmark
restyle every element of the page, twice per load on the main thread, while a phone is busiest.
Without it a colour switch by the reader lets the theme's short colour transitions (a link's
hover colour) play; nothing else changes.

The rule is taken out of the built site's palette stylesheet after the build. A build whose
palette stylesheet does not hold the rule exactly once fails `mkdocs build --strict`: Material
changed it, and this hook must follow.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import mkdocs.plugins

log = logging.getLogger("mkdocs.hooks.palette_switch_css")

SWITCHING_RULE = re.compile(r"\[data-md-color-switching\][^{}]*\{[^{}]*\}")


def without_switching_rule(css: str) -> tuple[str, int]:
    """The stylesheet without its switching rule, and how many such rules there were."""
    return SWITCHING_RULE.subn("", css)


@mkdocs.plugins.event_priority(-100)
def on_post_build(config) -> None:
    sheets = sorted((Path(config.site_dir) / "assets" / "stylesheets").glob("palette.*.css"))
    if len(sheets) != 1:
        log.warning("expected one palette stylesheet of Material's, found %d", len(sheets))
    for sheet in sheets:
        css, found = without_switching_rule(sheet.read_text(encoding="utf-8"))
        if found != 1:
            log.warning("%s: expected one [data-md-color-switching] rule, found %d",
                        sheet.name, found)
        sheet.write_text(css, encoding="utf-8")
