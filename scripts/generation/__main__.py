"""The one entry point that runs stacklib and writes docs/generated/ (and docs/code_lab.ipynb).

    python scripts/generate.py [--force] [--out DIR] [--only NAME ...] [--skip NAME ...] [--check]

Each generator (scripts/gen_*.py) is re-run only when the hash of its inputs (the stacklib and
scripts files it reads, its own source, its config) differs from the one recorded in
docs/generated/manifest.json, or when one of its outputs is missing or was edited by hand.
A second run with nothing changed takes well under a second.

--force   regenerate everything.
--out DIR write the tree to DIR instead of docs/generated/ (files that live in docs/ itself,
          like the notebook, go to DIR/_docs/).
--check   regenerate from scratch into a temporary directory and compare with the committed
          docs/generated/ (markdown/SVG/notebook byte for byte, JSON numbers within rtol 1e-6);
          exit 1 on drift. The trained experiments are not re-run by --check (too slow; they
          are inputs of the figures, read from docs/generated/experiments/).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_common as common
from gen_compare import compare_trees

# Order matters: experiments before the figures that read them.
GENERATORS = [
    "gen_params",
    "gen_examples",
    "gen_walkthrough",
    "gen_quiz",
    "gen_codelab",
    "gen_notebook",
    "gen_experiments",
    "gen_fig_diagrams",
    "gen_fig_charts",
    "gen_fig_trained",
    "gen_widget_data",
    "gen_measured",
]
SLOW = {"experiments"}  # skipped by --check


def load_generators() -> list:
    return [importlib.import_module(name) for name in GENERATORS]


def _sha(out: Path, rel: str) -> str | None:
    path = common.resolve(out, rel)
    return common.sha256_bytes(path.read_bytes()) if path.is_file() else None


def read_manifest(out: Path) -> dict:
    path = out / "manifest.json"
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"generators": {}}


def up_to_date(entry: dict | None, key: str, out: Path) -> bool:
    if not entry or entry.get("inputs") != key:
        return False
    return all(_sha(out, rel) == digest for rel, digest in entry.get("outputs", {}).items())


def generate(out: Path = common.GENERATED, *, force: bool = False, only=None, skip=(),
             log=print) -> dict[str, str]:
    """Run the generators into `out`; returns {name: "ran" | "cached" | "skipped"}."""
    common.setup_env()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = read_manifest(out)
    entries = manifest.setdefault("generators", {})
    status = {}
    for module in load_generators():
        name = module.NAME
        if (only and name not in only) or name in skip:
            status[name] = "skipped"
            continue
        if hasattr(module, "available") and not module.available():
            status[name] = "skipped"
            log(f"  {name:<14} skipped (not available yet)")
            continue
        key = common.inputs_hash(module)
        if not force and up_to_date(entries.get(name), key, out):
            status[name] = "cached"
            continue
        if not force and name not in entries and hasattr(module, "existing"):
            adopted = module.existing(out)  # outputs made before the manifest knew them
            if adopted:
                entries[name] = {"inputs": key,
                                 "outputs": {rel: _sha(out, rel) for rel in adopted}}
                status[name] = "adopted"
                log(f"  {name:<14} {len(adopted):3d} files  adopted (already present)")
                common.write_json(out, "manifest.json", manifest)
                continue
        start = time.perf_counter()
        written = sorted(set(module.run(out)))
        old = set(entries.get(name, {}).get("outputs", {})) - set(written)
        for rel in old:  # outputs this generator no longer writes
            common.resolve(out, rel).unlink(missing_ok=True)
        entries[name] = {"inputs": key, "outputs": {rel: _sha(out, rel) for rel in written}}
        status[name] = "ran"
        log(f"  {name:<14} {len(written):3d} files  {time.perf_counter() - start:6.1f} s")
        # the manifest is written after every generator, so an interrupted run keeps its progress
        common.write_json(out, "manifest.json", manifest)
    return status


def drift(fresh: Path) -> list[str]:
    """Differences between a fresh tree (generate(..., force=True) into `fresh`) and the
    committed one, restricted to what the fresh run produced."""
    fresh = Path(fresh)
    produced = {rel for entry in read_manifest(fresh)["generators"].values()
                for rel in entry["outputs"]}
    generated = {rel for rel in produced if not rel.startswith("_docs/")}
    diffs = compare_trees(common.GENERATED, fresh, only=generated)
    diffs += [f"{rel}: missing from the committed tree" for rel in sorted(generated)
              if not (common.GENERATED / rel).is_file()]
    in_docs = {rel.removeprefix("_docs/") for rel in produced if rel.startswith("_docs/")}
    diffs += compare_trees(common.DOCS, fresh / "_docs", only=in_docs)
    diffs += [f"docs/{rel}: missing" for rel in sorted(in_docs)
              if not (common.DOCS / rel).is_file()]
    return diffs


def check(log=print, skip=tuple(SLOW)) -> list[str]:
    """Regenerate from scratch into a temp dir and compare with the committed tree."""
    with tempfile.TemporaryDirectory(prefix="generated-") as tmp:
        generate(Path(tmp), force=True, skip=skip, log=log)
        return drift(Path(tmp))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="ignore the cache")
    parser.add_argument("--out", type=Path, default=common.GENERATED, help="output directory")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these generators")
    parser.add_argument("--skip", nargs="+", metavar="NAME", default=[], help="skip these")
    parser.add_argument("--check", action="store_true", help="fail on drift vs committed tree")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.check:
        diffs = check()
        for line in diffs:
            print("DRIFT", line)
        print(f"check: {len(diffs)} difference(s) in {time.perf_counter() - start:.1f} s")
        return 1 if diffs else 0
    status = generate(args.out, force=args.force, only=args.only, skip=set(args.skip))
    counts = {s: sum(1 for v in status.values() if v == s) for s in ("ran", "cached", "skipped")}
    print(f"generate: {counts['ran']} ran, {counts['cached']} cached, {counts['skipped']} skipped "
          f"-> {args.out} in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
