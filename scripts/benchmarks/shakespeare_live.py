"""The live Shakespeare models' speed in the browser: characters written per second.

    python -m scripts.benchmarks.shakespeare_live [--site-dir DIR] [--runs 3] [--chars 400]

Builds the site (strict) unless --site-dir is given, serves it gzip-compressed, opens the
widget's page in Debian's Chromium and, without throttling and with the CPU throttled 4x (CDP
Emulation.setCPUThrottlingRate, as Lighthouse's mobile profile), measures per run:

  widget   the reader presses Write on with "Write at once" ticked: characters each model
           writes per second, both models, drawing, inspecting and yielding to the browser
           between characters included
  paced    the same without "Write at once": the pace a reader watches (about the widget's
           limits.pace, whatever the machine, as long as the models keep up)
  deep     the deep model alone: steps with sampling per second (no drawing, no yielding)
  wide     the wide layer alone, likewise
  both     one step of each per character, as the widget runs them

and prints the median and range of the runs. It also prints what the page's first load
transfers (gzip), with and without the widget's files, whether the weights came with it, and
the weights' sizes. The machine's other work shows in these numbers: say how loaded it was. A
benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from scripts.site import CHROMIUM, CHROMIUM_FLAGS, build, serve, site_path

PAGE = "06b-shakespeare-layers/"
WIDGET = '.widget[data-widget="shakespeare-live"]'
READY = ("() => document.querySelector('[data-widget=shakespeare-live]').dataset.state"
         " === 'ready'")
WIDGET_FILES = ("shakespeare-live.js", "shakespeare-model.js", "shakespeare-view.js",
                "shakespeare-inspect.js", "controls.js", "shakespeare_live.json")
WEIGHTS = ("generated/data/shakespeare_live_deep.js", "generated/data/shakespeare_live_wide.js")

WRITE = """async ([chars, atOnce]) => {
  const w = document.querySelector('[data-widget=shakespeare-live]');
  const writes = Number(w.dataset.writes || 0);
  const until = (done) => new Promise((resolve) => {
    const check = () => (done() ? resolve() : setTimeout(check, 5));
    check();
  });
  w.querySelector('.w-sl-pane').scrollIntoView();
  w.querySelector('select[aria-label="Characters to write"]').value = String(chars);
  const quick = [...w.querySelectorAll('label.w-check')].find((l) =>
    l.textContent.includes('at once')).querySelector('input');
  quick.checked = atOnce;
  const button = [...w.querySelectorAll('button')].find((b) => b.textContent === 'Write on');
  button.click();                                // reads the box once, then writes
  await until(() => w.dataset.state === 'writing');
  const start = performance.now();
  await until(() => Number(w.dataset.writes) === writes + 1);
  return Number(w.dataset.written) / ((performance.now() - start) / 1000);
}"""

MODEL = """async ([chars, weights]) => {
  const { charModel } = StackWidgets;
  const models = await Promise.all(weights.map(([rel, role]) => charModel.loadModel(rel, role)));
  const rng = charModel.random(1);
  const now = models.map((m) => m.step(m.zeroState(), m.vocab.indexOf('\\n')));
  const start = performance.now();
  for (let k = 0; k < chars; k++) {
    const u = rng();
    models.forEach((m, i) => {
      const id = charModel.draw(charModel.softmax(now[i].logits, 0.7), u);
      now[i] = m.step(now[i].state, id);
    });
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
        weights = [n for url, n in sizes.items() if url.endswith(WEIGHTS)]
        print(f"first load of {PAGE}: {total / 1024:.1f} KiB transferred, of which the "
              f"widget's scripts, data and controls {widget / 1024:.1f} KiB"
              + (f"; the weights, {sum(weights) / 1024:.0f} KiB, came too, before the reader "
                 "acted" if weights else "; no weights"))
        page.locator(WIDGET).locator("textarea").click()  # the reader's action starts it
        page.wait_for_function(READY, timeout=120_000)
        for rel in WEIGHTS:
            print(f"{rel}: {(site / rel).stat().st_size / 1024:.0f} KiB as served uncompressed")
        cdp = page.context.new_cdp_session(page)
        runs_of = (("widget", WRITE, [chars, True]), ("paced", WRITE, [min(chars, 100), False]),
                   ("deep", MODEL, [chars, [[WEIGHTS[0], "deep"]]]),
                   ("wide", MODEL, [chars, [[WEIGHTS[1], "wide"]]]),
                   ("both", MODEL, [chars, [[WEIGHTS[0], "deep"], [WEIGHTS[1], "wide"]]]))
        for rate in (1, 4):
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            for what, script, arg in runs_of:
                speeds = [page.evaluate(script, arg) for _ in range(runs)]
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
