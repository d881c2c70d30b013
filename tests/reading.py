"""What a reader reads on a built page: its body prose, in blocks, split into sentences.

Body prose is the text of the article's paragraphs and list items. Left out: headings, tables,
code, the kicker line, and anything a reader does not read as a sentence (navigation, widget
controls, scripts). A formula or an inline code span stays in its sentence as one word.
A block inside a collapsible note, an admonition or a figure's note is marked `note`: the
page's main line is what is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

SKIP = {"table", "pre", "script", "style", "svg", "nav", "h1", "h2", "h3", "h4", "h5", "h6",
        "summary", "button", "select", "textarea", "label"}
ONE_WORD = {"math", "code"}  # stays in its sentence as a single word
BLOCKS = {"p", "li", "dd", "dt", "blockquote", "div", "details", "ul", "ol", "figure",
          "figcaption"}
NOTE_CLASSES = {"admonition", "figure-note"}
SKIP_CLASSES = {"kicker", "headerlink", "w-ui", "md-source-file", "tabbed-labels",
                "clipboard-copy-txt", "jp-InputPrompt", "jp-OutputPrompt"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}

# Abbreviations whose full stop does not end a sentence.
ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "cf.", "vs.", "approx.", "Fig.", "No.")
_END = re.compile(r"(?<=[.!?])[\"”’)]*\s+(?=[\"“‘(\[*]*[A-Z0-9§$€£¶])")
_WORD = re.compile(r"[\w\u2026]")


@dataclass
class Block:
    text: str
    note: bool  # inside a collapsible note, an admonition or a figure's note


class _Article(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, skipped, note)
        self.blocks: list[Block] = []
        self.chunks: list[str] = []
        self.note = False

    def _flush(self):
        text = " ".join("".join(self.chunks).split())
        if text.replace("X", "").strip():  # not a display formula alone
            self.blocks.append(Block(text, self.note))
        self.chunks = []

    def _state(self) -> tuple[bool, bool]:
        return (self.stack[-1][1], self.stack[-1][2]) if self.stack else (False, False)

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            if tag == "br":
                self.chunks.append(" ")
            return
        skipped, note = self._state()
        classes = set((dict(attrs).get("class") or "").split())
        if tag in BLOCKS or tag in SKIP:
            self._flush()
        if not skipped and tag in ONE_WORD:
            self.chunks.append(" X ")
        skipped = skipped or tag in SKIP or tag in ONE_WORD or bool(classes & SKIP_CLASSES)
        note = note or tag == "details" or bool(classes & NOTE_CLASSES)
        self.stack.append((tag, skipped, note))
        self.note = note

    def handle_endtag(self, tag):
        if not any(t == tag for t, _, _ in self.stack):
            return
        if tag in BLOCKS or tag in SKIP:
            self._flush()
        while self.stack and self.stack.pop()[0] != tag:
            pass
        self.note = self._state()[1]

    def handle_data(self, data):
        if not self._state()[0]:
            self.chunks.append(data)


def article(html: str) -> str:
    """The page's article: its content without the site's header, navigation and footer."""
    start = html.index('<article class="md-content__inner')
    return html[start:html.index("</article>", start)]


def blocks(html: str) -> list[Block]:
    """The article's prose blocks (paragraphs and list items), in page order."""
    parser = _Article()
    parser.feed(article(html))
    parser._flush()
    return parser.blocks


def sentences(text: str) -> list[str]:
    """A block of prose split into sentences (abbreviations do not end one)."""
    guarded = text
    for abbreviation in ABBREVIATIONS:
        guarded = guarded.replace(abbreviation, abbreviation.replace(".", "\0"))
    return [part.replace("\0", ".").strip() for part in _END.split(guarded) if part.strip()]


def words(text: str) -> int:
    """Words in a stretch of prose: whitespace-separated tokens holding a letter or digit."""
    return sum(1 for token in text.split() if _WORD.search(token))
