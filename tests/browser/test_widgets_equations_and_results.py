"""Widgets of §07-§13: each interaction shows the right values (expected values from stacklib,
the experiments' JSON or the page's own glossary), and each widget works from the keyboard."""

from __future__ import annotations

import re

import pytest
from browser_helpers import data, minus, set_range, shown

from stacklib.config import CELLS
from stacklib.params import count_params
from stacklib.walkthrough import walkthrough


def _vec(values) -> str:
    return "[" + ", ".join(f"{v:.4f}".replace("-0.0000", "0.0000") for v in values) + "]"


# --- §07 symbol inspector ---------------------------------------------------------------------

def _on(buttons) -> list[int]:
    """Indices of the symbol buttons marked as shown in the panel."""
    return buttons.evaluate_all("bs => bs.flatMap((b, i) => b.classList.contains('on') ? [i] : [])")


def test_symbols_every_button_explains_its_glossary_row(web):
    w = web.widget("symbols")
    rows = {" ".join(r.locator("td").nth(0).inner_text().split()): r
            for r in web.page.locator(".glossary tbody tr").all()}
    buttons = w.locator("button.w-sym")
    assert buttons.count() >= 10
    symbols = buttons.evaluate_all("bs => bs.map(b => b.dataset.symbol)")
    assert {"ht−1[l]", "ht[l−1]", "W[l]", "Cell[l]", "L", "xt", "yt", "ct[l]", "ct−1[l]", "h0[l]",
            "c0[l]"} <= set(symbols), symbols
    glossary = web.page.locator(".glossary")
    top = glossary.bounding_box()["y"]
    for i in (0, buttons.count() // 2, buttons.count() - 1):
        b = buttons.nth(i)
        b.hover()  # shown in the live panel, marked by a class: hovering presses nothing
        assert _on(buttons) == [i]
        job = shown(w.locator(".w-panel dd").first)
        assert any(job == shown(r.locator("td").nth(1)) for r in rows.values()), job
        # the panel is as tall as its longest explanation: the glossary below never moves
        assert glossary.bounding_box()["y"] == top
    horizontal = w.locator('button.w-sym[data-symbol="ht−1[l]"]')
    horizontal.click()  # its whole glossary row: job, shape and personality
    row = next(r for r in rows.values() if r.locator("td").nth(0).evaluate(
        "c => c.textContent.replace(/\\s+/g, '')") == "ht−1[l]")
    job, _, personality = w.locator(".w-panel > [aria-live] dd").all()
    assert [shown(job), shown(personality)] == [shown(row.locator("td").nth(k)) for k in (1, 3)]


def test_symbols_keyboard(web):
    w = web.widget("symbols")
    buttons = w.locator("button.w-sym")
    buttons.first.focus()
    assert _on(buttons) == [0]
    web.page.keyboard.press("ArrowRight")
    assert _on(buttons) == [1]
    web.page.keyboard.press("End")
    assert _on(buttons) == [buttons.count() - 1]
    web.page.keyboard.press("Home")
    first = buttons.first.get_attribute("data-symbol")
    assert w.get_attribute("data-symbol") == first


# --- §08 climb --------------------------------------------------------------------------------

def test_climb_reveals_stacklibs_walkthrough_in_order(web):
    w = web.widget("climb")
    steps = walkthrough().to_dict()["steps"]
    values = w.locator(".w-climb .w-val")
    assert values.count() == len(steps) == 21
    assert values.all_inner_texts() == ["?"] * 21
    for k in range(1, 6):
        w.get_by_role("button", name="Next step").click()
        assert w.get_attribute("data-step") == str(k)
        assert minus(values.nth(k - 1).inner_text()) == _vec(steps[k - 1]["value"])
        assert values.nth(k).inner_text() == "?"
        assert steps[k - 1]["label"] in shown(w.locator(".w-panel .w-title"))
    w.get_by_role("button", name="Reveal all").click()
    assert [minus(t) for t in values.all_inner_texts()] == [_vec(s["value"]) for s in steps]
    y = walkthrough().y
    assert _vec(y) == "[0.7215, -0.0432]"
    assert _vec(y) in minus(shown(w.locator(".w-panel")))
    assert w.locator(".w-climb tr.now").get_attribute("data-step") == "21"
    assert steps[-1]["label"] in shown(w.locator(".w-panel .w-title"))


def test_climb_keyboard(web):
    w = web.widget("climb")
    w.get_by_role("button", name="Next step").focus()
    web.press(w, "data-step", [("Enter", "1"), ("ArrowRight", "2"), ("ArrowLeft", "1"),
                               ("End", "21"), ("ArrowRight", "21"), ("Home", "0")])


# --- §09 two vanishing paths ------------------------------------------------------------------

def _measured(cell: str, variant: str, depth: int) -> list[float]:
    run = next(r for r in data("experiments/gradient_flow.json")["runs"]
               if (r["cell"], r["variant"], r["depth"]) == (cell, variant, depth))
    return [v / run["last_step"][-1] for v in run["last_step"]]


def _table(w) -> list[list[float | None]]:
    rows = w.locator(".w-table tbody tr").all()[::-1]  # bottom layer first
    return [[float(v) if v else None for v in r.locator("td").evaluate_all(
        "ts => ts.slice(1).map(t => t.dataset.value)")] for r in rows]


@pytest.mark.parametrize(("factor", "layers", "residual", "cell"), [
    (0.60, 4, False, "lstm"), (0.30, 8, False, "rnn"), (0.95, 2, True, "gru"),
    (0.05, 6, False, "lstm"), (1.00, 1, True, "rnn")])
def test_vanishing_model_and_measured_norms(web, factor, layers, residual, cell):
    w = web.widget("vanishing")
    defaults = data("data/gradient_model.json")
    if (factor, layers) == (defaults["factor"], defaults["num_layers"]):
        assert [m for m, _ in _table(w)] == pytest.approx(defaults["at_defaults"]["plain"])
    sliders = w.locator('input[type="range"]')
    set_range(sliders.nth(0), factor)
    set_range(sliders.nth(1), layers)
    w.get_by_role("checkbox", name="residual").set_checked(residual)
    w.get_by_role("radio", name=CELLS[cell].label()).check()
    table = _table(w)
    assert len(table) == layers
    for layer, (model, _) in enumerate(table, start=1):
        assert model == pytest.approx(1.0 if residual else factor ** (layers - layer), rel=1e-12)
    ref = _measured(cell, "residual" if residual else "plain", layers)
    assert [m for _, m in table] == pytest.approx(ref, rel=1e-9)
    formula = w.locator(".w-math")
    # §09's name for the share of the gradient, one identifier (g is the LSTM's candidate)
    assert formula.locator("msup > mi").first.text_content() == "ρ"


def test_vanishing_keyboard_and_clamping(web):
    w = web.widget("vanishing")
    factor = w.locator('input[type="range"]').nth(0)
    factor.focus()
    web.page.keyboard.press("ArrowLeft")
    assert w.get_attribute("data-factor") == "0.55"
    set_range(factor, 7)  # out of range: clamped to the maximum
    assert w.get_attribute("data-factor") == "1"
    w.get_by_role("checkbox", name="residual").focus()
    web.page.keyboard.press("Space")
    assert w.get_attribute("data-residual") == "true"
    assert all(m == 1.0 for m, _ in _table(w))


# --- §10 verdict and depth × data -------------------------------------------------------------

def test_verdict_flip_and_table_follows(web):
    w = web.widget("verdict")
    table = web.page.locator("table", has_text="Shallow & wide · 1×512").first  # head-to-head
    for name, layers, hidden, col in [("Shallow", 1, 512, 1), ("Deep", 3, 256, 2)]:
        w.get_by_role("radio", name=name).check()
        for fw in ("keras", "torch"):
            expected = count_params("lstm", 300, hidden, layers, framework=fw)
            assert w.locator(f'dd [data-value="{expected}"]').inner_text() == f"{expected:,}"
        assert w.locator(".w-block").count() == layers
        lit = table.locator(".w-colon").evaluate_all("cs => cs.map(c => c.cellIndex)")
        assert lit and set(lit) == {col}
    trained = data("experiments/depth_width.json")["training"]["deep"]
    assert f"{100 * trained['mean']:.2f} %" in shown(w.locator(".w-dl"))


def test_verdict_keyboard(web):
    w = web.widget("verdict")
    w.get_by_role("radio", name="Shallow").focus()
    web.page.keyboard.press("ArrowRight")
    assert w.get_attribute("data-option") == "deep"


def test_depth_data_sizes_and_metrics(web):
    w = web.widget("depth-data")
    summary = data("experiments/depth_data.json")["summary"]
    sizes = data("experiments/depth_data.json")["sizes"]
    for j, metric in [(0, "error"), (len(sizes) - 1, "error"), (1, "loss")]:
        w.get_by_role("radio", name=f"{sizes[j]:,}", exact=True).check()
        label = "next-word loss" if metric == "loss" else "agreement error"
        w.locator("label").filter(has_text=label).click()  # as a reader does: on the label
        assert w.get_by_role("radio", name=label).is_checked()
        assert w.get_attribute("data-size") == str(sizes[j])
        for k, row in enumerate(w.locator(".w-table tbody tr").all()):
            for key in ("train", "heldout", "gap"):
                shown_v = float(row.locator(f'td[data-key="{key}"]').get_attribute("data-value"))
                assert shown_v == pytest.approx(summary[f"{key}_{metric}"]["mean"][k][j], abs=1e-9)


def test_depth_data_keyboard(web):
    w = web.widget("depth-data")
    w.get_by_role("radio", name="50", exact=True).focus()
    web.page.keyboard.press("ArrowRight")
    sizes = data("experiments/depth_data.json")["sizes"]
    assert w.get_attribute("data-size") == str(sizes[1])


# --- §13 mastery check ------------------------------------------------------------------------

def test_quiz_feedback_score_and_retry(web):
    w = web.widget("quiz")
    key = data("data/quiz.json")
    q = {i: w.locator(f'.w-q[data-q="q{i}"]') for i in range(1, 11)}
    wrong = next(x for x in "ABCD" if x != key["q1"]["answer"])
    q[1].locator(f'button[data-letter="{wrong}"]').click()
    assert q[1].get_attribute("data-result") == "wrong"
    marked = q[1].locator("button.w-opt").evaluate_all(
        "os => os.map(o => [o.dataset.letter, o.className, o.ariaPressed])")
    assert [(letter, set(cls.split()) - {"w-opt"}, pressed) for letter, cls, pressed in marked] \
        == [(x, {"right"} if x == key["q1"]["answer"] else {"wrong"} if x == wrong else set(),
             "true" if x == wrong else "false") for x in "ABCD"]
    # the feedback shows the page's own explanation: the question's answer block, copied
    page_answer = q[1].locator("xpath=following-sibling::details[1]/*[not(self::summary)]")
    feedback = q[1].locator("[aria-live] > *")
    assert feedback.count() == 1 + page_answer.count()
    copied = [e.inner_html() for e in feedback.all()[1:]]
    assert copied == [e.inner_html() for e in page_answer.all()]
    q[3].locator("input").fill(f"{count_params('lstm', 100, 128, 3):,}")
    q[3].locator("input").press("Enter")
    assert q[3].get_attribute("data-result") == "right"
    q[5].locator("input").fill("five and a half")
    q[5].get_by_role("button", name="Check").click()
    assert q[5].locator("input").get_attribute("aria-invalid") == "true"
    assert q[5].get_attribute("data-result") is None and w.get_attribute("data-answered") == "2"
    q[5].locator("input").fill("5.5")
    q[5].get_by_role("button", name="Check").click()
    assert q[5].get_attribute("data-result") == "right"
    q[7].locator("input").fill(str(key["q7"]["at_defaults"]))
    q[7].locator("input").press("Enter")
    assert q[7].get_attribute("data-result") == "right"
    q[9].get_by_role("button", name="Show the answer").click()
    q[9].get_by_role("button", name="I had it").click()
    assert (w.get_attribute("data-score"), w.get_attribute("data-answered")) == ("4", "5")
    score = w.locator(".w-status")  # right, answered, and every question on the page
    assert score.get_attribute("role") == "status"
    assert re.findall(r"\d+", shown(score)) == ["4", "5", str(w.locator("h3").count())]
    w.get_by_role("button", name="Retry all questions").click()
    assert (w.get_attribute("data-score"), w.get_attribute("data-answered")) == ("0", "0")
    assert q[1].get_attribute("data-result") is None and q[3].locator("input").input_value() == ""


def test_quiz_keyboard(web):
    w = web.widget("quiz")
    key = data("data/quiz.json")
    answer = w.locator(f'.w-q[data-q="q2"] button[data-letter="{key["q2"]["answer"]}"]')
    answer.focus()
    web.page.keyboard.press("Enter")
    assert w.locator('.w-q[data-q="q2"]').get_attribute("data-result") == "right"
    w.locator('.w-q[data-q="q8"] button').first.focus()
    for _ in "ABCD".index(key["q8"]["answer"]) * [0]:
        web.page.keyboard.press("Tab")
    web.page.keyboard.press("Space")
    assert w.locator('.w-q[data-q="q8"]').get_attribute("data-result") == "right"
