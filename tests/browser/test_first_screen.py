"""The answer comes first: on a 1366 x 768 desktop, the home page's first screen holds the whole
answer (what depth buys, what it costs, what real text showed), each part linking to the page
that measures it. And a collapsible note is closed on screen but printed open."""

from __future__ import annotations


def test_the_answer_fits_the_first_screen(web):
    web.page.set_viewport_size({"width": 1366, "height": 768})
    page = web.goto("")
    answer = page.locator(".answer")
    box = answer.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 768, box
    parts = answer.locator("p").all()
    assert len(parts) == 3  # what depth buys, what it costs, what real text showed
    for part in parts:  # each led by its point in bold, each linking to a page that measures it
        assert part.locator(":scope > strong:first-child").count() == 1, part.inner_text()
        assert part.locator('a[href*="0"]').count() >= 1, part.inner_text()


def test_a_note_is_closed_on_screen_and_open_in_print(web):
    page = web.goto("")
    note = page.locator("details.note").first
    body = note.locator("p").first
    assert not body.is_visible()
    page.emulate_media(media="print")
    assert body.is_visible()
