"""Main-thread cost of a page load, two builds side by side: is a page-speed change worth keeping?

    python -m scripts.benchmarks.mainthread A=DIR B=DIR [--page 07-equations/ ...]
        [--runs 9] [--slowdown 4]

Each named build is served as GitHub Pages serves it (gzip, under site_url's path) and loaded in
Chromium as Lighthouse's mobile profile sees a page (412 x 823 CSS px, 1.75 device pixels per
px, touch), and traced until every widget is live or failed and the page has been idle. From
the page's main thread it takes CPU time, not elapsed time: on a busy machine a task's elapsed
time is mostly other processes' turns, its CPU time is the page's own work. Per load: the CPU
time of all tasks, of style and layout, and of script; then, with every task slowed
`--slowdown` times (as Lighthouse's simulated throttling slows them), the longest task and the
blocking time of all tasks (their time over 50 ms: Lighthouse's TBT counts it between first
paint and "interactive", which moves with the network; this counts the whole load); and the
number of elements.

The builds take turns within each round, in an order that alternates from round to round, so
that what changes while the benchmark runs falls on both alike. It prints each build's median
per page and, for each build after the first, the median of its round-by-round differences from
the first. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
from contextlib import ExitStack
from pathlib import Path

from scripts.site import CHROMIUM, CHROMIUM_FLAGS, serve, site_path

# Lighthouse 12's mobile screen (constants.js, screenEmulationMetrics.mobile)
MOBILE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75,
          "is_mobile": True, "has_touch": True}
DEFAULT_PAGES = ["07-equations/", "08-hand-computed/"]
SETTLED = """() => document.readyState === "complete" && window.StackWidgets !== undefined &&
  [...document.querySelectorAll(".widget[data-widget]")].every(e =>
    e.dataset.widgetState === "live" || e.dataset.widgetState === "error")"""
QUIET = ("() => new Promise(done => requestIdleCallback(() => setTimeout(done, 500),"
         " {timeout: 5000}))")
# Lighthouse 12's trace categories (core/gather/gatherers/trace.js): what it records costs the
# page time too (tracking style invalidations, stacks, screenshots), so the same is recorded here.
CATEGORIES = ["disabled-by-default-lighthouse", "loading", "v8", "v8.execute", "blink.user_timing",
              "blink.console", "devtools.timeline", "disabled-by-default-devtools.timeline",
              "disabled-by-default-devtools.screenshot",
              "disabled-by-default-devtools.timeline.stack",
              "disabled-by-default-devtools.timeline.frame", "latencyInfo",
              "disabled-by-default-devtools.timeline.invalidationTracking"]
STYLE_LAYOUT = {"UpdateLayoutTree", "Layout", "ParseAuthorStyleSheet"}
SCRIPT = {"EvaluateScript", "v8.evaluateModule", "FunctionCall", "RunMicrotasks"}
METRICS = ("main thread", "style+layout", "script", "longest", "blocking", "nodes")


def outermost(events: list[dict], names: set[str]) -> float:
    """CPU ms of the events named `names`, each counted once (not again inside another)."""
    total, end = 0.0, -1.0
    for e in sorted((e for e in events if e["name"] in names), key=lambda e: e["ts"]):
        if e["ts"] >= end:
            total += e.get("tdur", 0)
            end = e["ts"] + e.get("dur", 0)
    return total / 1000


def main_thread_costs(trace: list[dict], url: str, slowdown: float) -> dict[str, float]:
    """The page's main thread in a trace, in CPU ms: all its tasks, style and layout, script;
    its longest task and the blocking time of its tasks (their time over 50 ms), each task
    slowed `slowdown` times as Lighthouse's simulation slows it."""
    parse = next(e for e in trace if e["name"] == "ParseHTML"
                 and e["args"].get("beginData", {}).get("url") == url)
    main = [e for e in trace if e["pid"] == parse["pid"] and e["tid"] == parse["tid"]
            and e.get("ph") == "X"]
    cpu = [e.get("tdur", 0) / 1000 for e in main if e["name"] == "RunTask"]
    return {"main thread": sum(cpu),
            "style+layout": outermost(main, STYLE_LAYOUT), "script": outermost(main, SCRIPT),
            "longest": slowdown * max(cpu),
            "blocking": sum(max(0.0, slowdown * c - 50) for c in cpu)}


def load(browser, url: str, slowdown: float) -> dict[str, float]:
    """One cold load of `url` in a fresh context, traced: the main thread's costs."""
    context = browser.new_context(**MOBILE)
    try:
        page = context.new_page()
        browser.start_tracing(page=page, categories=CATEGORIES)
        try:
            page.goto(url, wait_until="load", timeout=120_000)
            page.wait_for_function(SETTLED, timeout=120_000)
            page.evaluate(QUIET)
            nodes = page.evaluate("document.getElementsByTagName('*').length")
        finally:
            trace = json.loads(browser.stop_tracing())
        events = trace["traceEvents"] if isinstance(trace, dict) else trace
        return {**main_thread_costs(events, url, slowdown), "nodes": nodes}
    finally:
        context.close()


def rounds(browser, urls: dict[str, str], runs: int, slowdown: float) -> dict[str, list[dict]]:
    """`runs` loads of each build's url, the builds taking turns (order reversed every round)."""
    names = list(urls)
    for name in names:  # a first load warms the browser (code caches, fonts): not counted
        load(browser, urls[name], slowdown)
    seen: dict[str, list[dict]] = {name: [] for name in names}
    for k in range(runs):
        for name in names if k % 2 == 0 else names[::-1]:
            seen[name].append(load(browser, urls[name], slowdown))
    return seen


def report(page: str, seen: dict[str, list[dict]]) -> list[str]:
    """Per build, the median of each metric; after the first build, the median of the
    round-by-round differences from it."""
    names = list(seen)
    lines = [f"{page or 'home'}  (median of {len(seen[names[0]])} loads; "
             + ", ".join(f"{m}" for m in METRICS) + ")"]
    for name in names:
        med = {m: statistics.median(r[m] for r in seen[name]) for m in METRICS}
        lines.append(f"  {name:<12} " + "  ".join(f"{m} {med[m]:.0f}" for m in METRICS))
    base = seen[names[0]]
    for name in names[1:]:
        diff = {m: statistics.median(b[m] - a[m] for a, b in zip(base, seen[name], strict=True))
                for m in METRICS}
        lines.append(f"  {name} - {names[0]}: " + "  ".join(f"{m} {diff[m]:+.0f}"
                                                            for m in METRICS))
    return lines


def parse_build(text: str) -> tuple[str, Path]:
    name, sep, folder = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"a build is NAME=DIR, got {text!r}")
    if not (Path(folder) / "index.html").is_file():
        raise argparse.ArgumentTypeError(f"{folder!r} holds no built site (no index.html)")
    return name, Path(folder)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("builds", nargs="+", type=parse_build, metavar="NAME=DIR")
    ap.add_argument("--page", action="append", help="site-relative URL (repeatable; default: "
                    + ", ".join(DEFAULT_PAGES) + ")")
    ap.add_argument("--runs", type=int, default=9, help="loads of each page per build")
    ap.add_argument("--slowdown", type=float, default=4, help="task slowdown for blocking time")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, got {args.runs}")
    if args.slowdown < 1:
        ap.error(f"--slowdown must be at least 1, got {args.slowdown}")
    from playwright.sync_api import sync_playwright

    with ExitStack() as stack:
        origins = {name: stack.enter_context(serve(folder, gzip=True))
                   for name, folder in args.builds}
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        stack.callback(browser.close)
        for page in args.page or DEFAULT_PAGES:
            urls = {name: origin + site_path() + page for name, origin in origins.items()}
            seen = rounds(browser, urls, args.runs, args.slowdown)
            print("\n".join(report(page, seen)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
