"""Widgets reserve their height (widgets.css, runtime.js): a widget mounting on screen moves
nothing on the page, on a phone and on a desktop, from its static figure through "loading" to
live. Only the prose a widget keeps on screen beside its controls (the climb's and the quiz's
headings and paragraphs) may move: the controls take the static tables' place above it. Until
it mounts, a widget's static figure is laid out only near the screen."""

from __future__ import annotations

import pytest
from browser_helpers import FRAMES, PAGES, Held

# Layout shifts not caused by the reader, each with the nodes that moved, except nodes of the
# widget's kept prose (.w-keep).
WATCH_SHIFTS = """widget => {
    window.shifts = [];
    const allowed = (node) => node && node.nodeType === 1 && widget.contains(node) &&
        node.closest(".w-keep");
    const record = (entries) => {
        for (const entry of entries) {
            const moved = entry.sources.filter((s) => !allowed(s.node));
            if (!entry.hadRecentInput && moved.length) window.shifts.push([entry.value,
                moved.map((s) => (s.node && s.node.outerHTML || String(s.node)).slice(0, 80) +
                    ` top ${s.previousRect.top} -> ${s.currentRect.top}`)]);
        }
    };
    const observer = new PerformanceObserver((list) => record(list.getEntries()));
    observer.observe({type: "layout-shift"});
    // The shifts of the frames drawn so far, delivered or not yet.
    window.takeShifts = () => new Promise((done) => requestAnimationFrame(() =>
        requestAnimationFrame(() => { record(observer.takeRecords()); done(window.shifts); })));
}"""


# (widget, data-view): a widget shown more than once on its page, each view in turn
INSTANCES = [(n, None) for n in sorted(PAGES) if n != "curves"] + [("curves", "depth"),
                                                                  ("curves", "budget")]


@pytest.mark.parametrize("width", [360, 1100])
@pytest.mark.parametrize(("name", "view"), INSTANCES)
def test_a_widget_appears_without_moving_the_page(web, name, view, width):
    page = web.page
    page.set_viewport_size({"width": width, "height": 740})
    # the widget's own script, held until the widget is on screen (which holds the load event)
    held = Held(page, f"**/javascripts/{name}.js")
    page.goto(web.url(PAGES[name]), wait_until="domcontentloaded")
    held.wait()
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    widget = page.locator(f'.widget[data-widget="{name}"]' + (f'[data-view="{view}"]' if view
                                                               else ""))
    widget.evaluate("e => e.scrollIntoView({block: 'start'})")
    # What the load itself still moves (the theme's and a11y.js's idle-time work) happens before
    # we watch: a11y.js's run done, an idle moment come (no time limit: one comes whatever else
    # the machine runs), two frames drawn.
    page.wait_for_function("() => window.StackA11y && !StackA11y.pending")
    page.evaluate("() => new Promise(done => requestIdleCallback(done))")
    page.evaluate(FRAMES)
    widget.evaluate(WATCH_SHIFTS)
    assert widget.get_attribute("data-widget-state") is None and len(held.routes) == 1
    held.release()
    web.settle()
    shifts = page.evaluate("window.takeShifts()")
    total = sum(value for value, _ in shifts)
    assert total == 0, f"{name} at {width} px: layout shift {total:.4f} {shifts}"


def test_a_static_figure_is_laid_out_only_near_the_screen_until_its_widget_mounts(web):
    """Page speed (widgets.css): before its script mounts it, a widget's static figure is
    skipped by layout while it is far from the viewport, and drawn when the reader comes near;
    once the widget is live it is not drawn at all (§08's climb figure: tables of formulas)."""
    page = web.page
    page.set_viewport_size({"width": 412, "height": 823})
    held = Held(page, "**/javascripts/climb.js")
    page.goto(web.url(PAGES["climb"]), wait_until="domcontentloaded")
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    # (a skipped element keeps its own box: what is skipped is what it holds)
    drawn = ("() => [...document.querySelectorAll('[data-widget=climb] > :not(.w-ui):not(.w-keep)"
             " > *')].map(e => e.checkVisibility({contentVisibilityAuto: true}))")
    assert not any(page.evaluate(drawn))  # far below the first screen
    page.locator('.widget[data-widget="climb"]').evaluate("e => e.scrollIntoView()")
    page.wait_for_function(f"() => ({drawn})()[0]")  # the reader is there: the figure shows
    assert len(held.wait().routes) == 1
    held.release()
    web.settle()
    assert not any(page.evaluate(drawn))  # live: the widget's UI instead
