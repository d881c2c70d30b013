"""The live Shakespeare stack's speed in the browser: characters written per second.

    python -m scripts.benchmarks.shakespeare_live [--site-dir DIR] [--runs 3] [--chars 400]

Builds the site (strict) unless --site-dir is given, serves it gzip-compressed, opens the
widget's page in Debian's Chromium and, without throttling and with the CPU throttled 4x (CDP
Emulation.setCPUThrottlingRate, as Lighthouse's mobile profile), measures per run:

  widget   the reader presses Continue: characters the widget writes per second, drawing,
           inspecting and yielding to the browser between characters included
  model    the model alone: steps with sampling per second (no drawing, no yielding)

and prints the median and range of the runs. It also prints what the page's first load
transfers (gzip), with and without the widget's files, and the weights' size. The machine's
other work shows in these numbers: say how loaded it was. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from scripts.site import CHROMIUM, CHROMIUM_FLAGS, build, serve, site_path

PAGE = "06b-shakespeare-layers/"
WIDGET = '.widget[data-widget="shakespeare-live"]'
READY = ("() => document.querySelector('[data-widget=shakespeare-live]').dataset.model"
         " === 'ready'")
WIDGET_FILES = ("shakespeare-live.js", "shakespeare-model.js", "controls.js",
                "shakespeare_live.json")

WRITE = """async (chars) => {
  const w = document.querySelector('[data-widget=shakespeare-live]');
  const status = w.querySelector('.w-status');
  const button = (name) => [...w.querySelectorAll('button')].find((b) => b.textContent === name);
  const until = (prefix) => new Promise((done) => {
    const check = () => (status.textContent.startsWith(prefix) ? done() : setTimeout(check, 5));
    check();
  });
  w.querySelector('.w-sl-view').scrollIntoView();
  button('Read my text').click();               // the passage again: room for `chars` more
  await until('Read ');
  w.querySelector('select[aria-label="Characters to write"]').value = String(chars);
  const start = performance.now();
  button('Continue').click();
  await until('The stack wrote');
  return Number(w.dataset.written) / ((performance.now() - start) / 1000);
}"""

MODEL = """async (chars) => {
  const { charModel } = StackWidgets;
  const m = await charModel.loadModel('generated/data/shakespeare_live_weights.js');
  const rng = charModel.random(1);
  let state = m.zeroState();
  let out = m.step(state, m.vocab.indexOf('\\n'));
  const start = performance.now();
  for (let k = 0; k < chars; k++) {
    const id = charModel.draw(charModel.softmax(out.logits, 0.7), rng());
    out = m.step(out.state, id);
  }
  return chars / ((performance.now() - start) / 1000);
}"""


def first_load(page, url: str) -> dict[str, int]:
    """Bytes transferred (as served, gzip) per file by a load of `url` at the top of the page."""
    sizes: dict[str, int] = {}

    def done(request):
        sizes[request.url] = request.sizes()["responseBodySize"]

    page.on("requestfinished", done)
    page.goto(url, wait_until="networkidle")
    page.wait_for_timeout(500)
    page.remove_listener("requestfinished", done)
    return sizes


def measure(site: Path, runs: int, chars: int) -> None:
    from playwright.sync_api import sync_playwright

    with serve(site, gzip=True) as origin, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        sizes = first_load(page, origin + site_path() + PAGE)
        total = sum(sizes.values())
        widget = sum(n for url, n in sizes.items() if url.endswith(WIDGET_FILES))
        weights = [n for url, n in sizes.items() if "weights" in url]
        print(f"first load of {PAGE}: {total / 1024:.1f} KiB transferred, of which the "
              f"widget's script, data and controls {widget / 1024:.1f} KiB"
              + ("; the weights were loaded too!" if weights else "; no weights"))
        page.locator(WIDGET).scroll_into_view_if_needed()
        page.wait_for_function(READY, timeout=60_000)
        weights = (site / "generated/data/shakespeare_live_weights.js").stat().st_size
        print(f"weights: {weights / 1024:.0f} KiB as served uncompressed")
        cdp = page.context.new_cdp_session(page)
        for rate in (1, 4):
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            for what, script in (("widget", WRITE), ("model", MODEL)):
                speeds = [page.evaluate(script, chars) for _ in range(runs)]
                print(f"CPU throttled {rate}x, {what:<6}: {statistics.median(speeds):7.0f} "
                      f"characters/s (runs {min(speeds):.0f}-{max(speeds):.0f})", flush=True)
        browser.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site-dir", type=Path, help="an existing build (default: build one now)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--chars", type=int, default=400, choices=(100, 200, 400),
                    help="characters per run (one of the widget's lengths)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        site = args.site_dir or Path(tmp) / "site"
        if args.site_dir is None:
            build(site, STACK_PRINT_SITE="false")
        measure(site, args.runs, args.chars)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
