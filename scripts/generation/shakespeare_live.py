"""The live Shakespeare stack: the weights the browser runs, its data, the check and its figure.

generated/data/shakespeare_live_weights.js   the shipped model (stacklib.charlm.export: int8
                                             rows with float32 scales, biases in float32), as a
                                             script that sets window.StackShakespeareWeights:
                                             a <script> tag loads it, also from file://
generated/data/shakespeare_live.json         what the widget shows: the model and its scores,
                                             the vocabulary, the test-play passages, each
                                             feature's most selective cell per layer (from the
                                             probes), the limits
generated/data/shakespeare_live_check.json   torch's float64 forward pass of the shipped model
                                             over a fixed passage: every layer's h and the
                                             next character's log-probabilities at every step
                                             (the browser test's reference; not served)
generated/partials/shakespeare_live.md       the shipped model in numbers: its size, its test
                                             bpc as trained and as shipped, the check's
                                             passage and tolerance
generated/figures/shakespeare_cells.svg      the static figure: each feature's cell per layer
                                             over the start of a passage

The trained weights are the committed docs/generated/experiments/shakespeare/<run>.pt, written
by ``python -m scripts.experiments.shakespeare_probes`` with the probes that found the cells.
"""

from __future__ import annotations

import base64
import io

import numpy as np

from scripts.generation.figures import save_layouts
from scripts.generation.markdown import fmt_int, fmt_sci, header_comment, md_table
from scripts.generation.shakespeare_live_figure import draw_cells
from scripts.generation.write import Output, json_text

RUN = "L3-h128-res-s0"
STUDY = "docs/generated/experiments/shakespeare"
WEIGHTS = f"{STUDY}/{RUN}.pt"
RECORD = f"{STUDY}/{RUN}.json"
PROBES = "docs/generated/experiments/shakespeare_probes.json"
DATA = [WEIGHTS, RECORD, PROBES]
WEIGHTS_JS = "generated/data/shakespeare_live_weights.js"
TOLERANCE = 1e-4   # the browser's h may differ from torch's by at most this, in every layer
# Typed characters the vocabulary lacks but writes another way: read as that character.
SAME_AS = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "\u2014",
           "\t": " ", "\u00a0": " "}


def _b64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"))
                            .tobytes()).decode("ascii")


def weights_script(quantized: dict, model_cfg, vocab: str) -> str:
    """The shipped model as one script: int8 codes and float32 numbers, each one base64 string,
    and where every tensor lies in them."""
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
    return ("/* The live Shakespeare stack's weights (scripts/generation/shakespeare_live.py). */\n"
            "window.StackShakespeareWeights = " + json_text(body).strip() + ";\n")


def run(out: Output) -> None:
    import torch

    from scripts.generation.cache import sha256_file
    from scripts.generation.shakespeare_live_config import LiveConfig, passage
    from stacklib.charlm.export import quantize_state, reference, shipped_state
    from stacklib.charlm.probes import FEATURES
    from stacklib.corpus import plays, shakespeare
    from stacklib.lm.model import LM, LMConfig

    probes, record = out.read_json(PROBES), out.read_json(RECORD)
    raw = (out.repo / WEIGHTS).read_bytes()   # a DATA file (the cache hashes it), binary
    if probes["shipped"]["sha256"] != sha256_file(out.repo / WEIGHTS):
        raise ValueError(f"{WEIGHTS} is not the model the probes read; run "
                         "python -m scripts.experiments.shakespeare_probes --force")
    cfg, corpus, texts = LiveConfig(), shakespeare(), plays()
    model_cfg = LMConfig.of(**record["config"]["model"])
    state = torch.load(io.BytesIO(raw), weights_only=True)
    quantized = quantize_state(state)
    model = LM(model_cfg)
    model.load_state_dict(shipped_state(state))
    model.eval()
    out.text(WEIGHTS_JS, weights_script(quantized, model_cfg, corpus.vocab))

    passages = [{"play": play, "text": passage(texts[play], words, cfg.passage_chars)}
                for play, words in cfg.passages]
    check = passages[0]["text"][: cfg.check_chars]
    if len(check) != cfg.check_chars:
        raise ValueError(f"check_chars: the first passage has only {len(check)} characters")
    hidden, logp = reference(model, corpus.encode(check))
    out.json("generated/data/shakespeare_live_check.json", {
        "run": RUN, "text": check, "tolerance": TOLERANCE,
        "h": [_b64(h.astype(np.float32)) for h in hidden],
        "logp": _b64(logp.astype(np.float32)), "shape": [len(check), model_cfg.hidden_size,
                                                         model_cfg.vocab_size]})

    cells = probes["runs"][RUN]["trained"]["cells"]
    features = [{"name": name, "label": spec.label, "level": spec.level,
                 "cells": [{k: c[k] for k in ("unit", "sign", "test", "highest")}
                           for c in cells[name]]}
                for name, spec in FEATURES.items()]
    out.json("generated/data/shakespeare_live.json", {
        "model": {"run": RUN, "layers": model_cfg.num_layers, "hidden": model_cfg.hidden_size,
                  "embed": model_cfg.embed_size, "residual": model_cfg.residual,
                  "params": record["params"], "test_bpc": probes["shipped"]["test_bpc"],
                  "shipped_test_bpc": probes["shipped"]["shipped_test_bpc"],
                  "weights": WEIGHTS_JS,
                  "weights_bytes": (out.docs / WEIGHTS_JS).stat().st_size},
        "vocab": corpus.vocab, "same_as": SAME_AS, "passages": passages,
        "features": features,
        "limits": {"input": cfg.max_input, "lengths": list(cfg.lengths),
                   "temperature": cfg.temperature, "seed": cfg.seed}})

    weights_kib = (out.docs / WEIGHTS_JS).stat().st_size / 1024
    out.text("generated/partials/shakespeare_live.md", header_comment(__name__) + md_table(
        ["Model", "Parameters", "Test bpc, as trained", "As shipped (int8 rows)",
         "Weights file", "Checked against torch"],
        [[f"{RUN}: {model_cfg.num_layers} × {model_cfg.hidden_size} LSTM, residual",
          fmt_int(record["params"]), f"{probes['shipped']['test_bpc']:.4f}",
          f"{probes['shipped']['shipped_test_bpc']:.4f}", f"{weights_kib:.0f} KiB",
          f"every layer's h over {cfg.check_chars} characters, within {fmt_sci(TOLERANCE)}"]],
        "lrrrrl"))

    shown = passages[cfg.figure[0]]["text"][: cfg.figure[1]]
    hidden, _ = reference(model, corpus.encode(shown))
    save_layouts(lambda phone: draw_cells(shown, hidden, features, phone), out,
                 "generated/figures/shakespeare_cells.svg",
                 "Each feature's most selective cell in each layer, over a passage")
