"""Page speed: Lighthouse on the home page and the heaviest lecture page, mobile and desktop.

    npm ci                                   # once: lighthouse@12.2.3 from package-lock.json
    python -m scripts.benchmarks.lighthouse [--site-dir DIR] [--page 10-verdict/] [--json out.json]

Builds the site (strict) unless --site-dir is given, serves it on 127.0.0.1 under site_url's
path with gzip (as GitHub Pages does), picks the heaviest lecture page (HTML + the images,
scripts and styles it references), and runs node_modules/.bin/lighthouse with
CHROME_PATH=/usr/bin/chromium, offline. Prints the four scores and the page weight per run and
the audits that cost points. Targets: performance >= 90 mobile / 100 desktop, accessibility 100,
best practices 100, SEO >= 95, heaviest page <= 700 KiB. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from scripts.site import CHROMIUM, CHROMIUM_FLAGS, ROOT, build, serve, site_path

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
TARGETS = {"mobile": {"performance": 90}, "desktop": {"performance": 100},
           "all": {"accessibility": 100, "best-practices": 100, "seo": 95}}
MAX_WEIGHT_KIB = 700


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


def heaviest_page(site: Path) -> str:
    pages = [p.parent.name + "/" for p in site.glob("*/index.html")
             if p.parent.name[:2].isdigit() or p.parent.name in ("code_lab",)]
    return max(pages, key=lambda rel: page_weight(site, rel))


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
    cats = {k: round(v["score"] * 100) for k, v in report["categories"].items()
            if v["score"] is not None}
    weight = report["audits"]["total-byte-weight"]["numericValue"] / 1024
    failing = []
    for cat in report["categories"].values():
        for ref in cat["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 0.9:
                failing.append(f"{cat['id']}: {ref['id']} ({audit['score']:.2f}) "
                               f"{audit.get('displayValue', '')}".rstrip())
    return {"scores": cats, "weight_kib": round(weight, 1), "failing": failing}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site-dir", type=Path, help="an existing build (default: build one now)")
    ap.add_argument("--page", help="lecture page to test besides home (default: the heaviest)")
    ap.add_argument("--forms", default="mobile,desktop")
    ap.add_argument("--json", type=Path, help="write the summaries here")
    ap.add_argument("--reports", type=Path, help="keep every full Lighthouse report here")
    args = ap.parse_args(argv)
    if not LIGHTHOUSE.exists():
        ap.error("lighthouse not installed: run `npm ci` in the repository root")
    results = {}
    if args.reports:
        args.reports.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lh-") as tmp:
        site = args.site_dir or Path(tmp) / "site"
        if args.site_dir is None:
            build(site)
        page = args.page or heaviest_page(site)
        print(f"heaviest lecture page: {page} ({page_weight(site, page) / 1024:.0f} KiB "
              "uncompressed HTML + referenced files)")
        with serve(site, gzip=True) as origin:
            base = origin + site_path()
            for rel in ("", page):
                for form in args.forms.split(","):
                    name = f"{(rel or 'home').strip('/')}-{form}.json"
                    report = lighthouse(base + rel, form, (args.reports or Path(tmp)) / name)
                    s = summarize(report)
                    results[f"{rel or 'home'} {form}"] = s
                    sc = s["scores"]
                    print(f"{rel or 'home':<22} {form:<8} perf {sc.get('performance')}  "
                          f"a11y {sc.get('accessibility')}  bp {sc.get('best-practices')}  "
                          f"seo {sc.get('seo')}  weight {s['weight_kib']:.0f} KiB")
                    for line in s["failing"]:
                        print(f"    - {line}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
