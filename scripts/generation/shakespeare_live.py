"""The live pair of Shakespeare models: the weights the browser runs, its data, the check and its
figure.

generated/data/shakespeare_live_<role>.js    each model of the pair (LIVE: deep, wide), as
                                             stacklib.charlm.export ships it (int8 rows with
                                             float32 scales, biases in float32), in a script
                                             that sets window.StackShakespeareWeights[role]: a
                                             <script> tag loads it, also from file://
generated/data/shakespeare_live.json         what the widget shows: each model, its scores and
                                             its cells per feature and layer; the vocabulary;
                                             the passages with both models' bpc on each; the
                                             limits
generated/data/shakespeare_live_check.json   per model, torch's float64 forward pass of the
                                             shipped model over a fixed passage: every layer's
                                             h, the next character's log-probabilities and the
                                             bpc (the browser test's reference; not served)
generated/partials/shakespeare_live.md       the shipped models in numbers
generated/figures/shakespeare_cells.svg      the static figure: the deep stack's cells for
                                             every feature over the start of a passage

The weights are the committed docs/generated/experiments/shakespeare/<run>.pt; their scores and
cells come from ``python -m scripts.experiments.shakespeare_live``.
"""

from __future__ import annotations

import base64
import io
import math

import numpy as np

from scripts.generation.figures import save_layouts
from scripts.generation.markdown import fmt_int, fmt_sci, header_comment, md_table
from scripts.generation.shakespeare_live_config import LIVE
from scripts.generation.shakespeare_live_figure import draw_cells
from scripts.generation.write import Output, json_text
from stacklib.config import CELLS

STUDY = "docs/generated/experiments/shakespeare"
RESULT = "docs/generated/experiments/shakespeare_live.json"
DATA = [*(f"{STUDY}/{run}.{ext}" for run in LIVE.values() for ext in ("pt", "json")), RESULT]
TOLERANCE = 1e-4   # the browser's h may differ from torch's by at most this, in every layer
# Typed characters the vocabulary lacks but writes another way: read as that character.
SAME_AS = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "\u2014",
           "\t": " ", "\u00a0": " "}


def weights_js(role: str) -> str:
    return f"generated/data/shakespeare_live_{role}.js"


def _b64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"))
                            .tobytes()).decode("ascii")


def weights_script(role: str, quantized: dict, model_cfg, vocab: str) -> str:
    """One model as one script: int8 codes and float32 numbers, each one base64 string, and
    where every tensor lies in them."""
    codes, floats, tensors = [], [], []
    n_codes = n_floats = 0
    for name, parts in quantized.items():
        entry = {"name": name, "shape": list(parts[1].shape)}
        if parts[0] == "int8":
            entry.update(codes=n_codes, scales=n_floats)
            codes.append(parts[1].ravel())
            floats.append(parts[2])
            n_codes += parts[1].size
            n_floats += parts[2].size
        else:
            entry.update(values=n_floats)
            floats.append(parts[1].ravel())
            n_floats += parts[1].size
        tensors.append(entry)
    body = {"vocab": vocab, "layers": model_cfg.num_layers, "hidden": model_cfg.hidden_size,
            "embed": model_cfg.embed_size, "residual": model_cfg.residual, "tensors": tensors,
            "int8": _b64(np.concatenate(codes)),
            "float32": _b64(np.concatenate(floats).astype(np.float32))}
    return (f"/* The live Shakespeare {role} model's weights "
            "(scripts/generation/shakespeare_live.py). */\n"
            "(window.StackShakespeareWeights = window.StackShakespeareWeights || {})"
            f"[{json_text(role).strip()}] = " + json_text(body).strip() + ";\n")


def bits(logp: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The bits the model needed for each character after the first: -log2 p(next)."""
    return -logp[np.arange(len(ids) - 1), ids[1:]] / math.log(2)


def label(cfg) -> str:
    """The model's shape and cell as the pages name it: "3 × 128 LSTM, residual"."""
    return (f"{cfg.num_layers} × {cfg.hidden_size} {CELLS[cfg.cell].name}"
            + (", residual" if cfg.residual else ""))


def run(out: Output) -> None:
    import torch

    from scripts.generation.cache import sha256_file
    from scripts.generation.shakespeare_live_config import LiveConfig, passage
    from stacklib.charlm.export import quantize_state, reference, shipped_state
    from stacklib.charlm.probes import FEATURES
    from stacklib.corpus import plays, shakespeare
    from stacklib.lm.model import LM, LMConfig

    result = out.read_json(RESULT)
    cfg, corpus, texts = LiveConfig(), shakespeare(), plays()
    passages = [{"play": play, "text": passage(texts[play], words, cfg.passage_chars)}
                for play, words in cfg.passages]
    for p in passages:   # the play and the speech's first line
        p["label"] = f"{p.pop('play').replace('-', ' ').title()}: “{p['text'].splitlines()[1]}”"
    passages += [{"label": title, "text": text} for title, text in cfg.others]
    check = passages[0]["text"][: cfg.check_chars]
    if len(check) != cfg.check_chars:
        raise ValueError(f"check_chars: the first passage has only {len(check)} characters")
    if cfg.feature not in FEATURES:
        raise ValueError(f"feature: {cfg.feature!r} is none of {', '.join(FEATURES)}")

    models, checks, shipped = {}, {}, {}
    for role, name in LIVE.items():
        scored = result["models"][role]
        path = out.repo / f"{STUDY}/{name}.pt"
        raw = path.read_bytes()   # a DATA file, binary
        if scored["run"] != name or scored["sha256"] != sha256_file(path):
            raise ValueError(f"{RESULT} did not score {STUDY}/{name}.pt; run "
                             "python -m scripts.experiments.shakespeare_live")
        record = out.read_json(f"{STUDY}/{name}.json")
        model_cfg = LMConfig.of(**record["config"]["model"])
        state = torch.load(io.BytesIO(raw), weights_only=True)
        model = LM(model_cfg)
        model.load_state_dict(shipped_state(state))
        model.eval()
        shipped[role] = model
        out.text(weights_js(role), weights_script(role, quantize_state(state), model_cfg,
                                                  corpus.vocab))
        ids = corpus.encode(check)
        hidden, logp = reference(model, ids)
        checks[role] = {"run": name, "h": [_b64(h.astype(np.float32)) for h in hidden],
                        "logp": _b64(logp.astype(np.float32)),
                        "shape": [len(check), model_cfg.hidden_size, model_cfg.vocab_size],
                        "bpc": float(bits(logp, ids).mean())}
        models[role] = {
            "run": name, "label": label(model_cfg), "layers": model_cfg.num_layers,
            "hidden": model_cfg.hidden_size, "embed": model_cfg.embed_size,
            "residual": model_cfg.residual, "params": record["params"],
            "test_bpc": scored["test_bpc"], "shipped_test_bpc": scored["shipped_test_bpc"],
            "weights": weights_js(role),
            "weights_bytes": (out.docs / weights_js(role)).stat().st_size,
            "cells": {f: [{k: c[k] for k in ("unit", "sign", "test", "highest")} for c in cells]
                      for f, cells in scored["cells"].items()}}
    for p in passages:
        ids = corpus.encode(p["text"])
        p["bpc"] = {role: float(bits(reference(m, ids)[1], ids).mean())
                    for role, m in shipped.items()}
    out.json("generated/data/shakespeare_live_check.json",
             {"text": check, "tolerance": TOLERANCE, "models": checks})
    out.json("generated/data/shakespeare_live.json", {
        "models": models, "vocab": corpus.vocab, "same_as": SAME_AS, "passages": passages,
        "features": [{"name": name, "label": spec.label} for name, spec in FEATURES.items()],
        "limits": {"input": cfg.max_input, "lengths": list(cfg.lengths), "pace": cfg.pace,
                   "temperature": cfg.temperature, "seed": cfg.seed, "feature": cfg.feature}})

    out.text("generated/partials/shakespeare_live.md", header_comment(__name__) + md_table(
        ["Model", "Parameters", "Test bpc, as trained", "As shipped (int8 rows)",
         "Weights file"],
        [[f"{m['run']}: {m['label']}", fmt_int(m["params"]), f"{m['test_bpc']:.4f}",
          f"{m['shipped_test_bpc']:.4f}", f"{m['weights_bytes'] / 1024:.0f} KiB"]
         for m in models.values()], "lrrrr")
        + f"\nA browser test reads {cfg.check_chars} characters of a test play with each "
          "shipped model, in the browser and in PyTorch, and compares every layer's $h$ at "
          f"every character: they agree within {fmt_sci(TOLERANCE)}.\n")

    features = [{"name": name, "label": spec.label,
                 "cells": models["deep"]["cells"][name]} for name, spec in FEATURES.items()]
    shown = passages[cfg.figure[0]]["text"][: cfg.figure[1]]
    hidden, _ = reference(shipped["deep"], corpus.encode(shown))
    save_layouts(lambda phone: draw_cells(shown, hidden, features, phone), out,
                 "generated/figures/shakespeare_cells.svg",
                 "Each feature's most selective cell in each layer, over a passage")
