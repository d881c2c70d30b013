"""Markdown-only live reload: seconds from saving a page to `mkdocs serve` serving the change.

    python -m scripts.benchmarks.reload [--page 12-summary.md] [--edits 3] [--in-place]

Starts `mkdocs serve` the way `make preview` does (the docs-only venv .venv-docs if it exists,
else this interpreter's), waits for the first build, then appends
a marker paragraph to one page, polls the served HTML until the marker appears, and repeats.
By default it works on a copy of the site sources in a temporary directory, so nobody's page is
touched; --in-place edits docs/ itself (and restores the page). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from scripts.site import ROOT
from scripts.toolenv import tool_env

SOURCES = ["mkdocs.yml", "docs", "hooks", "overrides", "code_lab", "stacklib"]  # snippets read


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.read().decode("utf-8", "replace")
    except OSError:
        return None


def wait_for(url: str, needle: str, timeout: float, alive=None) -> float:
    """Seconds until the page at url contains needle (polling every 20 ms); RuntimeError if
    the server process ``alive`` exits first."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if alive is not None and alive.poll() is not None:
            raise RuntimeError(f"mkdocs serve exited with code {alive.returncode}")
        html = fetch(url)
        if html is not None and needle in html:
            return time.perf_counter() - start
        time.sleep(0.02)
    raise TimeoutError(f"{url} did not show {needle!r} within {timeout} s")


def mkdocs_exe() -> list[str]:
    docs_venv = ROOT / ".venv-docs" / "bin" / "mkdocs"
    if docs_venv.exists():
        return [str(docs_venv)]
    exe = Path(sys.executable).parent / "mkdocs"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mkdocs"]


def bench(workdir: Path, page: str, edits: int, env: dict[str, str],
          flags: list[str]) -> tuple[float, list[float]]:
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    url = base + ("" if page == "index.md" else Path(page).stem + "/")
    path = workdir / "docs" / page
    original = path.read_text(encoding="utf-8")
    log = tempfile.TemporaryFile()
    cmd = [*mkdocs_exe(), "serve", "--dev-addr", f"127.0.0.1:{port}", *flags]
    proc = subprocess.Popen(cmd, cwd=workdir, env=tool_env(**env), stdout=log,
                            stderr=subprocess.STDOUT)
    try:
        try:
            startup = wait_for(url, "</html>", timeout=300, alive=proc)
        except (TimeoutError, RuntimeError):
            log.seek(0)
            sys.stderr.write(log.read().decode("utf-8", "replace")[-3000:])
            raise
        times = []
        for i in range(edits):
            marker = f"reload-marker-{i}-{time.time_ns()}"
            time.sleep(1.0)  # let the watcher settle after the previous build
            path.write_text(original + f"\n\n{marker}\n", encoding="utf-8")
            times.append(wait_for(url, marker, timeout=120))
        return startup, times
    finally:
        path.write_text(original, encoding="utf-8")
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", default="12-summary.md", help="docs/ page to edit")
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--in-place", action="store_true", help="edit docs/ itself")
    ap.add_argument("--no-print", action="store_true",
                    help="STACK_PRINT_SITE=false: skip the print page (as `make preview` should)")
    ap.add_argument("--dirty", action="store_true", help="mkdocs serve --dirty")
    args = ap.parse_args(argv)
    env = {"STACK_PRINT_SITE": "false"} if args.no_print else {}
    flags = ["--dirty"] if args.dirty else []
    with tempfile.TemporaryDirectory(prefix="reload-bench-") as tmp:
        workdir = ROOT
        if not args.in_place:
            workdir = Path(tmp)
            for name in SOURCES:
                src = ROOT / name
                if src.is_dir():
                    shutil.copytree(src, workdir / name)
                elif src.exists():
                    (workdir / name).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, workdir / name)
        startup, times = bench(workdir, args.page, args.edits, env, flags)
    setting = " ".join([*(f"{k}={v}" for k, v in env.items()), *flags])
    print(f"{' '.join(mkdocs_exe())} serve  ({setting})")
    print(f"first build served after {startup:.1f} s")
    print("edit -> served HTML changed: " + ", ".join(f"{t:.2f} s" for t in times)
          + f"  (median {statistics.median(times):.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
