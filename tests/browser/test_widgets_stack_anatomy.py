"""Widgets of the home page and §02-§06: each interaction shows the right values (expected values
from the experiments' JSON or from stacklib itself, never from the widget data alone), and each
widget works from the keyboard."""

from __future__ import annotations

import re

import numpy as np
import pytest
from browser_helpers import data, minus, set_range, shown

from stacklib.config import CELLS
from stacklib.params import count_params, param_breakdown


def _stacks():
    return data("experiments/stacks.json")


# --- hero: three lamps per word ---------------------------------------------------------------

def test_hero_steps_light_the_lamps_bottom_to_top(web):
    w = web.widget("hero-lamps")
    probe = _stacks()["models"]["hero"]["probes"][0]
    lamp, mean = probe["lamp"], probe["mean_abs_h"]  # [layer][word]
    words = _stacks()["probes"][0]["words"]
    w.get_by_role("button", name="Restart").click()
    assert w.get_attribute("data-playing") == "false" and w.get_attribute("data-pos") == "0"
    for _ in range(5):
        w.get_by_role("button", name="Step", exact=True).click()
    assert w.locator(".w-lamp.on").count() == 5
    # fire order: word 0 layers 1,2,3, then word 1 layers 1,2 -> the 5th lamp is (word 1, layer 2)
    assert float(w.locator(".w-lamp.now").get_attribute("data-level")) == \
        pytest.approx(lamp[1][1], abs=1e-4)
    status = shown(w.locator(".w-status"))
    # the status names the word and the true mean |h| (the lamp's brightness is scaled per layer)
    assert f"“{words[1]}”" in status and f"{mean[1][1]:.2f}" in status
    levels = w.locator(".w-lamp").evaluate_all("ls => ls.map(l => +l.dataset.level)")
    cols = [levels[i:i + 3][::-1] for i in range(0, len(levels), 3)]  # top-down per column
    for word in range(len(words)):
        for layer in range(3):
            assert abs(cols[word][layer] - lamp[layer][word]) < 1e-4


def test_hero_keyboard(web):
    w = web.widget("hero-lamps")
    w.get_by_role("button", name="Restart").focus()
    web.press(w, "data-pos", [("Enter", None), ("ArrowRight", "1"), ("ArrowRight", "2"),
                              ("ArrowLeft", "1"), ("End", "30"), ("Home", "0")])
    w.get_by_role("button", name="Play").focus()
    web.page.keyboard.press("Space")
    assert w.get_attribute("data-playing") == "true"
    web.page.wait_for_function("() => +document.querySelector('[data-widget=hero-lamps]')"
                               ".dataset.pos > 1")
    web.page.keyboard.press("Space")
    assert w.get_attribute("data-playing") == "false"


# --- §02 lenses -------------------------------------------------------------------------------

def _bars(w, feature):
    row = w.locator(f'.w-probe[data-feature="{feature}"]')
    return [float(row.locator(f".{k} .w-pval").get_attribute("data-value")) for k in ("in", "out")]


def test_lenses_flip_shows_each_layers_probe_accuracy(web):
    w = web.widget("lenses")
    probes = data("experiments/probes.json")["models"]["hero"]
    h = _stacks()["models"]["hero"]["probes"][0]["h"]  # [layer][word][channel]
    for lens in (1, 2, 3):
        w.get_by_role("radio", name=f"Layer {lens}").check()
        assert w.get_attribute("data-lens") == str(lens)
        for feature, acc in probes["accuracy"].items():
            assert _bars(w, feature) == pytest.approx([acc[lens - 1], acc[lens]], abs=1e-9)
            # the whisker spans one sample SD over the seeds either side of the mean, inside
            # the 0-1 track
            sd = np.std(probes["accuracy_per_seed"][feature], axis=0, ddof=1)[lens]
            out = w.locator(f'.w-probe[data-feature="{feature}"] .out')
            assert float(out.locator(".w-pval").get_attribute("data-sd")) == pytest.approx(sd)
            track, whisker = (out.locator(k).bounding_box() for k in (".w-track", ".w-sd"))
            lo, hi = max(0.0, acc[lens] - sd), min(1.0, acc[lens] + sd)
            assert whisker["x"] - track["x"] == pytest.approx(lo * track["width"], abs=1.5)
            assert whisker["width"] == pytest.approx((hi - lo) * track["width"], abs=2)  # + borders
            text = shown(w.locator(f'.w-probe[data-feature="{feature}"] .out .w-pval'))
            assert text == f"{100 * acc[lens]:.1f} %"
        rects = w.locator(".w-heat rect")
        assert rects.count() == len(h[0]) * len(h[0][0])
        opacity = float(rects.nth(37).evaluate("r => r.style.opacity"))
        v = h[lens - 1][37 // 32][37 % 32]
        assert opacity == pytest.approx(min(1, max(0.04, abs(v))), abs=2e-3)


def test_lenses_keyboard(web):
    w = web.widget("lenses")
    w.get_by_role("radio", name="Layer 1").focus()
    web.page.keyboard.press("ArrowRight")
    assert w.get_attribute("data-lens") == "2"
    web.page.keyboard.press("ArrowRight")
    assert w.get_attribute("data-lens") == "3"
    accuracy = data("experiments/probes.json")["models"]["hero"]["accuracy"]
    for feature, acc in accuracy.items():  # layer 3 reads layer 2's states, writes its own
        assert _bars(w, feature) == pytest.approx([acc[2], acc[3]], abs=1e-9)


# --- §03 blueprint ----------------------------------------------------------------------------

def _explains(w, part: str) -> bool:
    """The panel is titled with the part's accessible name: it explains that part."""
    name = w.locator(f'.w-part[data-part="{part}"]').get_attribute("aria-label")
    return shown(w.locator(".w-panel .w-title")).startswith(f"{name} ·")


def test_blueprint_hover_and_tap_explain_parts(web):
    w = web.widget("blueprint")
    parts = w.locator(".w-part[role=button]")
    assert parts.count() == 15
    w.locator('[data-part="c2"]').hover()
    assert w.get_attribute("data-part") == "c2" and _explains(w, "c2")
    # the cell of layer 2, with its layer's superscript
    assert w.locator(".w-panel .w-title math").text_content().endswith("[2]")
    w.locator('[data-part="m3"]').click()
    assert _explains(w, "m3")
    assert w.locator(".w-part.on").evaluate_all("ps => ps.map(p => p.dataset.part)") == ["m3"]


def test_blueprint_keyboard(web):
    w = web.widget("blueprint")
    w.locator('[data-part="x"]').focus()
    assert _explains(w, "x")
    web.page.keyboard.press("ArrowUp")
    assert w.get_attribute("data-part") == "v0" and _explains(w, "v0")
    web.page.keyboard.press("End")
    assert w.get_attribute("data-part") == "y" and _explains(w, "y")


# --- §04 follow the dot -----------------------------------------------------------------------

LIT = {1: ["v0", "x"], 2: ["c1", "m1"], 3: ["v1"], 4: ["c2", "c3", "m2", "m3", "v2"],
       5: ["n1", "n2", "n3", "v3", "y"]}


def _lit(w):
    return sorted(w.locator(".w-part.on").evaluate_all("ps => ps.map(p => p.dataset.part)"))


def test_follow_dot_steps_in_data_flow_order(web):
    w = web.widget("follow-dot")
    assert w.get_attribute("data-step") == "0" and len(_lit(w)) == 15  # the full diagram lit
    heads = web.page.locator(".md-content h2").all_inner_texts()
    pips = w.locator(".w-pip")
    for step in range(1, 6):  # the dialog shows the page's own "Step N · title" section
        w.get_by_role("button", name="Next step").click()
        assert w.get_attribute("data-step") == str(step)
        assert _lit(w) == sorted(LIT[step])
        assert pips.evaluate_all("ps => ps.map(p => p.ariaCurrent)") == \
            ["step" if k == step else "false" for k in range(6)]
        head = next(t for t in heads if t.startswith(f"Step {step} "))
        assert head.split("·", 1)[1].strip(" ¶") in shown(w.locator(".w-panel .w-title"))
        assert w.locator(".w-panel math").count() >= 1
        assert w.locator("circle.w-dot").is_visible()
    # the last step's dot sits on the output's circle
    dot = [float(v) for v in re.findall(r"-?[\d.]+", w.locator("circle.w-dot").evaluate(
        "d => d.style.transform"))]
    output = w.locator('[data-part="y"] circle')
    assert dot == [float(output.get_attribute("cx")), float(output.get_attribute("cy"))]
    w.get_by_role("button", name="Step 3:").click()
    assert w.get_attribute("data-step") == "3"


def test_follow_dot_keyboard(web):
    w = web.widget("follow-dot")
    w.get_by_role("button", name="Next step").focus()
    web.press(w, "data-step", [("Enter", "1"), ("ArrowRight", "2"), ("ArrowLeft", "1"),
                               ("End", "5"), ("ArrowRight", "5"), ("Home", "0")])  # clamped


# --- §05 price --------------------------------------------------------------------------------

COMBOS = [(3, 128, 100, "torch", "lstm"), (1, 64, 300, "keras", "gru"),
          (8, 1024, 1, "torch", "rnn"), (5, 7, 13, "keras", "lstm"), (2, 256, 256, "torch", "gru"),
          (4, 512, 1000, "keras", "rnn")]


def _set_price(w, L, H, X, fw, cell):
    sliders = w.locator('input[type="range"]')
    for i, v in enumerate((L, H, X)):
        set_range(sliders.nth(i), v)
    w.get_by_role("radio", name={"torch": "PyTorch", "keras": "Keras"}[fw]).check()
    w.get_by_role("radio", name=CELLS[cell].name).check()


def test_price_counts_match_stacklib(web):
    w = web.widget("price")
    for L, H, X, fw, cell in COMBOS:
        _set_price(w, L, H, X, fw, cell)
        assert [w.get_attribute(f"data-{k}") for k in ("layers", "hidden", "input", "fw")] == \
            [str(L), str(H), str(X), fw]
        for c in ("rnn", "gru", "lstm"):
            shown_count = w.locator(f'[data-count="{c}"]')
            expected = count_params(c, X, H, L, framework=fw)
            assert int(shown_count.get_attribute("data-value")) == expected, (c, L, H, X, fw)
            assert shown_count.inner_text() == f"{expected:,}"
        rows = w.locator(".w-table tbody tr")
        breakdown = param_breakdown(cell, X, H, L, framework=fw)
        assert rows.count() == len(breakdown) == L
        for row, ref in zip(rows.all(), breakdown, strict=True):
            for key in ("fan_in", "input_weights", "recurrent_weights", "biases", "total"):
                cell_text = row.locator(f'td[data-key="{key}"]').inner_text()
                assert cell_text == f"{getattr(ref, key):,}", (cell, key, L, H, X, fw)
        jump = w.locator("tr.w-jump")
        assert jump.count() == (1 if L > 1 and X != H else 0)


def test_price_clamps_bad_slider_values(web):
    w = web.widget("price")
    sliders = w.locator('input[type="range"]')
    set_range(sliders.nth(0), 999)
    set_range(sliders.nth(1), -5)
    set_range(sliders.nth(2), "abc")
    L, H, X = (int(w.get_attribute(f"data-{k}")) for k in ("layers", "hidden", "input"))
    assert 1 <= L <= 8 and H == 1 and 1 <= X <= 1024
    assert int(w.locator('[data-count="lstm"]').get_attribute("data-value")) == \
        count_params("lstm", X, H, L)


def test_price_keyboard(web):
    w = web.widget("price")
    w.locator('input[type="range"]').first.focus()
    web.page.keyboard.press("ArrowRight")
    assert w.get_attribute("data-layers") == "4"
    assert int(w.locator('[data-count="lstm"]').get_attribute("data-value")) == \
        count_params("lstm", 100, 128, 4)
    card = w.locator('button.w-card:has([data-count="gru"])')
    card.focus()
    web.page.keyboard.press("Enter")
    assert w.get_attribute("data-cell") == "gru" and card.get_attribute("aria-pressed") == "true"
    assert w.get_by_role("radio", name=CELLS["gru"].name).is_checked()
    totals = w.locator('.w-table tbody td[data-key="total"]').all_inner_texts()
    assert totals == [f"{row.total:,}" for row in param_breakdown("gru", 100, 128, 4)]


# --- §06 live stack ---------------------------------------------------------------------------

def test_live_stack_word_jump_and_probe_switch(web):
    w = web.widget("live-stack")
    model, probes = _stacks()["models"]["live"], _stacks()["probes"]
    # it opens on the main verb, with the model's preference, not on an empty state
    assert w.get_attribute("data-word") == str(probes[0]["verb_index"] + 1)
    opening = model["probes"][0]["verb"]
    assert f"“{opening['correct']}”" in shown(w.locator(".w-status"))
    assert f"{opening['p_correct']:.3f}" in shown(w.locator(".w-status"))
    w.locator(".w-token", has_text="cabinet").click()
    assert w.get_attribute("data-word") == "5"
    for layer in (1, 2):
        mean = w.locator(f'.w-big[data-layer="{layer}"]')
        ref = model["probes"][0]["mean_abs_h"][layer - 1][4]
        assert float(mean.get_attribute("data-value")) == pytest.approx(ref, abs=1e-4)
        assert mean.inner_text() == f"{ref:.2f}"
        signs = w.locator(f".w-chan.w-l{layer} rect").evaluate_all(
            "rs => rs.map(r => r.getAttribute('class'))")
        assert signs == ["neg" if v < 0 else "pos" for v in model["probes"][0]["h"][layer - 1][4]]
    w.get_by_role("radio", name="Probe 2").check()
    assert w.locator(".w-token").all_inner_texts() == probes[1]["words"]
    verb = probes[1]["verb_index"]
    w.locator(".w-token").nth(verb).click()
    verdict = model["probes"][1]["verb"]
    assert f"p = {verdict['p_correct']:.3f}" in shown(w.locator(".w-status"))
    assert f"“{verdict['correct']}”" in shown(w.locator(".w-status"))


def test_live_stack_keyboard_and_play(web):
    w = web.widget("live-stack")
    w.get_by_role("button", name="Next").focus()
    last = str(len(_stacks()["probes"][0]["words"]))
    web.press(w, "data-word", [("Home", "0"), ("Enter", "1"), ("ArrowRight", "2"),
                               ("ArrowLeft", "1"), ("End", last), ("ArrowRight", last),
                               ("Home", "0")])  # clamped
    w.get_by_role("button", name="Play").click()
    web.page.wait_for_function("() => +document.querySelector('[data-widget=live-stack]')"
                               ".dataset.word >= 2")
    w.get_by_role("button", name="Play").click()  # a toggle: one name, aria-pressed
    assert w.get_by_role("button", name="Play").get_attribute("aria-pressed") == "false"
    assert minus(shown(w.locator('.w-big[data-layer="1"]'))) != ""
