"""Probe the Shakespeare study's 3 x 128 stacks, layer by layer (stacklib.charlm.probes).

    python -m scripts.experiments.shakespeare_probes            # if its inputs changed
    python -m scripts.experiments.shakespeare_probes --force

Reads the trained weights of the residual and the plain 3 x 128 stacks, every seed, from
.cache/shakespeare/<training key>.pt, where the study's runner leaves them
(``python -m scripts.experiments.shakespeare --runs L3-h128-res-s0 ...`` trains just those).
Each model is probed as trained and as it was before training (the same seed's initial
weights): what a random stack of this shape already holds, against what training put there.

Each model's probes are kept in .cache/shakespeare-probes/ under their own key (an interrupted
run resumes). Writes docs/generated/experiments/shakespeare_probes.json with the hash of its
inputs: the probe code (its imports walked), its config, the models' training keys and the
library and corpus versions; an unchanged hash is not run again. It also commits the weights of
the model the site ships (``SHIPPED``, read by scripts/generation/shakespeare_live.py) as
docs/generated/experiments/shakespeare/<run>.pt, and records their SHA-256 and test scores
beside the probes, so the cells the widget shows are the cells found in that model.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

from scripts.experiments.charlm_runs import WEIGHTS, training_key, versions
from scripts.experiments.shakespeare import OUT
from scripts.generation.cache import ROOT, inputs_key, sha256_file

PROBES = ROOT / "docs" / "generated" / "experiments" / "shakespeare_probes.json"
CACHE = ROOT / ".cache" / "shakespeare-probes"   # each model's probes, so a run can resume
MODULES = ("stacklib.charlm.probes", "stacklib.charlm.export")
CONFIGS = ("L3-h128-res", "L3-h128")     # the residual and the plain 3 x 128 stacks
SHIPPED = "L3-h128-res-s0"              # the model the live widget runs
SHIPPED_WEIGHTS = OUT / f"{SHIPPED}.pt"


def runs() -> list:
    from scripts.study.plan import SEEDS, plan
    from stacklib.corpus import shakespeare

    by_name = {run.name: run for run in plan(len(shakespeare().vocab))}
    return [by_name[f"{config}-s{seed}"] for config in CONFIGS for seed in SEEDS]


def probes_key(study_runs, cfg) -> str:
    keys = {run.name: training_key(run) for run in study_runs}
    extra = repr(cfg) + json.dumps({"models": keys, "versions": versions()}, sort_keys=True)
    return inputs_key(MODULES, extra=extra)[:16]


def run_key(run, cfg) -> str:
    """The key of one model's probes (its file in CACHE)."""
    return probes_key([run], cfg)


def probe_all(study_runs, cfg, weights: Path, log=lambda text: print(text, flush=True)) -> dict:
    """Every run's probes (those of a run probed before are read from CACHE), the baseline
    and the features; runs without weights are left out."""
    import torch

    from scripts.generation.write import write_json
    from stacklib.charlm.probes import FEATURES, Probed, baseline, majority, probe_model
    from stacklib.corpus import shakespeare
    from stacklib.lm.model import LM

    torch.set_num_threads(1)
    corpus = shakespeare()
    fit_ids, test_ids = corpus.encode(corpus.validation.text), corpus.encode(corpus.test.text)
    fit = Probed.of(corpus.validation.text, fit_ids, cfg)
    test = Probed.of(corpus.test.text, test_ids, cfg)
    out = {"runs": {}}
    for run in study_runs:
        key, cached = training_key(run), CACHE / f"{run_key(run, cfg)}.json"
        if cached.is_file():
            out["runs"][run.name] = json.loads(cached.read_text(encoding="utf-8"))
            continue
        if not (weights / f"{key}.pt").is_file():
            continue
        trained = LM(run.job.model)
        trained.load_state_dict(torch.load(weights / f"{key}.pt", weights_only=True))
        torch.manual_seed(run.job.train.seed)   # the initial weights, as stacklib.lm.train draws
        untrained = LM(run.job.model)
        out["runs"][run.name] = {
            "training_key": key,
            "trained": probe_model(trained, fit, test, fit_ids, test_ids, cfg),
            "untrained": probe_model(untrained, fit, test, fit_ids, test_ids, cfg)}
        write_json(cached, out["runs"][run.name])
        log(f"  {run.name}: probed")
    out["baseline"] = baseline(fit, test, len(corpus.vocab), cfg)
    out["features"] = {
        name: {"label": spec.label, "level": spec.level, "kind": spec.kind,
               "classes": list(spec.classes),
               "n_fit": int(fit.features[name][1].sum()),
               "n_test": int(test.features[name][1].sum()),
               "majority": majority(test).get(name)}
        for name, spec in FEATURES.items()}
    out["plays"] = {"fit": list(corpus.validation.names), "test": list(corpus.test.names)}
    return out


def shipped_scores(run, weights: Path) -> dict:
    """Test bpc of the model as trained (what the study's record of it says) and as the site
    ships it (int8 rows, stacklib.charlm.export)."""
    import torch

    from stacklib.charlm.export import shipped_state
    from stacklib.corpus import shakespeare
    from stacklib.lm.model import LM
    from stacklib.lm.text import bits_per_token

    state = torch.load(weights, weights_only=True)
    test = shakespeare().encode(shakespeare().test.text)
    scores = {}
    for name, values in (("test_bpc", state), ("shipped_test_bpc", shipped_state(state))):
        model = LM(run.job.model)
        model.load_state_dict(values)
        scores[name] = bits_per_token(model, test)
    return scores


def main(argv=None) -> int:
    from stacklib.charlm.probes import ProbeConfig

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="run even if the inputs are unchanged")
    ap.add_argument("--weights", type=Path, default=WEIGHTS,
                    help="folder of the trained weights (<training key>.pt)")
    args = ap.parse_args(argv)
    cfg = ProbeConfig()
    study_runs = runs()
    key = probes_key(study_runs, cfg)
    old = json.loads(PROBES.read_text(encoding="utf-8")) if PROBES.is_file() else {}
    if old.get("key") == key and SHIPPED_WEIGHTS.is_file() and not args.force:
        print("shakespeare probes: up to date")
        return 0
    from scripts.generation.write import write_json

    start = time.perf_counter()
    result = probe_all(study_runs, cfg, args.weights)
    missing = [run.name for run in study_runs if run.name not in result["runs"]]
    if missing:
        raise SystemExit(f"no trained weights in {args.weights} for {', '.join(missing)} (the "
                         "others are probed and kept in .cache/shakespeare-probes/); run "
                         f"python -m scripts.experiments.shakespeare --runs {' '.join(missing)}")
    shipped = next(run for run in study_runs if run.name == SHIPPED)
    SHIPPED_WEIGHTS.write_bytes((args.weights / f"{training_key(shipped)}.pt").read_bytes())
    result.update(key=key, config=dataclasses.asdict(cfg), versions=versions(),
                  shipped={"run": SHIPPED, "training_key": training_key(shipped),
                           "file": SHIPPED_WEIGHTS.relative_to(ROOT).as_posix(),
                           "sha256": sha256_file(SHIPPED_WEIGHTS),
                           **shipped_scores(shipped, SHIPPED_WEIGHTS)})
    write_json(PROBES, result)
    print(f"shakespeare probes: {len(study_runs)} models in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
