"""Print the whole lecture to one PDF: build/lecture.pdf.

    python -m scripts.delivery.pdf [--site-dir DIR] [--out PDF] [--engine auto|playwright|cli]

Builds the site (strict) into a temporary directory unless --site-dir points at an existing
build, serves it on 127.0.0.1 under site_url's path, and prints the print-site plugin's
/print_page/ (cover, table of contents, every page in nav order, the answer-key appendix) with
headless Chromium: Playwright's page.pdf() when importable, else the chromium CLI.
Material's print CSS prints every content tab under its label; the widgets hide their UI and show
their static figures under @media print; math is MathML, so it stays selectable text.

The PDF is tagged (a structure tree of headings, lists, tables and figures with their alt text,
for screen readers), has an outline of every section and the document language, and is
deterministic (Playwright engine): links to other pages of the site point at site_url, not at
the temporary server, and scripts/delivery/pdf_finish.py renumbers the per-run DOM node ids of
the tags and writes the metadata (title, author, subject from mkdocs.yml; no print date).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from pathlib import Path

from scripts.delivery.pdf_finish import finish_pdf
from scripts.site import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    ROOT,
    build,
    load_config,
    serve,
    site_path,
    site_url,
)

DEFAULT_OUT = ROOT / "build" / "lecture.pdf"
WAIT_MS = 15000


REWRITE_LINKS = """siteUrl => {
    const base = new URL("..", location.href).href;  // the server's site root
    for (const a of document.querySelectorAll("a[href]")) {
        const url = new URL(a.getAttribute("href"), location.href);
        if (url.href.startsWith(base) && url.pathname !== location.pathname) {
            a.setAttribute("href", siteUrl + url.href.slice(base.length));
        }
    }
}"""


SETTLED = """() => window.StackWidgets && window.StackA11y && !window.StackA11y.pending &&
    [...document.querySelectorAll('.widget[data-widget]')].every(
        e => ['live', 'error'].includes(e.dataset.widgetState))"""


def _print_playwright(url: str, out: Path, public_url: str, browser=None) -> None:
    if browser is None:  # a browser of our own
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            own = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            try:
                _print_page(own, url, out, public_url)
            finally:
                own.close()
    else:
        _print_page(browser, url, out, public_url)


def _print_page(browser, url: str, out: Path, public_url: str) -> None:
    page = browser.new_page()
    try:
        page.goto(url, wait_until="networkidle", timeout=60_000)
        # Material's scripts and ours have run (tab labels, widgets, accessibility patches):
        # with a cold cache the network is idle before they have, and the print would differ.
        page.wait_for_function(SETTLED, timeout=60_000)
        page.emulate_media(media="print")
        # links to other pages of the site: to the published site_url, not this server
        page.evaluate(REWRITE_LINKS, public_url)
        # fonts (the math font) and every image decoded before printing
        page.evaluate("""async () => {
            await document.fonts.ready;
            await Promise.all([...document.images].map(img => img.decode().catch(() => {})));
        }""")
        page.pdf(path=str(out), format="A4", print_background=True,
                 prefer_css_page_size=True, outline=True, tagged=True)
    finally:
        page.close()


def _print_cli(url: str, out: Path, public_url: str) -> None:
    """Fallback: links to other site pages keep the local server's URL."""
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        subprocess.run(
            [CHROMIUM, "--headless", *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             "--run-all-compositor-stages-before-draw", f"--virtual-time-budget={WAIT_MS}",
             "--no-pdf-header-footer", "--generate-pdf-document-outline",
             f"--print-to-pdf={out}", url],
            check=True, capture_output=True, timeout=180)


def print_pdf(site_dir: Path, out: Path = DEFAULT_OUT, engine: str = "auto",
              browser=None) -> Path:
    """Serve site_dir and print its /print_page/ to `out` (deterministic bytes)."""
    if engine == "auto":
        try:
            import playwright  # noqa: F401
            engine = "playwright"
        except ImportError:
            engine = "cli"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.pdf")
    with serve(site_dir) as origin:
        url = origin + site_path() + "print_page/"
        if engine == "playwright":
            _print_playwright(url, tmp, site_url(), browser)
        else:
            _print_cli(url, tmp, site_url())
    config = load_config()
    out.write_bytes(finish_pdf(tmp.read_bytes(), title=config["site_name"],
                               author=config["site_author"], subject=config["site_description"]))
    tmp.unlink()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site-dir", type=Path, help="an existing build (default: build one now)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--engine", choices=["auto", "playwright", "cli"], default="auto")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lecture-site-") as tmp:
        site_dir = args.site_dir
        if site_dir is None:
            site_dir = Path(tmp) / "site"
            build(site_dir)
        if not (site_dir / "print_page" / "index.html").is_file():
            ap.error(f"{site_dir} has no print_page/index.html (print-site plugin missing?)")
        out = print_pdf(site_dir, args.out.resolve(), args.engine)
    size = out.stat().st_size
    print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
          f"{size / 1e6:.2f} MB in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
