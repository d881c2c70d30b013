"""Run the tuned study (scripts/study/tuned.py): the same search for every shape, then the
verdict's runs on fresh seeds.

    python -m scripts.experiments.tuned                # every stage the verdict needs, in order
    python -m scripts.experiments.tuned --upto x4      # ... and the 4x arm (where compute allows)
    python -m scripts.experiments.tuned --upto x1      # stop after the reference budget's runs
    python -m scripts.experiments.tuned --list         # the runs, which are current, CPU-hours
    python -m scripts.experiments.tuned --quick        # every stage on tiny models (tests)
    python -m scripts.experiments.tuned --device cuda  # train on a GPU (records name it)

Each stage's runs follow from the records of the stage before (A's best settings go on to A2,
A2's winner to B, B's winners and stopping steps to the final runs), so the plan is drawn again
whenever a stage's records are in, until nothing is left to run. Every run writes
docs/generated/experiments/tuned/<name>.json as soon as it ends, keyed like the study's runs
(scripts/experiments/run_key.py), so an interrupted study resumes where it stopped. A record
counts as current under the key of the device it names: one trained on a GPU stays current on
a CPU-only machine (the key holds torch's release, not its build tag).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from scripts.experiments import charlm_runs as runner
from scripts.study import tuned
from scripts.study.search_space import Search

OUT = runner.ROOT / "docs" / "generated" / "experiments" / "tuned"
STAGES = ("A", "A2", "B", "x1", "deep", "C2", "x2", "C0.5", "x0.5", "C0.25", "x0.25", "C4", "x4")


def _vocab(quick: bool) -> int:
    return len(runner._corpus(quick)[0].vocab)


def current(run, out: Path, quick: bool) -> dict | None:
    """The run's record if it is current, its analyses too, under the key of the device it
    was trained on."""
    record = runner.read(out / f"{run.name}.json")
    if not record:
        return None
    run = runner.on_device([run], record.get("config", {}).get("device", run.job.train.device))
    return None if runner.pending(run, out, _weights(out, quick), quick) else record


def in_plan_order(runs):
    """A run's rank in the queue: its place in the plan, which lists the runs by priority (the
    verdict at the reference budget before depth 8; the costly 4x runs last)."""
    rank = {run.name: k for k, run in enumerate(runs)}
    return lambda run: rank[run.name]


def _weights(out: Path, quick: bool) -> Path:
    return out / "weights" if quick else runner.WEIGHTS


def state(out: Path, quick: bool, upto: str = STAGES[-1]):
    """(the runs planned so far up to stage ``upto``, their current records, the search's
    decisions)."""
    planner = tuned.quick_plan if quick else tuned.plan

    def upto_stage(vocab, records):
        runs, decided = planner(vocab, records)
        return [r for r in runs if STAGES.index(r.group) <= STAGES.index(upto)], decided

    return tuned.settle(lambda run: current(run, out, quick), _vocab(quick), upto_stage)


def listing(runs, records: dict, decided: dict, optional: set = frozenset()) -> str:
    """One line a run, then the count of current runs: those the verdict needs, and apart from
    them the ``optional`` stages' (run only where the compute allows)."""
    lines, hours = [], {}
    for run in runs:
        record = records.get(run.name)
        lines.append(f"{run.name:<36} {run.group:<6} "
                     + (f"done, {record['cpu_seconds']:.0f} CPU-s on "
                        f"{record['config'].get('device', 'cpu')}" if record
                        else "to run where the compute allows" if run.group in optional
                        else "to run"))
        if record:
            hours[run.group] = hours.get(run.group, 0) + record["cpu_seconds"] / 3600
    needed = [run.name for run in runs if run.group not in optional]
    spare = [run.name for run in runs if run.group in optional]
    count = f"{sum(n in records for n in needed)} of {len(needed)} planned runs current"
    if spare:
        stages = ", ".join(sorted({r.group for r in runs if r.group in optional}))
        count += (f"; where the compute allows, {sum(n in records for n in spare)} of "
                  f"{len(spare)} planned so far ({stages})")
    lines.append(f"{count}; their records count {sum(hours.values()):.2f} CPU-hours ("
                 + ", ".join(f"{g} {h:.2f}" for g, h in hours.items()) + ")")
    winners = {shape: w for shape, w in decided["winners"].items() if w}
    lines += [f"winner, {shape}: {w}" for shape, w in winners.items()]
    if decided["cap"]:
        lines.append(f"final runs' step cap: {decided['cap']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="list the planned runs and stop")
    ap.add_argument("--upto", choices=STAGES, default=None,
                    help="the last stage to run (default: all but those run where the compute "
                    "allows, which start only when --upto or --only names them)")
    ap.add_argument("--only", nargs="+", choices=STAGES, default=(),
                    help="of the stages up to --upto, run these only")
    ap.add_argument("--quick", action="store_true", help="tiny models on a slice of the text")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--device", default="cpu",
                    help="where the models train, as torch names it (cpu, cuda, cuda:1)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    out = args.out or (runner.ROOT / ".cache" / "tuned-quick" if args.quick else OUT)
    weights = _weights(out, args.quick)
    optional = tuned.where_compute_allows(Search.quick() if args.quick else Search())
    upto = args.upto or STAGES[-1]
    start = time.perf_counter()
    while True:
        runs, records, decided = state(out, args.quick, upto)
        if args.only:
            runs = [r for r in runs if r.group in args.only]
        elif not (args.upto or args.list):
            runs = [r for r in runs if r.group not in optional]   # they start only when named
        records = {r.name: records[r.name] for r in runs if r.name in records}
        if args.list:
            print(listing(runs, records, decided, optional))
            return 0
        todo = runner.pending(runner.on_device([r for r in runs if r.name not in records],
                                               args.device), out, weights, args.quick)
        if not todo:
            break
        stages = sorted({run.group for run, *_ in todo}, key=STAGES.index)
        print(f"tuned: {len(records)} of {len(runs)} planned runs current; running "
              f"{len(todo)} ({', '.join(stages)})", flush=True)
        runner.train_all(todo, out, weights, args.workers, args.quick,
                         first=in_plan_order(runs))
    left = (f"up to stage {upto}" if args.upto or args.only or not optional
            else f"but the stages run where the compute allows ({', '.join(sorted(optional))})")
    print(f"tuned: nothing left to run {left}; {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
