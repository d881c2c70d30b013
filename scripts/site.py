"""Shared by the delivery scripts: project-local tool state, a site build, a local server.

Nothing here writes to $HOME: every tool's state goes to .cache/ (as in the Makefile).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import yaml
from _toolenv import tool_env as tool_env_base

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
# Headless Chromium flags verified on this machine (see TOOLCHAIN.md): no network side traffic.
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
def tool_env(**extra: str) -> dict[str, str]:
    """os.environ plus the project's tool state dirs (caller's values win) and `extra`."""
    return tool_env_base(**extra)


def mkdocs_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "mkdocs"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mkdocs"]


def build_site(site_dir: Path, config: str = "mkdocs.yml", strict: bool = True) -> None:
    """`mkdocs build` into site_dir; raises with the build log on failure."""
    cmd = [*mkdocs_cmd(), "build", "--config-file", config, "--site-dir", str(site_dir)]
    if strict:
        cmd.append("--strict")
    proc = subprocess.run(cmd, cwd=ROOT, env=tool_env(), capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{(proc.stdout + proc.stderr)[-4000:]}")


def load_yaml(path: Path) -> dict:
    class Loader(yaml.SafeLoader):
        pass

    def env(loader, node):  # mkdocs' `!ENV [VAR, ..., default]` and `!ENV VAR`
        names = (loader.construct_sequence(node) if isinstance(node, yaml.SequenceNode)
                 else [loader.construct_scalar(node)])
        *variables, default = names if len(names) > 1 else [*names, None]
        return next((os.environ[v] for v in variables if v in os.environ), default)

    Loader.add_constructor("!ENV", env)
    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # !relative, ...
    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader) or {}


def site_url(config: str = "mkdocs.yml") -> str:
    """site_url from the config, ending in '/'."""
    url = load_yaml(ROOT / config).get("site_url") or "/"
    return url if url.endswith("/") else url + "/"


def site_path(config: str = "mkdocs.yml") -> str:
    """The path part of site_url ('/' or '/repo/'): the site is served under it."""
    return urlsplit(site_url(config)).path or "/"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files of a built site, under the URL path `prefix` (site_url's path)."""

    prefix = "/"

    def translate_path(self, path: str) -> str:
        clean = urlsplit(path).path
        if clean.startswith(self.prefix):
            clean = "/" + clean[len(self.prefix):]
        else:
            clean = "/__outside_site_url__"
        return super().translate_path(clean)

    def log_message(self, format, *args):  # quiet
        pass


@contextlib.contextmanager
def serve(site_dir: Path, prefix: str = "/",
          handler_class: type[SiteHandler] = SiteHandler) -> Iterator[str]:
    """Serve site_dir on 127.0.0.1 (free port) under `prefix`; yields the base URL."""
    handler = type("Handler", (handler_class,), {"prefix": prefix})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
