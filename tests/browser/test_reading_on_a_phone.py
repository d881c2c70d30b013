"""Reading a long page on a phone. A page opened at its top skips, at load, the blocks below
its first screen (content-visibility, lecture.css; overrides/main.html marks such a page); they
are drawn when the reader comes near, or once the page is idle (a11y.js). A page opened at a
heading is laid out whole. Either way nothing on the page shifts, and links to a heading, the
table of contents and find-in-page land where they point.

Some tests hold the page's load: drawing the skipped blocks waits for it, so the page stays in
its first state as long as a test needs (an image the test adds, and answers when it is done)."""

from __future__ import annotations

import base64
import re

import pytest
from browser_helpers import FRAMES, PAGES, PHONE, TABLES_WAITING_FOR_ROWS, WATCH_SHIFTS, Held

from scripts.site import nav_urls

LONG = [PAGES["symbols"], PAGES["climb"], PAGES["verdict"]]  # §07, §08, §10
HOLD_LOAD = """document.addEventListener("DOMContentLoaded", () => document.body.append(
  Object.assign(new Image(), {src: "/held-load.png", alt: ""})))"""
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAj"
                       "CB0C8AAAAASUVORK5CYII=")  # one grey pixel

# Blocks of the article whose content the browser skips (those holding an element to ask).
SKIPPED = """() => [...document.querySelectorAll(".md-typeset > *")].filter((block) =>
  block.firstElementChild && getComputedStyle(block).contentVisibility === "auto" &&
  !block.firstElementChild.checkVisibility({contentVisibilityAuto: true})).length"""

def last_heading(site_dir, rel: str) -> str:
    html = (site_dir / rel / "index.html").read_text(encoding="utf-8")
    return re.findall(r'<h2 id="([^"]+)"', html)[-1]


def top_and_header(page, heading: str) -> tuple[float, float]:
    return page.evaluate("id => [document.getElementById(id).getBoundingClientRect().top,"
                         " document.querySelector('.md-header').getBoundingClientRect().bottom]",
                         heading)


def at_the_top(page, heading: str) -> bool:
    top, header = top_and_header(page, heading)
    return header - 1 <= top <= header + 40


def scrolls_to_the_top(page, heading: str) -> None:
    """Following a link scrolls when the page gets to it: wait until the heading is at the top
    of the screen, under the header."""
    page.wait_for_function("id => { const top = document.getElementById(id)"
                           ".getBoundingClientRect().top, header = document.querySelector("
                           "'.md-header').getBoundingClientRect().bottom;"
                           " return header - 1 <= top && top <= header + 40; }", arg=heading)


def follow(page, link: str) -> None:
    """Click `link` to a heading of this page, as a reader does, and wait until the page has
    followed it. The first link a reader follows in a page makes Material's instant navigation
    fetch the page again and swap it in (document$ emits; its location$ starts without the page
    it opened), which scrolls again, and the widgets and a11y.js start again on the new copy."""
    page.evaluate("() => { window.pagesIn = 0; document$.subscribe(() => window.pagesIn++); }")
    page.click(link)
    page.wait_for_function("() => window.pagesIn > 1")  # (the first is the page it had)


def lands_and_stays_once_drawn(web, heading: str, release) -> None:
    """The link or entry just followed scrolls the heading to the top; it stays there once the
    load is let go (`release`) and every skipped block is drawn."""
    page = web.page
    scrolls_to_the_top(page, heading)
    release()
    web.settle()
    web.blocks_drawn()
    page.evaluate(FRAMES)
    assert at_the_top(page, heading), top_and_header(page, heading)


def open_held(web, url: str, screen=PHONE):
    """Load `url` and hold its load event; returns the function that lets it go."""
    page = web.page
    page.set_viewport_size(screen)
    held = Held(page, "**/held-load.png")
    page.add_init_script(HOLD_LOAD)
    page.goto(web.url(url), wait_until="domcontentloaded")
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    held.wait()
    assert page.evaluate("document.readyState") != "complete"
    return lambda: held.release(status=200, content_type="image/png", body=PNG)


def link_at_the_top(page, href: str) -> None:
    """A link at the top of the article, as a reader would follow one."""
    page.evaluate("href => document.querySelector('article').prepend(Object.assign("
                  "document.createElement('a'), {id: 'go', href, textContent: 'go'}))", href)
    page.evaluate("scrollTo(0, 0)")


@pytest.mark.parametrize("rel", LONG)
def test_far_blocks_wait_for_the_reader_and_nothing_shifts_as_they_are_drawn(web, rel):
    page = web.page
    page.add_init_script(WATCH_SHIFTS)
    release = open_held(web, rel)
    assert page.evaluate(SKIPPED) >= 2
    while not page.evaluate("scrollY + innerHeight >= document.documentElement.scrollHeight - 1"):
        page.evaluate("scrollBy(0, innerHeight * 0.9)")  # a script's scroll: shifts count
        page.evaluate(FRAMES)
    assert page.evaluate("window.shifts") == []
    release()
    web.settle()


@pytest.mark.parametrize("rel", nav_urls())
def test_no_page_shifts_while_it_loads(web, rel):
    """No block skipped at load is on a phone's first screen (it would be drawn empty for a
    frame): the first screen is drawn as it will stay. (A laptop's: test_pages.py.)"""
    page = web.page
    page.set_viewport_size(PHONE)
    page.add_init_script(WATCH_SHIFTS)
    web.goto(rel)
    web.blocks_drawn()
    page.evaluate(FRAMES)
    assert page.evaluate("window.shifts") == []
    assert page.evaluate(TABLES_WAITING_FOR_ROWS) == []


@pytest.mark.parametrize("rel", LONG)
def test_a_link_in_the_page_lands_on_a_heading_below_skipped_blocks(web, site_dir, rel):
    """It stays there while the blocks above it are drawn; reading back up, the heading moves
    exactly as far as the reader scrolls (the browser keeps what is on screen in place)."""
    heading = last_heading(site_dir, rel)
    page = web.page
    release = open_held(web, rel)
    link_at_the_top(page, f"#{heading}")
    assert page.evaluate(SKIPPED) >= 1
    follow(page, "#go")
    lands_and_stays_once_drawn(web, heading, release)
    page.mouse.move(200, 400)
    for _ in range(4):
        before, _ = top_and_header(page, heading)
        page.mouse.wheel(0, -250)
        page.wait_for_function(f"() => document.getElementById('{heading}')"
                               f".getBoundingClientRect().top !== {before}")
        page.evaluate(FRAMES)
        after, _ = top_and_header(page, heading)
        assert after - before == pytest.approx(250, abs=1.5), (heading, before, after)


@pytest.mark.parametrize("rel", LONG)
def test_a_page_opened_at_a_heading_is_laid_out_whole_and_lands_on_it(web, site_dir, rel):
    heading = last_heading(site_dir, rel)
    page = web.page
    release = open_held(web, f"{rel}#{heading}")
    assert page.evaluate(SKIPPED) == 0
    assert at_the_top(page, heading), top_and_header(page, heading)
    release()
    web.settle()
    assert at_the_top(page, heading), top_and_header(page, heading)


def test_instant_navigation_to_a_heading_lands_on_it(web, site_dir):
    """Material swaps the page in without a load; the page it brings is laid out whole."""
    rel = PAGES["climb"]
    heading = last_heading(site_dir, rel)
    page = web.page
    page.set_viewport_size(PHONE)
    web.goto("")
    link_at_the_top(page, web.url(f"{rel}#{heading}"))
    page.click("#go")
    page.wait_for_url(f"**/{rel}#{heading}")
    page.wait_for_selector(f"#{heading}")
    web.settle()
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # instant
    assert page.evaluate(SKIPPED) == 0
    assert at_the_top(page, heading), top_and_header(page, heading)


def test_the_table_of_contents_lands_on_a_heading_below_skipped_blocks(web, site_dir):
    rel = PAGES["vanishing"]
    heading = last_heading(site_dir, rel)
    page = web.page
    release = open_held(web, rel, {"width": 1280, "height": 800})  # contents beside the page
    assert page.evaluate(SKIPPED) >= 1
    follow(page, f'.md-sidebar--secondary a[href$="#{heading}"]')
    lands_and_stays_once_drawn(web, heading, release)


def test_find_in_page_scrolls_to_a_match_in_a_block_skipped_at_load(web):
    """The page's last paragraph with a formula starts skipped; once the page is idle every
    block is drawn and a search for its words scrolls to them (window.find, as find-in-page)."""
    page = web.page
    release = open_held(web, PAGES["climb"])
    words = page.evaluate("""() => {
        const p = [...document.querySelectorAll(".md-typeset > p")].filter(
            (b) => b.querySelector("math")).pop();
        p.id = "sought";
        return [p.firstElementChild.checkVisibility({contentVisibilityAuto: true}),
                p.textContent.trim().split(/\\s+/).slice(0, 6).join(" ")];
    }""")
    assert words[0] is False, "the paragraph is drawn at load"
    release()
    web.settle()
    web.blocks_drawn()
    assert page.evaluate("w => window.find(w)", words[1])
    page.evaluate(FRAMES)
    found = page.evaluate("""() => {
        const range = getSelection().getRangeAt(0);
        const box = range.getBoundingClientRect();
        return [document.getElementById("sought").contains(range.startContainer),
                box.top, box.bottom, innerHeight];
    }""")
    assert found[0] and 0 <= found[1] and found[2] <= found[3], found
