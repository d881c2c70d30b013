"""The library code the lecture shows: every `--8<-- "stacklib/...:name"` of a page names one
marked section of a library file (the build fails on a missing one; here, also on a doubled
marker), and §08 and §09 show the LSTM step and the backward step."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r'^--8<-- "(stacklib/[^":]+):([a-z_]+)"$', re.M)


def shown() -> dict[str, list[tuple[str, str]]]:
    return {page.name: INCLUDE.findall(page.read_text(encoding="utf-8"))
            for page in sorted((ROOT / "docs").glob("*.md"))}


def section(path: str, name: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    starts, ends = (text.count(f"# --8<-- [{kind}:{name}]") for kind in ("start", "end"))
    assert (starts, ends) == (1, 1), f"{path}: section {name!r} marked {starts}/{ends} times"
    return text.split(f"# --8<-- [start:{name}]\n")[1].split(f"# --8<-- [end:{name}]")[0]


def test_every_included_section_is_marked_once():
    for page, includes in shown().items():
        for path, name in includes:
            assert section(path, name).strip(), f"{page}: {path}:{name} is empty"


def test_the_lecture_shows_the_lstm_step_and_the_backward_step():
    pages = shown()
    assert pages["08-hand-computed.md"] == [("stacklib/numpy/cells.py", "lstm_step")]
    assert pages["09-vanishing-paths.md"] == [("stacklib/numpy/stack.py", "backward_step")]
    assert section("stacklib/numpy/cells.py", "lstm_step").startswith("def lstm_step(")
    step = section("stacklib/numpy/stack.py", "backward_step").strip().splitlines()
    assert "d_above + dh_next[l]" in step[0] and "h_norm[t, l]" in step[1]  # the paths meet
