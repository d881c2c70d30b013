"""The host's speed as Lighthouse measures it (benchmarkIndex), and the CPU slowdown that turns
this host into the mid-tier phone of Lighthouse's throttling documentation.

Lighthouse's simulated throttling multiplies the time each main-thread task took on the host by
`cpuSlowdownMultiplier` (4 by default), so the same page scores better on a faster host. Its
documentation (docs/throttling.md, "Calibrating the CPU slowdown") describes the target: a
mid-tier phone (a Moto G4, benchmarkIndex 125-800); the default 4x "moves a typical run in the
high-end desktop bracket [1500-2000] somewhere into the mid-tier mobile bracket", and a host
should pick its multiplier from its own benchmarkIndex with the CPU slowdown calculator the page
links (lighthouse-cpu-throttling-calculator), whose table reads: 800 -> 2x, 1300 -> 3x,
1533 -> 4x, 1766 -> 5x, 2000 -> 6x.

We take the calculator's own anchor for the default, a host of index 1533 at 4x, and keep the
phone it emulates fixed: a phone of index 1533 / 4 (about 383, inside the documented mid-tier
bracket), reached from any host by multiplier = benchmarkIndex / 383. Proportional, because
benchmarkIndex is itself a rate (iterations per second): a host twice as fast measures twice
the index and takes twice the multiplier over tasks half as long, so it emulates the same phone
and reaches the same verdict. The calculator's table lies within 15 % of this line from 800 to
2000. A host slower than that phone runs at 1x and is then stricter than the phone.

The index is measured with Lighthouse's own benchmark (computeBenchmarkIndex in
node_modules/lighthouse, about a second of string building and array copying) in the Chromium
Lighthouse drives. One measurement on a busy machine is noise, so the bench takes the median of
many (each Lighthouse run also measures one).
"""

from __future__ import annotations

import json
import statistics
import subprocess

from scripts.site import CHROMIUM, CHROMIUM_FLAGS, ROOT

CALCULATOR_DEFAULT_HOST = 1533  # the calculator's host for Lighthouse's default slowdown
DEFAULT_MULTIPLIER = 4  # Lighthouse's mobile cpuSlowdownMultiplier
PHONE_INDEX = CALCULATOR_DEFAULT_HOST / DEFAULT_MULTIPLIER
PAGE_FUNCTIONS = ROOT / "node_modules" / "lighthouse" / "core" / "lib" / "page-functions.js"


def multiplier(benchmark_index: float) -> float:
    """The cpuSlowdownMultiplier that slows a host of this benchmarkIndex to the phone of index
    PHONE_INDEX (at least 1: a slower host cannot be sped up)."""
    if not benchmark_index > 0:
        raise ValueError(f"benchmark_index must be positive, got {benchmark_index!r}")
    return max(1.0, benchmark_index / PHONE_INDEX)


def summary(indexes: list[float]) -> dict[str, float]:
    """Median, range and quartiles of benchmarkIndex measurements."""
    if not indexes:
        raise ValueError("indexes must hold at least one measurement")
    q1, _, q3 = statistics.quantiles(indexes, n=4) if len(indexes) > 1 else indexes * 3
    return {"median": statistics.median(indexes), "min": min(indexes), "max": max(indexes),
            "q1": q1, "q3": q3, "n": len(indexes)}


def benchmark_source() -> str:
    """Lighthouse's benchmark function, as the installed Lighthouse defines it."""
    script = ("import(process.argv[1]).then(m => "
              "console.log(m.pageFunctions.computeBenchmarkIndex.toString()))")
    run = subprocess.run(["node", "--input-type=module", "-e", script, PAGE_FUNCTIONS.as_uri()],
                         capture_output=True, text=True, check=True, timeout=60)
    return run.stdout


def measure(samples: int) -> list[float]:
    """`samples` benchmarkIndex measurements in a fresh headless Chromium, one after another."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    from playwright.sync_api import sync_playwright

    call = f"({benchmark_source()})()"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page()
            return [float(page.evaluate(call)) for _ in range(samples)]
        finally:
            browser.close()


if __name__ == "__main__":  # python -m scripts.benchmarks.calibration: measure and print
    found = measure(9)
    s = summary(found)
    print(json.dumps({"benchmarkIndex": [round(x) for x in found], **{
        k: round(v, 1) for k, v in s.items()}, "multiplier": round(multiplier(s["median"]), 2)}))
