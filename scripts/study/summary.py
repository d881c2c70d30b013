"""From the study's run records to what the pages show: means and spreads over seeds.

A record is what the runner stored for one run (``jobs.fit``'s result plus ``name``, ``group``
and, for analysed runs, ``analysis``). Every summary below reports, per configuration, the mean
and the sample standard deviation over its seeds (``spread``), and keeps each seed's value as
well, so a page can show the spread itself. Comparing two shapes is ``scripts.study.verdict``'s
alone.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import pairwise

import numpy as np

from scripts.study.verdict import compare, slope

# How far back from a run's end "still improving" looks, in steps.
LATE_WINDOW = 1000

TAIL = 50  # characters after a change at which the pages read what is left of it


def config_name(record: dict) -> str:
    """The run's name without its seed: "L3-h128-res-s2" -> "L3-h128-res"."""
    return record["name"].rsplit("-s", 1)[0]


def spread(values) -> dict:
    """{"mean", "sd", "values"} over seeds: ``sd`` is the sample standard deviation (ddof 1),
    the spread the comparison's intervals use, so a table and its verdict agree."""
    vals = [float(v) for v in values]
    return {"mean": float(np.mean(vals)), "sd": float(np.std(vals, ddof=1)), "values": vals}


def by_config(records: list[dict], group: str) -> dict[str, list[dict]]:
    """The records of one group, grouped by configuration, seeds in order."""
    out: dict[str, list[dict]] = defaultdict(list)
    for r in sorted(records, key=lambda r: r["config"]["seed"]):
        if r["group"] == group:
            out[config_name(r)].append(r)
    return dict(out)


def _model(record: dict) -> dict:
    return record["config"]["model"]


def curve(runs: list[dict]) -> dict:
    """Validation bpc by step: each seed's curve, and the mean over the seeds still training
    at that step (a run that stopped early counts with nothing after its stop)."""
    steps = sorted({s for r in runs for s in r["history"]["steps"]})
    per_seed = [dict(zip(r["history"]["steps"], r["history"]["val_bpc"], strict=True))
                for r in runs]
    mean = [float(np.mean([c[s] for c in per_seed if s in c])) for s in steps]
    return {"step": steps, "val_bpc": [[c.get(s) for s in steps] for c in per_seed],
            "mean": mean}


def trained(runs: list[dict]) -> dict:
    """What every trained configuration reports: sizes, scores, how long and why it stopped."""
    first = runs[0]
    return {"layers": _model(first)["num_layers"], "hidden": _model(first)["hidden_size"],
            "residual": _model(first)["residual"], "params": first["params"],
            "seeds": [r["config"]["seed"] for r in runs],
            "test_bpc": spread(r["test_bpc"] for r in runs),
            "val_bpc": spread(r["val_bpc"] for r in runs),
            "train_bpc": spread(r["train_bpc"] for r in runs),
            "steps": [r["steps"] for r in runs], "epochs": spread(r["epochs"] for r in runs),
            "stopped": [r["history"]["stopped"] for r in runs],
            "cap": first["config"]["max_steps"], "early": [stopped_early(r) for r in runs],
            "late_gain": [late_gain(r) for r in runs],
            "lr_halvings": [lr_halvings(r) for r in runs],
            "seconds": spread(r["history"]["seconds"] for r in runs),
            "curve": curve(runs)}


def stopped_early(run: dict) -> bool:
    """Whether validation stopped a run before its step cap. A run whose patience ran out at
    the cap's own step had every step the cap allowed, so it counts as capped."""
    return run["history"]["stopped"] == "patience" and run["steps"] < run["config"]["max_steps"]


def lr_halvings(run: dict) -> int:
    """How many times a run's learning rate was lowered (once per score without a new best)."""
    return sum(after < before for before, after in pairwise(run["history"]["lr"]))


def late_gain(run: dict, window: int = LATE_WINDOW) -> float | None:
    """How much a run's best validation bpc improved in its last ``window`` steps: near zero
    for a run that had converged when it stopped, at the step cap or not (None: the run was
    not scored that long before its end)."""
    steps = run["history"]["steps"]
    if steps[-1] - window < steps[0]:
        return None
    return best_before(run, steps[-1] - window) - best_before(run, steps[-1])


def best_before(run: dict, step: int) -> float:
    """The best validation bpc a run had scored by ``step``."""
    scores = [v for s, v in zip(run["history"]["steps"], run["history"]["val_bpc"],
                                strict=True) if s <= step]
    return min(scores) if scores else math.nan


def crossing(a: dict, b: dict) -> int | None:
    """The last step at which the mean curves of ``a`` and ``b`` swap order (None: never)."""
    common = [s for s in a["step"] if s in b["step"]]
    diff = [a["mean"][a["step"].index(s)] - b["mean"][b["step"].index(s)] for s in common]
    swaps = [common[i] for i in range(1, len(diff)) if np.sign(diff[i]) != np.sign(diff[i - 1])]
    return swaps[-1] if swaps else None


def _geomean(values) -> float:
    return float(np.exp(np.mean(np.log(values))))


def share_left(curve: list[float], after: int = TAIL) -> float:
    """The share of a decay curve's peak still there ``after`` characters after the change."""
    return curve[after] / max(curve)


def timescale_summary(runs: list[dict]) -> dict:
    """Per state ("h", "c") and layer, over seeds: the half-life (characters; a curve that did
    not halve within the horizon counts as the horizon, and ``never_halved`` says how often),
    the peak, the share of its peak each seed's curve keeps ``TAIL`` characters after the
    change (``left``), and the mean decay curve; per layer, the step size of h."""
    out = {}
    for state in ("h", "c"):
        ts = [r["analysis"]["timescales"][state] for r in runs]
        layers, horizon = len(ts[0]["curve"]), len(ts[0]["curve"][0])
        half = [[horizon if t["half_life"][l] is None else t["half_life"][l] for t in ts]
                for l in range(layers)]
        out[state] = {"half_life": [spread(h) for h in half],
                      "never_halved": [sum(t["half_life"][l] is None for t in ts)
                                       for l in range(layers)],
                      "peak": [spread(t["peak"][l] for t in ts) for l in range(layers)],
                      "left": [spread(share_left(t["curve"][l]) for t in ts)
                               for l in range(layers)],
                      "curve": np.mean([t["curve"] for t in ts], axis=0).tolist()}
    out["step_size"] = [spread(r["analysis"]["step_sizes"][l] for r in runs)
                        for l in range(len(runs[0]["analysis"]["step_sizes"]))]
    return out


def bottom_over_top(runs: list[dict]) -> dict:
    """Layer 1's weight-gradient norm over the top layer's at every recorded step, each seed's
    (None once a seed has stopped): how much of the gradient reaches the bottom of a stack
    while it trains."""
    steps = sorted({s for r in runs for s in r["history"]["grad_steps"]})
    per_seed = [dict(zip(r["history"]["grad_steps"],
                         (w[0] / w[-1] for w in r["history"]["weight_grad"]), strict=True))
                for r in runs]
    return {"step": steps, "values": [[c.get(s) for s in steps] for c in per_seed]}


def gradient_summary(runs: list[dict], clip: float) -> dict:
    """How the gradient reached each layer during training (the runs that recorded it): the
    geometric mean over seeds of each layer's weight-gradient norm at every recorded step, the
    bottom-to-top ratio over the whole run, and how often the whole gradient exceeded ``clip``
    (where clipping is on, the steps it rescaled)."""
    hist = [r["history"] for r in runs]
    steps = min((h["grad_steps"] for h in hist), key=len)
    n = len(steps)
    weight = np.array([h["weight_grad"][:n] for h in hist])            # (seeds, n, L)
    total = np.array([h["grad_norm"][:n] for h in hist])               # (seeds, n)
    finite = np.all(np.isfinite(weight), axis=(1, 2))
    w = weight[finite]
    return {"steps": steps,
            "weight_grad": np.exp(np.log(w).mean(axis=0)).tolist() if len(w) else None,
            "bottom_over_top": spread(_geomean(s[:, 0] / s[:, -1]) for s in w),
            "over_clip": spread(np.mean(t > clip) for t in total[finite]),
            "max_grad_norm": spread(np.max(t) for t in total[finite]),
            "diverged": int(sum(h["stopped"] == "diverged" for h in hist))}


def versus(deep: dict, wide: dict):
    """A deep shape's test bpc against the wide layer's at the same budget, by the lecture's one
    comparison (``scripts.study.verdict.compare``)."""
    return compare(deep["test_bpc"]["values"], wide["test_bpc"]["values"])


def scale_summary(configs: dict[str, list[dict]], budgets: dict) -> dict:
    """Depth against width across budgets (``study.budgets``): for the LSTM at every budget,
    smallest first, each shape's results (``trained``, without its curve) and each deeper
    shape's comparison with the one wide layer (``versus``: the difference with its intervals
    and its word); the same for the GRU shapes at the reference budget. ``trend``: each deeper
    LSTM shape's difference per doubling of the budget (``verdict.slope``). A budget's size is
    its wide layer's whole-model parameters."""
    def row(shapes: dict) -> tuple[dict, dict]:
        results = {}
        for shape, name in shapes.items():
            results[shape] = {k: v for k, v in trained(configs[name]).items() if k != "curve"}
            results[shape]["name"] = name
        wide = next(c for c in results.values() if c["layers"] == 1)
        comparisons = {shape: versus(c, wide) for shape, c in results.items() if c is not wide}
        return ({"params": wide["params"], "shapes": results,
                 "versus_wide": {s: c.as_dict() for s, c in comparisons.items()}}, comparisons)

    lstm = [(float(scale), *row(shapes)) for scale, shapes in sorted(budgets["lstm"].items())]
    deeper = {shape for _, _, comparisons in lstm for shape in comparisons}
    trend = {}
    for shape in sorted(deeper):
        at = [(scale, comparisons[shape]) for scale, _, comparisons in lstm
              if shape in comparisons]
        if len(at) > 1:
            trend[shape] = slope([scale for scale, _ in at], [c for _, c in at])
    return {"lstm": [{"scale": scale, **summary} for scale, summary, _ in lstm],
            "gru": row(budgets["gru"])[0], "trend": trend}


def study_summary(records: list[dict], layout: dict) -> dict:
    """Everything the pages show of the study, per group (see ``scripts.study.plan``).

    ``layout`` names what the records alone do not say (``study.layout``): the budget group's
    reference configuration, the clipping threshold, the short runs' length, and for the lr
    group the configuration trained at each (layers, learning rate).
    """
    groups = {g: by_config(records, g) for g in ("depth", "budget", "data", "deep")}
    depth = {name: trained(runs) for name, runs in groups["depth"].items()}
    for name, runs in groups["depth"].items():
        if all("analysis" in r for r in runs):
            depth[name]["timescales"] = timescale_summary(runs)
            depth[name]["samples"] = [r["analysis"]["sample"]["text"] for r in runs]
        if depth[name]["layers"] > 1:
            depth[name]["bottom_over_top"] = bottom_over_top(runs)
    budget = {name: trained(runs) for name, runs in groups["budget"].items()}
    budget[layout["reference"]] = depth[layout["reference"]]
    data = {name: {**trained(runs), "train_chars": runs[0]["train_chars"]}
            for name, runs in groups["data"].items()}
    deep = {name: {**trained(runs), "gradients": gradient_summary(runs, layout["clip"])}
            for name, runs in groups["deep"].items()}
    configs = {config_name(r): [] for r in records}
    for r in sorted(records, key=lambda r: r["config"]["seed"]):
        configs[config_name(r)].append(r)
    rates = {layers: {lr: spread(best_before(r, layout["short_steps"]) for r in configs[name])
                      for lr, name in by_rate.items()}
             for layers, by_rate in layout["rates"].items()}
    return {"depth": depth, "reference": layout["reference"],
            "budget": dict(sorted(budget.items(), key=lambda kv: kv[1]["layers"])),
            "data": data, "deep": deep,
            "lr": {"steps": layout["short_steps"], "val_bpc": rates},
            "scale": scale_summary(configs, layout["budgets"])}
