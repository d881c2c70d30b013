"""The live Shakespeare models (javascripts/shakespeare-live.js and the scripts it uses): both
models compute what torch computes and score a passage as Python does; their weights come only
once the reader acts on the widget (until then it shows its static figure); one button reads
what the reader typed, its last N characters, and writes on; the random draws run on from press
to press and the seed replays them; the strips, the text's tint and the table show one signed
value, as the legend says; odd input and the keyboard work.
Every wait is on the widget's data-state (or a count it keeps), never on time."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest
from browser_helpers import FRAMES, PAGES, data, minus, shown

NAME = "shakespeare-live"
WIDGET = f"document.querySelector('[data-widget={NAME}]')"
FIELD = "Text for the models to read"

# One model's pass over a text from a zero state: every layer's h, and log-probabilities.
FORWARD = """async ([rel, role, text]) => {
  const m = await StackWidgets.charModel.loadModel(rel, role);
  let state = m.zeroState();
  const h = [], logp = [];
  for (const ch of text) {
    const out = m.step(state, m.vocab.indexOf(ch));
    state = out.state;
    h.push(state.map((layer) => Array.from(layer.h)));
    logp.push(StackWidgets.charModel.softmax(out.logits).map(Math.log));
  }
  return {h, logp};
}"""

# Under the picked character of a pane: each strip's colour on the pane's canvas (r, g, b, a),
# and the character's background. The cursor says where the character is; the pixel is left of
# the column's middle, where the value's bar runs, and 3 px into each strip (7 px apart).
STRIP_COLOURS = """([role, strips]) => {
  const pane = document.querySelector(`[data-widget=shakespeare-live] [data-role=${role}]`
    + " .w-sl-pane");
  const cursor = pane.querySelector(".w-sl-cursor");
  const row = pane.querySelectorAll(".w-sl-row")[Number(cursor.dataset.row)];
  const canvas = pane.querySelector("canvas");
  const scale = canvas.width / canvas.getBoundingClientRect().width;
  const x = parseFloat(cursor.style.left) + 2.5;
  const y = row.offsetTop + row.firstElementChild.offsetHeight + 3;   // the first strip
  const spans = [...pane.querySelectorAll(".w-sl-line > span")];
  const picked = Number(document.querySelector("[data-widget=shakespeare-live]").dataset.selected);
  return {
    strips: Array.from({length: strips}, (_, s) => Array.from(canvas.getContext("2d")
      .getImageData(Math.floor(x * scale), Math.floor((y + s * 7) * scale), 1, 1).data)),
    tint: getComputedStyle(spans[picked - 1]).backgroundColor,
  };
}"""


def _floats(text: str, shape) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), "<f4").reshape(shape)


def _wait(web, state: str, writes: int | None = None) -> None:
    more = f" && {WIDGET}.dataset.writes === '{writes}'" if writes is not None else ""
    web.page.wait_for_function(f"() => {WIDGET}.dataset.state === '{state}'{more}")


def _ready(web, rel: str | None = None):
    """The widget started by the reader (a click in the text box), its models ready."""
    w = web.widget(NAME, rel)
    w.get_by_label(FIELD).click()
    _wait(web, "ready")
    w.get_by_label("Write at once").check()   # the tests' writing need not be watched
    return w


def _write(web, w, text: str | None = None, key: str | None = None) -> dict[str, str]:
    """Press Write on (or `key` in the box) with `text` in the box (or what is there); what
    each model wrote."""
    writes = int(w.get_attribute("data-writes") or 0)
    field = w.get_by_label(FIELD)
    if text is not None:
        field.fill(text)
    if key:
        field.press(key)
    else:
        w.get_by_role("button", name="Write on").click()
    _wait(web, "done", writes + 1)
    return {role: w.locator(f"[data-role={role}] .w-sl-pane").get_attribute("data-written")
            for role in data("data/shakespeare_live.json")["models"]}


def _pane_text(w, role: str) -> str:
    """What a pane shows, as the reader's characters (a line break is an empty span)."""
    return "".join(s or "\n" for s in w.locator(f"[data-role={role}] .w-sl-line > span")
                   .all_text_contents())


def test_both_models_compute_what_torch_computes(web):
    """On the fixed passage, every layer's h and the next character's log-probabilities of the
    JavaScript pass agree with torch's float64 pass of the same (dequantized) weights."""
    check, live = data("data/shakespeare_live_check.json"), data("data/shakespeare_live.json")
    web.widget(NAME)
    for role, ref in check["models"].items():
        steps, hidden, vocab = ref["shape"]
        out = web.page.evaluate(FORWARD, [live["models"][role]["weights"], role, check["text"]])
        js_h = np.array(out["h"])                                  # (T, L, H)
        assert js_h.shape == (steps, len(ref["h"]), hidden), role
        for layer, h in enumerate(ref["h"]):
            gap = np.abs(js_h[:, layer] - _floats(h, (steps, hidden))).max()
            assert gap <= check["tolerance"], f"{role} layer {layer + 1}: max |Δh| {gap:.2e}"
        gap = np.abs(np.array(out["logp"]) - _floats(ref["logp"], (steps, vocab))).max()
        assert gap <= check["tolerance"], f"{role} log-probabilities: max difference {gap:.2e}"


def test_each_models_bpc_on_a_fixed_passage_is_pythons(web):
    """The widget scores the reader's text: on the fixed passage, each model's bits per
    character is the one Python computes, and the widget shows both side by side."""
    check = data("data/shakespeare_live_check.json")
    w = _ready(web)
    _write(web, w, check["text"])
    assert w.get_attribute("data-read") == str(len(check["text"]))
    for role, ref in check["models"].items():
        bpc = float(w.get_attribute(f"data-bpc-{role}"))
        assert abs(bpc - ref["bpc"]) <= 1e-6, (role, bpc, ref["bpc"])
        score = shown(w.locator(f".w-sl-score[data-role={role}]"))
        assert f"{ref['bpc']:.2f}" in score, (role, score)


def test_every_passages_bpc_in_the_widget_is_pythons(web):
    """Each passage the widget offers (the test plays', a sonnet, a modern paragraph): each
    model's bits per character in the page is the one Python computed for it."""
    passages = data("data/shakespeare_live.json")["passages"]
    w = _ready(web)
    for k, p in enumerate(passages):
        if k:   # the first is read as the widget starts; the widget sets data-read again
            w.evaluate("e => { delete e.dataset.read; }")
            w.get_by_label("Start from a passage").select_option(str(k))
        web.page.wait_for_function(f"() => {WIDGET}.dataset.state === 'ready'"
                                   f" && {WIDGET}.dataset.read === '{len(p['text'])}'")
        for role, ref in p["bpc"].items():
            bpc = float(w.get_attribute(f"data-bpc-{role}"))
            assert abs(bpc - ref) <= 1e-6, (p["label"], role, bpc, ref)


def _weights_requested(urls: list[str]) -> list[str]:
    return [u for u in urls if "shakespeare_live_" in u and u.endswith(".js")]


# The reader's first action on the widget, each of those that start it.
STARTS = {
    "focus the text box": lambda w: w.get_by_label(FIELD).focus(),
    "press Write on": lambda w: w.get_by_role("button", name="Write on").press("Enter"),
    "Ctrl+Enter in the box": lambda w: w.get_by_label(FIELD).press("Control+Enter"),
    "pick a passage": lambda w: w.get_by_label("Start from a passage").select_option("1"),
    "set the seed": lambda w: w.get_by_label("Seed of the random draws").fill("5"),
    "pointer down inside": lambda w: w.locator(".w-title").click(),
}


@pytest.mark.parametrize("action", list(STARTS))
def test_no_weights_come_before_the_reader_acts(web, action):
    """The widget opens the page: loaded, scrolled into view and idle, it has fetched no weights
    and shows its light view (the controls, the static figure, no panes); the reader's first
    action on it fetches each model's file once and starts the models."""
    live = data("data/shakespeare_live.json")
    urls: list[str] = []
    web.page.on("request", lambda r: urls.append(r.url))
    w = web.widget(NAME)
    web.page.wait_for_load_state("load")
    w.scroll_into_view_if_needed()
    web.page.evaluate("() => new Promise(done => requestIdleCallback(done))")
    web.page.evaluate(FRAMES)
    assert w.get_attribute("data-state") == "waiting"
    assert not _weights_requested(urls), urls
    assert w.locator(".w-ui img").is_visible()                    # the static figure
    assert not w.locator(".w-sl-panes").is_visible()
    assert shown(w.locator(".w-sl-status"))                    # says what starts the models
    STARTS[action](w)
    web.page.wait_for_function(f"() => {WIDGET}.dataset.model === 'ready'")
    for m in live["models"].values():
        assert sum(u.endswith(m["weights"]) for u in urls) == 1, (m["weights"], urls)
    assert w.locator(".w-sl-panes").is_visible() and not w.locator(".w-ui img").is_visible()


def test_writing_reads_the_typed_text_without_a_second_button(web):
    """Typed text is what both models read and continue, on a click or on Ctrl+Enter, never
    the passage that was there before."""
    w = _ready(web)
    prompt = "ALICE:\nI missed the last train home, and the station was empty.\n\nFOOL:\n"
    written = _write(web, w, prompt)
    assert w.get_attribute("data-read") == str(len(prompt))
    menu = w.get_by_label("Start from a passage")
    assert menu.evaluate("s => s.selectedOptions[0].text") == "your own text"
    for role, text in written.items():
        assert len(text) == 100 and _pane_text(w, role) == prompt + text, role
        assert "BERNARDO" not in _pane_text(w, role)
    again = "ROMEO:\nBut soft, what light through yonder window breaks?\n"
    written = _write(web, w, again, key="Control+Enter")
    for role, text in written.items():
        assert _pane_text(w, role) == again + text, role


def test_two_presses_differ_and_the_seed_replays_the_session(web):
    w = _ready(web)
    seed = w.get_by_label("Seed of the random draws")
    seed.fill("7")
    first, second = _write(web, w), _write(web, w)
    assert first != second                                # the draws run on
    for role in first:
        assert _pane_text(w, role).endswith(second[role])  # the same text, continued anew
    seed.fill("0")
    seed.fill("7")                                        # the same seed again: from the start
    assert [_write(web, w), _write(web, w)] == [first, second]


def test_only_the_last_n_characters_are_read_and_the_widget_says_so(web):
    limit = data("data/shakespeare_live.json")["limits"]["input"]
    w = _ready(web)
    tail = "\n\nHAMLET:\nThe rest is silence.\n"
    text = "To be. " * 1500 + tail
    _write(web, w, text)
    assert w.get_attribute("data-read") == str(limit)
    assert _pane_text(w, "deep").startswith(text[-limit:])
    note = shown(w.locator(".w-sl-note"))
    assert f"{limit:,}" in note and f"{len(text):,}" in note, note


def test_empty_input_gets_one_clear_message(web):
    w = _ready(web)
    w.get_by_label(FIELD).fill("  \n ")
    w.get_by_role("button", name="Write on").click()
    _wait(web, "empty")
    assert shown(w.locator(".w-sl-note")) == ""
    assert shown(w.locator(".w-status")).count(".") == 1   # one sentence, nothing contradicting


def _signed(cell_text: str) -> float:
    return float(minus(cell_text).rsplit("=", 1)[1])


@pytest.mark.parametrize("role", ["deep", "wide"])
def test_the_legend_the_strips_the_tint_and_the_table_agree(web, role):
    """Red is more of the feature, in the legend, on the strips, on the characters' background
    and as a positive number in the table: each layer's cell, under several characters."""
    live = data("data/shakespeare_live.json")
    feature = next(f for f in live["features"] if f["name"] == live["limits"]["feature"])
    cells = live["models"][role]["cells"][feature["name"]]
    tint = max(range(len(cells)), key=lambda layer: cells[layer]["test"])
    w = _ready(web)
    legend = w.locator(".w-sl-legend")
    assert feature["label"] in shown(legend)
    red, blue = (legend.locator(f".w-sl-{kind}").evaluate(
        "e => getComputedStyle(e).backgroundColor") for kind in ("more", "less"))
    reddish = lambda colour: (lambda r, g, b: r > b)(*map(int, re.findall(r"\d+", colour)[:3]))  # noqa: E731
    assert reddish(red) and not reddish(blue)
    assert "+" in shown(w.locator(".w-sl-values caption"))
    column = list(live["models"]).index(role)
    w.locator(f"[data-role={role}] .w-sl-pane").focus()
    seen = set()
    for key in ["Home", *["ArrowRight"] * 14]:                 # BERNARDO:\nWho's there?
        web.page.keyboard.press(key)
        rows = w.locator(".w-sl-values tbody tr").all()[1 : 1 + len(cells)]
        values = [_signed(row.locator("td").nth(column).inner_text()) for row in rows]
        colours = web.page.evaluate(STRIP_COLOURS, [role, len(cells)])
        for layer, (value, pixel) in enumerate(zip(values, colours["strips"], strict=True)):
            if abs(value) > 0.05:
                assert (pixel[0] > pixel[2]) == (value > 0), (layer + 1, value, pixel)
                seen.add(value > 0)
        if abs(values[tint]) > 0.05:
            assert reddish(colours["tint"]) == (values[tint] > 0), (values[tint], colours)
    assert seen == {True, False}                               # both colours were checked


def test_the_pick_follows_the_arrow_keys_and_shows_what_comes_next(web):
    w = _ready(web)
    total = len(data("data/shakespeare_live.json")["passages"][0]["text"])
    assert w.get_attribute("data-selected") == str(total)
    w.locator("[data-role=deep] .w-sl-pane").focus()
    web.press(w, "data-selected", [("Home", "1"), ("ArrowRight", "2"), ("ArrowRight", "3"),
                                   ("ArrowLeft", "2"), ("End", str(total))])
    web.page.keyboard.press("Home")
    assert re.findall(r"\d+", shown(w.locator(".w-sl-at"))) == ["1", str(total)]  # 1 of all
    assert "“B”" in shown(w.locator(".w-sl-values tbody tr").first)   # BERNARDO:
    for block in w.locator(".w-sl-nexts > div").all():
        assert shown(block.locator(".w-sl-next-head"))           # a visible heading
        probs = [float(re.search(r"([\d.]+) %", li.inner_text()).group(1))
                 for li in block.locator(".w-sl-next li").all()]
        assert len(probs) == 5 and probs == sorted(probs, reverse=True) and sum(probs) <= 100.05
        assert block.locator(".w-sl-came").count() <= 1


def test_bad_input_is_noted_never_a_crash(web):
    w = _ready(web)
    _write(web, w, "It’s \u00e9t\u00e9 (here)\tnow")
    note = shown(w.locator(".w-sl-note"))
    assert "“’” as “'”" in note                                # mapped, then each skipped
    for ch in ("é", "(", ")"):
        assert f"“{ch}”" in note, note
    text = shown(w.locator(".w-ui"))
    assert "NaN" not in text and "undefined" not in text
    w.get_by_label("Seed of the random draws").fill("123456")
    w.get_by_label("Seed of the random draws").press("Tab")
    assert w.get_by_label("Seed of the random draws").input_value() == "99999"


@pytest.mark.parametrize("fragment", ["passage=3", "passage=99", "passage=x"])
def test_a_passage_fragment_is_clamped(web, fragment):
    w = web.widget(NAME, f"{PAGES[NAME]}#{fragment}")
    passages = data("data/shakespeare_live.json")["passages"]
    chosen = {"passage=3": 2, "passage=99": len(passages) - 1, "passage=x": 0}[fragment]
    assert w.get_by_label(FIELD).input_value() == passages[chosen]["text"]


def test_reduced_motion_writes_at_once(web):
    web.page.emulate_media(reduced_motion="reduce")
    w = web.widget(NAME)
    assert w.get_by_label("Write at once").is_checked()


def test_the_caption_names_both_models_and_their_scores(web):
    caption = shown(web.widget(NAME).locator(".w-caption").last)
    for m in data("data/shakespeare_live.json")["models"].values():
        assert m["run"] in caption, caption
        assert f"{m['test_bpc']:.3f}" in caption and f"{m['shipped_test_bpc']:.3f}" in caption
