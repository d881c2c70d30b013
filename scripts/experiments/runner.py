"""Run the issue-5 experiments and write docs/generated/experiments/<name>.json.

Usage: .venv/bin/python scripts/run_experiments.py [--only NAME ...] [--force] [--tiny]
                                                   [--workers 2] [--out DIR]

All models are first trained in a pool of worker processes (longest first; each job is a pure
function of its config, single-threaded, so results do not depend on the scheduling), then the
experiments run here from the memo. Each file is cached by a hash of its inputs: the stacklib
sources the experiment imports (found by walking the imports), this script, the config, and the
torch/numpy/python versions.
With nothing changed a run only hashes files. Content files hold no timings except the
latency experiment's measurements; durations go to ``_timings.json`` (per experiment: duration_s
after training, training_s / training_cpu_s = its models' wall / CPU seconds in the workers,
shared models counted in each), hashes to ``_inputs.json``.
Floats are rounded to 6 significant digits, keys sorted, NaN written as null.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]
from _toolenv import apply  # noqa: E402

apply()

from stacklib.experiments import REGISTRY, config_of, run_experiment  # noqa: E402
from stacklib.experiments.common import Timer  # noqa: E402

OUT = ROOT / "docs" / "generated" / "experiments"


def source_files(module: str) -> list[Path]:
    """The stacklib source files a module depends on (transitively, by its imports)."""
    seen: dict[str, Path] = {}
    todo = [module, "stacklib.experiments"]
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        path = ROOT / (mod.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / mod.replace(".", "/") / "__init__.py"
        if not path.exists():
            continue
        seen[mod] = path
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            todo += [n for n in names if n.startswith("stacklib")]
    return sorted(seen.values())


def input_hash(name: str, tiny: bool) -> str:
    import numpy
    import torch

    h = hashlib.sha256()
    for path in [*source_files(REGISTRY[name][0]), Path(__file__).resolve()]:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    h.update(repr(config_of(name, tiny)).encode())
    h.update(f"{torch.__version__} {numpy.__version__} {sys.version_info[:2]}".encode())
    return h.hexdigest()


def rounded(value):
    if isinstance(value, float):
        return None if value != value or value in (float("inf"), float("-inf")) \
            else float(f"{value:.6g}")
    if isinstance(value, dict):
        return {str(k): rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v) for v in value]
    return value


def dumps(obj, indent: str = "") -> str:
    """Sorted, indented JSON with lists of scalars kept on one line (readable diffs, small)."""
    inner = indent + " "
    if isinstance(obj, dict) and obj:
        items = [f"{inner}{json.dumps(k)}: {dumps(obj[k], inner)}" for k in sorted(obj)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(obj, list) and any(isinstance(v, dict | list) for v in obj):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in obj) + "\n" + indent + "]"
    return json.dumps(obj, allow_nan=False, separators=(",", ": "))


def write_json(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(rounded(obj)) + "\n")


def cost(job) -> int:
    """Rough cost of a training job, to start the longest first."""
    return job.steps * job.num_layers * (job.batch_size + 32)


def pretrain(names: list[str], tiny: bool, ex) -> dict[str, tuple[float, float]]:
    """Train every model the experiments need in the pool, then memoise them here.

    Returns the training (wall, CPU) seconds, summed over its models, of each experiment.
    """
    from stacklib.experiments import lm

    needs = {n: config_of(n, tiny).train_jobs() for n in names}
    jobs = sorted(dict.fromkeys(j for js in needs.values() for j in js), key=cost, reverse=True)
    seconds = {}
    for job, (state, losses, curve, *sec) in zip(jobs, ex.map(lm.train_state, jobs),
                                                  strict=True):
        lm.remember(job, state, losses, curve)
        seconds[job] = sec
    return {n: tuple(sum(seconds[j][i] for j in js) for i in (0, 1))
            for n, js in needs.items() if js}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(REGISTRY), default=None)
    ap.add_argument("--force", action="store_true", help="ignore the cache")
    ap.add_argument("--tiny", action="store_true",
                    help="tiny configs, a smoke test (default --out .cache/experiments-tiny)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    args.out = args.out or (ROOT / ".cache" / "experiments-tiny" if args.tiny else OUT)
    start = time.perf_counter()
    hashes_path, timings_path = args.out / "_inputs.json", args.out / "_timings.json"
    hashes = json.loads(hashes_path.read_text()) if hashes_path.exists() else {}
    wanted = args.only or list(REGISTRY)
    current = {n: input_hash(n, args.tiny) for n in wanted}
    todo = [n for n in wanted if args.force or hashes.get(n) != current[n]
            or not (args.out / f"{n}.json").exists()]
    if not todo:
        print(f"experiments: all {len(wanted)} cached ({time.perf_counter() - start:.1f} s)")
        return 0
    print("experiments: running", ", ".join(todo), flush=True)
    results: dict[str, dict] = {}
    untrained = [n for n in todo if not config_of(n, args.tiny).train_jobs() and n != "latency"]
    with ProcessPoolExecutor(max(1, args.workers), mp_context=get_context("spawn")) as ex:
        futures = {n: ex.submit(run_experiment, n, args.tiny) for n in untrained}
        with Timer() as pre:
            training = pretrain(todo, args.tiny, ex)
        print(f"  training (pool of {args.workers}): {pre.seconds:.1f} s", flush=True)
        for name in todo:                 # evaluations, probes: models come from the memo
            if name not in futures and name != "latency":
                results[name] = run_experiment(name, args.tiny)
        results.update({n: f.result() for n, f in futures.items()})
    if "latency" in todo:                 # alone, after the pool: nothing of ours competes
        results["latency"] = run_experiment("latency", args.tiny)
    timings = json.loads(timings_path.read_text()) if timings_path.exists() else {}
    for name, res in results.items():
        wall, cpu = training.get(name, (0.0, 0.0))
        timings[name] = {"duration_s": round(res.pop("duration_s"), 2),
                         "training_s": round(wall, 2), "training_cpu_s": round(cpu, 2)}
        write_json(args.out / f"{name}.json", res)
        hashes[name] = current[name]
        print(f"  {name}: {timings[name]}", flush=True)
    total = time.perf_counter() - start
    timings["_last_run"] = {"ran": sorted(results), "wall_s": round(total, 2),
                            "training_s": round(pre.seconds, 2),
                            "cpu_s_main": round(time.process_time(), 2),
                            "workers": args.workers, "cpus": os.cpu_count()}
    write_json(timings_path, timings)
    write_json(hashes_path, hashes)
    print(f"experiments: done in {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
