"""What the live widget runs and offers: the pair of models (LIVE), passages of the test plays
(each from the start of the speech holding its first words) and two texts from outside the
plays, the limits on what the reader types and what the models write, the fixed passage on
which the browser's forward pass is checked against torch's, and the passage its printed figure
shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from stacklib.charlm.analysis import DescribeConfig

# The two models the widget runs, at one parameter budget (within 2 %): the residual stack whose
# cells the probes found, and one wide layer. Each ships as its own int8 weights file.
LIVE = {"deep": "L3-h128-res-s0", "wide": "L1-h268-s0"}

# Texts no model trained on that are not from a play: a sonnet (1609) and a modern paragraph
# written for the widget.
SONNET = """Shall I compare thee to a summer's day?
Thou art more lovely and more temperate:
Rough winds do shake the darling buds of May,
And summer's lease hath all too short a date;
Sometime too hot the eye of heaven shines,
And often is his gold complexion dimm'd;
And every fair from fair sometime declines,
By chance or nature's changing course untrimm'd;
But thy eternal summer shall not fade,
Nor lose possession of that fair thou ow'st;
Nor shall Death brag thou wander'st in his shade,
When in eternal lines to time thou grow'st:
So long as men can breathe or eyes can see,
So long lives this, and this gives life to thee.
"""
MODERN = ("The train was late again, so Maria opened her laptop and answered the emails she "
          "had put off all week. By the time the doors closed behind her, she had cleared her "
          "inbox, booked a table for Friday and forgotten, for a moment, how tired she was. Her "
          "phone buzzed: the meeting had moved to nine.\n")


@dataclass(frozen=True)
class LiveConfig:
    # (play, words in it): each passage starts at the speech holding the words
    passages: tuple = (("hamlet", "Who's there?"), ("hamlet", "To be, or not to be"),
                       ("twelfth-night", "If music be the food of love"),
                       ("henry-v", "Once more unto the breach"),
                       ("the-tempest", "Our revels now are ended"))
    others: tuple = (("Sonnet 18", SONNET), ("A modern paragraph", MODERN))
    passage_chars: int = 400     # at most; a passage ends at the last line end within
    check_chars: int = 300       # the JS-torch check: this many characters of the first passage
    figure: tuple = (1, 93)      # the printed heat map: (passage, characters from its start)
    max_input: int = 800         # characters read: the last this many of the reader's text
    lengths: tuple = (100, 200, 400)   # how many characters the models may add
    pace: int = 40               # characters a second while the models write (unless at once)
    temperature: float = DescribeConfig().temperature   # the default: the study's samples' one
    seed: int = 0
    feature: str = "heading"     # the feature the strips show first: the most legible cells


def passage(text: str, words: str, length: int) -> str:
    """The speech of ``text`` that holds ``words``, from its speaker's name, at most
    ``length`` characters, ending at a line end."""
    at = text.find(words)
    if at < 0:
        raise ValueError(f"words: {words!r} not found in the text")
    start = text.rfind("\n\n", 0, at)
    start = 0 if start < 0 else start + 2
    piece = text[start : start + length]
    end = piece.rfind("\n")
    return piece[: end + 1] if end > 0 else piece
