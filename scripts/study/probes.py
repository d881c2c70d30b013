"""From the probes' results (``scripts/experiments/shakespeare_probes.py``) to what the page says.

Per stack (a configuration trained with several seeds) and feature: each layer's score as mean,
standard deviation and every seed's value (``summary.spread``), trained and untrained; which
layer holds the feature best, and which layers it cannot be told apart from. Two layers are
told apart only as any two results are (``scripts.study.verdict.compare``): when the 95 %
interval of the difference of their means excludes 0.
"""

from __future__ import annotations

import numpy as np

from scripts.study.summary import spread
from scripts.study.verdict import compare


def runs_of(probes: dict, config: str) -> list[str]:
    """The runs ``config``-s0, -s1, ... in seed order."""
    runs = sorted((name for name in probes["runs"] if name.rsplit("-s", 1)[0] == config),
                  key=lambda name: int(name.rsplit("-s", 1)[1]))
    if not runs:
        raise ValueError(f"config: no runs of {config!r} among {sorted(probes['runs'])}")
    return runs


def scores(probes: dict, config: str, feature: str, state: str = "trained") -> np.ndarray:
    """(seeds, layers) scores of ``feature`` in the runs of ``config``."""
    return np.array([probes["runs"][name][state]["scores"][feature]
                     for name in runs_of(probes, config)])


def ranking(table: np.ndarray) -> dict:
    """The layer (1-based) with the best mean, and the layers the seeds cannot tell from it
    (ties, itself included); ``clear``: it is apart from every other layer."""
    best = int(np.argmax(table.mean(axis=0)))
    ties = [k + 1 for k in range(table.shape[1])
            if k == best or not compare(table[:, k], table[:, best]).apart]
    return {"best": best + 1, "ties": ties, "clear": ties == [best + 1]}


def stack_summary(probes: dict, config: str) -> dict:
    """Per feature: every layer's score (trained, untrained) over the seeds, and the ranking."""
    out = {}
    for feature in probes["features"]:
        trained = scores(probes, config, feature)
        untrained = scores(probes, config, feature, "untrained")
        out[feature] = {"layers": [spread(col) for col in trained.T],
                        "untrained": [spread(col) for col in untrained.T],
                        # is each layer's trained score apart from, and above, its untrained one?
                        "learned": [bool(c.apart and c.diff > 0) for c in
                                    (compare(a, b) for a, b in zip(trained.T, untrained.T,
                                                                   strict=True))],
                        **ranking(trained)}
    return out


def cells_summary(probes: dict, config: str) -> dict:
    """Per feature and layer: the most selective cell's score on the test plays, over seeds."""
    cells = [probes["runs"][name]["trained"]["cells"] for name in runs_of(probes, config)]
    return {feature: [spread([c[feature][layer]["test"] for c in cells])
                      for layer in range(len(cells[0][feature]))]
            for feature in probes["features"]}
