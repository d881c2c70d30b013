"""Every element the lecture is built from is in the built HTML: each page's title and section
headings, cards, probes, figures (with alt text), generated tables, code-lab tabs and outputs,
the executed notebook, the quiz. Structure only: the prose itself is the authors' to change."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sitebuild import DOCS, GENERATED

from scripts.site import nav, page_url

FIGURES = {  # the lecture's figures -> the page that shows each (static twin of a widget)
    "hero_lamps.svg": "index.html", "lenses.svg": "02-motivation/index.html",
    "blueprint.svg": "03-blueprint/index.html",
    "walkthrough_steps.svg": "04-step-by-step/index.html",
    "pricing_vs_layers.svg": "05-cell-flavors/index.html",
    "live_stack.svg": "06-live-stack/index.html",
    "gradient_decay.svg": "09-vanishing-paths/index.html",
    "depth_vs_width.svg": "10-verdict/index.html",
    "depth_vs_data.svg": "10b-depth-and-data/index.html",
}
MARKDOWN_PAGES = [src for _, src in nav() if src.endswith(".md")]


def norm(text: str) -> str:
    return " ".join(text.split())


def included_partials() -> dict[str, list[str]]:
    """page -> generated partial names its markdown includes with snippets."""
    found = {}
    for md in sorted(DOCS.glob("*.md")):
        rel = "index.html" if md.stem == "index" else f"{md.stem}/index.html"
        names = re.findall(r'--8<-- "generated/partials/([\w.]+)"', md.read_text("utf-8"))
        if names:
            found[rel] = names
    return found


def _headings(markdown: str, level: int) -> list[str]:
    """Headings of one level in a page's markdown (outside fenced code), inline markup removed."""
    text = re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL)
    found = re.findall(rf"^{'#' * level} (.+?)\s*$", text, flags=re.MULTILINE)
    return [norm(re.sub(r"[`*_]|\{[^}]*\}$", "", h)).strip() for h in found]


def _rendered(html: str, tag: str) -> list[str]:
    found = re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", html, re.DOTALL)
    return [norm(unescape(re.sub(r"<[^>]+>", "", h)).replace("¶", "")) for h in found]


@pytest.mark.parametrize("src", MARKDOWN_PAGES)
def test_page_title_and_sections_are_rendered_in_order(site, src):
    """The page's one title is its markdown's '# ' heading; its '## ' sections all follow, in
    the order written (a broken include or an unclosed block would drop or reorder them)."""
    rel = page_url(src) + "index.html"
    markdown = (DOCS / src).read_text(encoding="utf-8")
    html = site.pages[rel].html
    content = html[html.index('<article class="md-content__inner'):]
    assert _rendered(content, "h1") == _headings(markdown, 1), rel
    sections = _headings(markdown, 2)
    rendered = iter(_rendered(content, "h2"))
    assert all(any(h == r for r in rendered) for h in sections), (rel, sections)


def test_home_has_four_stat_cards(site):
    html = site.pages["index.html"].html
    cards = re.findall(r'class="stat-value">([^<]+)<.*?class="stat-label">([^<]+)<', html,
                       re.DOTALL)
    assert len(cards) == 4 and all(v.strip() and label.strip() for v, label in cards), cards


def test_home_recurrence_is_display_mathml(site):
    html = site.pages["index.html"].html
    block = re.search(r'<math display="block">.*?</math>', html, re.DOTALL)
    assert block and "Cell" in block.group(0)


def test_second_probe_is_stated_on_the_live_stack_page(site):
    probes = re.findall(r'<p class="probe">(.*?)</p>', site.pages["06-live-stack/index.html"].html)
    assert len(probes) >= 2 and len(set(probes)) >= 2, probes


def test_twelve_summary_and_card_counts(site):
    assert site.pages["12-summary/index.html"].html.count('class="summary-card"') == 6
    for rel, n in (("02-motivation/index.html", 4), ("03-blueprint/index.html", 4),
                   ("10-verdict/index.html", 3)):
        assert site.pages[rel].html.count('class="card"') >= n, rel


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_is_shown_with_alt_text(site, name):
    rel = FIGURES[name]
    imgs = re.findall(r"<img\b[^>]*>", site.pages[rel].html)
    mine = [tag for tag in imgs if f"generated/figures/{name}" in tag]
    assert mine, f"{rel} does not show {name}"
    alt = re.search(r'alt="([^"]*)"', mine[0])
    assert alt and len(alt.group(1)) >= 30, f"{name}: alt text too short"
    assert (site.site / "generated" / "figures" / name).is_file()


@pytest.mark.parametrize("rel", sorted(included_partials()))
def test_generated_tables_are_rendered(site, rel):
    """The first and last row of every included generated table appear in the page."""
    text = norm(site.pages[rel].full_text)
    html = site.pages[rel].html
    for name in included_partials()[rel]:
        source = (GENERATED / "partials" / name).read_text(encoding="utf-8")
        if name.startswith("codelab_"):
            first = source.split("```text\n", 1)[1].splitlines()[1]  # first printed line
            assert norm(first).split("=")[0].strip() in html, f"{rel}: {name}"
            continue
        if name == "shakespeare_samples.md":  # content tabs of samples, no table
            labels = re.findall(r'^=== "(.+)"$', source, flags=re.M)
            assert labels and all(f">{label}</label>" in html for label in labels), name
            continue
        rows = [r for r in source.splitlines() if r.startswith("|") and not r.startswith("| :")
                and not r.startswith("| -")]
        assert len(rows) >= 2, f"{name} has no table"
        for row in (rows[1], rows[-1]):
            for cell in (c.strip() for c in row.strip("|").split("|")):
                plain = re.sub(r"[`*]", "", cell).strip()
                if plain and "$" not in plain and "<" not in plain:
                    assert norm(plain) in text, f"{rel}: {name}: {plain!r} not rendered"
    assert "--8<--" not in html, f"{rel}: a snippet was not expanded"


def test_hand_computed_page_has_every_walkthrough_table(site):
    html = site.pages["08-hand-computed/index.html"].html
    assert html.count("<table>") >= 6  # scalar, state, weights l1, l2, layer 1, layer 2, output


def _first_output_line() -> str:
    """The first line every lab prints: the output at the first step, §08's y_t to four
    decimals, as stacklib computes it."""
    from stacklib.walkthrough import walkthrough

    return "output = [[" + ", ".join(f"{v:.4f}" for v in walkthrough().y) + "],"


def test_code_lab_tabs_and_real_outputs(site):
    html = site.pages["11-code-lab/index.html"].html
    labels = re.findall(r'<label for="__tabbed_[^"]*"[^>]*>([^<]+)</label>', html)
    assert labels[:3] == ["PyTorch", "Keras", "NumPy"], labels
    for name in ("shared_weights", "pytorch_lab", "keras_lab", "numpy_lab"):
        assert f"code_lab/{name}.py" in html
    assert html.count(_first_output_line()) == 3


def test_notebook_page_shows_the_committed_outputs(site):
    """Every code cell's output, stored in the notebook at generate time, is on the page."""
    html = site.pages["code_lab/index.html"].html
    assert "jp-Notebook" in html
    assert html.count('class="jp-OutputArea') >= 4  # the three tabs and the comparison
    assert html.count(_first_output_line()) == 3
    assert html.count("agree to 1e-6: True") == 2
    assert "Traceback" not in html


def test_quiz_answers_are_present(site):
    html = site.pages["13-mastery-check/index.html"].html
    questions = re.findall(r"<h3 id=\"q\d+", html)
    answers = html.count('class="success"')
    assert len(questions) >= 8 and answers >= len(questions), (len(questions), answers)


def test_quiz_answer_letters_match_the_generated_key():
    """docs/13's "??? success" answers start with the letters scripts/generation/quiz_answers.py
    records."""
    import json

    key = json.loads((GENERATED / "data" / "quiz.json").read_text(encoding="utf-8"))
    page = (DOCS / "13-mastery-check.md").read_text(encoding="utf-8")
    blocks = re.split(r"^### Q(\d+)\b", page, flags=re.MULTILINE)[1:]
    stated = {f"q{num}": re.search(r'\?\?\? success "Answer"\s*\n\s*\*\*([^*]+)\*\*', body)
              for num, body in zip(blocks[::2], blocks[1::2], strict=True)}
    for q, entry in key.items():
        if isinstance(entry["answer"], str) and len(entry["answer"]) == 1:
            assert stated.get(q), f"{q}: no answer block"
            assert stated[q].group(1).rstrip(".") == entry["answer"], q


def test_figures_and_widgets_share_the_layer_colours():
    """The static figures' layer colours (scripts/generation/figures.py) are the light scheme's
    lamps that the widgets and layer tags use (docs/stylesheets/lecture.css)."""
    from scripts.generation.figures import LAYER_COLORS

    css = (DOCS / "stylesheets" / "lecture.css").read_text()
    root = css[css.index(":root {"): css.index("}", css.index(":root {"))]
    lamps = tuple(re.search(rf"--lamp-{i}: (#[0-9a-f]{{6}})", root).group(1) for i in (1, 2, 3))
    assert lamps == LAYER_COLORS
