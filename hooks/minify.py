"""MkDocs hook: serve our JavaScript and CSS without comments and indentation.

The sources (docs/javascripts/, docs/stylesheets/, docs/assets/css/) are written to be read:
comments that say why, clear names, one declaration per line. A browser needs none of that, so
after the build each of those files in the site is minified (rjsmin, rcssmin: comments and
whitespace only, nothing renamed or reordered). A comment then costs a reader of the page
nothing; the browser tests' size budget measures these served files, gzip-compressed.
"""

from __future__ import annotations

from pathlib import Path

import rcssmin
import rjsmin

FOLDERS = ("javascripts", "stylesheets", "assets/css")  # ours; Material's come minified


def minify(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    small = rjsmin.jsmin(text) if path.suffix == ".js" else rcssmin.cssmin(text)
    path.write_text(small, encoding="utf-8")


def on_post_build(config):
    site = Path(config.site_dir)
    for folder in FOLDERS:
        for path in sorted((site / folder).glob("*")):
            if path.suffix in (".js", ".css"):
                minify(path)
