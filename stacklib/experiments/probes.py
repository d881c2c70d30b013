"""Experiment 2: layer specialisation — linear probes on every layer of the trained stacks.

For each model of experiment 1 (same configs; seed 0 gives the same trained weights), trained
with every seed of `stacklib.lecture.SEEDS`, a logistic probe (``stacklib.linear_probes``) is
fitted per layer on the states of LM-training sentences and scored on held-out sentences
(held-out subject/attractor pairs). Layer 0 is the word embedding (the input x_t), a baseline.
Each seed's model also reports how far each layer's state moves per word.

Features:
  pos             surface: the current word's part of speech (all words, 7 classes)
  word_number     surface: the current word's own number none/sg/pl (all words)
  subject_number  structural: the main subject's number sg/pl, at every word strictly between
                  the subject and the main verb (i.e. across the attractor)
  subject_number_mismatch   the same probe scored only at attractor nouns whose number is the
                  opposite of the subject's (surface form points the wrong way there)

JSON schema (``probes.json``)::

    name, seed, config, versions
    features: {name: {kind: "surface"|"structural", classes: [str], n_train: int, n_test: int,
                      majority: float}}        # majority-class accuracy on the test positions
    models: {"hero" | "live": {num_layers: L, seeds: [int],
             layers: ["embedding", "layer 1", ...],                    # L + 1 entries
             accuracy: {feature: [L + 1 floats]},        # held-out accuracy, mean over seeds
             accuracy_sd: {feature: [L + 1 floats]},     # its population SD over seeds
             accuracy_per_seed: {feature: [[L + 1 floats] per seed]},
             mean_abs_dh: [[L floats] per seed],         # mean |h_t - h_{t-1}| per layer,
                                                         # held-out words (n_stats sentences)
             lamps: [per seed [probe][layer][word]]}}    # lamp levels, as in stacks.json
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np
import torch

from stacklib import data
from stacklib.experiments.agreement import embeddings, layer_states, train_subset
from stacklib.experiments.common import Timer, run, threads
from stacklib.experiments.stacks import StacksConfig, layer_stats, probe_lamps, trained_model
from stacklib.lecture import SEEDS
from stacklib.linear_probes import fit_logistic

FEATURES = {"pos": "surface", "word_number": "surface", "subject_number": "structural",
            "subject_number_mismatch": "structural"}


@dataclass(frozen=True)
class ProbesConfig:
    stacks: StacksConfig = field(default_factory=StacksConfig)
    n_probe_train: int = 1500
    n_probe_test: int = 1000
    l2: float = 1e-3
    max_iter: int = 100
    seeds: tuple[int, ...] = SEEDS      # the models' training seeds
    seed: int = 0
    threads: int = 1

    @classmethod
    def tiny(cls) -> ProbesConfig:
        return cls(stacks=StacksConfig.tiny(), n_probe_train=300, n_probe_test=300, max_iter=50,
                   seeds=(0, 1))

    def train_jobs(self) -> list:
        return [dataclasses.replace(getattr(self.stacks, name), seed=seed)
                for seed in self.seeds for name in ("hero", "live")]


def targets(sentences) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per feature: (index array (k, 2) of (sentence, word) positions, labels (k,))."""
    rows: dict[str, list] = {f: [] for f in FEATURES}
    for b, s in enumerate(sentences):
        for t in range(len(s.tokens)):
            rows["pos"].append((b, t, s.pos[t]))
            rows["word_number"].append((b, t, s.number[t]))
            if s.subject_index < t < s.verb_index:
                rows["subject_number"].append((b, t, s.subject_number - 1))
                if t in s.attractors and s.number[t] != s.subject_number:
                    rows["subject_number_mismatch"].append((b, t, s.subject_number - 1))
    out = {}
    for f, r in rows.items():
        a = np.array(r, dtype=np.int64).reshape(-1, 3)
        out[f] = (a[:, :2], a[:, 2])
    return out


def layer_features(model, sentences) -> list[np.ndarray]:
    """[embedding (B, T, E), layer 1 h (B, T, H), ...] for the words of the sentences."""
    h, _, _ = layer_states(model, sentences)
    t = h.shape[2]
    emb = embeddings(model, sentences)
    return [emb[:, :t], *h]


def probe_model(model, train_s, test_s, cfg: ProbesConfig) -> dict:
    tr_feats, te_feats = layer_features(model, train_s), layer_features(model, test_s)
    tr_t, te_t = targets(train_s), targets(test_s)
    acc: dict[str, list[float]] = {}
    for f in FEATURES:
        fit_on = "subject_number" if f == "subject_number_mismatch" else f
        (i_tr, y_tr), (i_te, y_te) = tr_t[fit_on], te_t[f]
        n_classes = len(data.POS_TAGS) if f == "pos" else 3 if f == "word_number" else 2
        acc[f] = []
        for a_tr, a_te in zip(tr_feats, te_feats, strict=True):
            predict = fit_logistic(a_tr[i_tr[:, 0], i_tr[:, 1]], y_tr, n_classes, cfg.l2,
                                   cfg.max_iter)
            acc[f].append(float((predict(a_te[i_te[:, 0], i_te[:, 1]]) == y_te).mean()))
    n = len(tr_feats) - 1
    return {"num_layers": n, "layers": ["embedding"] + [f"layer {k}" for k in range(1, n + 1)],
            "accuracy": acc}


def feature_info(train_s, test_s) -> dict:
    tr_t, te_t = targets(train_s), targets(test_s)
    classes = {"pos": list(data.POS_TAGS), "word_number": list(data.NUMBER_TAGS),
               "subject_number": ["sg", "pl"], "subject_number_mismatch": ["sg", "pl"]}
    return {f: {"kind": FEATURES[f], "classes": classes[f], "n_train": len(tr_t[f][1]),
                "n_test": len(te_t[f][1]),
                "majority": float(np.bincount(te_t[f][1]).max() / len(te_t[f][1]))}
            for f in FEATURES}


def over_seeds(per_seed: list[dict]) -> dict:
    """One model's probes over its seeds: per feature and layer, the mean, the population SD
    and every seed's accuracy; and every seed's mean |Δh| per layer and lamp levels."""
    first = per_seed[0]
    acc = {f: np.array([p["accuracy"][f] for p in per_seed]) for f in first["accuracy"]}
    return {"num_layers": first["num_layers"], "layers": first["layers"],
            "accuracy": {f: a.mean(0).tolist() for f, a in acc.items()},
            "accuracy_sd": {f: a.std(0).tolist() for f, a in acc.items()},
            "accuracy_per_seed": {f: a.tolist() for f, a in acc.items()},
            "mean_abs_dh": [p["mean_abs_dh"] for p in per_seed],
            "lamps": [p["lamps"] for p in per_seed]}


def layer_probes(cfg: ProbesConfig) -> dict:
    with Timer() as timer, threads(cfg.threads):
        torch.manual_seed(cfg.seed)
        models = {}
        for name in ("hero", "live"):
            tcfg = getattr(cfg.stacks, name)
            heldout = data.make_splits(4000, tcfg.n_heldout, tcfg.data_seed)[1]
            test_s = heldout[: cfg.n_probe_test]
            per_seed = []
            for seed in cfg.seeds:
                model, _ = trained_model(tcfg, seed)
                train_s = train_subset(dataclasses.replace(tcfg, seed=seed))[: cfg.n_probe_train]
                probed = probe_model(model, train_s, test_s, cfg)
                moves = layer_stats(model, heldout[: cfg.stacks.n_stats])["mean_abs_dh"]
                per_seed.append({**probed, "mean_abs_dh": moves, "lamps": probe_lamps(model)})
            models[name] = {**over_seeds(per_seed), "seeds": list(cfg.seeds)}
        body = {"features": feature_info(train_s, test_s), "models": models}
    return {**run("probes", cfg, body), "duration_s": timer.seconds}
