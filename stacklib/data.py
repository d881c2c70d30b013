"""A deterministic synthetic agreement language (no downloads, no file I/O).

Grammar (every sentence ends with "."; nouns come in singular/plural pairs)::

    S     -> the N_subj MOD* VP .            (0, 1 or 2 modifiers)
    MOD   -> PREP the N                      prepositional attractor "to the cabinet"
           | that the N V_t                  object relative "that the critics admire"
           | that V_t the N                  subject relative "that admires the critics"
    VP    -> is|are PREP the N | is|are ADJ  copula ("are on the table")
           | V_t OBJ | V_i                    ("writes a new book", "sleeps")
    OBJ   -> (the | a) [ADJ] N               ("a" only before a singular noun)

The main verb agrees in number with the subject head noun; every noun between the subject
and the main verb is an *attractor* (a mismatched one has the other number). Verbs of a
relative clause agree with their own subject (the RC noun, or the head for subject relatives).

Splits are disjoint: a sentence is held out when its (subject lemma, first attractor lemma) pair
belongs to a held-out set of pairs (always containing the pairs of both PROBES), so held-out
attractor cases combine nouns in configurations the training split never shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from numbers import Integral

import numpy as np

from stacklib._validate import check_int

NOUNS: tuple[tuple[str, str], ...] = (
    ("key", "keys"), ("cabinet", "cabinets"), ("table", "tables"), ("author", "authors"),
    ("critic", "critics"), ("book", "books"), ("door", "doors"), ("dog", "dogs"),
    ("teacher", "teachers"), ("student", "students"), ("painting", "paintings"),
    ("box", "boxes"), ("friend", "friends"), ("letter", "letters"),
)
TRANSITIVE: tuple[tuple[str, str], ...] = (
    ("writes", "write"), ("admires", "admire"), ("likes", "like"), ("sees", "see"),
    ("opens", "open"), ("finds", "find"),
)
INTRANSITIVE: tuple[tuple[str, str], ...] = (("sleeps", "sleep"), ("waits", "wait"),
                                              ("falls", "fall"))
COPULA = ("is", "are")
PREPOSITIONS = ("to", "near", "behind", "of", "with", "on", "under")
LOCATIVE = ("on", "near", "under", "behind")
ADJECTIVES = ("new", "old", "red", "small", "big")
SPECIALS = ("<pad>", "<bos>")

PROBES: tuple[str, ...] = (
    "The keys to the cabinet are on the table.",
    "The author that the critics admire writes a new book.",
)

POS_TAGS = ("DET", "NOUN", "PREP", "VERB", "ADJ", "COMP", "PUNCT")
NUMBER_TAGS = ("none", "sg", "pl")  # word number: 0 none, 1 singular, 2 plural
SG, PL = 1, 2


def _vocabulary() -> tuple[str, ...]:
    words = {"the", "a", "that", ".", *COPULA, *PREPOSITIONS, *ADJECTIVES}
    for pairs in (NOUNS, TRANSITIVE, INTRANSITIVE):
        for pair in pairs:
            words.update(pair)
    return SPECIALS + tuple(sorted(words))


VOCAB: tuple[str, ...] = _vocabulary()
WORD_TO_ID: dict[str, int] = {w: i for i, w in enumerate(VOCAB)}
PAD, BOS = WORD_TO_ID["<pad>"], WORD_TO_ID["<bos>"]

_NOUN_LEMMA = {form: pair[0] for pair in NOUNS for form in pair}
_NOUN_NUM = {form: n for pair in NOUNS for n, form in zip((SG, PL), pair, strict=True)}
_VERB_NUM = {form: n for pairs in (TRANSITIVE, INTRANSITIVE, (COPULA,)) for pair in pairs
             for n, form in zip((SG, PL), pair, strict=True)}
_VERB_OTHER = {a: b for pairs in (TRANSITIVE, INTRANSITIVE, (COPULA,)) for pair in pairs
               for a, b in (pair, pair[::-1])}


@dataclass(frozen=True)
class Sentence:
    """One sentence with per-token tags (all tuples have len(tokens))."""

    tokens: tuple[str, ...]
    pos: tuple[int, ...]            # index into POS_TAGS
    number: tuple[int, ...]         # word's own number, index into NUMBER_TAGS
    subject_number: int             # SG or PL: number of the main-clause subject
    subject_index: int              # position of the subject head noun
    verb_index: int                 # position of the main verb
    wrong_verb: str                 # main verb with the other number
    attractors: tuple[int, ...]     # positions of nouns between subject and main verb
    pair: tuple[str, str]           # (subject lemma, first attractor lemma or "")

    @property
    def mismatch(self) -> bool:
        """True when some attractor has the number opposite to the subject's."""
        return any(self.number[i] != self.subject_number for i in self.attractors)

    @property
    def text(self) -> str:
        return " ".join(self.tokens)


def tokenize(text: str) -> list[str]:
    """Lower-case and split off the full stop: "The keys." -> ["the", "keys", "."]."""
    words = text.lower().replace(".", " .").split()
    unknown = [w for w in words if w not in WORD_TO_ID]
    if unknown:
        raise ValueError(f"text: words outside the vocabulary: {unknown}")
    return words


def encode(tokens: list[str] | tuple[str, ...]) -> list[int]:
    return [WORD_TO_ID[t] for t in tokens]


def _pos_of(word: str) -> int:
    if word in ("the", "a"):
        return POS_TAGS.index("DET")
    if word in _NOUN_NUM:
        return POS_TAGS.index("NOUN")
    if word in _VERB_NUM:
        return POS_TAGS.index("VERB")
    if word in ADJECTIVES:
        return POS_TAGS.index("ADJ")
    if word == "that":
        return POS_TAGS.index("COMP")
    if word == ".":
        return POS_TAGS.index("PUNCT")
    return POS_TAGS.index("PREP")


def _number_of(word: str) -> int:
    if word == "a":
        return SG
    return _NOUN_NUM.get(word, _VERB_NUM.get(word, 0))


def parse(text: str) -> Sentence:
    """Tag a sentence of the language (the main verb is the first verb outside a modifier).
    Anything else raises ValueError naming the text."""
    try:
        return _parse(text)
    except (IndexError, KeyError):  # ran off the end, or a word the language does not have
        raise ValueError(f"text: not a sentence of the agreement language: {text!r}") from None


def _parse(text: str) -> Sentence:
    toks = tokenize(text)
    if len(toks) < 4 or toks[0] != "the" or toks[1] not in _NOUN_NUM or toks[-1] != ".":
        raise ValueError(f"text: not a sentence of the agreement language: {text!r}")
    subj_num, i, attractors = _NOUN_NUM[toks[1]], 2, []
    while toks[i] in PREPOSITIONS or toks[i] == "that":
        if toks[i] == "that" and toks[i + 1] != "the":   # subject relative: that V the N
            attractors.append(i + 3)
            i += 4
        else:                                            # PP or object relative
            attractors.append(i + 2)
            i += 4 if toks[i] == "that" else 3
    if toks[i] not in _VERB_NUM:
        raise ValueError(f"text: no main verb found at position {i} in {text!r}")
    first = _NOUN_LEMMA[toks[attractors[0]]] if attractors else ""
    return Sentence(
        tokens=tuple(toks), pos=tuple(_pos_of(w) for w in toks),
        number=tuple(_number_of(w) for w in toks), subject_number=subj_num, subject_index=1,
        verb_index=i, wrong_verb=_VERB_OTHER[toks[i]], attractors=tuple(attractors),
        pair=(_NOUN_LEMMA[toks[1]], first))


def _noun(rng: np.random.Generator, num: int | None = None) -> tuple[str, int]:
    n = int(rng.integers(1, 3)) if num is None else num
    return NOUNS[int(rng.integers(len(NOUNS)))][n - 1], n


def _pick(rng: np.random.Generator, seq):
    return seq[int(rng.integers(len(seq)))]


def _sentence_text(rng: np.random.Generator) -> str:
    subj, n = _noun(rng)
    words = ["the", subj]
    for _ in range(int(rng.choice(3, p=[0.2, 0.55, 0.25]))):
        kind = rng.random()
        noun, m = _noun(rng)
        if kind < 0.6:
            words += [_pick(rng, PREPOSITIONS), "the", noun]
        elif kind < 0.8:
            words += ["that", "the", noun, _pick(rng, TRANSITIVE)[m - 1]]
        else:
            words += ["that", _pick(rng, TRANSITIVE)[n - 1], "the", noun]
    kind = rng.random()
    if kind < 0.35:
        tail = [_pick(rng, LOCATIVE), "the", _noun(rng)[0]] if rng.random() < 0.7 \
            else [_pick(rng, ADJECTIVES)]
        words += [COPULA[n - 1], *tail]
    elif kind < 0.8:
        obj, m = _noun(rng)
        det = "a" if m == SG and rng.random() < 0.5 else "the"
        adj = [_pick(rng, ADJECTIVES)] if rng.random() < 0.4 else []
        words += [_pick(rng, TRANSITIVE)[n - 1], det, *adj, obj]
    else:
        words += [_pick(rng, INTRANSITIVE)[n - 1]]
    return " ".join([*words, "."])


def heldout_pairs(seed: int = 0, fraction: float = 0.2) -> frozenset[tuple[str, str]]:
    """(subject lemma, attractor lemma) pairs reserved for the held-out split."""
    rng = np.random.default_rng(seed + 1000)
    lemmas = [p[0] for p in NOUNS]
    pairs = [(a, b) for a in lemmas for b in lemmas]
    chosen = {pairs[i] for i in rng.permutation(len(pairs))[: int(fraction * len(pairs))]}
    return frozenset(chosen | {parse(p).pair for p in PROBES})


@lru_cache(maxsize=8)
def make_splits(n_train: int = 4000, n_heldout: int = 1000, seed: int = 0
                ) -> tuple[tuple[Sentence, ...], tuple[Sentence, ...]]:
    """Deterministic disjoint (train, held-out) splits of unique sentences.

    Held-out sentences are those whose (subject, first attractor) lemma pair is held out, plus
    every fifth unmodified sentence; the probes never appear in training.
    """
    check_int("n_train", n_train)
    check_int("n_heldout", n_heldout)
    rng = np.random.default_rng(seed)
    held = heldout_pairs(seed)
    probes = {" ".join(tokenize(p)) for p in PROBES}
    seen: set[str] = set()
    train: list[Sentence] = []
    test: list[Sentence] = []
    for _ in range(100 * (n_train + n_heldout)):
        if len(train) >= n_train and len(test) >= n_heldout:
            break
        text = _sentence_text(rng)
        if text in seen:
            continue
        seen.add(text)
        s = parse(text)
        to_test = s.pair in held if s.attractors else len(seen) % 5 == 0
        if to_test and len(test) < n_heldout:
            test.append(s)
        elif not to_test and len(train) < n_train and text not in probes:
            train.append(s)
    if len(train) < n_train or len(test) < n_heldout:
        raise ValueError(f"n_train/n_heldout: language too small for {n_train}/{n_heldout}")
    return tuple(train), tuple(test)


def batch(sentences, pad_to: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(inputs, targets) int64 arrays (B, T), PAD-padded: <bos> w1..w_{n-1} -> w1..wn.

    A model's output at position t has read words 1..t (and <bos>) and predicts word t+1.
    """
    sentences = list(sentences)
    if not sentences:
        raise ValueError("sentences: expected at least one sentence, got none")
    longest = max(len(s.tokens) for s in sentences)
    if pad_to is not None and (isinstance(pad_to, bool) or not isinstance(pad_to, Integral)
                               or pad_to < longest):
        raise ValueError(f"pad_to: expected an integer >= {longest} (the longest sentence), "
                         f"got {pad_to!r}")
    t = longest if pad_to is None else pad_to
    x = np.full((len(sentences), t), PAD, dtype=np.int64)
    y = np.full((len(sentences), t), PAD, dtype=np.int64)
    for b, s in enumerate(sentences):
        ids = encode(s.tokens)
        x[b, 0], x[b, 1:len(ids)], y[b, :len(ids)] = BOS, ids[:-1], ids
    return x, y
