"""Run the Shakespeare study (scripts.study.plan) and keep every run's result.

    python -m scripts.experiments.shakespeare              # the whole study (hours)
    python -m scripts.experiments.shakespeare --headline   # 1 x 268 vs 3 x 128, 3 seeds
    python -m scripts.experiments.shakespeare --quick      # every code path on a tiny slice
    python -m scripts.experiments.shakespeare --list       # the runs, and which are done
    python -m scripts.experiments.shakespeare --timing     # time the models side by side
    python -m scripts.experiments.shakespeare --runs L3-h128-res-s0 --out /tmp/scratch
                                                           # named runs, records elsewhere

Each run writes docs/generated/experiments/shakespeare/<name>.json as soon as it finishes, with
its key; a run whose file holds the current key is not run again (scripts/experiments/
charlm_runs.py: the keys, the workers, the records). Runs train in a pool of single-threaded
workers, longest first.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

from scripts.experiments.charlm_runs import WEIGHTS, on_device, pending, read, train_all, write
from scripts.generation.cache import ROOT

OUT = ROOT / "docs" / "generated" / "experiments" / "shakespeare"


def study_runs(args):
    from scripts.study.plan import headline, plan, quick_plan
    from stacklib.corpus import shakespeare

    vocab = len(shakespeare().vocab)
    if args.quick:
        runs = quick_plan(vocab)
    else:
        runs = headline(plan(vocab)) if args.headline else plan(vocab)
    if args.groups:
        unknown = set(args.groups) - {run.group for run in runs}
        if unknown:
            raise SystemExit(f"--groups: no group named {', '.join(sorted(unknown))}")
        runs = [run for run in runs if run.group in args.groups]
    if args.runs:
        unknown = set(args.runs) - {run.name for run in runs}
        if unknown:
            raise SystemExit(f"--runs: no run named {', '.join(sorted(unknown))}")
        order = {name: i for i, name in enumerate(args.runs)}
        runs = sorted((run for run in runs if run.name in order), key=lambda r: order[r.name])
    return runs


def timing(out: Path, quick: bool) -> None:
    """Time every plain model of the depth and budget groups in turns (timing.json)."""
    from scripts.study.plan import timed_models
    from stacklib.charlm.timing import TimingConfig, time_models
    from stacklib.corpus import shakespeare

    models = timed_models(len(shakespeare().vocab), quick)
    cfg = TimingConfig(rounds=2, reps=1, latency_chars=5) if quick else TimingConfig()
    write(out / "timing.json", {"config": dataclasses.asdict(cfg),
                                "models": {name: dataclasses.asdict(m)
                                           for name, m in models.items()},
                                "ms": time_models(models, cfg), "cpus": os.cpu_count()})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--headline", action="store_true",
                    help="only 1 wide layer vs the 3-layer stack of equal budget, 3 seeds")
    ap.add_argument("--quick", action="store_true", help="tiny models on a slice of the text")
    ap.add_argument("--list", action="store_true", help="list the runs and stop")
    ap.add_argument("--timing", action="store_true",
                    help="time the depth and budget models side by side, then stop")
    ap.add_argument("--groups", nargs="+", metavar="GROUP",
                    help="only these groups of the study (depth, budget, data, deep, lr, scale, "
                         "cell)")
    ap.add_argument("--runs", nargs="+", metavar="RUN",
                    help="only these runs (e.g. L3-h128-res-s0), in this order")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--device", default="cpu",
                    help="where the models train, as torch names it (cpu, cuda, cuda:1)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    out = args.out or (ROOT / ".cache" / "shakespeare-quick" if args.quick else OUT)
    weights = out / "weights" if args.quick else WEIGHTS
    start = time.perf_counter()
    if args.timing:
        timing(out, args.quick)
        print(f"shakespeare: timed in {time.perf_counter() - start:.0f} s")
        return 0
    runs = on_device(study_runs(args), args.device)
    todo = pending(runs, out, weights, args.quick)
    if args.list:
        waiting = {run.name for run, *_ in todo}
        hours = {}
        for run in runs:
            record = read(out / f"{run.name}.json")
            state = "to run" if run.name in waiting else "done"
            if run.name in waiting and record:
                state += " (its record is from other inputs)"
            print(f"{run.name:<28} {run.group:<7} {state}")
            if run.name not in waiting:
                hours[run.group] = hours.get(run.group, 0) + record["cpu_seconds"] / 3600
        print(f"{len(runs) - len(todo)} of {len(runs)} runs current; their records count "
              f"{sum(hours.values()):.2f} CPU-hours ("
              + ", ".join(f"{g} {h:.2f}" for g, h in hours.items()) + ")")
        return 0
    print(f"shakespeare: {len(runs) - len(todo)} of {len(runs)} runs current; "
          f"running {len(todo)}", flush=True)
    train_all(todo, out, weights, args.workers, args.quick)
    print(f"shakespeare: done in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
