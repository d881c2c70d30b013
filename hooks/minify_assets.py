"""MkDocs hook: serve our JavaScript and CSS minified.

The sources (docs/javascripts/, docs/stylesheets/, docs/assets/css/) are written to be read:
comments that say why, clear names, one declaration per line. A browser needs none of that, so
after the build each of those files in the site goes through tdewolff's minifier (the one Hugo
uses): comments and whitespace go, and names local to a function are shortened (what a script
shares through `window`, such as StackWidgets and its members, keeps its name). A comment or a
descriptive name then costs a reader of the page nothing. The Lighthouse bench's widget-code
figure (scripts/benchmarks/lighthouse.py) measures these served files, gzip-compressed.
"""

from __future__ import annotations

from pathlib import Path

import minify as tdewolff

FOLDERS = ("javascripts", "stylesheets", "assets/css")  # ours; Material's come minified
MEDIA_TYPES = {".js": "application/javascript", ".css": "text/css"}


def minified(path: Path) -> str:
    return tdewolff.string(MEDIA_TYPES[path.suffix], path.read_text(encoding="utf-8"))


def on_post_build(config):
    site = Path(config.site_dir)
    for folder in FOLDERS:
        for path in sorted((site / folder).glob("*")):
            if path.suffix in MEDIA_TYPES:
                path.write_text(minified(path), encoding="utf-8")
