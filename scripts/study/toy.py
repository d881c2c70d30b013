"""The toy studies' results over their seeds, with the spread every page uses.

The records come from ``stacklib.experiments`` (``depth_width``, ``probes``, ``depth_data``),
which keep every seed's score. Their own ``std`` fields are population standard deviations;
the pages read these sample standard deviations instead (``summary.spread``), so that a
table's ± means the same on every page.
"""

from __future__ import annotations

import numpy as np

from scripts.study.summary import spread


def agreement(arm: dict) -> dict:
    """One ``depth_width`` arm's held-out agreement over its seeds: {"all", "mismatch"}, each
    a spread."""
    return {"all": spread(arm["heldout_agreement"]),
            "mismatch": spread(arm["heldout_agreement_mismatch"])}


def probe_sd(model: dict) -> dict:
    """Per feature, each layer's probe accuracy: its standard deviation over the seeds."""
    return {feature: [spread(layer)["sd"] for layer in np.asarray(per_seed).T]
            for feature, per_seed in model["accuracy_per_seed"].items()}


def grid(depth_data: dict, split: str, metric: str) -> dict:
    """A ``depth_data`` result's ``metric`` ("loss", "error") on ``split`` ("train", "heldout",
    or "gap": held-out minus training, run by run) over the seeds of each (depth, training-set
    size): {"mean", "sd"}, each indexed [depth][size]."""
    def value(run):
        if split == "gap":
            return run[f"heldout_{metric}"] - run[f"train_{metric}"]
        return run[f"{split}_{metric}"]

    cells: dict = {}
    for run in depth_data["runs"]:
        cells.setdefault((run["num_layers"], run["n_train"]), []).append(value(run))
    spreads = [[spread(cells[d, n]) for n in depth_data["sizes"]] for d in depth_data["depths"]]
    return {key: [[s[key] for s in row] for row in spreads] for key in ("mean", "sd")}
