"""A study run's speed with glibc's default memory settings and with the study workers' ones
(WORKER_ENV of scripts/experiments/shakespeare.py), side by side (not a test).

One of the study's models (3 x 128 plain LSTM, batches of 32 x 100 characters, one thread)
trains the same steps from the same seed in two fresh processes per round, one with each
environment, in alternating order. Printed: each setting's median wall, user and system
seconds, minor page faults and peak memory; the median over rounds of the ratio of their wall
times (neighbours in time, so the machine's load swings cancel); and whether both reached
the same validation loss bit for bit (memory settings must not change a number).

    python -m scripts.benchmarks.allocator                  # about two minutes
    python -m scripts.benchmarks.allocator --steps 100 --rounds 2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import statistics
import subprocess
import sys
import time

from scripts.experiments.shakespeare import ROOT, WORKER_ENV

SETTINGS = ("default", "study")


def environment(setting: str) -> dict:
    """Both settings run one thread; only the study's memory settings differ."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    env["OMP_NUM_THREADS"] = WORKER_ENV["OMP_NUM_THREADS"]
    return {**env, **WORKER_ENV} if setting == "study" else env


def train_once(steps: int, quick: bool) -> dict:
    """In the child process: train, and report the resources this process used doing it."""
    from stacklib.charlm.jobs import Texts
    from stacklib.charlm.study import base_config, quick_base, quick_texts
    from stacklib.charlm.train import train
    from stacklib.corpus import shakespeare

    corpus = shakespeare()
    texts = Texts.of(corpus)
    vocab = len(corpus.vocab)
    if quick:
        texts, base = quick_texts(texts), quick_base(vocab)
    else:
        base = base_config(vocab)
    cfg = dataclasses.replace(base, model=dataclasses.replace(base.model, num_layers=3),
                              max_steps=steps, eval_every=steps, grad_every=0)
    before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    # one score at the end, on part of the validation plays: it only has to agree across runs
    _, history = train(cfg, texts.train, texts.validation[:20_000])
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {"wall": time.perf_counter() - start, "user": after.ru_utime - before.ru_utime,
            "sys": after.ru_stime - before.ru_stime, "faults": after.ru_minflt - before.ru_minflt,
            "peak_mib": after.ru_maxrss / 1024, "val_bpc": history.val_bpc[-1],
            "model": f"{cfg.model.num_layers} x {cfg.model.hidden_size}"}


def measure(setting: str, steps: int, quick: bool) -> dict:
    cmd = [sys.executable, "-m", "scripts.benchmarks.allocator", "--child",
           "--steps", str(steps), *(["--quick"] if quick else [])]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT,
                         env=environment(setting))
    return json.loads(run.stdout.splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=300, help="training steps per run")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each setting")
    ap.add_argument("--quick", action="store_true", help="the study's tiny quick-mode model")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    for name in ("steps", "rounds"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.child:
        print(json.dumps(train_once(args.steps, args.quick)))
        return 0
    results = {setting: [] for setting in SETTINGS}
    for k in range(args.rounds):
        order = SETTINGS if k % 2 == 0 else SETTINGS[::-1]
        round_ = {setting: measure(setting, args.steps, args.quick) for setting in order}
        for setting in SETTINGS:
            results[setting].append(round_[setting])
    lines, same = report(results, args.steps)
    print("\n".join(lines))
    return 0 if same else 1


def report(results: dict, steps: int) -> tuple[list[str], bool]:
    """The printed lines for each setting's runs (round k of each ran side by side), and
    whether every run reached the same validation loss."""
    runs = results[SETTINGS[0]]
    lines = [f"{steps} training steps of {runs[0]['model']}, {len(runs)} round(s), "
             "median per setting"]
    for setting in SETTINGS:
        med = {key: statistics.median(r[key] for r in results[setting])
               for key in ("wall", "user", "sys", "faults", "peak_mib")}
        lines.append(f"{setting:<8} wall {med['wall']:6.1f} s  user {med['user']:6.1f} s  "
                     f"sys {med['sys']:5.1f} s  {med['faults']:>10,.0f} minor faults  "
                     f"peak {med['peak_mib']:.0f} MiB")
    pairs = zip(results["default"], results["study"], strict=True)
    ratio = statistics.median(default["wall"] / study["wall"] for default, study in pairs)
    lines.append(f"default / study wall time: {ratio:.2f}x (median of rounds)")
    losses = {r["val_bpc"] for rs in results.values() for r in rs}
    same = len(losses) == 1
    lines.append("same validation loss in every run: "
                 + ("yes" if same else f"NO ({sorted(losses)})"))
    return lines, same


if __name__ == "__main__":
    sys.exit(main())
