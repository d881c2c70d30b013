"""Every page reads in short sentences, and no page's main line runs long: measured on the built
pages, body prose only (tests/reading.py says what that is). Caveats and methods belong in
collapsible notes or table notes, which count for sentence length but not for page length."""

from __future__ import annotations

import statistics

import pytest
from reading import blocks, sentences, words

from scripts.site import nav, page_url

MAX_SENTENCE_WORDS = 40
MAX_MEDIAN_WORDS = 20  # over the whole lecture
MAX_MAIN_LINE_WORDS = 1600  # per page, notes left out
PAGES = [src for _, src in nav()]


def _built(site, src: str) -> str:
    return site.pages[page_url(src) + "index.html"].html


@pytest.mark.parametrize("src", PAGES)
def test_no_sentence_runs_over_forty_words(site, src):
    long = [(words(s), s[:120]) for b in blocks(_built(site, src)) for s in sentences(b.text)
            if words(s) > MAX_SENTENCE_WORDS]
    assert not long, f"{src}: sentences over {MAX_SENTENCE_WORDS} words: {long}"


@pytest.mark.parametrize("src", PAGES)
def test_main_line_stays_short(site, src):
    main = sum(words(b.text) for b in blocks(_built(site, src)) if not b.note)
    assert main <= MAX_MAIN_LINE_WORDS, f"{src}: {main} words outside notes"


def test_median_sentence_is_short(site):
    lengths = [words(s) for src in PAGES for b in blocks(_built(site, src))
               for s in sentences(b.text)]
    assert len(lengths) > 500 and statistics.median(lengths) <= MAX_MEDIAN_WORDS


def test_the_measure_finds_sentences_notes_and_leaves_code_out():
    """The splitter keeps abbreviations and decimals inside a sentence; a formula or inline code
    is one word; tables, code blocks and headings are not prose; notes are marked."""
    html = ('<article class="md-content__inner md-typeset"><h1>A title here</h1>'
            '<p class="kicker">Kicker words</p>'
            "<p>One layer, e.g. the first, costs 3.9 times more. Et al. is fine: Wu et al. said so."
            " <code>nn.LSTM(3, 4)</code> runs <math><mi>x</mi></math> fast!</p>"
            "<table><tr><td>not prose at all</td></tr></table><pre><code>x = 1</code></pre>"
            '<details class="note"><summary>Why</summary><p>A note sentence.</p></details>'
            '<div class="admonition tip"><p>A tip.</p></div></article>')
    found = blocks(html)
    assert [(b.text, b.note) for b in found] == [
        ("One layer, e.g. the first, costs 3.9 times more. Et al. is fine: Wu et al. said so. X "
         "runs X fast!", False),
        ("A note sentence.", True), ("A tip.", True)]
    assert sentences(found[0].text) == ["One layer, e.g. the first, costs 3.9 times more.",
                                        "Et al. is fine: Wu et al. said so.", "X runs X fast!"]
    assert [words(s) for s in sentences(found[0].text)] == [9, 9, 4]
