"""Experiment 1: trained stacks reading the probes (hero lamps, §02 lenses, §06 live stack).

Two next-word LSTM language models are trained on the agreement language (`stacklib.data`):
"hero" (3 layers, feeds the hero lamps and the §02 lenses) and "live" (2 layers, §06).
Every layer's h and c after each word of both `data.PROBES` is exported.

JSON schema (``stacks.json``). Arrays are nested lists indexed [layer][word][channel], layer 0
being the first recurrent layer (the lecture's h^[1]); W = number of words of the probe::

    name, seed, config, versions            # see `run`
    probes: [ {text, words: [str] (display form, "." separate), tokens: [str],
               pos: [str] (POS_TAGS), number: [str] ("none"|"sg"|"pl"),
               subject_index: int, verb_index: int, attractors: [int]} ]   # one per probe
    models: { "hero" | "live": {
        cell: "lstm", num_layers: L, hidden_size: H, embed_size: E, residual: bool,
        recurrent_params: int,
        steps_trained: int,                        # early stop: see HERO / LIVE
        curve: {step: [int], heldout_agreement: [float]},  # during training, n_curve sentences
        heldout: {agreement, agreement_mismatch, n, n_mismatch, loss},
        layer_stats: {mean_abs_h: [L], mean_abs_dh: [L]},  # over held-out words; dh = h_t-h_{t-1}
        probes: [ {h: [L][W][H], c: [L][W][H], mean_abs_h: [L][W],
                   lamp: [L][W],          # mean_abs_h / its max over the words, per layer: (0, 1]
                   verb: {correct: str, wrong: str, p_correct: float}} ]  # p over the two forms
    } }
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import torch

from stacklib import data
from stacklib.experiments.agreement import (
    AgreementJob,
    evaluate,
    layer_states,
    recurrent_params,
    train_lm,
)
from stacklib.experiments.common import Timer, run, threads
from stacklib.lecture import HERO_STACK, LIVE_STACK

# trained until two consecutive held-out checks reach 99 % agreement (at most `steps`)
HERO = AgreementJob(**HERO_STACK)
LIVE = AgreementJob(**LIVE_STACK)


@dataclass(frozen=True)
class StacksConfig:
    hero: AgreementJob = HERO
    live: AgreementJob = LIVE
    n_stats: int = 500          # held-out sentences for layer_stats
    seed: int = 0
    threads: int = 1

    @classmethod
    def tiny(cls) -> StacksConfig:
        # the tiny live stack (2x16, residual so that 500 steps suffice) still learns
        # agreement: the tests check that it beats chance on held-out attractor cases
        return cls(hero=dataclasses.replace(HERO, hidden_size=16, embed_size=16, steps=200,
                                            n_heldout=300, curve_every=0),
                   live=dataclasses.replace(LIVE, residual=True, steps=500, batch_size=32,
                                            n_train=2000, n_heldout=300, curve_every=0),
                   n_stats=100)

    def train_jobs(self) -> list[AgreementJob]:
        """The models this experiment trains (a runner may train them in parallel first)."""
        return [dataclasses.replace(t, seed=self.seed) for t in (self.hero, self.live)]


def probe_info(text: str) -> dict:
    s = data.parse(text)
    words = text.replace(".", " .").split()
    return {"text": text, "words": words, "tokens": list(s.tokens),
            "pos": [data.POS_TAGS[p] for p in s.pos],
            "number": [data.NUMBER_TAGS[n] for n in s.number],
            "subject_index": s.subject_index, "verb_index": s.verb_index,
            "attractors": list(s.attractors)}


@torch.no_grad()
def verb_choice(model, sentence: data.Sentence) -> dict:
    x, _ = data.batch([sentence])
    logits = model(torch.from_numpy(x))[0][0, sentence.verb_index]
    right, wrong = sentence.tokens[sentence.verb_index], sentence.wrong_verb
    two = torch.stack([logits[data.WORD_TO_ID[right]], logits[data.WORD_TO_ID[wrong]]])
    return {"correct": right, "wrong": wrong, "p_correct": float(torch.softmax(two, 0)[0])}


def layer_stats(model, sentences) -> dict:
    h, _, mask = layer_states(model, sentences)              # (L, B, T, H)
    dh = np.abs(np.diff(h, axis=2)).mean(-1)                 # (L, B, T-1)
    return {"mean_abs_h": [float(np.abs(hl).mean(-1)[mask].mean()) for hl in h],
            "mean_abs_dh": [float(d[mask[:, 1:]].mean()) for d in dh]}


def describe(model, tcfg: AgreementJob, hist, n_stats: int) -> dict:
    _, heldout = data.make_splits(4000, tcfg.n_heldout, tcfg.data_seed)
    out = {"cell": tcfg.cell, "num_layers": tcfg.num_layers, "hidden_size": tcfg.hidden_size,
           "embed_size": tcfg.embed_size, "residual": tcfg.residual,
           "recurrent_params": recurrent_params(model),
           "steps_trained": hist.steps_run,
           "curve": {"step": hist.steps, "heldout_agreement": [1 - e for e in hist.scores]},
           "heldout": evaluate(model, heldout, tcfg.threads),
           "layer_stats": layer_stats(model, heldout[:n_stats]), "probes": []}
    for text in data.PROBES:
        s = data.parse(text)
        h, c, _ = layer_states(model, [s])
        h, c = h[:, 0], c[:, 0]                              # (L, W, H)
        mean, lamp = lamps(h)
        out["probes"].append({"h": h.tolist(), "c": c.tolist(), "mean_abs_h": mean.tolist(),
                              "lamp": lamp.tolist(), "verb": verb_choice(model, s)})
    return out


def lamps(h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A probe's states (L, W, H) -> (mean |h| per layer and word, the same over its layer's
    largest: the lamp levels, in (0, 1])."""
    mean = np.abs(h).mean(-1)
    return mean, mean / mean.max(1, keepdims=True)


def probe_lamps(model) -> list[list[list[float]]]:
    """The lamp levels of every probe sentence: [probe][layer][word]."""
    out = []
    for text in data.PROBES:
        h, _, _ = layer_states(model, [data.parse(text)])
        out.append(lamps(h[:, 0])[1].tolist())
    return out


def trained_model(tcfg: AgreementJob, seed: int):
    return train_lm(dataclasses.replace(tcfg, seed=seed))


def trained_stacks(cfg: StacksConfig) -> dict:
    with Timer() as timer, threads(cfg.threads):
        models = {}
        for name, tcfg in (("hero", cfg.hero), ("live", cfg.live)):
            model, hist = trained_model(tcfg, cfg.seed)
            models[name] = describe(model, tcfg, hist, cfg.n_stats)
        body = {"probes": [probe_info(p) for p in data.PROBES], "models": models}
    return {**run("stacks", cfg, body), "duration_s": timer.seconds}
