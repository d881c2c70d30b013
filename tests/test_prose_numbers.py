"""Prose-drift guard: every number the lecture's prose states as a result is stacklib's.

``generated/data/prose_numbers.json`` (scripts/generation/prose_numbers.py) holds, for each
literal result typed in ``docs/*.md`` (outside code fences, inline code and snippet lines), the
pages that state it and the value stacklib computes. Two tests hold the prose to it:

* every registered literal equals stacklib's value *and* still appears on its declared pages;
* a scanner finds every number in the prose and fails on any that is neither registered nor
  in the small, explicit allowlist of non-result numbers below (section numbers, years,
  layer indices, the interactive defaults, configuration inputs).

So editing a result by hand fails, naming the numbers and their page: the new value is
unregistered (at its line), the old one is missing. These tests read only committed files (no
torch): `make check-docs` runs them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
# The references page is bibliographic data (volumes, pages, identifiers), not results.
PAGES = sorted(p.name for p in DOCS.glob("*.md") if p.name != "references.md")


# ---------------------------------------------------------------- the registry
# literal as typed in the prose -> {"pages": [...], "value": stacklib's value of it}, computed
# by scripts/generation/prose_numbers.py (whose drift check ties the file to stacklib).
REGISTRY: dict[str, dict] = json.loads(
    (DOCS / "generated" / "data" / "prose_numbers.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- the allowlist
# Numbers that are not results. Keep this short; every entry needs a reason.
ALLOWED_PHRASES = (
    "2013–16",    # hero stat card: the deep era
    "2013–2016",  # the era of the benchmarks (§10, §12)
    "2–4",        # layers: the field's plain stacks, with their sources (home, §12)
    "(-1, 1)",    # the range of tanh (§09)
)
ALLOWED_NUMBERS = frozenset({
    # layer indices, timestep indices, gate-block counts (1/3/4), bias vectors, §04 step numbers
    "0", "1", "2", "3", "4", "5",
    # section and summary-card numbers
    "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13",
    # years of the era and of the cited papers
    "2000", "2013", "2014", "2015", "2016", "2017", "2018",
    # interactive defaults (§05 sliders L/H/D = 3/128/100; §09 factor 0.60 and depth 4)
    "128", "100", "0.60",
    # the growth example's inputs: hidden size 32, sequence length 50 (L = 3 above)
    "32", "50",
    # §10 configuration: input size 300, one layer of 512 vs three of 256
    "300", "512", "256",
})

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(```|~~~).*?^(?P=indent)\2[ \t]*$", re.M | re.S)
_FRONT = re.compile(r"\A---\n(?P<body>.*?)\n---\n", re.S)
_NUMBER = re.compile(r"(?<![\w.])(?:-(?=\d))?\d+(?:,\d{3})*(?:\.\d+)?")


def prose(page: str, docs: Path = DOCS) -> str:
    """The page's reader-visible prose: no code, no snippet lines, no link targets, no tags."""
    text = (docs / page).read_text(encoding="utf-8")
    front = _FRONT.match(text)
    if front:  # keep the description (it is shown in search results), drop the rest
        desc = re.findall(r"^description:\s*(.*)$", front["body"], re.M)
        text = "\n".join(desc) + "\n" + text[front.end():]
    text = _FENCE.sub("\n", text)
    text = re.sub(r"^.*--8<--.*$", "", text, flags=re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\[[^\]]*\]\(references\.md#[^)]*\)", " ", text)  # citations: names, years
    text = re.sub(r"\]\([^)\s]*\)", "]", text)       # link and image targets
    text = re.sub(r"<[^>\n]*>", " ", text)           # HTML tags (their text content stays)
    text = re.sub(r"\{[:\s][^}\n]*\}\s*$", "", text, flags=re.M)  # attr_list { .kicker }
    text = re.sub(r"^\s*\d+\.\s", "", text, flags=re.M)          # ordered-list markers
    return text.replace("\u2212", "-")


def _literal(key: str) -> re.Pattern[str]:
    # an unsigned key does not explain a negative number ("8" is not the "-8" of 10⁻⁸)
    sign = "" if key.startswith("-") else "-"
    return re.compile(rf"(?<![\w.,{sign}])" + re.escape(key) + r"(?![\w]|[.,]\d)")


def unexplained_numbers(page: str, docs: Path = DOCS) -> list[str]:
    text = prose(page, docs)
    for key in sorted(REGISTRY, key=len, reverse=True):
        text = _literal(key).sub(" ", text)
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    return [m for m in _NUMBER.findall(text) if m not in ALLOWED_NUMBERS]


def where(number: str, page: str, docs: Path = DOCS) -> str:
    """`docs/PAGE:LINE`: the page and the source lines that type `number`, for its editor."""
    source = (docs / page).read_text(encoding="utf-8").replace("\u2212", "-").splitlines()
    lines = [str(i) for i, line in enumerate(source, 1) if _literal(number).search(line)]
    return f"{docs.name}/{page}" + (f":{','.join(lines)}" if lines else "")


def unregistered(page: str, docs: Path = DOCS) -> list[str]:
    """One line per number the page states that is neither registered nor allowed."""
    return [f"{where(n, page, docs)}: {n} is neither a result stacklib computes (the REGISTRY "
            "of scripts/generation/prose_numbers.py) nor an allowlisted non-result"
            for n in dict.fromkeys(unexplained_numbers(page, docs))]


def unstated(literal: str, pages, docs: Path = DOCS) -> list[str]:
    """One line per page registered to state `literal` whose prose no longer does."""
    return [f"{docs.name}/{page}: no longer states {literal}, stacklib's value registered for it"
            for page in pages if not _literal(literal).search(prose(page, docs))]


@pytest.mark.parametrize("literal", sorted(REGISTRY))
def test_registered_number_is_stacklibs_and_still_in_the_prose(literal):
    pages, value = REGISTRY[literal]["pages"], REGISTRY[literal]["value"]
    assert value == literal, f"stacklib now gives {value!r}; prose says {literal!r}"
    if missing := unstated(literal, pages):
        pytest.fail("\n".join(missing), pytrace=False)


@pytest.mark.parametrize("page", PAGES)
def test_every_number_in_the_prose_is_registered_or_allowed(page):
    if unexplained := unregistered(page):
        pytest.fail("\n".join(unexplained), pytrace=False)


def test_registered_pages_exist():
    for entry in REGISTRY.values():
        assert set(entry["pages"]) <= set(PAGES), entry


def test_scanner_catches_a_hand_edit(tmp_path):
    """The scanner flags a changed result and ignores code, snippets and link targets."""
    page = tmp_path / "x.md"
    page.write_text(
        "---\ndescription: the stack costs 381,952 parameters\n---\n# 02 · Title\n\n"
        "One layer costs 117,761 parameters; see [§05](05-cell-flavors.md) and\n"
        "[Graves & Schmidhuber, 2005](references.md#graves-schmidhuber-2005).\n\n"
        "```python\nnn.LSTM(100, 128, num_layers=7)\n```\n"
        '--8<-- "generated/partials/params_lstm.md"\n\n'
        "Output $y_t = [0.7215, \u22120.0433]$ and `count_params(9)`.\n",
        encoding="utf-8",
    )
    assert unexplained_numbers("x.md", tmp_path) == ["117,761", "-0.0433"]


def test_an_unsigned_result_does_not_explain_its_negative(tmp_path):
    """"25" is registered (steps between gradient records); the exponent of 10⁻²⁵ is another
    number."""
    assert "25" in REGISTRY and "-25" not in REGISTRY
    (tmp_path / "x.md").write_text("# 09 · T\n\nEvery 25 steps: 10<sup>−25</sup>.\n",
                                   encoding="utf-8")
    assert unexplained_numbers("x.md", tmp_path) == ["-25"]


def test_a_hand_edit_is_reported_with_its_number_and_page(tmp_path):
    """The failure tells the editor which number changed and where: the new number with its
    page and line, and the page that lost the registered one."""
    (tmp_path / "x.md").write_text("# 08 · Title\n\nThe step ends at\n$y_t = [0.7251, "
                                   "\u22120.0432]$.\n", encoding="utf-8")
    [new] = unregistered("x.md", tmp_path)
    assert "0.7251" in new and f"{tmp_path.name}/x.md:4" in new, new
    [old] = unstated("0.7215", ["x.md"], tmp_path)
    assert "0.7215" in old and f"{tmp_path.name}/x.md" in old, old
    assert unstated("-0.0432", ["x.md"], tmp_path) == []
