"""A character-LM study's runs, trained and recorded: each run's key, the work done in a
single-threaded worker, and the pool that keeps one record per run.

The Shakespeare study (scripts/experiments/shakespeare.py) and the tuned study
(scripts/experiments/tuned.py) plan their runs (scripts.study) and hand them here. A run's key
(scripts/experiments/run_key.py) is what its numbers are a function of: its configuration, the
code of the model and of the loop, the texts it reads, and the torch and NumPy versions. A run
whose record holds the current key is not trained again, so a study continues where it stopped,
in this session or a later one, and a re-run says whether it reproduced the record it replaces.
The trained weights go to .cache/shakespeare/<training key>.pt (not committed); the analyses
(timescales, samples, per-play scores) are keyed apart and re-run from them when only their code
changes. Each run is a pure function of its configuration, so the results do not depend on the
scheduling.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from unittest.mock import patch

from scripts.experiments.run_key import data_digest, run_key
from scripts.generation.cache import ROOT, inputs_key

WEIGHTS = ROOT / ".cache" / "shakespeare"  # every study's trained weights, by training key
# The workers' environment. One thread each: two workers on two cores, none oversubscribed.
# glibc would hand a training step's large freed tensors back to the kernel and map them anew
# the next step, paying a page fault for every page; these thresholds keep freed memory in the
# process (same numbers, same peak memory, a faster run; other C libraries ignore them).
WORKER_ENV = {"OMP_NUM_THREADS": "1", "MALLOC_MMAP_THRESHOLD_": str(256 << 20),
              "MALLOC_TRIM_THRESHOLD_": str(256 << 20)}
ANALYSIS_MODULES = ("stacklib.charlm.analysis", "stacklib.charlm.plays")


def versions() -> dict[str, str]:
    """The versions a trained model's arithmetic depends on: torch's release and NumPy's (the
    library's own code is hashed instead, and the corpus by its texts). torch's build tag
    ("+cpu", "+cu126") is left out: it says which devices the build can drive, and a run's
    config names the device it trained on, so a CUDA build and the CPU build share records."""
    from stacklib.experiments.common import versions as library_versions

    library = library_versions()
    return {"torch": library["torch"].split("+")[0], "numpy": library["numpy"]}


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


def _agrees(old, new) -> bool:
    """Whether a stored value and a re-run's agree to the decimals the stored one kept (older
    records rounded their floats more coarsely)."""
    if isinstance(old, float) and isinstance(new, float) and "e" not in repr(old):
        return round(new, len(repr(old).split(".")[1])) == old
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(map(_agrees, old, new))
    return old == new


def differences(old: dict, new: dict) -> list[str]:
    """The fields in which a re-run's record differs from the one it replaces (as stored)."""
    from scripts.generation.write import json_text, non_finite_as_none

    new = json.loads(json_text(non_finite_as_none(new)))
    out = []
    for part in (None, "history"):
        a, b = (old, new) if part is None else (old.get(part, {}), new.get(part, {}))
        for field in sorted((set(a) & set(b)) - TIMINGS - {"history", "analysis"}):
            if not _agrees(a[field], b[field]):
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


def on_device(runs, device: str):
    """The runs trained on ``device`` (each record names the device it was trained on)."""
    return [dataclasses.replace(run, job=dataclasses.replace(
        run.job, train=dataclasses.replace(run.job.train, device=device))) for run in runs]


def execute_if_pending(run, retrain: bool, out: Path, weights: Path, quick: bool):
    """``execute``, unless the run's record became current after the list was made (another
    runner on the same folder wrote it): then None, and it is not trained again."""
    if not pending([run], out, weights, quick):
        return None
    key = training_key(run, quick)
    return execute(run, retrain, weights / f"{key}.pt", quick)


def schedule(todo, first=None) -> list:
    """The pending runs in the order the pool takes them up: by ``first(run)`` where a study
    ranks its runs (lowest first), then longest first, so the last runs to start are short."""
    return sorted(todo, key=lambda t: (first(t[0]) if first else 0, -cost(t[0])))


def train_all(todo, out: Path, weights: Path, workers: int, quick: bool, first=None) -> None:
    """Train (or analyse) every pending run in a pool of single-threaded workers, in the order
    of ``schedule``, writing each record as soon as its run ends."""
    # Spawned workers start with this process's environment: WORKER_ENV while the pool runs.
    with (patch.dict(os.environ, WORKER_ENV),
          ProcessPoolExecutor(max(1, workers), mp_context=get_context("spawn")) as pool):
        futures = {pool.submit(execute_if_pending, run, retrain, out, weights, quick):
                   (run, key, akey)
                   for run, retrain, key, akey in schedule(todo, first)}
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


