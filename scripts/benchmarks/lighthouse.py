"""Page speed: Lighthouse on every page of the lecture, calibrated to one phone whatever the host.

    npm ci                                   # once: lighthouse@12.2.3 from package-lock.json
    python -m scripts.benchmarks.lighthouse [--site-dir DIR] [--page 10-verdict/ ...]
        [--forms mobile,desktop] [--runs 3] [--samples 9] [--json out.json] [--reports DIR]

Builds the site (strict) unless --site-dir is given, serves it on 127.0.0.1 under site_url's
path with gzip (as GitHub Pages does), and runs node_modules/.bin/lighthouse with
CHROME_PATH=/usr/bin/chromium, offline, on every nav page (or the --page ones), each form
--runs times.

Lighthouse's mobile score depends on the host: its simulated throttling multiplies the time each
task took here by 4, so a fast host hides what a phone feels and a busy one exaggerates it. So
each run is gathered once (Lighthouse's -G: the page load, unthrottled, and the benchmarkIndex
Lighthouse measures before it) and scored twice from the same load (-A): raw, at Lighthouse's
default 4x, and calibrated, at the multiplier that slows this host to the documentation's
mid-tier phone (calibration.py says how and cites the rule). The host's benchmarkIndex is the
median of --samples measurements before the first page and of every run's own; one multiplier
serves the whole session.

Per page and form it prints the median of the runs (range in brackets) and the verdict against
the targets, on the calibrated mobile scores: performance >= 90, total blocking time <= 200 ms,
CLS <= 0.01, accessibility 100 (also best practices 100, SEO >= 95, at most 700 KiB); desktop
(raw, 1x): performance 100. Then where the main thread's time went in the median calibrated
run, and the audits costing points. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from scripts.benchmarks import calibration
from scripts.site import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    ROOT,
    build,
    compressed,
    nav_urls,
    serve,
    site_path,
)

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
TARGETS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 95}
DESKTOP_PERFORMANCE = 100
MAX_TBT_MS, MAX_CLS = 200, 0.01
MAX_WEIGHT_KIB = 700
WIDGET_CODE_KIB = 25.5
LIVE_MODEL = "shakespeare-"  # the live model's scripts: shakespeare-{live,model,view}.js
# mainthread-work-breakdown groups worth naming (milliseconds of the throttled main thread)
GROUPS = {"scriptEvaluation": "script", "styleLayout": "style+layout"}


def widget_code_bytes(site: Path, live_model: bool = False) -> int:
    """What the widgets cost a reader, as served (minified, gzip): the runtime, every widget's
    script and the scripts they share, and the widget stylesheets (a11y.js and a11y.css patch
    the theme, not widget code). Target: WIDGET_CODE_KIB. The live Shakespeare model's scripts
    load only on its page and are counted apart (``live_model=True``), as that page's weight is."""
    scripts = [f for f in (site / "javascripts").glob("*.js") if f.stem != "a11y"]
    if live_model:
        files = [f for f in scripts if f.stem.startswith(LIVE_MODEL)]
    else:
        files = [f for f in scripts if not f.stem.startswith(LIVE_MODEL)]
        files += list((site / "stylesheets").glob("widget*.css"))
    return sum(len(compressed(f.read_bytes())) for f in files)


def run_lighthouse(url: str, form: str, *mode: str) -> None:
    flags = " ".join(["--headless=new", *CHROMIUM_FLAGS])
    cmd = [str(LIGHTHOUSE), url, "--quiet", f"--only-categories={','.join(CATEGORIES)}",
           f"--chrome-flags={flags}", "--max-wait-for-load=60000", *mode]
    if form == "desktop":
        cmd.append("--preset=desktop")
    with tempfile.TemporaryDirectory(prefix="lh-home-") as home:
        env = {**os.environ, "CHROME_PATH": CHROMIUM, "HOME": home,
               "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home}
        subprocess.run(cmd, check=True, env=env, timeout=300, capture_output=True)


def gather(url: str, form: str, folder: Path) -> float:
    """One page load into `folder` (artifacts, trace); returns the run's benchmarkIndex."""
    run_lighthouse(url, form, f"--gather-mode={folder}")
    return json.loads((folder / "artifacts.json").read_text(encoding="utf-8"))["BenchmarkIndex"]


def audit(url: str, form: str, gathered: Path, out_json: Path,
          slowdown: float | None = None) -> dict:
    """The report of a gathered load, scored at CPU `slowdown` (None: the form's default).

    Lighthouse refuses to score artifacts under settings other than those they were gathered
    with; under simulated throttling the load itself never depends on the CPU multiplier (it
    runs unthrottled), so a copy of the artifacts records the multiplier to score with."""
    mode = [f"--output-path={out_json}", "--output=json"]
    folder = gathered
    if slowdown is not None:
        folder = gathered.with_name(f"{gathered.name}-x{slowdown:.3f}")
        folder.mkdir(exist_ok=True)
        artifacts = json.loads((gathered / "artifacts.json").read_text(encoding="utf-8"))
        artifacts["settings"]["throttling"]["cpuSlowdownMultiplier"] = slowdown
        (folder / "artifacts.json").write_text(json.dumps(artifacts), encoding="utf-8")
        for part in gathered.iterdir():
            if part.name != "artifacts.json" and not (folder / part.name).exists():
                (folder / part.name).symlink_to(part)
        mode.append(f"--throttling.cpuSlowdownMultiplier={slowdown}")
    run_lighthouse(url, form, f"--audit-mode={folder}", *mode)
    return json.loads(out_json.read_text(encoding="utf-8"))


def summarize(report: dict) -> dict:
    """One report: the scores, the metrics, where the time went, the audits costing points."""
    audits = report["audits"]
    scores = {k: round(v["score"] * 100) for k, v in report["categories"].items()
              if v["score"] is not None}
    breakdown = {item["group"]: item["duration"] for item in
                 audits["mainthread-work-breakdown"].get("details", {}).get("items", [])}
    failing = []
    for cat in report["categories"].values():
        for ref in cat["auditRefs"]:
            audit_ = audits[ref["id"]]
            if ref["weight"] and audit_["score"] is not None and audit_["score"] < 0.9:
                failing.append(f"{cat['id']}: {ref['id']} ({audit_['score']:.2f}) "
                               f"{audit_.get('displayValue', '')}".rstrip())
    return {
        "scores": scores, "failing": failing,
        "multiplier": report["configSettings"]["throttling"]["cpuSlowdownMultiplier"],
        "benchmark_index": report["environment"]["benchmarkIndex"],
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "fcp_ms": round(audits["first-contentful-paint"]["numericValue"]),
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "long_tasks": len(audits.get("long-tasks", {}).get("details", {}).get("items", [])),
        "dom_nodes": round(audits["dom-size"].get("numericValue") or 0),
        "weight_kib": round(audits["total-byte-weight"]["numericValue"] / 1024, 1),
        **{name: round(breakdown.get(group, 0)) for group, name in GROUPS.items()},
    }


def median_run(runs: list[dict]) -> dict:
    """The runs' median scores and metrics, with the range of each score, beside the run whose
    performance is the median (its time breakdown and failing audits describe a typical load)."""
    if not runs:
        raise ValueError("runs must hold at least one summary")
    typical = sorted(runs, key=lambda s: s["scores"].get("performance", 0))[(len(runs) - 1) // 2]
    scores = {cat: round(statistics.median(s["scores"][cat] for s in runs))
              for cat in runs[0]["scores"]}
    spread = {cat: (min(s["scores"][cat] for s in runs), max(s["scores"][cat] for s in runs))
              for cat in runs[0]["scores"]}
    metrics = {key: statistics.median(s[key] for s in runs) for key in ("tbt_ms", "cls")}
    return {**typical, **metrics, "scores": scores, "range": spread, "runs": len(runs)}


def verdict(s: dict, form: str) -> list[str]:
    """What misses its target (empty: the page passes)."""
    sc = s["scores"]
    need = {**TARGETS, "performance": DESKTOP_PERFORMANCE} if form == "desktop" else TARGETS
    misses = [f"{cat} {sc[cat]} < {want}" for cat, want in need.items() if sc.get(cat, 0) < want]
    if s["weight_kib"] > MAX_WEIGHT_KIB:
        misses.append(f"{s['weight_kib']:.0f} KiB > {MAX_WEIGHT_KIB} KiB")
    if form == "mobile":
        if s["tbt_ms"] > MAX_TBT_MS:
            misses.append(f"TBT {s['tbt_ms']:.0f} > {MAX_TBT_MS} ms")
        if s["cls"] > MAX_CLS:
            misses.append(f"CLS {s['cls']} > {MAX_CLS}")
    return misses


def perf(s: dict) -> str:
    lo, hi = s["range"]["performance"]
    return f"{s['scores']['performance']} ({lo}-{hi})" if lo != hi else str(lo)


def row(page: str, form: str, result: dict) -> str:
    """One table row: raw and calibrated (mobile), the verdict."""
    raw, cal = result["raw"], result.get("calibrated")
    judged = cal or raw
    cells = [f"{page or 'home':<20}", f"{form:<7}",
             f"{perf(raw):>10} {raw['tbt_ms']:>6.0f}"]
    if cal:
        cells.append(f"{perf(cal):>10} {cal['tbt_ms']:>6.0f} {cal['lcp_ms'] / 1000:>5.1f}s")
    else:
        cells.append(f"{'':>24}")
    sc = judged["scores"]
    cells.append(f"{judged['cls']:>5}  {sc.get('accessibility')}/{sc.get('best-practices')}/"
                 f"{sc.get('seo')}")
    misses = verdict(judged, form)
    cells.append("pass" if not misses else "FAIL: " + "; ".join(misses))
    return " ".join(cells)


HEADER = (f"{'page':<20} {'form':<7} {'raw perf':>10} {'TBT':>6} {'cal. perf':>10} "
          f"{'TBT':>6} {'LCP':>6} {'CLS':>5}  a11y/bp/seo  verdict (calibrated)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site-dir", type=Path, help="an existing build (default: build one now)")
    ap.add_argument("--page", action="append", help="a page to test, e.g. 10-verdict/ "
                    "(repeatable; default: every nav page)")
    ap.add_argument("--forms", default="mobile,desktop")
    ap.add_argument("--runs", type=int, default=3, help="runs per page and form (median)")
    ap.add_argument("--samples", type=int, default=9,
                    help="benchmarkIndex measurements before the first page")
    ap.add_argument("--json", type=Path, help="write the summaries here")
    ap.add_argument("--reports", type=Path, help="keep every full Lighthouse report here")
    args = ap.parse_args(argv)
    if not LIGHTHOUSE.exists():
        ap.error("lighthouse not installed: run `npm ci` in the repository root")
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, got {args.runs}")
    if args.samples < 1:
        ap.error(f"--samples must be at least 1, got {args.samples}")
    forms = args.forms.split(",")
    if not set(forms) <= {"mobile", "desktop"}:
        ap.error(f"--forms takes mobile and/or desktop, got {args.forms!r}")
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lh-") as tmp:
        site = args.site_dir or Path(tmp) / "site"
        if args.site_dir is None:
            build(site)
        print(f"widget code as served: {widget_code_bytes(site) / 1024:.2f} KiB gzip "
              f"(target {WIDGET_CODE_KIB} KiB); the live Shakespeare model's scripts, on its "
              f"page only: {widget_code_bytes(site, live_model=True) / 1024:.2f} KiB")
        indexes = calibration.measure(args.samples)
        gathered = []  # (page, form, folder, url)
        with serve(site, gzip=True) as origin:
            for rel in args.page or nav_urls():
                for form in forms:
                    for k in range(args.runs):
                        folder = Path(tmp) / f"{(rel or 'home').strip('/')}-{form}-{k + 1}"
                        url = origin + site_path() + rel
                        indexes.append(gather(url, form, folder))
                        gathered.append((rel, form, folder, url))
            host = calibration.summary(indexes)
            slowdown = calibration.multiplier(host["median"])
            print(f"host benchmarkIndex: median {host['median']:.0f} of {host['n']} measurements "
                  f"(quartiles {host['q1']:.0f}-{host['q3']:.0f}, range {host['min']:.0f}-"
                  f"{host['max']:.0f}); mid-tier phone: {calibration.PHONE_INDEX:.0f}")
            print(f"cpuSlowdownMultiplier: raw {calibration.DEFAULT_MULTIPLIER} (Lighthouse's "
                  f"default), calibrated {slowdown:.2f}; median of {args.runs} run(s) per page "
                  "and form, range in brackets")
            print(HEADER)
            results: dict[str, dict] = {}
            for rel, form, folder, url in gathered:
                out = args.reports or Path(tmp)
                runs = results.setdefault(f"{rel or 'home'} {form}", {})
                scored = {"raw": None}
                if form == "mobile":
                    scored["calibrated"] = slowdown
                for kind, x in scored.items():
                    report = audit(url, form, folder, out / f"{folder.name}-{kind}.json", x)
                    runs.setdefault(kind, []).append(summarize(report))
                if len(runs["raw"]) == args.runs:
                    for kind in list(runs):
                        runs[kind] = median_run(runs[kind])
                    print(row(rel, form, runs), flush=True)
            for key, runs in results.items():
                typical = runs.get("calibrated", runs["raw"])
                print(f"{key}: TBT {typical['tbt_ms']:.0f} ms, {typical['long_tasks']} long "
                      f"tasks, {typical['dom_nodes']} nodes, script {typical['script']} ms, "
                      f"style+layout {typical['style+layout']} ms, {typical['weight_kib']:.0f} KiB")
                for failing in typical["failing"]:
                    print(f"    - {failing}")
    if args.json:
        args.json.write_text(json.dumps({"benchmark_index": host, "multiplier": slowdown,
                                         "pages": results}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
