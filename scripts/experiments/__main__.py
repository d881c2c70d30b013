"""python -m scripts.experiments [--only NAME ...] [--force] [--tiny] [--workers 2] [--out DIR]

Trains and runs the lecture's toy experiments whose inputs changed, into
docs/generated/experiments/ (scripts/experiments/runner.py). --tiny runs each experiment's
smoke-test config into .cache/experiments-tiny/ (unless --out says where).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scripts.generation.cache import DOCS, ROOT
from scripts.toolenv import apply


def main(argv: list[str] | None = None) -> int:
    apply(make_dirs=True)  # before torch loads
    from scripts.experiments.runner import run
    from stacklib.experiments import REGISTRY

    ap = argparse.ArgumentParser(prog="python -m scripts.experiments",
                                 description=__doc__.split("\n\n")[1].replace("\n", " "))
    ap.add_argument("--only", nargs="+", choices=sorted(REGISTRY), metavar="NAME")
    ap.add_argument("--force", action="store_true", help="ignore the cache")
    ap.add_argument("--tiny", action="store_true", help="the smoke-test configs")
    ap.add_argument("--workers", type=int, default=2, help="training processes")
    ap.add_argument("--out", type=Path, help="docs tree to write into (default docs/)")
    args = ap.parse_args(argv)
    docs = args.out or (ROOT / ".cache" / "experiments-tiny" if args.tiny else DOCS)
    start = time.perf_counter()
    ran = run(args.only, docs=docs, force=args.force, tiny=args.tiny, workers=args.workers)
    print(f"experiments: {len(ran)} ran in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
