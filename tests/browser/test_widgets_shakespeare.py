"""The live Shakespeare stack (javascripts/shakespeare-live.js, shakespeare-model.js): its
forward pass is torch's, its weights come only when needed, and it writes, reads bad input and
answers the keyboard as the page says."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest
from browser_helpers import PAGES, data, shown

NAME = "shakespeare-live"
READY = f"() => document.querySelector('[data-widget={NAME}]').dataset.model === 'ready'"
READ = (f"() => document.querySelector('[data-widget={NAME}] .w-status').textContent"
        ".startsWith('Read ')")
WEIGHTS = "shakespeare_live_weights.js"

# The model's pass over a text from a zero state: every layer's h, and log-probabilities.
FORWARD = """async (text) => {
  const m = await StackWidgets.charModel.loadModel(%r);
  let state = m.zeroState();
  const h = [], logp = [];
  for (const ch of text) {
    const out = m.step(state, m.vocab.indexOf(ch));
    state = out.state;
    h.push(state.map((layer) => Array.from(layer.h)));
    const p = StackWidgets.charModel.softmax(out.logits);
    logp.push(p.map(Math.log));
  }
  return {h, logp};
}"""


def _floats(text: str, shape) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), "<f4").reshape(shape)


def _ready(web, rel: str | None = None):
    w = web.widget(NAME, rel)
    w.scroll_into_view_if_needed()
    web.page.wait_for_function(READY)
    web.page.wait_for_function(READ)
    return w


def _write(web, w) -> str:
    w.get_by_role("button", name="Continue").click()
    web.page.wait_for_function(f"() => document.querySelector('[data-widget={NAME}] "
                               ".w-status').textContent.startsWith('The stack wrote')",
                               timeout=60_000)
    return w.locator(".w-status").text_content()


def test_the_browser_computes_what_torch_computes(web):
    """On the fixed passage, every layer's h and the next character's log-probabilities of the
    JavaScript pass agree with torch's float64 pass of the same (dequantized) weights."""
    check = data("data/shakespeare_live_check.json")
    steps, hidden, vocab = check["shape"]
    web.widget(NAME)
    out = web.page.evaluate(FORWARD % f"generated/data/{WEIGHTS}", check["text"])
    js_h = np.array(out["h"])                                      # (T, L, H)
    assert js_h.shape == (steps, len(check["h"]), hidden)
    for layer, ref in enumerate(check["h"]):
        gap = np.abs(js_h[:, layer] - _floats(ref, (steps, hidden))).max()
        assert gap <= check["tolerance"], f"layer {layer + 1}: max |Δh| {gap:.2e}"
    gap = np.abs(np.array(out["logp"]) - _floats(check["logp"], (steps, vocab))).max()
    assert gap <= check["tolerance"], f"log-probabilities: max difference {gap:.2e}"


def test_the_weights_load_only_near_the_widget(web):
    """First load: the widget's script and data, not its weights; they come as the reader
    scrolls towards it, and the static figure shows until they are there."""
    web.page.set_viewport_size({"width": 1100, "height": 500})
    urls: list[str] = []
    web.page.on("request", lambda r: urls.append(r.url))
    w = web.widget(NAME)
    web.page.evaluate("window.scrollTo(0, 0)")
    web.page.wait_for_timeout(300)
    assert w.get_attribute("data-model") is None
    assert not any(u.endswith(WEIGHTS) for u in urls)
    assert w.locator(".w-sl-wait img").is_visible()
    w.scroll_into_view_if_needed()
    web.page.wait_for_function(READ)
    assert sum(u.endswith(WEIGHTS) for u in urls) == 1
    assert w.locator(".w-sl-rows").is_visible() and w.locator(".w-sl-wait").count() == 0


def test_writing_is_reproducible_from_its_seed_and_announced_once(web):
    w = _ready(web)
    status = w.locator(".w-status")
    first = _write(web, w)
    assert status.get_attribute("aria-live") == "polite"
    written = first.split(": ", 1)[1]
    assert len(written) == int(w.get_attribute("data-written")) == 100
    assert set(written) <= set(data("data/shakespeare_live.json")["vocab"])
    w.get_by_role("button", name="Read my text").click()
    web.page.wait_for_function(READ)
    assert _write(web, w) == first                       # same text, seed, temperature
    w.get_by_role("button", name="Read my text").click()
    w.get_by_label("Seed").fill("7")
    assert _write(web, w) != first


def test_the_pick_follows_the_arrow_keys_and_shows_what_comes_next(web):
    w = _ready(web)
    total = len(data("data/shakespeare_live.json")["passages"][0]["text"])
    assert w.get_attribute("data-selected") == str(total)
    w.locator(".w-sl-view").focus()
    web.press(w, "data-selected", [("Home", "1"), ("ArrowRight", "2"), ("ArrowRight", "3"),
                                   ("ArrowLeft", "2"), ("End", str(total))])
    web.page.keyboard.press("Home")
    heading = shown(w.locator(".w-sl-at"))
    assert heading.startswith("Character 1 of ") and "“B”" in heading   # BERNARDO:
    probs = [float(re.search(r"([\d.]+) %", li.inner_text()).group(1))
             for li in w.locator(".w-sl-next li").all()]
    assert len(probs) == 5 and probs == sorted(probs, reverse=True) and sum(probs) <= 100.05
    came = w.locator(".w-sl-came")                       # the actual next character, if listed
    assert came.count() <= 1


def test_bad_input_is_noted_never_a_crash(web):
    w = _ready(web)
    field = w.get_by_label("Text for the stack to read")
    field.fill("It’s \u00e9t\u00e9 (here)\tnow")
    w.get_by_role("button", name="Read my text").click()
    web.page.wait_for_function(READ)
    note = shown(w.locator(".w-sl-note"))
    assert "“’” as “'”" in note and "Skipped" in note
    for ch in ("é", "(", ")"):
        assert f"“{ch}”" in note, note
    text = shown(w.locator(".w-ui"))
    assert "NaN" not in text and "undefined" not in text
    field.fill("To be. " * 120)
    w.get_by_role("button", name="Read my text").click()
    web.page.wait_for_function(f"() => document.querySelector('[data-widget={NAME}] "
                               ".w-status').textContent.startsWith('Read 600 ')")
    assert "Only the first 600 of 840 characters are read." in shown(w.locator(".w-sl-note"))
    assert "NaN" not in _write(web, w)


@pytest.mark.parametrize("fragment", ["passage=3", "passage=99", "passage=x"])
def test_a_passage_fragment_is_clamped(web, fragment):
    w = web.widget(NAME, f"{PAGES[NAME]}#{fragment}")
    passages = data("data/shakespeare_live.json")["passages"]
    chosen = {"passage=3": 2, "passage=99": len(passages) - 1, "passage=x": 0}[fragment]
    assert w.get_by_label("Text for the stack to read").input_value() == \
        passages[chosen]["text"]


def test_the_caption_names_the_model_and_its_scores(web):
    live = data("data/shakespeare_live.json")["model"]
    caption = shown(web.widget(NAME).locator(".w-caption").last)
    assert live["run"] in caption and "live in your browser" in caption
    assert f"{live['test_bpc']:.3f} bits per character" in caption
