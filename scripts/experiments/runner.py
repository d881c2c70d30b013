"""Run the lecture's trained toy experiments (stacklib.experiments) into generated/experiments/.

Each experiment is one entry of the generation cache (scripts/generation/cache.py): its inputs
key covers the stacklib modules the experiment imports, and its config. Only experiments whose
key changed, or whose file is missing or was edited, run again. A timing (an experiment whose
config says what it ``timed``: latency) is keyed by what it times alone, the models' shapes and
its settings: timed again on a loaded machine, it would change ratios the pages describe, so
it is re-measured only when those change or when asked (``--only latency --force``).

Every model the stale experiments need is trained first, in a pool of worker processes (longest
first; each job is a pure function of its config and single-threaded, so results do not depend
on the scheduling); the experiments then run here, reading the trained models from the memo.
Results hold no timings (except the latency experiment's measurements): durations go to
``_timings.json`` beside them (per experiment: duration_s after training, training_s and
training_cpu_s = its models' wall and CPU seconds in the workers, shared models counted in each).
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from scripts.generation.cache import DOCS, ROOT, Manifest, inputs_key
from scripts.generation.write import write_json
from stacklib.experiments import REGISTRY, config_of, run_experiment
from stacklib.experiments.common import Timer

FOLDER = "generated/experiments"


def entry(name: str) -> str:
    """The experiment's name in the manifest."""
    return f"experiments/{name}"


def experiment_key(name: str, tiny: bool = False, root: Path = ROOT) -> str:
    """Inputs key of one experiment with its default (or tiny) config (``config_key``)."""
    return config_key(name, config_of(name, tiny), root)


def config_key(name: str, config, root: Path = ROOT) -> str:
    """Inputs key of experiment ``name`` run with ``config``: the stacklib modules it imports,
    and the config; for a timing, what it times (``config.timed()``) and nothing else.

    This runner and the JSON writer are not part of it: they change how results are written,
    not what they are, and an experiment is not re-run for that.
    """
    if hasattr(config, "timed"):
        return inputs_key(extra=json.dumps(config.timed(), sort_keys=True), root=root)
    modules = [REGISTRY[name][0], "stacklib.experiments"]
    return inputs_key(modules, extra=repr(config), root=root)


def _cost(job) -> int:
    """Rough cost of a training job, to start the longest first."""
    return job.steps * job.num_layers * (job.batch_size + 32)


def _pretrain(names: list[str], tiny: bool, pool) -> dict[str, tuple[float, float]]:
    """Train every model the experiments need in the pool, then memoise them here.

    Returns the training (wall, CPU) seconds, summed over its models, of each experiment.
    """
    from stacklib.experiments import agreement

    needs = {n: config_of(n, tiny).train_jobs() for n in names}
    jobs = sorted(dict.fromkeys(j for js in needs.values() for j in js), key=_cost, reverse=True)
    seconds = {}
    for job, (state, hist, *sec) in zip(jobs, pool.map(agreement.train_state, jobs),
                                          strict=True):
        agreement.remember(job, state, hist)
        seconds[job] = sec
    return {n: tuple(sum(seconds[j][i] for j in js) for i in (0, 1))
            for n, js in needs.items() if js}


def run(names: list[str] | None = None, *, docs: Path = DOCS, force: bool = False,
        tiny: bool = False, workers: int = 2, log=print) -> list[str]:
    """Run the stale experiments among `names` (default all) into docs/generated/experiments/;
    returns the names that ran. `tiny` runs each experiment's smoke-test config."""
    start = time.perf_counter()
    manifest = Manifest(docs)
    wanted = names or list(REGISTRY)
    keys = {n: experiment_key(n, tiny) for n in wanted}
    todo = [n for n in wanted if force or not manifest.up_to_date(entry(n), keys[n])]
    if not todo:
        log(f"  experiments: {len(wanted)} cached")
        return []
    log("  experiments: running " + ", ".join(todo))
    results: dict[str, dict] = {}
    # latency times models: it runs alone, after the pool, so nothing of ours competes
    untrained = [n for n in todo if not config_of(n, tiny).train_jobs() and n != "latency"]
    with ProcessPoolExecutor(max(1, workers), mp_context=get_context("spawn")) as pool:
        futures = {n: pool.submit(run_experiment, n, tiny) for n in untrained}
        with Timer() as pre:
            training = _pretrain(todo, tiny, pool)
        log(f"  training (pool of {workers}): {pre.seconds:.1f} s")
        for name in todo:  # evaluations and probes: their models come from the memo
            if name not in futures and name != "latency":
                results[name] = run_experiment(name, tiny)
        results.update({n: f.result() for n, f in futures.items()})
    if "latency" in todo:
        results["latency"] = run_experiment("latency", tiny)
    timings_path = docs / FOLDER / "_timings.json"
    timings = json.loads(timings_path.read_text()) if timings_path.is_file() else {}
    for name, result in results.items():
        wall, cpu = training.get(name, (0.0, 0.0))
        timings[name] = {"duration_s": round(result.pop("duration_s"), 2),
                         "training_s": round(wall, 2), "training_cpu_s": round(cpu, 2)}
        rel = f"{FOLDER}/{name}.json"
        write_json(docs / rel, result)
        manifest.record(entry(name), keys[name], [rel])
        manifest.save()  # after each experiment: an interrupted run keeps its progress
        log(f"  {name}: {timings[name]}")
    timings["_last_run"] = {"ran": sorted(results), "wall_s": round(time.perf_counter() - start, 2),
                            "training_s": round(pre.seconds, 2),
                            "cpu_s_main": round(time.process_time(), 2),
                            "workers": workers, "cpus": os.cpu_count()}
    write_json(timings_path, timings)
    return sorted(results)
