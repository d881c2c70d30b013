"""Run the generators: stacklib -> docs/generated/ and docs/code_lab.ipynb, cached.

A generator is a module of this package (named for what it writes) with::

    DATA = ["docs/generated/experiments/stacks.json"]  # data files it reads (optional)
    def run(out: Output) -> None                        # writes through out, reads DATA through it

Its cache key (scripts/generation/cache.py) covers every repository module it imports, found by
walking the imports, and its DATA files; it re-runs when that key changed or one of its outputs
is missing or was edited by hand.
"""

from __future__ import annotations

import importlib
import tempfile
import time
from pathlib import Path

from scripts.generation.cache import DOCS, ROOT, Manifest, expand, inputs_key
from scripts.generation.compare import compare_files
from scripts.generation.write import Output

PACKAGE = "scripts.generation"
GENERATED_FOLDERS = ("partials", "figures", "data")  # under docs/generated/: generators' only
# Order matters only for reading: none of them reads another's output.
GENERATORS = ("layer_colours", "parameter_tables", "parameter_figures", "example_tables",
              "walkthrough_tables", "diagram_figures", "quiz_answers", "codelab_outputs",
              "codelab_notebook", "trained_data", "trained_tables", "trained_figures",
              "gradient_figures", "depth_data_figures", "testbed_tables", "latency_table",
              "prose_numbers", "shakespeare_tables", "shakespeare_figures", "shakespeare_curves",
              "shakespeare_scale", "shakespeare_probes", "shakespeare_live",
              "shakespeare_notebook", "tuned_search", "tuned_verdict", "tuned_deep")
# Generators that train a model for a minute or more. `--check` runs them like every other; the
# test suite's from-scratch run leaves them out and checks them by their manifest entry and a
# quick execution instead (tests/site/test_shakespeare_notebook.py).
TRAINING = ("shakespeare_notebook",)


def module(name: str):
    if name not in GENERATORS:
        raise ValueError(f"unknown generator {name!r}; choose from {', '.join(GENERATORS)}")
    return importlib.import_module(f"{PACKAGE}.{name}")


def key(name: str, root: Path = ROOT) -> str:
    """The inputs key of generator `name`: its imports walked, its DATA files (under `root`)."""
    return inputs_key([f"{PACKAGE}.{name}"], getattr(module(name), "DATA", ()), root=root)


def stale(names=GENERATORS, root: Path = ROOT) -> list[str]:
    """The generators among `names` that would run in the repository at `root`: inputs key
    changed, or an output missing or edited."""
    manifest = Manifest(root / "docs")
    return [n for n in names if not manifest.up_to_date(n, key(n, root))]


def generate(docs: Path = DOCS, *, names=GENERATORS, force: bool = False,
             log=print) -> dict[str, str]:
    """Run the generators `names` into the docs tree `docs`; {name: "ran" | "cached"}."""
    from scripts.toolenv import apply

    apply(make_dirs=True)  # matplotlib, IPython and Keras keep their state in .cache/
    docs = Path(docs)
    manifest = Manifest(docs)
    status = {}
    for name in names:
        mod, current = module(name), key(name)
        if not force and manifest.up_to_date(name, current):
            status[name] = "cached"
            continue
        start = time.perf_counter()
        data = [p.relative_to(ROOT).as_posix() for p in expand(getattr(mod, "DATA", ()))]
        out = Output(docs, data, ROOT)
        mod.run(out)
        manifest.record(name, current, out.written)
        manifest.save()  # after each generator: an interrupted run keeps its progress
        status[name] = "ran"
        log(f"  {name:<18} {len(set(out.written)):3d} files  {time.perf_counter() - start:6.1f} s")
    return status


def drift(fresh: Path, docs: Path = DOCS) -> list[str]:
    """Differences between a fresh run of every generator (into the docs tree `fresh`) and
    `docs`: each file the run wrote must be committed as written, and each committed file in
    the generators' folders must come from one of them (trained results, in experiments/,
    belong to their runners)."""
    produced = {rel for entry in Manifest(fresh).entries.values() for rel in entry["outputs"]}
    diffs = compare_files(docs, Path(fresh), sorted(produced))
    committed = sorted(p.relative_to(docs).as_posix() for folder in GENERATED_FOLDERS
                       for p in (docs / "generated" / folder).rglob("*") if p.is_file())
    diffs += [f"{rel}: written by no generator (delete it)" for rel in committed
              if rel not in produced]
    return diffs


def check(log=print) -> list[str]:
    """Regenerate everything from scratch into a temporary tree and compare (``drift``).

    The trained experiments are inputs here, read from the committed tree, not re-trained."""
    with tempfile.TemporaryDirectory(prefix="generated-") as tmp:
        generate(Path(tmp), force=True, log=log)
        return drift(Path(tmp))
