"""The offline copy: a zip of the site that works from file:// (search included).

    python -m scripts.delivery.offline [--out build/depth-lecture-offline.zip] [--site-dir DIR]

Builds with mkdocs-offline.yml (INHERITs mkdocs.yml; Material's offline plugin,
use_directory_urls: false, the iframe-worker shim vendored in docs/assets/vendor/) into a
temporary directory, or takes an existing offline build with --site-dir, and zips it under one
top-level folder. Unzip, open depth-lecture/index.html in a browser. Deterministic: sorted entries,
fixed timestamps.

Browsers refuse fetch() over file://, so the JSON the widget scripts name (generated/data/*.json
in their `data` lists; not the other generated data, such as the study's summary the tests read)
is also written into assets/offline-data.js as `window.STACK_DATA = {"generated/data/x.json": ...}`,
loaded first via extra.polyfills in mkdocs-offline.yml; the widget runtime reads it when present
and falls back to its static figures otherwise.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
import zipfile
from pathlib import Path

from scripts.site import ROOT, build

CONFIG = "mkdocs-offline.yml"
DEFAULT_OUT = ROOT / "build" / "depth-lecture-offline.zip"
FOLDER = "depth-lecture"
FIXED_TIME = (2000, 1, 1, 0, 0, 0)


WIDGET_DATA = re.compile(r"generated/data/[\w.-]+\.json")


def widget_data(site_dir: Path) -> list[str]:
    """The data files the built widget scripts name: every page loads offline-data.js, so it
    holds only what a widget reads."""
    return sorted({name for script in (site_dir / "javascripts").glob("*.js")
                   for name in WIDGET_DATA.findall(script.read_text(encoding="utf-8"))})


def write_offline_data(site_dir: Path) -> Path:
    data = {name: json.loads((site_dir / name).read_text(encoding="utf-8"))
            for name in widget_data(site_dir)}
    out = site_dir / "assets" / "offline-data.js"
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    out.write_text(f"window.STACK_DATA = {payload};\n", encoding="utf-8")
    return out


def zip_site(site_dir: Path, out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(f"{FOLDER}/{path.relative_to(site_dir).as_posix()}",
                                   FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    tmp.replace(out)
    return out


def build_offline(out: Path = DEFAULT_OUT, site_dir: Path | None = None) -> Path:
    with tempfile.TemporaryDirectory(prefix="offline-site-") as tmp:
        if site_dir is None:
            site_dir = Path(tmp) / "site"
            build(site_dir, config=CONFIG)
        write_offline_data(site_dir)
        return zip_site(site_dir, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--site-dir", type=Path, help="an existing build made with " + CONFIG)
    args = ap.parse_args(argv)
    start = time.perf_counter()
    out = build_offline(args.out.resolve(), args.site_dir)
    print(f"{out}: {out.stat().st_size / 1e6:.2f} MB in {time.perf_counter() - start:.1f} s"
          f" — unzip and open {FOLDER}/index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
