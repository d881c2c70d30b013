"""What the widgets expose besides their numbers: live regions that say something (and only
once), ARIA states that match what the reader did, one tab stop per composite control, layer
colours as the static figures draw them, and a print view without screen-only tints. (Ranges and
axes read from the generated data: test_widgets_ranges.py.)"""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser_helpers import data, set_range, shown

from stacklib.params import param_breakdown

IDS = re.compile(r"\b[cmnv][0-3]\b")  # the diagram's internal part ids


def _live(w):
    return w.locator(':scope > .w-ui [aria-live="polite"]')


# --- hero and live stack: the play toggle -----------------------------------------------------

@pytest.mark.parametrize(("name", "step"), [("hero-lamps", "Step"), ("live-stack", "Next")])
def test_play_is_a_toggle_with_one_name(web, name, step):
    w = web.widget(name)
    w.get_by_role("button", name=step, exact=True).click()  # a user step pauses (hero autoplays)
    play = w.get_by_role("button", name="Play", exact=True)
    assert play.get_attribute("aria-pressed") == "false"
    play.click()
    assert play.get_attribute("aria-pressed") == "true"
    assert shown(play) == "Play" and w.get_by_role("button", name="Pause").count() == 0
    play.click()
    assert play.get_attribute("aria-pressed") == "false"


# --- §02 lenses -------------------------------------------------------------------------------

def test_lenses_summary_is_live_and_no_heading_level_is_skipped(web):
    w = web.widget("lenses")
    hero = data("experiments/probes.json")["models"]["hero"]
    acc = hero["accuracy"]
    sd = {f: np.std(a, axis=0, ddof=1) for f, a in hero["accuracy_per_seed"].items()}
    assert w.locator(":scope > .w-ui").locator("h1, h2, h3, h4, h5, h6").count() == 0
    said = []
    for lens in (1, 2, 3):
        w.get_by_role("radio", name=f"Layer {lens}").check()
        text = shown(_live(w))
        # the layer, each probe's mean and spread as the bars show them, and the seeds counted
        assert re.findall(r"\d+(?:\.\d+)?", text) == [
            str(lens), *(f"{100 * v[f][lens]:.1f}" for f in acc for v in (acc, sd)),
            str(len(hero["seeds"]))], text
        said.append(text)
    assert len(set(said)) == 3


# --- §03 blueprint: roving tab stop, Enter and Space ------------------------------------------

def _tabstops(w):
    return w.locator(".w-part").evaluate_all(
        "ps => ps.filter(p => p.tabIndex === 0).map(p => p.dataset.part)")


def test_blueprint_roving_tab_stop_and_enter_space(web):
    w = web.widget("blueprint")
    page = web.page
    assert _tabstops(w) == ["x"]  # one tab stop, at the input, where the climb starts
    active = "() => document.activeElement.dataset.part || null"
    w.locator('[data-part="x"]').focus()
    page.keyboard.press("ArrowUp")
    assert page.evaluate(active) == "v0" and _tabstops(w) == ["v0"]
    page.keyboard.press("Shift+Tab")  # leaves the diagram at once ...
    assert page.evaluate(active) is None
    page.keyboard.press("Tab")  # ... and comes back to the selected part
    assert page.evaluate(active) == "v0"
    for key, other in (("Enter", "c2"), ("Space", "c3")):
        w.locator(f'[data-part="{other}"]').hover()  # the pointer shows another part
        assert w.get_attribute("data-part") == other
        y = page.evaluate("scrollY")
        page.keyboard.press(key)  # the focused part is selected again; Space does not scroll
        assert w.get_attribute("data-part") == "v0", key
        assert page.evaluate("scrollY") == y
    names = w.locator(".w-part").evaluate_all("ps => ps.map(p => p.getAttribute('aria-label'))")
    assert len(set(names)) == 15 and not any(IDS.search(n) for n in names)


# --- §04 follow the dot: human names ----------------------------------------------------------

def test_follow_dot_names_the_lit_parts(web):
    w = web.widget("follow-dot")
    svg = w.locator("svg.w-diagram")
    labels, counts = [], []
    for _ in range(5):
        w.get_by_role("button", name="Next step").click()
        labels.append(svg.get_attribute("aria-label"))
        counts.append(w.locator(".w-part.on").count())
    assert not any(IDS.search(t) for t in labels), labels
    # each step's label names its step, as the page's "Step N · title" heading does, and then
    # each part lit at that step
    heads = web.page.locator(".md-content h2").all_inner_texts()
    for step, (label, lit) in enumerate(zip(labels, counts, strict=True), start=1):
        head = next(t for t in heads if t.startswith(f"Step {step} "))
        assert head.split("·", 1)[1].strip(" ¶") in label, (step, label)
        assert len(label.rsplit(";", 1)[1].split(",")) == lit, (step, label)


# --- §05 price: quiet outputs -----------------------------------------------------------------

def test_slider_steps_are_announced_once(web):
    w = web.widget("price")
    outputs = w.locator("output")
    assert outputs.count() == 3
    assert set(outputs.evaluate_all("os => os.map(o => o.getAttribute('aria-live'))")) == {"off"}
    note = w.locator(":scope > .w-ui > p.w-caption").last
    ranges = w.locator('input[type="range"]')
    ranges.nth(0).focus()
    steps = [("Home", "polite"), ("ArrowRight", "polite"), ("ArrowRight", "off")]
    for key, live in steps:  # "one layer" -> "fan-in jump": a new sentence; 2 -> 3: the same
        web.page.keyboard.press(key)
        assert note.get_attribute("aria-live") == live, key
    ranges.nth(1).focus()
    web.page.keyboard.press("ArrowRight")
    assert note.get_attribute("aria-live") == "off"
    # the note states the jump as stacklib counts it: layer 2's input weights against layer 1's
    layers, hidden, width = (int(w.get_attribute(f"data-{k}")) for k in ("layers", "hidden",
                                                                         "input"))
    first, second = param_breakdown("lstm", width, hidden, layers)[:2]
    said = re.findall(r"\d[\d,]*", shown(note))
    assert f"{second.input_weights:,}" in said and f"{first.input_weights:,}" in said
    web.goto("09-vanishing-paths/")
    v = web.page.locator('.widget[data-widget="vanishing"] output')
    assert set(v.evaluate_all("os => os.map(o => o.getAttribute('aria-live'))")) == {"off"}


# --- §06 live stack: Home is the start state --------------------------------------------------

def test_live_stack_home_and_reset_agree(web):
    w = web.widget("live-stack")
    w.get_by_role("button", name="Next").focus()
    web.press(w, "data-word", [("End", None), ("Home", "0")])
    w.get_by_role("button", name="Next").click()
    w.get_by_role("button", name="Reset").click()
    assert w.get_attribute("data-word") == "0"
    # no word read: every layer's state is zero, and the status names no word of the sentence
    means = w.locator(".w-big[data-layer]").evaluate_all("ms => ms.map(m => +m.dataset.value)")
    assert means and set(means) == {0}
    words = data("experiments/stacks.json")["probes"][0]["words"]
    assert not any(f"“{word}”" in shown(w.locator(".w-status")) for word in words)


# --- §07 symbols: hover and focus do not press ------------------------------------------------

def test_symbols_hover_and_focus_set_no_pressed_state(web):
    w = web.widget("symbols")
    buttons = w.locator("button.w-sym")
    buttons.nth(1).hover()
    buttons.first.focus()
    web.page.keyboard.press("ArrowRight")
    buttons.nth(2).click()
    assert w.locator("button.w-sym[aria-pressed]").count() == 0
    assert w.locator("button.w-sym.on").evaluate_all("bs => bs.length") == 1
    assert "on" in buttons.nth(2).get_attribute("class").split()


# --- §08 climb: no stray text in the live card ------------------------------------------------

def test_climb_card_never_says_false(web):
    w = web.widget("climb")
    card = w.locator(".w-panel")
    w.get_by_role("button", name="Next step").focus()
    for step in range(22):
        text = card.evaluate("c => c.textContent")
        assert "false" not in text, (step, text)
        assert card.evaluate("c => [...c.childNodes].every(n => n.nodeType === 1)"), step
        web.page.keyboard.press("ArrowRight")


# --- §09 vanishing: layer colours as the static figure draws them -----------------------------

def _rgb(css: str) -> tuple[int, ...]:
    """'rgb(13, 148, 136)' or 'color(srgb 0.05 0.58 0.53)' (what color-mix computes to)."""
    nums = [float(v) for v in re.findall(r"[\d.]+", css.split("(", 1)[1])[:3]]
    return tuple(round(v * 255) if css.startswith("color(") else round(v) for v in nums)


def test_vanishing_bars_climb_the_layer_colours(web):
    """Like the static figure: teal at the bottom, violet at the top, a distinct step between."""
    w = web.widget("vanishing")
    set_range(w.locator('input[type="range"]').nth(1), 4)
    fills = w.locator("rect.w-col").evaluate_all("rs => rs.map(r => getComputedStyle(r).fill)")
    lamps = [web.page.evaluate(
        "i => { const e = document.createElement('i'); e.style.color = `var(--lamp-${i})`;"
        " document.body.append(e); const c = getComputedStyle(e).color; e.remove(); return c; }",
        i) for i in (1, 3)]
    assert len(fills) == 4 and len({_rgb(f) for f in fills}) == 4, fills
    assert [_rgb(fills[0]), _rgb(fills[-1])] == [_rgb(c) for c in lamps], (fills, lamps)


# --- §10 verdict: colours, widths, live summary, print ----------------------------------------

def test_verdict_blocks_match_the_static_figure_and_summary_is_live(web):
    w = web.widget("verdict")
    options = data("data/verdict.json")["options"]
    widest = max(o["hidden"] for o in options)
    said = set()
    for o in options:
        w.get_by_role("radio", name={"wide": "Shallow", "deep": "Deep"}[o["key"]]).check()
        blocks = w.locator(".w-block")
        # top first, as drawn; layer l has the colour of layer l in the figure (1, 2, 3, 1, ...)
        classes = blocks.evaluate_all("bs => bs.map(b => b.className)")
        assert classes == [f"w-block w-l{(n - 1) % 3 + 1}" for n in range(o["layers"], 0, -1)]
        widths = blocks.evaluate_all("bs => bs.map(b => parseFloat(b.style.width))")
        assert widths == pytest.approx([100 * o["hidden"] / widest] * o["layers"])
        text = shown(_live(w))
        assert f"{o['params']['keras']:,}" in text and f"{o['layers']} × {o['hidden']}" in text
        said.add(text)
    assert len(said) == len(options)


def test_verdict_column_tint_is_screen_only(web):
    web.widget("verdict")
    cell = web.page.locator("table td.w-colon").first
    tint = "c => getComputedStyle(c).backgroundColor"
    assert cell.evaluate(tint) != "rgba(0, 0, 0, 0)"
    web.page.emulate_media(media="print")
    assert cell.evaluate(tint) == "rgba(0, 0, 0, 0)"


# --- §13 quiz: states after answering ---------------------------------------------------------

def test_quiz_states_after_answering(web):
    w = web.widget("quiz")
    key = data("data/quiz.json")
    q1, q5, q9 = (w.locator(f'.w-q[data-q="q{i}"]') for i in (1, 5, 9))
    opts = q1.locator("button.w-opt")
    assert opts.evaluate_all("os => os.map(o => o.getAttribute('aria-disabled'))") == \
        [None] * opts.count()
    q1.locator(f'button[data-letter="{key["q1"]["answer"]}"]').click()
    assert set(opts.evaluate_all("os => os.map(o => o.getAttribute('aria-disabled'))")) == {"true"}
    field = q5.locator("input")
    assert field.get_attribute("aria-invalid") in (None, "false")
    field.fill("lots")
    field.press("Enter")
    assert field.get_attribute("aria-invalid") == "true"
    described = web.page.locator(f"#{field.get_attribute('aria-describedby')}")
    assert described.locator(".w-wrong").count() == 1 and q5.get_attribute("data-result") is None
    field.fill("5.5")
    field.press("Enter")
    assert field.get_attribute("aria-invalid") == "false"
    assert described.locator(".w-right").count() == 1 and q5.get_attribute("data-result") == "right"
    reveal = q9.get_by_role("button", name="Show the answer")
    assert reveal.get_attribute("aria-expanded") == "false"
    reveal.click()
    assert reveal.get_attribute("aria-expanded") == "true"
    assert q9.get_by_role("button", name="I had it").is_visible()
    reveal.click()
    assert reveal.get_attribute("aria-expanded") == "false"
    assert not q9.get_by_role("button", name="I had it").is_visible()
    w.get_by_role("button", name="Retry all questions").click()
    assert opts.evaluate_all("os => os.map(o => o.getAttribute('aria-disabled'))") == \
        [None] * opts.count()
