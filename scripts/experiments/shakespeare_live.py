"""Score the live widget's two models and find each one's feature cells.

    python -m scripts.experiments.shakespeare_live            # if its inputs changed
    python -m scripts.experiments.shakespeare_live --force

The widget runs the pair that scripts/generation/shakespeare_live_config.py names (LIVE): the
deep stack and the wide layer of the same parameter budget, from their committed weights
(docs/generated/experiments/shakespeare/<run>.pt). For each it records the weights' SHA-256,
the test bpc as trained and as shipped (int8 rows, stacklib.charlm.export), and, for each
feature, the most selective cell of every layer, found as the probes find theirs
(stacklib.charlm.probes: picked on the plays that stopped training, scored on the test plays).
The deep stack's cells are the probes' own (a test holds them equal).

Writes docs/generated/experiments/shakespeare_live.json with the hash of its inputs (the code,
the pair, the weights, the probe config, the library versions); an unchanged hash is not run
again. A few minutes on one core; scripts/generation/shakespeare_live.py reads the result.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from scripts.experiments.shakespeare import OUT, versions
from scripts.generation.cache import ROOT, inputs_key, sha256_file

RESULT = ROOT / "docs" / "generated" / "experiments" / "shakespeare_live.json"
MODULES = ("stacklib.charlm.probes", "stacklib.charlm.export", "stacklib.lm.text")


def weights(run: str):
    return OUT / f"{run}.pt"


def live_key(live: dict, cfg) -> str:
    files = [weights(run).relative_to(ROOT).as_posix() for run in live.values()]
    extra = repr(cfg) + json.dumps({"live": live, "versions": versions()}, sort_keys=True)
    return inputs_key(MODULES, files, extra=extra)[:16]


def cells_of(model, fit, test, fit_ids, test_ids, cfg) -> dict:
    """Per feature, every layer's most selective cell (the probes' choice, without the probes'
    own fits)."""
    import numpy as np

    from stacklib.charlm.probes import FEATURES, _cell, hidden_states

    _, h_fit = hidden_states(model, fit_ids, cfg)
    _, h_test = hidden_states(model, test_ids, cfg)
    out = {}
    for f, spec in FEATURES.items():
        (yf, df), (yt, dt) = fit.features[f], test.features[f]
        if spec.kind == "class":
            yf, yt = yf.astype(np.int64), yt.astype(np.int64)
        out[f] = [_cell(f, a[df], yf[df], b[dt], yt[dt])
                  for a, b in zip(h_fit, h_test, strict=True)]
    return out


def score(live: dict, cfg, log=lambda text: print(text, flush=True)) -> dict:
    import torch

    from stacklib.charlm.export import shipped_state
    from stacklib.charlm.probes import Probed
    from stacklib.corpus import shakespeare
    from stacklib.lm.model import LM, LMConfig
    from stacklib.lm.text import bits_per_token

    torch.set_num_threads(1)
    corpus = shakespeare()
    fit_ids, test_ids = corpus.encode(corpus.validation.text), corpus.encode(corpus.test.text)
    fit = Probed.of(corpus.validation.text, fit_ids, cfg)
    test = Probed.of(corpus.test.text, test_ids, cfg)
    models = {}
    for role, run in live.items():
        record = json.loads((OUT / f"{run}.json").read_text(encoding="utf-8"))
        state = torch.load(weights(run), weights_only=True)
        entry = {"run": run, "file": weights(run).relative_to(ROOT).as_posix(),
                 "sha256": sha256_file(weights(run))}
        for name, values in (("test_bpc", state), ("shipped_test_bpc", shipped_state(state))):
            model = LM(LMConfig.of(**record["config"]["model"]))
            model.load_state_dict(values)
            entry[name] = bits_per_token(model, test_ids)
        model = LM(LMConfig.of(**record["config"]["model"]))
        model.load_state_dict(state)
        entry["cells"] = cells_of(model, fit, test, fit_ids, test_ids, cfg)
        models[role] = entry
        log(f"  {role} ({run}): test {entry['test_bpc']:.4f} bpc, shipped "
            f"{entry['shipped_test_bpc']:.4f}")
    return {"models": models,
            "plays": {"fit": list(corpus.validation.names), "test": list(corpus.test.names)}}


def main(argv=None) -> int:
    import dataclasses

    from scripts.generation.shakespeare_live_config import LIVE
    from scripts.generation.write import write_json
    from stacklib.charlm.probes import ProbeConfig

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="run even if the inputs are unchanged")
    args = ap.parse_args(argv)
    cfg = ProbeConfig()
    missing = [run for run in LIVE.values() if not weights(run).is_file()]
    if missing:
        raise SystemExit(f"no committed weights for {', '.join(missing)} in {OUT}")
    key = live_key(LIVE, cfg)
    old = json.loads(RESULT.read_text(encoding="utf-8")) if RESULT.is_file() else {}
    if old.get("key") == key and not args.force:
        print("shakespeare live: up to date")
        return 0
    start = time.perf_counter()
    result = score(LIVE, cfg)
    write_json(RESULT, {"key": key, "config": dataclasses.asdict(cfg), "versions": versions(),
                        **result})
    print(f"shakespeare live: {len(LIVE)} models in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
