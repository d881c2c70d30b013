"""What the live widget offers: passages of the test plays (each from the start of the speech
holding its first words), the limits on what the reader types and what the stack writes, the
fixed passage on which the browser's forward pass is checked against torch's, and the passage
its printed figure shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from stacklib.charlm.analysis import DescribeConfig


@dataclass(frozen=True)
class LiveConfig:
    # (play, words in it): each passage starts at the speech holding the words
    passages: tuple = (("hamlet", "Who's there?"), ("hamlet", "To be, or not to be"),
                       ("twelfth-night", "If music be the food of love"),
                       ("henry-v", "Once more unto the breach"),
                       ("the-tempest", "Our revels now are ended"))
    passage_chars: int = 400     # at most; a passage ends at the last line end within
    check_chars: int = 300       # the JS-torch check: this many characters of the first passage
    figure: tuple = (1, 93)      # the printed heat map: (passage, characters from its start)
    max_input: int = 600         # characters the reader's text may have (the rest is cut)
    lengths: tuple = (100, 200, 400)   # how many characters the stack may add
    temperature: float = DescribeConfig().temperature   # the default: the study's samples' one
    seed: int = 0


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
