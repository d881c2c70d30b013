"""The live Shakespeare widget as a reader sees it, on a 1366 px laptop and a 390 px phone,
after writing on from their own text: the controls in reading order (title and instructions,
the text box, the button right under it, then what the models did), the legend there, the
status line whole, the text at a readable size, the values table within the widget, and no
empty reserved space under a text shorter than the first passage. Waits are on the widget's
data-state and data-writes, never on time."""

from __future__ import annotations

import pytest
from browser_helpers import FRAMES, PAGES

NAME = "shakespeare-live"
WIDGET = f"document.querySelector('[data-widget={NAME}]')"
PROMPT = "ALICE:\nI missed the last train home.\n\nFOOL:\n"

# What the reader's eye meets, measured: the order of the controls, the legend, the status
# line's box, the text's size, what reaches past the widget's edge, and the space left under it.
LOOK = """(w) => {
  const ui = w.querySelector(".w-ui");
  const field = ui.querySelector("textarea");
  const go = [...ui.querySelectorAll("button")].find((b) => b.textContent === "Write on");
  const before = (a, b) => Boolean(a.compareDocumentPosition(b) &
    Node.DOCUMENT_POSITION_FOLLOWING);
  const order = [ui.querySelector(".w-title"), ui.querySelector(".w-sl-how"), field, go,
    ui.querySelector(".w-sl-status"), ui.querySelector(".w-sl-legend"),
    ui.querySelector(".w-sl-panes")];
  const status = ui.querySelector(".w-sl-status");
  const edge = w.getBoundingClientRect();
  const past = [...ui.querySelectorAll("*")].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width && (r.left < edge.left - 1 || r.right > edge.right + 1);
  }).map((e) => `${e.tagName}.${e.className}`);
  const table = ui.querySelector(".w-sl-values");
  return {
    inOrder: order.every((e, k) => e && (k === 0 || before(order[k - 1], e))),
    buttonFirstUnderField: field.nextElementSibling.querySelector("button, select, input") === go,
    legend: [".w-sl-more", ".w-sl-less", ".w-sl-bits"].every((s) =>
      ui.querySelector(`.w-sl-legend ${s}`).getBoundingClientRect().width > 0),
    statusWhole: status.textContent.length > 0 && status.scrollHeight <= status.clientHeight + 1
      && status.scrollWidth <= status.clientWidth + 1,
    textPx: Math.min(...[...ui.querySelectorAll(".w-sl-line > span")].slice(0, 200)
      .map((s) => parseFloat(getComputedStyle(s).fontSize))),
    tableFits: table.scrollWidth <= table.parentElement.clientWidth + 1,
    past,
    below: edge.bottom - ui.getBoundingClientRect().bottom,
  };
}"""


@pytest.mark.parametrize("width", [1366, 390])
def test_the_widget_reads_in_order_and_fits_after_the_readers_text(web, width):
    web.page.set_viewport_size({"width": width, "height": 900})
    w = web.widget(NAME, PAGES[NAME])
    w.get_by_label("Text for the models to read").click()   # the reader starts the widget
    web.page.wait_for_function(f"() => {WIDGET}.dataset.state === 'ready'")
    w.get_by_label("Write at once").check()
    w.get_by_label("Text for the models to read").fill(PROMPT)
    w.get_by_role("button", name="Write on").click()
    web.page.wait_for_function(f"() => {WIDGET}.dataset.writes === '1'")
    web.page.evaluate(FRAMES)                     # the table shows the last written character
    look = w.evaluate(LOOK)
    assert look["inOrder"] and look["buttonFirstUnderField"], look
    assert look["legend"] and look["statusWhole"], look
    assert look["textPx"] >= 12, look               # the text is read, not glimpsed
    assert look["tableFits"] and not look["past"], look
    assert look["below"] < 40, look                 # no reserve left empty under a short text
