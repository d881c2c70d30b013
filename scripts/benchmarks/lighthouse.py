"""Page speed: Lighthouse on every page of the lecture, the median of several runs.

    npm ci                                   # once: lighthouse@12.2.3 from package-lock.json
    python -m scripts.benchmarks.lighthouse [--site-dir DIR] [--page 10-verdict/ ...]
        [--forms mobile,desktop] [--runs 3] [--json out.json] [--reports DIR]

Builds the site (strict) unless --site-dir is given, serves it on 127.0.0.1 under site_url's
path with gzip (as GitHub Pages does), and runs node_modules/.bin/lighthouse with
CHROME_PATH=/usr/bin/chromium, offline, on every nav page (or the --page ones), each form
--runs times. Lighthouse's simulated throttling still follows the machine's load, so one run is
noise: per page and form it prints the median of the runs (and their range) for the four
scores, and where the main thread's time went in the median run: total blocking time, long
tasks, DOM size, style and layout, script evaluation, layout shift. Targets: performance >= 90
mobile / 100 desktop, accessibility 100, best practices 100, SEO >= 95, every page <= 700 KiB.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

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
TARGETS = {"mobile": {"performance": 90}, "desktop": {"performance": 100},
           "all": {"accessibility": 100, "best-practices": 100, "seo": 95}}
MAX_WEIGHT_KIB = 700
WIDGET_CODE_KIB = 25.5
# mainthread-work-breakdown groups worth naming (milliseconds of the throttled main thread)
GROUPS = {"scriptEvaluation": "script", "styleLayout": "style+layout",
          "paintCompositeRender": "paint", "parseHTML": "parse"}


def page_weight(site: Path, rel: str) -> int:
    """Bytes of a page's HTML plus the local files it references (uncompressed)."""
    html_path = site / rel / "index.html" if not rel.endswith(".html") else site / rel
    html = html_path.read_text(encoding="utf-8")
    total = len(html.encode())
    for url in set(re.findall(r'(?:src|href)="([^"#?]+)', html)):
        if re.match(r"^[a-z]+:", url) or not url.endswith(
                (".js", ".css", ".svg", ".png", ".jpg", ".webp", ".woff2")):
            continue
        target = (html_path.parent / url).resolve()
        if target.is_file():
            total += target.stat().st_size
    return total


def widget_code_bytes(site: Path) -> int:
    """What the widgets cost a reader, as served (minified, gzip): the runtime, every widget's
    script and the scripts they share, and the widget stylesheets (a11y.js and a11y.css patch
    the theme, not widget code). Target: WIDGET_CODE_KIB."""
    files = [f for f in (site / "javascripts").glob("*.js") if f.stem != "a11y"]
    files += list((site / "stylesheets").glob("widget*.css"))
    return sum(len(compressed(f.read_bytes())) for f in files)


def lighthouse(url: str, form: str, out_json: Path) -> dict:
    flags = " ".join(["--headless=new", *CHROMIUM_FLAGS])
    cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out_json}",
           f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}",
           "--max-wait-for-load=60000"]
    if form == "desktop":
        cmd.append("--preset=desktop")
    with tempfile.TemporaryDirectory(prefix="lh-home-") as home:
        env = {**os.environ, "CHROME_PATH": CHROMIUM, "HOME": home,
               "XDG_CONFIG_HOME": home, "XDG_CACHE_HOME": home}
        subprocess.run(cmd, check=True, env=env, timeout=300, capture_output=True)
    return json.loads(out_json.read_text(encoding="utf-8"))


def summarize(report: dict) -> dict:
    """One report: the scores, the page weight, where the time went, the audits costing points."""
    audits = report["audits"]
    cats = {k: round(v["score"] * 100) for k, v in report["categories"].items()
            if v["score"] is not None}
    breakdown = {item["group"]: item["duration"] for item in
                 audits["mainthread-work-breakdown"].get("details", {}).get("items", [])}
    time = {
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "long_tasks": len(audits.get("long-tasks", {}).get("details", {}).get("items", [])),
        "dom_nodes": round(audits["dom-size"].get("numericValue") or 0),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        **{name: round(breakdown.get(group, 0)) for group, name in GROUPS.items()},
    }
    failing = []
    for cat in report["categories"].values():
        for ref in cat["auditRefs"]:
            audit = audits[ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 0.9:
                failing.append(f"{cat['id']}: {ref['id']} ({audit['score']:.2f}) "
                               f"{audit.get('displayValue', '')}".rstrip())
    weight = audits["total-byte-weight"]["numericValue"] / 1024
    return {"scores": cats, "weight_kib": round(weight, 1), "time": time, "failing": failing}


def median_run(runs: list[dict]) -> dict:
    """The runs' median scores with their range, and the run whose performance is the median
    (its time breakdown and failing audits describe a typical load)."""
    if not runs:
        raise ValueError("runs must hold at least one summary")
    ordered = sorted(runs, key=lambda s: s["scores"].get("performance", 0))
    typical = ordered[(len(ordered) - 1) // 2]
    scores = {cat: round(statistics.median(s["scores"][cat] for s in runs))
              for cat in runs[0]["scores"]}
    spread = {cat: (min(s["scores"][cat] for s in runs), max(s["scores"][cat] for s in runs))
              for cat in runs[0]["scores"]}
    return {**typical, "scores": scores, "range": spread, "runs": len(runs)}


def line(page: str, form: str, s: dict) -> str:
    sc, lo_hi, t = s["scores"], s["range"], s["time"]
    perf = f"perf {sc.get('performance')} ({'–'.join(map(str, lo_hi['performance']))})"
    return (f"{page or 'home':<22} {form:<7} {perf:<16} a11y {sc.get('accessibility')}  "
            f"bp {sc.get('best-practices')}  seo {sc.get('seo')}  {s['weight_kib']:.0f} KiB | "
            f"TBT {t['tbt_ms']} ms, {t['long_tasks']} long tasks, {t['dom_nodes']} nodes, "
            f"script {t['script']} ms, style+layout {t['style+layout']} ms, CLS {t['cls']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site-dir", type=Path, help="an existing build (default: build one now)")
    ap.add_argument("--page", action="append", help="a page to test, e.g. 10-verdict/ "
                    "(repeatable; default: every nav page)")
    ap.add_argument("--forms", default="mobile,desktop")
    ap.add_argument("--runs", type=int, default=3, help="runs per page and form (median)")
    ap.add_argument("--json", type=Path, help="write the summaries here")
    ap.add_argument("--reports", type=Path, help="keep every full Lighthouse report here")
    args = ap.parse_args(argv)
    if not LIGHTHOUSE.exists():
        ap.error("lighthouse not installed: run `npm ci` in the repository root")
    if args.runs < 1:
        ap.error(f"--runs must be at least 1, got {args.runs}")
    results = {}
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lh-") as tmp:
        site = args.site_dir or Path(tmp) / "site"
        if args.site_dir is None:
            build(site)
        print(f"widget code as served: {widget_code_bytes(site) / 1024:.2f} KiB gzip "
              f"(target {WIDGET_CODE_KIB} KiB)")
        print(f"median of {args.runs} run(s) per page and form (range in brackets)")
        with serve(site, gzip=True) as origin:
            base = origin + site_path()
            for rel in args.page or nav_urls():
                for form in args.forms.split(","):
                    runs = []
                    for k in range(args.runs):
                        name = f"{(rel or 'home').strip('/')}-{form}-{k + 1}.json"
                        report = lighthouse(base + rel, form, (args.reports or Path(tmp)) / name)
                        runs.append(summarize(report))
                    s = median_run(runs)
                    results[f"{rel or 'home'} {form}"] = s
                    print(line(rel, form, s), flush=True)
                    for failing in s["failing"]:
                        print(f"    - {failing}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
