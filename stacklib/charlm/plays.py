"""A trained model's score on each held-out play on its own.

The study's test score reads the test plays joined; a comparison of two shapes can also be read
play by play, and the sign of their difference on each play is a check of consistency that the
seeds do not give: the plays differ from one another and from the validation plays.
"""

from __future__ import annotations

from stacklib.corpus import Corpus, plays
from stacklib.lm.model import LM
from stacklib.lm.text import bits_per_token


def play_bpc(model: LM, corpus: Corpus, limit: int | None = None) -> dict[str, float]:
    """{test play: the model's bits per character on it} (its first ``limit`` characters)."""
    texts = plays()
    return {name: bits_per_token(model, corpus.encode(texts[name][:limit]))
            for name in corpus.test.names}
