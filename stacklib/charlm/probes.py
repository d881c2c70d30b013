"""What each layer of a trained character model holds: linear probes and single cells.

Features of the text at each position t, the character just read (``text_features``):

  char_class     character  its class: lowercase, capital, space, newline or other
  next_space     word       the next character is a space (a word ends on this line)
  word_position  word       letters and apostrophes read since the word began (inside words)
  line_position  line       characters read since the line began
  heading        speech     the character is part of a speaker's name line, such as "HAMLET:"
  since_stop     sentence   log2(1 + characters read since the last . ! or ?)
  speech_line    speech     log2 of the speech's line number (lines since the name line)

A name line opens a paragraph, ends with a colon and each of its words begins with a capital.
The two long-range counts are on a log scale, so that a few long sentences or speeches do not
decide the score. A feature is undefined at some positions (``word_position`` outside words,
the counts before the first stop or name): those are left out.

Probes. The model reads the text as ``streams`` contiguous rows, its state carried from chunk
to chunk; the first ``warmup`` positions of each row are left out (the state is still forming)
and every ``stride``-th of the rest is probed. On each layer's hidden state h, a logistic probe
predicts a class feature and a ridge probe a count (``stacklib.linear_probes``); both are fitted
on one text (the validation plays) and scored on another (the test plays): accuracy, or R^2
about the scored text's own mean. The baseline probe sees only the character just read (its
one-hot code): whatever it scores, the character alone explains.

Cells. For each feature and layer, the single unit of h whose activation tracks the feature
most closely on the fitting text: the largest correlation ratio (eta: the share of the unit's
spread that the feature's classes explain, square-rooted; |r| for a yes/no feature) or the
largest |Pearson r| for a count. Its score on the scored text is reported beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import torch

from stacklib.linear_probes import fit_logistic, fit_ridge, r_squared
from stacklib.lm.model import LM

CLASSES = ("lowercase", "capital", "space", "newline", "other")


@dataclass(frozen=True)
class Feature:
    label: str                   # what the pages call it
    level: str                   # the level of the text it lives at
    kind: str                    # "class" (accuracy) or "count" (R^2)
    classes: tuple[str, ...] = ()


FEATURES = {
    "char_class": Feature("character class", "character", "class", CLASSES),
    "next_space": Feature("a space comes next", "word", "class", ("no", "yes")),
    "word_position": Feature("position in the word", "word", "count"),
    "line_position": Feature("position in the line", "line", "count"),
    "heading": Feature("in a speaker's name", "speech", "class", ("no", "yes")),
    "since_stop": Feature("since the last full stop", "sentence", "count"),
    "speech_line": Feature("line of the speech", "speech", "count"),
}

_NAME_LINE = re.compile(r"(?:(?<=\n\n)|^)([A-Z][^\s:]*(?: [A-Z][^\s:]*)*):(?=\n)")


def _class_of(ch: str) -> int:
    if ch.islower():
        return 0
    if ch.isupper():
        return 1
    return {" ": 2, "\n": 3}.get(ch, 4)


def text_features(text: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per feature: (values (N,), defined (N,) bool) for every position of ``text``."""
    n = len(text)
    out = {name: (np.zeros(n), np.ones(n, bool)) for name in FEATURES}
    heading = np.zeros(n, bool)
    for m in _NAME_LINE.finditer(text):
        heading[m.start() : m.end()] = True
    in_word = np.array([ch.isalpha() or ch == "'" for ch in text])
    word_pos = line_pos = 0
    stop = name_end = None  # position of the last stop; of the last name line's newline
    lines = 0
    for t, ch in enumerate(text):
        out["char_class"][0][t] = _class_of(ch)
        out["next_space"][0][t] = t + 1 < n and text[t + 1] == " "
        word_pos = word_pos + 1 if t and in_word[t] and in_word[t - 1] else 0
        out["word_position"][0][t] = word_pos
        out["word_position"][1][t] = in_word[t]
        out["line_position"][0][t] = line_pos
        line_pos = 0 if ch == "\n" else line_pos + 1
        out["heading"][0][t] = heading[t]
        out["since_stop"][0][t] = np.log2(1 + t - stop) if stop is not None else 0
        out["since_stop"][1][t] = stop is not None
        if ch in ".!?":
            stop = t
        if heading[t] or (ch == "\n" and t and heading[t - 1]):
            name_end, lines = t, 0      # the name line, its newline included, starts a speech
        elif ch == "\n" and name_end is not None:
            lines += 1
        out["speech_line"][0][t] = np.log2(lines + 1)
        out["speech_line"][1][t] = name_end is not None and not heading[t]
    return out


@dataclass(frozen=True)
class ProbeConfig:
    streams: int = 16
    warmup: int = 200
    stride: int = 3
    chunk: int = 500              # characters read per call, the state carried between calls
    l2: float = 1e-3              # logistic probes' weight penalty
    max_iter: int = 100
    ridge: float = 1e-3           # ridge probes' penalty (on standardised states)


def positions(length: int, cfg: ProbeConfig) -> tuple[np.ndarray, np.ndarray]:
    """(rows, columns) of the probed positions of a text of ``length`` read as
    ``cfg.streams`` rows, in text order; the text position is row * columns + column."""
    cols = length // cfg.streams
    keep = np.arange(cfg.warmup, cols, cfg.stride)
    rows = np.repeat(np.arange(cfg.streams), len(keep))
    return rows, np.tile(keep, cfg.streams)


@torch.no_grad()
def hidden_states(model: LM, ids: np.ndarray, cfg: ProbeConfig) -> tuple[np.ndarray, list]:
    """Text positions probed, and every layer's h at them: (P,), [L] of (P, H) float32."""
    model.eval()
    cols = len(ids) // cfg.streams
    grid = torch.from_numpy(np.ascontiguousarray(ids[: cols * cfg.streams]
                                                 .reshape(cfg.streams, cols)))
    rows, keep = positions(len(ids), cfg)
    states: list[list[np.ndarray]] = [[] for _ in model.layers]
    state = None
    for lo in range(0, cols, cfg.chunk):
        hidden, _, state = model.run(grid[:, lo : lo + cfg.chunk], state)
        for l, h in enumerate(hidden):
            states[l].append(h.numpy())
    full = [np.concatenate(s, axis=1) for s in states]                # (B, cols, H)
    return rows * cols + keep, [f[rows, keep] for f in full]


def one_hot(ids: np.ndarray, vocab_size: int) -> np.ndarray:
    return np.eye(vocab_size, dtype=np.float32)[ids]


def probe_score(feature: str, x_fit, y_fit, x_test, y_test, cfg: ProbeConfig) -> float:
    """The held-out score of the probe of ``feature`` fitted on (x_fit, y_fit): accuracy for a
    class feature, R^2 for a count."""
    spec = FEATURES[feature]
    if spec.kind == "class":
        predict = fit_logistic(x_fit, y_fit, len(spec.classes), cfg.l2, cfg.max_iter)
        return float((predict(x_test) == y_test).mean())
    return r_squared(y_test, fit_ridge(x_fit, y_fit, cfg.ridge)(x_test))


def selectivity(h: np.ndarray, y: np.ndarray, kind: str) -> np.ndarray:
    """Per unit of h (N, H): the correlation ratio with class labels y, or |r| with a count."""
    h = h.astype(np.float64)
    centred = h - h.mean(0)
    total = np.sum(centred**2, axis=0) + 1e-12
    if kind == "count":
        yc = y - y.mean()
        return np.abs(yc @ centred) / np.sqrt(total * np.sum(yc**2))
    between = sum(np.sum(y == c) * (h[y == c].mean(0) - h.mean(0)) ** 2
                  for c in np.unique(y))
    return np.sqrt(between / total)


def _cell(feature: str, h_fit, y_fit, h_test, y_test) -> dict:
    """The most selective unit of one layer for one feature, on the fitting text."""
    spec = FEATURES[feature]
    fit = selectivity(h_fit, y_fit, spec.kind)
    unit = int(np.argmax(fit))
    test = selectivity(h_test[:, unit : unit + 1], y_test, spec.kind)[0]
    if spec.kind == "count" or len(spec.classes) == 2:  # sign: + if it rises with the feature
        sign = np.sign(np.corrcoef(h_fit[:, unit], y_fit)[0, 1])
        highest = None
    else:                                               # the class it is highest on
        means = [h_fit[y_fit == c, unit].mean() for c in range(len(spec.classes))]
        sign, highest = 1.0, spec.classes[int(np.argmax(means))]
    return {"unit": unit, "fit": float(fit[unit]), "test": float(test), "sign": int(sign),
            "highest": highest}


@dataclass(frozen=True)
class Probed:
    """A text's probed positions, their features and (for the baseline) characters."""

    index: np.ndarray
    ids: np.ndarray
    features: dict[str, tuple[np.ndarray, np.ndarray]]

    @classmethod
    def of(cls, text: str, ids: np.ndarray, cfg: ProbeConfig) -> Probed:
        rows, keep = positions(len(ids), cfg)
        index = rows * (len(ids) // cfg.streams) + keep
        feats = text_features(text)
        return cls(index, ids[index], {f: (v[index], d[index]) for f, (v, d) in feats.items()})


def baseline(fit: Probed, test: Probed, vocab_size: int, cfg: ProbeConfig) -> dict:
    """Per feature: the score of a probe that sees only the character just read."""
    out = {}
    for f in FEATURES:
        (yf, df), (yt, dt) = fit.features[f], test.features[f]
        out[f] = probe_score(f, one_hot(fit.ids[df], vocab_size), yf[df],
                             one_hot(test.ids[dt], vocab_size), yt[dt], cfg)
    return out


def majority(test: Probed) -> dict:
    """Per class feature: the share of its most common class among the scored positions."""
    out = {}
    for f, spec in FEATURES.items():
        if spec.kind == "class":
            y, d = test.features[f]
            out[f] = float(np.bincount(y[d].astype(np.int64)).max() / d.sum())
    return out


def probe_model(model: LM, fit: Probed, test: Probed, fit_ids: np.ndarray,
                test_ids: np.ndarray, cfg: ProbeConfig) -> dict:
    """Per feature and layer: the probe's score and the most selective cell."""
    _, h_fit = hidden_states(model, fit_ids, cfg)
    _, h_test = hidden_states(model, test_ids, cfg)
    scores, cells = {}, {}
    for f, spec in FEATURES.items():
        (yf, df), (yt, dt) = fit.features[f], test.features[f]
        if spec.kind == "class":
            yf, yt = yf.astype(np.int64), yt.astype(np.int64)
        scores[f] = [probe_score(f, a[df], yf[df], b[dt], yt[dt], cfg)
                     for a, b in zip(h_fit, h_test, strict=True)]
        cells[f] = [_cell(f, a[df], yf[df], b[dt], yt[dt])
                    for a, b in zip(h_fit, h_test, strict=True)]
    return {"scores": scores, "cells": cells}
