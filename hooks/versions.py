"""MkDocs hook: Material's version selector only in builds made by mike.

mkdocs.yml sets `extra.version.provider: mike`, so every page fetches `../versions.json`. Only a
`mike deploy` tree has that file; a plain `mkdocs build`/`serve`, the PDF, the offline copy and
the tests would log a 404 on every page. mike builds with MIKE_DOCS_VERSION set: keep the
selector then, drop it otherwise.
"""

from __future__ import annotations

import os


def on_config(config):
    if not os.environ.get("MIKE_DOCS_VERSION"):
        config.extra.pop("version", None)
    return config
