"""python -m scripts.generation [--force] [--check] [--only NAME ...] [--out DIR]

Runs the trained experiments whose inputs changed (python -m scripts.experiments), then every
generator whose inputs changed, into docs/ (scripts/README.md lists what each one writes).
The generators read the trained experiments from the repository's docs/generated/experiments/.

--force   re-run every generator (the trained experiments still only when their inputs changed)
--only    run only these generators (no experiments)
--out DIR write into DIR as if it were docs/ (DIR/generated/..., DIR/code_lab.ipynb)
--check   regenerate everything into a temporary tree and compare with the committed files
          (JSON numbers within rtol 1e-6, everything else byte for byte); exit 1 on drift.
          The trained experiments are inputs: read from the committed tree, not re-trained.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from scripts.generation.cache import DOCS
from scripts.generation.pipeline import GENERATORS, check, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.generation",
                                     description=__doc__.split("\n\n")[1].replace("\n", " "))
    parser.add_argument("--force", action="store_true", help="re-run every generator")
    parser.add_argument("--only", nargs="+", metavar="NAME", choices=GENERATORS,
                        help="run only these generators")
    parser.add_argument("--out", type=Path, default=DOCS, help="docs tree to write into")
    parser.add_argument("--check", action="store_true", help="fail on drift from the commit")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.check:
        diffs = check()
        for line in diffs:
            print("DRIFT", line)
        print(f"check: {len(diffs)} difference(s) in {time.perf_counter() - start:.1f} s")
        return 1 if diffs else 0
    if not args.only:  # the generators read the repository's experiments: train those first
        from scripts.experiments.runner import run as run_experiments

        run_experiments()
    status = generate(args.out, names=args.only or GENERATORS, force=args.force)
    ran = sum(1 for s in status.values() if s == "ran")
    print(f"generate: {ran} ran, {len(status) - ran} cached -> {args.out} "
          f"in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
