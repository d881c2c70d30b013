"""The site helper: mkdocs.yml, its nav, site paths, building the site, serving a build.

Shared by the delivery scripts, the benchmarks and the tests, so all of them read the config
the way MkDocs does and serve the site the way it is published (under site_url's path).
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

from scripts.toolenv import ROOT, tool_env

CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
# Headless Chromium without network side traffic (no updates, sync or QUIC probes).
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def load_config(name: str = "mkdocs.yml") -> dict:
    """A MkDocs config file as MkDocs reads it (``INHERIT`` merged, ``!ENV`` resolved), not
    validated: no plugin or hook is loaded."""
    from mkdocs.utils.yaml import yaml_load

    with (ROOT / name).open(encoding="utf-8") as f:
        return yaml_load(f) or {}


def nav(config: dict | None = None) -> list[tuple[str | None, str]]:
    """(title given in the nav or None, docs/ path) of every nav page, in order."""
    found: list[tuple[str | None, str]] = []

    def walk(item, title=None):
        if isinstance(item, str):
            found.append((title, item))
        elif isinstance(item, dict):
            for key, value in item.items():
                walk(value, key)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk((config or load_config())["nav"])
    return found


def page_url(src: str) -> str:
    """Site-relative URL of the page built from docs/`src`: "" (home), "08-hand-computed/"."""
    stem = src.rsplit(".", 1)[0]
    return "" if stem == "index" else f"{stem}/"


def nav_urls() -> list[str]:
    """Site-relative URL of every nav page, in order ("" is home)."""
    return [page_url(src) for _, src in nav()]


def site_url(config: str = "mkdocs.yml") -> str:
    """site_url from the config (SITE_URL in the environment wins), ending in '/'."""
    url = load_config(config).get("site_url") or "/"
    return url if url.endswith("/") else url + "/"


def site_path(config: str = "mkdocs.yml") -> str:
    """The path part of site_url ('/' or '/repo/'): the published site lives under it."""
    return urlsplit(site_url(config)).path or "/"


def mkdocs_cmd() -> list[str]:
    """This environment's mkdocs."""
    exe = Path(sys.executable).parent / "mkdocs"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mkdocs"]


def build(site_dir: Path, config: str = "mkdocs.yml", check: bool = True,
          **env: str) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` into `site_dir` (extra environment `env`); with `check`, a failed
    build raises RuntimeError with the end of its log."""
    cmd = [*mkdocs_cmd(), "build", "--strict", "--config-file", config,
           "--site-dir", str(site_dir)]
    proc = subprocess.run(cmd, cwd=ROOT, env=tool_env(**env), capture_output=True, text=True,
                          timeout=600, check=False)
    if check and proc.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{(proc.stdout + proc.stderr)[-4000:]}")
    return proc


TEXT_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")


def compressed(data: bytes) -> bytes:
    """What a static host such as GitHub Pages sends for a text file: gzip, level 6."""
    return gzip.compress(data, compresslevel=6, mtime=0)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of a built site under each URL path of `prefixes`; text gzip-compressed
    when `gzip` is set and the client accepts it (as GitHub Pages serves it)."""

    prefixes: tuple[str, ...] = ("/",)
    gzip = False

    def translate_path(self, path: str) -> str:
        clean = urlsplit(path).path
        prefix = next((p for p in self.prefixes if clean.startswith(p)), None)
        clean = "/" + clean[len(prefix):] if prefix else "/__outside_the_site__"
        return super().translate_path(clean)

    def do_GET(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        ctype = self.guess_type(path)
        if (not self.gzip or "gzip" not in self.headers.get("Accept-Encoding", "")
                or not os.path.isfile(path) or not ctype.startswith(TEXT_TYPES)):
            return super().do_GET()
        data = compressed(Path(path).read_bytes())
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "max-age=600")
        self.end_headers()
        self.wfile.write(data)
        return None

    def log_message(self, format, *args):  # quiet: tests and benchmarks print their own
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A browser that drops a connection (a closed tab, a cancelled prefetch) is no error."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(site_dir: Path, prefixes: tuple[str, ...] | None = None,
          gzip: bool = False) -> Iterator[str]:
    """Serve `site_dir` on 127.0.0.1 (a free port) under each of `prefixes` (default: the
    site_url path); yields the origin, e.g. "http://127.0.0.1:41234"."""
    longest_first = sorted(prefixes or (site_path(),), key=len, reverse=True)  # "/sub/" before "/"
    attrs = {"prefixes": tuple(longest_first), "gzip": gzip}
    handler = functools.partial(type("Handler", (SiteHandler,), attrs), directory=str(site_dir))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
