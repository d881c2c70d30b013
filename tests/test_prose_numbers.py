"""Prose-drift guard: every number the lecture's prose states as a result comes from stacklib.

``REGISTRY`` maps each literal result string typed in ``docs/*.md`` (outside code fences,
inline code and snippet lines) to the pages that state it and a function that computes it
with stacklib. Two tests hold the prose to it:

* every registered literal equals stacklib's value *and* still appears on its declared pages;
* a scanner finds every number in the prose and fails on any that is neither registered nor
  in the small, explicit allowlist of non-result numbers below (section numbers, years,
  layer indices, the interactive defaults, configuration inputs).

So editing a result by hand fails the suite: the new value is unregistered, the old one is
missing. To change a result, change stacklib (or the configuration) and the registry.
Experiment-derived numbers (probe accuracies, timings, trained-model errors) are never typed
in prose: they live in generated figures and tables only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import stacklib

DOCS = Path(__file__).resolve().parent.parent / "docs"
# The references page is bibliographic data (volumes, pages, identifiers), not results.
PAGES = sorted(p.name for p in DOCS.glob("*.md") if p.name != "references.md")

HOME, BLUEPRINT, CELLS, LIVE, HAND, VANISH, VERDICT, DATA, QUIZ = (
    "index.md", "03-blueprint.md", "05-cell-flavors.md", "06-live-stack.md", "08-hand-computed.md",
    "09-vanishing-paths.md", "10-verdict.md", "10b-depth-and-data.md", "13-mastery-check.md",
)


# ---------------------------------------------------------------- formatting helpers
def _int(v: int) -> str:
    return f"{v:,}"


def _dec4(v: float) -> str:
    return f"{v:.4f}"


def _num(v: float) -> str:
    """2.0 -> "2", 5.5 -> "5.5" (the scalar example's exact values)."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def _seq(values) -> str:
    return ", ".join(_num(v) for v in values)


def _keras(cell, x, h, layers):
    return stacklib.params.count_params(cell, x, h, layers, framework="keras")


def _torch(cell, x, h, layers):
    return stacklib.params.count_params(cell, x, h, layers, framework="torch")


def _layer(cell, x, h, layers, k, field, framework="torch"):
    return getattr(stacklib.params.param_breakdown(cell, x, h, layers, framework)[k - 1], field)


def _walk_y(i: int) -> float:
    from stacklib.walkthrough import walkthrough

    return walkthrough().y[i]


def _scalar(key: str):
    from stacklib.examples import scalar_example

    return scalar_example()[key]


def _gradient_flow(key: str):
    from stacklib.lecture import GRADIENT_FLOW

    return GRADIENT_FLOW[key]


def _growth(depth: str, key: str) -> int:
    from stacklib.examples import gradient_path_growth

    return gradient_path_growth(hidden_size=32, seq_len=50, num_layers=3)[depth][key]


def growth_tanh_slopes(seed: int = 0) -> list[float]:
    """Mean tanh slope, 1 - h^2, per layer of the growth example's 3-layer stack (its input)."""
    from stacklib.numpy import StackedRNN

    stack = StackedRNN(32, 32, 3, cell="rnn", dtype=np.float64, seed=seed)
    out = stack(np.random.default_rng(seed).standard_normal((50, 32)))
    return [float(np.mean(1.0 - h**2)) for h in out.h]


def _depth_data_passes(size: str) -> str:
    """Passes over the smallest or largest §10 training set in the fixed step budget."""
    data = json.loads((DOCS / "generated/experiments/depth_data.json").read_text())
    base, n = data["config"]["base"], (min if size == "smallest" else max)(data["sizes"])
    passes = base["steps"] * base["batch_size"] / n
    return f"{float(f'{passes:.2g}'):g}"


def _depth_data_size(size: str) -> str:
    data = json.loads((DOCS / "generated/experiments/depth_data.json").read_text())
    return _int((min if size == "smallest" else max)(data["sizes"]))


def _toy_factor(i: int) -> str:
    from stacklib.lecture import GRADIENT_MODEL

    return f"{GRADIENT_MODEL['factors'][i]:.2f}"


def _study() -> dict:
    return json.loads((DOCS / "generated/data/shakespeare.json").read_text())


def _study_plan(name: str):
    from stacklib.charlm import study

    return getattr(study, name)


def _study_base():
    from stacklib.charlm.study import base_job

    return base_job(len(_corpus().vocab))


def _corpus():
    from stacklib.corpus import shakespeare

    return shakespeare()


def _timescale_config():
    from stacklib.charlm.analysis import TimescaleConfig

    return TimescaleConfig()


def _deep_grad_every() -> int:
    steps = next(iter(_study()["deep"].values()))["gradients"]["steps"]
    return steps[1] - steps[0]


def _deep_layers() -> int:
    return {cfg["layers"] for cfg in _study()["deep"].values()}.pop()


def _budget_curves() -> dict[int, dict]:
    return {cfg["layers"]: cfg["curve"] for cfg in _study()["budget"].values()}


def _late_gap_bound(which) -> str:
    """The wide layer vs the 3-layer stack at one budget, from a third of training on: the gap's
    lowest value rounded down (min) or highest rounded up (max), to 0.01 bpc."""
    curves = _budget_curves()
    wide, deep = curves[1], curves[3]
    gaps = [deep["mean"][deep["step"].index(s)] - m for s, m in zip(wide["step"], wide["mean"],
                                                                    strict=True)
            if s in deep["step"] and s >= _study_base().train.max_steps // 3]
    rounding = np.floor if which is min else np.ceil
    return f"{rounding(which(gaps) * 100) / 100:.2f}"


def _last_budget_swap() -> int:
    from stacklib.charlm.summary import crossing

    curves = list(_budget_curves().values())
    return max(crossing(a, b) or 0 for i, a in enumerate(curves) for b in curves[i + 1:])


# ---------------------------------------------------------------- the registry
# literal as typed in the prose (ASCII hyphen-minus; the scanner maps U+2212 to it)
#   -> (pages that state it, function computing the same literal from stacklib)
REGISTRY: dict[str, tuple[tuple[str, ...], Callable[[], str]]] = {
    # §10 depth vs width: LSTM, input 300, 1x512 vs 3x256, both conventions
    "1,665,024": ((VERDICT, QUIZ), lambda: _int(_keras("lstm", 300, 512, 1))),
    "1,620,992": ((VERDICT, QUIZ), lambda: _int(_keras("lstm", 300, 256, 3))),
    "1,667,072": ((VERDICT, QUIZ), lambda: _int(_torch("lstm", 300, 512, 1))),
    "1,624,064": ((VERDICT,), lambda: _int(_torch("lstm", 300, 256, 3))),
    "2,048": ((QUIZ,), lambda: _int(_torch("lstm", 300, 512, 1) - _keras("lstm", 300, 512, 1))),
    # §05 price at the defaults L=3, H=128, D=100
    "381,952": ((CELLS, QUIZ), lambda: _int(_torch("lstm", 100, 128, 3))),
    "380,416": ((CELLS,), lambda: _int(_keras("lstm", 100, 128, 3))),
    "117,760": ((CELLS, QUIZ), lambda: _int(_torch("lstm", 100, 128, 1))),
    "132,096": ((CELLS, QUIZ), lambda: _int(_layer("lstm", 100, 128, 3, 2, "total"))),
    "99,072": ((CELLS,), lambda: _int(_layer("gru", 100, 128, 3, 2, "total"))),
    "33,024": ((CELLS,), lambda: _int(_layer("rnn", 100, 128, 3, 2, "total"))),
    "51,200": ((CELLS,), lambda: _int(_layer("lstm", 100, 128, 3, 1, "input_weights"))),
    "65,536": ((CELLS,), lambda: _int(_layer("lstm", 100, 128, 3, 2, "input_weights"))),
    # §08 hand-computed two-layer LSTM step
    "0.7215": ((HAND, QUIZ), lambda: _dec4(_walk_y(0))),
    "-0.0432": ((HAND, QUIZ), lambda: _dec4(_walk_y(1))),
    # §03 warm-up (recalled in §08): the scalar example
    "2, 1, 3": ((BLUEPRINT, HAND, QUIZ), lambda: _seq(_scalar("inputs"))),
    "2, 2, 4": ((BLUEPRINT, HAND, QUIZ), lambda: _seq(_scalar("layer1"))),
    "2, 3, 5.5": ((BLUEPRINT, HAND, QUIZ), lambda: _seq(_scalar("layer2"))),
    "5.5": ((BLUEPRINT, HAND, QUIZ), lambda: _num(_scalar("layer2")[-1])),
    "0.5": ((BLUEPRINT, QUIZ), lambda: _num(_scalar("w_rec"))),
    # §09 the measured panels: the sequence length of the stacks measured at initialisation
    "20": ((VANISH,), lambda: str(_gradient_flow("seq_len"))),
    # §09 the growth example: hidden size 32, 50 steps, 1 vs 3 layers (tanh RNN)
    "1,024": ((VANISH,), lambda: _int(_growth("shallow", "recurrent_params"))),
    "3,072": ((VANISH,), lambda: _int(_growth("deep", "recurrent_params"))),
    "52": ((VANISH,), lambda: _int(_growth("deep", "jacobians_per_path"))),
    "1,275": ((VANISH,), lambda: _int(_growth("deep", "paths_to_first_input"))),
    # §09 why the stack's gradient is not the smaller one: mean tanh slope per layer
    "0.74": ((VANISH,), lambda: f"{growth_tanh_slopes()[0]:.2f}"),
    "0.88": ((VANISH,), lambda: f"{growth_tanh_slopes()[1]:.2f}"),
    "0.92": ((VANISH,), lambda: f"{growth_tanh_slopes()[2]:.2f}"),
    # §10 depth x data design: passes over the smallest set in the fixed budget, largest set
    "190": ((DATA,), lambda: _depth_data_passes("smallest")),
    "3,000": ((DATA,), lambda: _depth_data_size("largest")),
    # the Shakespeare study (§06 timescales, §09 eight layers, §10 budget and data)
    "200": ((LIVE,), lambda: str(_timescale_config().context)),
    "64": ((VERDICT,), lambda: str(_study_base().model.embed_size)),
    "1,500": ((VANISH,), lambda: _int(_study_plan("SHORT_STEPS"))),
    "25": ((VANISH,), lambda: str(_deep_grad_every())),
    "8": ((VANISH, HOME), lambda: str(_deep_layers())),
    "6,000": ((VANISH, VERDICT, DATA), lambda: _int(_study_base().train.max_steps)),
    "0.13": ((VERDICT,), lambda: _late_gap_bound(min)),
    "0.17": ((VERDICT,), lambda: _late_gap_bound(max)),
    "2,500": ((VERDICT,), lambda: _int(_last_budget_swap())),
    "31,250": ((DATA,), lambda: _int(_study_plan("DATA_SIZES")[0])),
    "125,000": ((DATA,), lambda: _int(_study_plan("DATA_SIZES")[1])),
    "3.9": ((DATA,), lambda: f"{len(_corpus().train.text) / 1e6:.1f}"),
    # §13 exercise E5: the toy model's largest figure factor (its answer is generated)
    "0.90": ((QUIZ,), lambda: _toy_factor(-1)),
}

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
    return re.compile(r"(?<![\w.,])" + re.escape(key) + r"(?![\w]|[.,]\d)")


def unexplained_numbers(page: str, docs: Path = DOCS) -> list[str]:
    text = prose(page, docs)
    for key in sorted(REGISTRY, key=len, reverse=True):
        text = _literal(key).sub(" ", text)
    for phrase in ALLOWED_PHRASES:
        text = text.replace(phrase, " ")
    return [m for m in _NUMBER.findall(text) if m not in ALLOWED_NUMBERS]


def test_the_lecture_pages_exist():
    assert "index.md" in PAGES and "13-mastery-check.md" in PAGES, PAGES


@pytest.mark.parametrize("literal", sorted(REGISTRY))
def test_registered_number_is_stacklibs_and_still_in_the_prose(literal):
    pages, compute = REGISTRY[literal]
    assert compute() == literal, f"stacklib now gives {compute()!r}; prose says {literal!r}"
    for page in pages:
        assert _literal(literal).search(prose(page)), f"{literal!r} is no longer stated in {page}"


@pytest.mark.parametrize("page", PAGES)
def test_every_number_in_the_prose_is_registered_or_allowed(page):
    unexplained = unexplained_numbers(page)
    assert not unexplained, (
        f"{page}: numbers neither registered in REGISTRY (computed by stacklib) nor allowlisted: "
        f"{unexplained}"
    )


def test_growth_prose_unregistered_inputs_are_what_stacklib_uses():
    """§09 says "52 Jacobians instead of 50" and "one route": the one-layer chain is T long."""
    assert _growth("shallow", "jacobians_per_path") == 50
    assert _growth("shallow", "paths_to_first_input") == 1
    assert _growth("deep", "recurrent_matrices") == 3


def test_registered_pages_exist():
    for pages, _ in REGISTRY.values():
        for page in pages:
            assert page in PAGES, page


def test_scanner_catches_a_hand_edit(tmp_path):
    """The scanner flags a changed result and ignores code, snippets, link targets and
    citations."""
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
