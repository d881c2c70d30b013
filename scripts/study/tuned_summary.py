"""From the tuned study's records to what the pages show: the search, the verdict, the trend.

``search_summary``   every trial of the search (stage, shape, settings, validation bpc, steps,
                     why it stopped), the winners, the final runs' step cap and how it was fixed,
                     and the rates that train well for each shape (``near_best``)
``verdict_summary``  per budget, each shape's final runs (test bpc over seeds, sample standard
                     deviation, steps, how the runs stopped) and each deeper shape against the
                     one wide layer (``verdict.compare``), play by play as well; the trend of
                     depth's difference across budgets (``verdict.slope``)
``deep_summary``     depth 8, plain against residual: each shape's final runs, their training
                     curves and how much gradient reached layer 1
``check_summary``    at each budget but the reference, its check of the carried settings:
                     what each shape scored at each rate and dropout tried, what the rule gave
                     and what the check chose; and the final runs the rule trained before it
``complete``         names the groups whose runs are all in
"""

from __future__ import annotations

import numpy as np

from scripts.study import tuned
from scripts.study.summary import gradient_summary, spread
from scripts.study.verdict import compare, slope

SEARCH_STAGES = ("A", "A2", "B")
# How close to a shape's best stage-A score a rate must come to count as one that trains well
NEAR_BEST = 0.03


def _trial(name: str, stage: str, record: dict, shape: str, planned: bool) -> dict:
    c = record["config"]
    return {"name": name, "stage": stage, "shape": shape, "lr": c["lr"],
            "forget_bias": c["model"]["forget_bias"], "dropout": c["model"]["dropout"],
            "val_bpc": record["val_bpc"], "steps": record["steps"],
            "stopped": record["history"]["stopped"], "cpu_seconds": record["cpu_seconds"],
            "planned": planned}


def search_summary(runs: list, records: dict, decided: dict, search: tuned.Search,
                   every: dict | None = None) -> dict:
    """The search as the pages show it (``runs``, ``records``, ``decided``: ``tuned.settle``'s).
    ``every`` (name -> record, all the study's records) adds the trials that the plan no longer
    holds, such as A2's runs that a wider rate grid moved out of its best three; they stay in
    the table, marked not planned."""
    planned = [r for r in runs if r.group in SEARCH_STAGES]
    trials = [_trial(run.name, run.group, records[run.name], run.shape, True)
              for run in planned]
    shape_of = {_model_key(run.job.model.flat()): run.shape for run in planned}
    names = {run.name for run in runs}
    trials += [_trial(name, rec["group"], rec, shape_of[_model_key(rec["config"]["model"])], False)
               for name, rec in sorted((every or {}).items())
               if rec.get("group") in SEARCH_STAGES and name not in names]
    rates = sorted({t["lr"] for t in trials if t["stage"] == "A"})
    b_steps = [t["steps"] for t in trials if t["stage"] == "B" and t["planned"]]
    return {"space": {"rates": rates, "first_rates": list(search.rates),
                      "forget_biases": [0.0 if b is None else b for b in search.forget_biases],
                      "probe_dropout": search.probe_dropout, "dropouts": list(search.dropouts),
                      "a_steps": search.a_steps, "a2_steps": search.a2_steps,
                      "keep": search.keep, "keep_within": search.keep_within,
                      "search_cap": search.search_cap, "cap_quantile": search.cap_quantile,
                      "cap_factor": search.cap_factor},
            "trials": trials, "winners": decided["winners"], "cap": decided["cap"],
            "near_best": near_best(trials), "near_margin": NEAR_BEST,
            "b_steps": b_steps,
            "b_at_cap": sum(t["stopped"] == "max_steps" for t in trials
                            if t["stage"] == "B" and t["planned"])}


def near_best(trials: list[dict], margin: float = NEAR_BEST) -> dict[str, list[float]]:
    """Per shape, the learning rates whose stage-A score (the better forget-gate bias) comes
    within ``margin`` bpc of the shape's best: how wide a range of rates trains it well."""
    best: dict[str, dict[float, float]] = {}
    for t in trials:
        if t["stage"] == "A" and t["val_bpc"] is not None:
            rates = best.setdefault(t["shape"], {})
            rates[t["lr"]] = min(rates.get(t["lr"], t["val_bpc"]), t["val_bpc"])
    return {shape: sorted(lr for lr, v in rates.items() if v <= min(rates.values()) + margin)
            for shape, rates in best.items()}


def _model_key(model: dict) -> tuple:
    return model["num_layers"], model["hidden_size"], model["residual"]


def final(runs: list, records: dict) -> dict:
    """One shape's final runs: what every table row needs."""
    recs = [records[r.name] for r in sorted(runs, key=lambda r: r.job.train.seed)]
    first = runs[0].job
    return {"name": runs[0].name.rsplit("-s", 1)[0], "shape": runs[0].shape,
            "layers": first.model.num_layers,
            "hidden": first.model.hidden_size, "residual": first.model.residual,
            "params": recs[0]["params"], "lr": first.train.lr, "dropout": first.model.dropout,
            "forget_bias": first.model.forget_bias,
            "seeds": [r["config"]["seed"] for r in recs],
            "test_bpc": spread(r["test_bpc"] for r in recs),
            "val_bpc": spread(r["val_bpc"] for r in recs),
            "train_bpc": spread(r["train_bpc"] for r in recs),
            "plays": {play: [r["analysis"]["test_plays"][play] for r in recs]
                      for play in recs[0]["analysis"]["test_plays"]},
            "steps": [r["steps"] for r in recs],
            "stopped": [r["history"]["stopped"] for r in recs],
            "cpu_seconds": float(sum(r["cpu_seconds"] for r in recs))}


def play_signs(deep: dict, wide: dict) -> dict[str, int]:
    """The sign of a deeper shape's mean difference to the wide layer on each test play (-1:
    the deeper shape needed fewer bits there)."""
    return {play: int(np.sign(np.mean(deep["plays"][play]) - np.mean(wide["plays"][play])))
            for play in wide["plays"]}


def complete(runs: list, records: dict, groups) -> tuple[str, ...]:
    """Those of the final runs' ``groups`` (e.g. "x1", "deep") that are planned and whose
    every run has its record, in the order given."""
    return tuple(g for g in groups if (planned := [r for r in runs if r.group == g])
                 and all(r.name in records for r in planned))


def _grouped(runs: list, records: dict, groups) -> dict[str, dict[str, list]]:
    """group -> configuration -> its runs, for the final runs of ``groups``; every one of
    them must have its record."""
    grouped: dict[str, dict[str, list]] = {}
    for run in runs:
        if run.group in groups:
            grouped.setdefault(run.group, {}).setdefault(run.name.rsplit("-s", 1)[0],
                                                         []).append(run)
    missing = [r.name for g in grouped.values() for rs in g.values() for r in rs
               if r.name not in records]
    if missing or set(grouped) != set(groups):
        raise FileNotFoundError(f"records: final runs missing ({missing[:4]}) or groups not "
                                f"planned yet ({sorted(set(groups) - set(grouped))})")
    return grouped


def verdict_summary(runs: list, records: dict, groups) -> dict:
    """The final runs of the budget groups ``groups`` (e.g. "x0.25", "x1", "x2"), smallest
    first. Every run of those groups must have its record."""
    grouped = _grouped(runs, records, groups)
    rows, residual = [], []
    for group in sorted(groups, key=lambda g: float(g[1:])):
        shapes = {run.shape: final(rs, records) for rs in grouped[group].values()
                  for run in rs[:1]}
        wide = next(s for s in shapes.values() if s["layers"] == 1)
        versus = {}
        for name, s in shapes.items():
            if s is wide:
                continue
            c = compare(s["test_bpc"]["values"], wide["test_bpc"]["values"])
            versus[name] = {**c.as_dict(), "plays": play_signs(s, wide)}
            if s["residual"]:
                residual.append(c)
        rows.append({"group": group, "scale": float(group[1:]), "params": wide["params"],
                     "shapes": shapes, "versus_wide": versus})
    return {"budgets": rows,
            "trend": slope([row["scale"] for row in rows], residual) if len(rows) > 1 else None}


def deep_summary(runs: list, records: dict) -> dict:
    """Depth 8, trained to the stopping rule: per shape (plain, residual) its final runs, each
    seed's training curves, and the gradient that reached layer 1 (``summary.gradient_summary``:
    layer 1's weight-gradient norm over the top layer's, over the whole run); then residual
    minus plain on test bpc, and the runs' stopping rule and gradient record interval. Every run
    must have its record."""
    deep = {}
    for rs in _grouped(runs, records, ("deep",))["deep"].values():
        recs = [records[r.name] for r in rs]
        deep[rs[0].shape] = {**final(rs, records),
                             "curves": [r["history"] for r in recs],
                             "gradients": gradient_summary(recs, recs[0]["config"]["clip"])}
    plain, residual = (next(d for d in deep.values() if d["residual"] == r) for r in (False, True))
    config = records[next(r.name for r in runs if r.group == "deep")]["config"]
    return {"shapes": deep, "grad_every": config["grad_every"],
            "stopping": {k: config[k] for k in ("patience", "eval_every")},
            "residual_minus_plain": compare(residual["test_bpc"]["values"],
                                            plain["test_bpc"]["values"]).as_dict()}


def check_summary(runs: list, records: dict, decided: dict, every: dict) -> dict:
    """Each decided check of a budget's settings (``decided["checked"]``), by budget group: per
    shape the settings the rule gave (the winner's rate, the rule's dropout), each trial (rate,
    dropout, validation bpc, steps, why it stopped) and the settings chosen; and, in
    ``superseded``, the final runs of that budget that the plan no longer holds (``every``: all
    the study's records), trained with the rule's settings before the check, by configuration:
    their seeds' validation and test bpc."""
    planned = {run.name for run in runs}
    out = {}
    for group, chosen in decided["checked"].items():
        trials = [run for run in runs if run.group == "C" + group[1:]]
        shapes = {}
        for shape, settings in chosen.items():
            mine = [run for run in trials if run.shape == shape]
            model, winner = mine[0].job.model, decided["winners"][shape]
            # the check steps dropout from the winner's to the rule's, at the winner's rate
            rule = max((run.job.model.dropout for run in mine if run.job.train.lr == winner["lr"]),
                       key=lambda d: abs(d - winner["dropout"]))
            shapes[shape] = {
                "layers": model.num_layers, "hidden": model.hidden_size,
                "residual": model.residual, "chosen": settings,
                "rule": {"lr": winner["lr"], "dropout": rule},
                "trials": [{"lr": run.job.train.lr, "dropout": run.job.model.dropout,
                            "val_bpc": rec["val_bpc"], "steps": rec["steps"],
                            "stopped": rec["history"]["stopped"]}
                           for run in mine for rec in [records[run.name]]]}
        superseded: dict[str, dict] = {}
        for name, rec in sorted(every.items()):
            if rec.get("group") == group and name not in planned:
                model = rec["config"]["model"]
                config = superseded.setdefault(name.rsplit("-s", 1)[0], {
                    "layers": model["num_layers"], "hidden": model["hidden_size"],
                    "residual": model["residual"], "lr": rec["config"]["lr"],
                    "dropout": model["dropout"], "val_bpc": [], "test_bpc": []})
                config["val_bpc"].append(rec["val_bpc"])
                config["test_bpc"].append(rec["test_bpc"])
        out[group] = {"shapes": shapes, "superseded": superseded}
    return out
