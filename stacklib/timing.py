"""Wall-clock timing of several functions side by side: in turns, in one process.

Every function is called once to warm up; then every round times each of them ``reps`` times in
a row, in an order that rotates from round to round, and the median over rounds is kept. A busy
machine slows every function of a round alike, so the ratios between them are the result; the
milliseconds hold only for the machine and moment they were measured on. The toy latency
experiment and the character models' timing both measure through ``time_in_turns``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def time_in_turns(fns: dict[str, Callable[[], object]], rounds: int,
                  reps: int) -> dict[str, float]:
    """Median milliseconds per call of each function, timed in rotating turns."""
    names, samples = list(fns), {n: [] for n in fns}
    for name in names:
        fns[name]()                                     # warm-up
    for r in range(rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            start = time.perf_counter()
            for _ in range(reps):
                fns[name]()
            samples[name].append((time.perf_counter() - start) / reps * 1e3)
    return {n: statistics.median(s) for n, s in samples.items()}
