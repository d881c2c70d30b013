"""Run the Shakespeare study (scripts.study.plan) and keep every run's result.

    python -m scripts.experiments.shakespeare              # the whole study (hours)
    python -m scripts.experiments.shakespeare --headline   # 1 x 268 vs 3 x 128, 3 seeds
    python -m scripts.experiments.shakespeare --quick      # every code path on a tiny slice
    python -m scripts.experiments.shakespeare --list       # the runs, and which are done
    python -m scripts.experiments.shakespeare --timing     # time the models side by side
    python -m scripts.experiments.shakespeare --runs L3-h128-res-s0 --out /tmp/scratch
                                                           # named runs, records elsewhere

Each run writes docs/generated/experiments/shakespeare/<name>.json as soon as it finishes,
with its key (scripts/experiments/run_key.py): its configuration, the code of the model and of
the loop, the texts it reads, and the torch and NumPy versions. A run whose file holds the
current key is not run again, so an interrupted study continues where it stopped, in this
session or a later one; a re-run says whether it reproduced the record it replaces. The
trained weights go to .cache/shakespeare/ (not committed): the analyses (timescales, samples)
are hashed apart and re-run from them when only their code changes. Runs train in a pool of
single-threaded workers, longest first; each is a pure function of its configuration, so the
results do not depend on the scheduling.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from unittest.mock import patch

from scripts.experiments.run_key import data_digest, run_key
from scripts.generation.cache import inputs_key

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "generated" / "experiments" / "shakespeare"
WEIGHTS = ROOT / ".cache" / "shakespeare"
# The workers' environment. One thread each: two workers on two cores, none oversubscribed.
# glibc would hand a training step's large freed tensors back to the kernel and map them anew
# the next step, paying a page fault for every page; these thresholds keep freed memory in the
# process (same numbers, same peak memory, a faster run; other C libraries ignore them).
WORKER_ENV = {"OMP_NUM_THREADS": "1", "MALLOC_MMAP_THRESHOLD_": str(256 << 20),
              "MALLOC_TRIM_THRESHOLD_": str(256 << 20)}
ANALYSIS_MODULES = ("stacklib.charlm.analysis", "stacklib.charlm.plays")


def versions() -> dict[str, str]:
    """The versions a trained model's arithmetic depends on: torch and NumPy (the library's
    own code is hashed instead, and the corpus by its texts)."""
    from stacklib.experiments.common import versions as library_versions

    library = library_versions()
    return {"torch": library["torch"], "numpy": library["numpy"]}


def training_key(run, quick: bool = False) -> str:
    """The run's key: what its numbers are a function of (``run_key``)."""
    if ("digest", quick) not in _TEXTS:
        _TEXTS["digest", quick] = data_digest(_corpus(quick)[1])
    return run_key(run.job, _TEXTS["digest", quick], versions())


def analysis_key(run, train_key: str) -> str:
    from stacklib.charlm.analysis import DescribeConfig

    return inputs_key(ANALYSIS_MODULES,
                      extra=train_key + repr(DescribeConfig()) + repr(run.analyse))[:16]


_TEXTS: dict = {}


def _corpus(quick: bool):
    """The corpus and its ids, loaded once per process (the quick mode reads a slice)."""
    if quick not in _TEXTS:
        from scripts.study.plan import quick_texts
        from stacklib.charlm.jobs import Texts
        from stacklib.corpus import shakespeare

        corpus = shakespeare()
        texts = Texts.of(corpus)
        _TEXTS[quick] = (corpus, quick_texts(texts) if quick else texts)
    return _TEXTS[quick]


# ---------------------------------------------------------------- work done in the workers
def machine(device: str) -> dict:
    """What the arithmetic ran on. The same code, data and config give the same numbers on
    the same kind of machine; torch's CPU kernels differ with the instruction set they use,
    and a run's last digits with them."""
    import torch

    out = {"cpu_capability": torch.backends.cpu.get_cpu_capability()}
    if device.startswith("cuda"):
        out["gpu"] = torch.cuda.get_device_name(torch.device(device))
    return out


def execute(run, train: bool, weights: Path, quick: bool):
    """Train ``run`` (or load its weights) and analyse it if the study asks; returns
    (training result or None, analysis or None)."""
    import torch

    from scripts.study.plan import describe_config
    from stacklib.charlm.analysis import describe
    from stacklib.charlm.jobs import fit
    from stacklib.charlm.plays import play_bpc
    from stacklib.lm.model import LM

    torch.set_num_threads(1)
    corpus, texts = _corpus(quick)
    result = None
    if train:
        model, result = fit(run.job, texts)
        result["machine"] = machine(run.job.train.device)
        weights.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        torch.save(model.state_dict(), buffer)
        weights.write_bytes(buffer.getvalue())
    else:
        model = LM(run.job.model)
        model.load_state_dict(torch.load(weights, weights_only=True))
    analysis = {}
    if "layers" in run.analyse:
        analysis.update(describe(model, corpus, texts.test, describe_config(quick)))
    if "plays" in run.analyse:
        analysis["test_plays"] = play_bpc(model, corpus, limit=1_000 if quick else None)
    return result, analysis or None


# ---------------------------------------------------------------- the study, orchestrated
def cost(run) -> float:
    """Rough seconds of a run (to start the longest first)."""
    m = run.job.model
    return run.job.train.max_steps * m.num_layers * (m.hidden_size + 64) ** 2


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def write(path: Path, record: dict) -> None:
    from scripts.generation.write import non_finite_as_none, write_json

    write_json(path, non_finite_as_none(record))  # a diverged run's last norms: null


# What a re-run must reproduce of the record it replaces: everything but the key, the timings
# and the fields a newer runner adds.
TIMINGS = {"key", "analysis_key", "cpu_seconds", "seconds", "steps_run", "config", "machine"}


def differences(old: dict, new: dict) -> list[str]:
    """The fields in which a re-run's record differs from the one it replaces (as stored)."""
    from scripts.generation.write import json_text, non_finite_as_none

    new = json.loads(json_text(non_finite_as_none(new)))
    out = []
    for part in (None, "history"):
        a, b = (old, new) if part is None else (old.get(part, {}), new.get(part, {}))
        for field in sorted((set(a) & set(b)) - TIMINGS - {"history", "analysis"}):
            if a[field] != b[field]:
                out.append(field if part is None else f"{part}.{field}")
    return out


def pending(runs, out: Path, weights: Path, quick: bool = False):
    """(run, needs training, needs analysis) for every run whose file is not current."""
    todo = []
    for run in runs:
        record = read(out / f"{run.name}.json")
        key = training_key(run, quick)
        trained = record.get("key") == key
        akey = analysis_key(run, key) if run.analyse else None
        analysed = not run.analyse or (trained and record.get("analysis_key") == akey)
        if trained and analysed:
            continue
        retrain = not trained or not (weights / f"{key}.pt").is_file()
        todo.append((run, retrain, key, akey))
    return todo


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


def on_device(runs, device: str):
    """The runs trained on ``device`` (each record names the device it was trained on)."""
    return [dataclasses.replace(run, job=dataclasses.replace(
        run.job, train=dataclasses.replace(run.job.train, device=device))) for run in runs]


def execute_if_pending(run, retrain: bool, out: Path, weights: Path, quick: bool):
    """``execute``, unless the run's record became current after the list was made (another
    runner on the same folder wrote it): then None, and nothing trains twice."""
    if not pending([run], out, weights, quick):
        return None
    key = training_key(run, quick)
    return execute(run, retrain, weights / f"{key}.pt", quick)


def train_all(todo, out: Path, weights: Path, workers: int, quick: bool) -> None:
    """Train (or analyse) every pending run in a pool of single-threaded workers, longest
    first, writing each record as soon as its run ends."""
    # Spawned workers start with this process's environment: WORKER_ENV while the pool runs.
    with (patch.dict(os.environ, WORKER_ENV),
          ProcessPoolExecutor(max(1, workers), mp_context=get_context("spawn")) as pool):
        futures = {pool.submit(execute_if_pending, run, retrain, out, weights, quick):
                   (run, key, akey)
                   for run, retrain, key, akey in sorted(todo, key=lambda t: -cost(t[0]))}
        for done, future in enumerate(as_completed(futures), 1):
            run, key, akey = futures[future]
            if (outcome := future.result()) is None:
                print(f"  [{done}/{len(todo)}] {run.name}: written meanwhile by another "
                      "runner; not trained again", flush=True)
                continue
            result, analysis = outcome
            path = out / f"{run.name}.json"
            previous = read(path)
            record = previous if result is None else {
                "name": run.name, "group": run.group, "key": key, **result}
            if run.analyse:
                record.update(analysis_key=akey, analysis=analysis)
            write(path, record)
            print(f"  [{done}/{len(todo)}] {report(run, record, previous, result)}", flush=True)


def report(run, record: dict, previous: dict, result) -> str:
    """One line on a finished run: its scores, steps, why it stopped, and whether it
    reproduced the record it replaced."""
    again = ""
    if result is not None and previous:
        changed = differences(previous, record)
        again = ("; reproduces its previous record" if not changed else
                 f"; its previous record (test {previous.get('test_bpc')} bpc) differs in "
                 f"{len(changed)} fields: {', '.join(changed[:6])}")
    score = (f"test {record['test_bpc']:.4f} bpc" if record.get("test_bpc") is not None
             else f"validation {record['val_bpc']:.4f} bpc")
    return (f"{run.name}: {score}, {record['steps']} steps ({record['history']['stopped']}), "
            f"{record['history']['seconds']:.0f} s{again}")


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
