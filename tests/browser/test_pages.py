"""Every page, loaded once on a laptop's screen: nothing moves while it loads (a phone's screen:
test_reading_on_a_phone.py), no console error, nothing leaves 127.0.0.1 (both checked by the
`web` fixture), no serious or critical axe-core violation in the light palette nor in the dark
one, the static figure is what prints, and every widget works on a 360 px phone with reduced
motion. The print page (every page again) is checked once. Plus the runtime's promises:
sub-path hosting, instant navigation without double init, no loop off-screen, inline messages
for missing or broken JSON or a missing script, scripts fetched only where their widget is,
clamped URL fragments, the size budget."""

from __future__ import annotations

import re

import pytest
from browser_helpers import (
    FRAMES,
    LAPTOP,
    PAGES,
    SUB,
    TABLES_WAITING_FOR_ROWS,
    WATCH_SHIFTS,
    shown,
)

from scripts.site import nav_urls

WIDGET_PAGES = sorted(set(PAGES.values()))
DATA = {"hero-lamps": "hero", "lenses": "lenses", "price": "params", "live-stack": "live_stack",
        "climb": "walkthrough", "vanishing": "vanishing", "verdict": "verdict", "quiz": "quiz",
        "depth-data": "depth_data", "curves": "shakespeare_curves",
        "shakespeare-live": "shakespeare_live"}


def axe_problems(page, context=None, **options) -> list[str]:
    """Serious and critical axe-core violations on the page (or in `context`; `options` go to
    axe.run). axe-core is put into the page once per load (its 560 kB script took as long to
    parse as a small page's run)."""
    from axe_playwright_python.sync_playwright import Axe

    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(Axe().axe_script)
    results = page.evaluate("([context, options]) => axe.run(context || document, options)",
                            [context, {"resultTypes": ["violations"], **options}])
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(str(n["target"]) for n in v["nodes"][:4])
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


def tab_into(page, name: str, limit: int = 120) -> bool:
    """Press Tab until the keyboard focus is inside widget `name`'s UI."""
    inside = f"() => !!document.activeElement.closest('[data-widget=\"{name}\"] .w-ui')"
    for _ in range(limit):
        if page.evaluate(inside):
            return True
        page.keyboard.press("Tab")
    return False


def widgets(page):
    return page.locator(".widget[data-widget]").all()


def _screen_shows_the_widget_and_print_the_figure(page) -> None:
    for w in widgets(page):  # on screen: the live UI; the static figure hidden
        assert w.locator(":scope > .w-main").is_visible()
        static = w.locator(":scope > :not(.w-ui):not(.w-keep)").all()
        assert static and not any(s.is_visible() for s in static)
    page.emulate_media(media="print")
    for w in widgets(page):  # in print: the static figure, no widget UI
        assert not any(u.is_visible() for u in w.locator(".w-ui").all())
        static = w.locator(":scope > :not(.w-ui)").all()
        assert static and all(s.is_visible() for s in static), w.get_attribute("data-widget")
        assert all(img.is_visible() for img in w.locator(":scope > :not(.w-ui) img").all())
    page.emulate_media(media="screen")


def _switch_to_the_dark_palette(page) -> None:
    """As a reader does: the header's palette toggle (Material follows the system setting only
    when the page loads)."""
    page.emulate_media(color_scheme="dark")
    page.get_by_title("Switch to dark mode").click()
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"


def _widgets_work_on_a_phone(web) -> None:
    """360 px wide: nothing overflows, text >= 10.5 px, nothing moves (reduced motion), every
    widget reachable with Tab and showing a focus ring."""
    page = web.page
    page.set_viewport_size({"width": 360, "height": 740})
    web.settle()
    for w in widgets(page):
        name = w.get_attribute("data-widget")
        ui = w.locator(":scope > .w-main")
        ui.scroll_into_view_if_needed()
        # (this widget's own UI: a page may show a widget twice, §10's curves)
        page.wait_for_function("u => u.classList.contains('is-visible')",
                               arg=ui.element_handle())
        over = ui.evaluate(
            "u => [...u.querySelectorAll('*')].filter(e => !e.closest('.w-scroll, .w-math, "
            ".w-eqs') && e.getBoundingClientRect().right > document.documentElement.clientWidth"
            " + 1).map(e => e.outerHTML.slice(0, 80))")
        assert not over, (name, over)
        font = ui.evaluate("u => Math.min(...[...u.querySelectorAll('p, button, span, td, label')]"
                           ".filter(e => e.offsetParent && e.textContent.trim())"
                           ".map(e => parseFloat(getComputedStyle(e).fontSize)))")
        assert font >= 10.5, (name, f"smallest text {font}px")
        moving = ui.evaluate(
            "u => [u, ...u.querySelectorAll('*')].filter(e => { const s = getComputedStyle(e);"
            " return s.transitionDuration.split(',').some(d => parseFloat(d) > 0) ||"
            " s.animationName !== 'none'; }).map(e => e.outerHTML.slice(0, 60))")
        assert not moving, (name, moving)
        assert w.get_attribute("data-playing") != "true", f"{name} autoplays"
        assert w.get_attribute("data-ticking") != "1", f"{name} runs a loop"
        assert tab_into(page, name), f"{name}: not reachable with Tab"
        ring = page.evaluate(
            "() => { const a = document.activeElement; const e = a.type === 'radio' ?"
            " a.nextElementSibling : a; const s = getComputedStyle(e);"
            " return a.matches(':focus-visible') && s.outlineStyle !== 'none' &&"
            " parseFloat(s.outlineWidth) >= 2; }")
        assert ring, f"{name}: no visible focus ring"
    bad = axe_problems(page, {"include": [[".widget"]]})
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", nav_urls())
def test_page_light_dark_print_and_phone(web, rel):
    page = web.page
    page.set_viewport_size(LAPTOP)
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(WATCH_SHIFTS)
    web.goto(rel)
    web.blocks_drawn()
    page.evaluate(FRAMES)
    assert page.evaluate("window.shifts") == [], "the page moved while it loaded"
    assert page.evaluate(TABLES_WAITING_FOR_ROWS) == []
    web.settle()  # the blocks just drawn get their keyboard patches (a11y.js) too
    for w in widgets(page):
        assert w.get_attribute("data-widget-state") == "live", w.get_attribute("data-widget")
    bad = axe_problems(page)
    assert not bad, "light palette:\n" + "\n".join(bad)
    _screen_shows_the_widget_and_print_the_figure(page)
    _switch_to_the_dark_palette(page)
    bad = axe_problems(page)
    assert not bad, "dark palette:\n" + "\n".join(bad)
    if widgets(page):
        _widgets_work_on_a_phone(web)


def test_print_page_is_accessible_with_every_widget_live(web):
    page = web.goto("print_page/")
    states = {w.get_attribute("data-widget"): w.get_attribute("data-widget-state")
              for w in widgets(page)}
    assert states == dict.fromkeys(PAGES, "live"), states
    # Every chapter's colours are checked on its own page, in both palettes (the contrast rule
    # is nine tenths of a run here): on the print page, every rule but that one everywhere, and
    # that one on what only the print page has, its cover and table of contents.
    bad = axe_problems(page, rules={"color-contrast": {"enabled": False}})
    bad += axe_problems(page, {"include": [["#print-site-cover-page"], ["#print-page-toc"]]},
                        runOnly=["color-contrast"])
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", [PAGES["verdict"], PAGES["climb"]])
def test_wide_tables_scroll_from_the_keyboard_on_a_phone(web, rel):
    """A table wider than a 360 px screen is keyboard-scrollable even while it is off-screen
    (content-visibility: auto skips its layout, so its wrapper reports no overflow then)."""
    web.page.set_viewport_size({"width": 360, "height": 740})
    page = web.goto(rel)
    page.evaluate("document.querySelectorAll('.md-typeset details').forEach(d => d.open = true)")
    web.settle()
    wraps = page.locator(".md-typeset .md-typeset__scrollwrap:not(.widget *)")
    focusable = wraps.evaluate_all("ws => ws.map(w => w.tabIndex === 0)")
    wide = wraps.evaluate_all("ws => ws.map(w => { w.style.contentVisibility = 'visible';"
                              " return w.scrollWidth > w.clientWidth; })")
    assert sum(wide) >= 2 and focusable == wide, (focusable, wide)


def _first_heading_after_the_widgets(site_dir, rel: str) -> str:
    """The id of the first section heading below the page's last widget."""
    html = (site_dir / rel / "index.html").read_text(encoding="utf-8")
    below = html[html.rindex('class="widget"'):]
    return re.search(r'<h2 id="([^"]+)"', below).group(1)


@pytest.mark.parametrize("rel", [PAGES["lenses"], PAGES["vanishing"]])
def test_a_link_to_a_heading_lands_on_it_after_the_widgets_mount(web, site_dir, rel):
    """The widgets above the heading mount (and change height) after the browser has scrolled
    to it; the heading must still be at the top of the screen, under the header."""
    heading = _first_heading_after_the_widgets(site_dir, rel)
    web.page.set_viewport_size({"width": 360, "height": 740})
    page = web.goto(f"{rel}#{heading}")
    top = page.locator(f"#{heading}").evaluate("h => h.getBoundingClientRect().top")
    header = page.locator(".md-header").evaluate("h => h.getBoundingClientRect().bottom")
    assert header - 1 <= top <= header + 40, (heading, top, header)


def test_a_table_in_a_tab_opened_later_scrolls_from_the_keyboard_on_a_phone(web):
    """A wide table in a content tab not yet chosen has no width when the page is patched: it
    must become keyboard-scrollable once the reader opens its tab."""
    web.page.set_viewport_size({"width": 360, "height": 740})
    page = web.goto(PAGES["price"])
    tabs = page.locator(".tabbed-set").filter(has=page.locator("table")).last
    wrap = tabs.locator(".tabbed-block").nth(1).locator(".md-typeset__scrollwrap")
    assert wrap.evaluate("w => w.tabIndex") == -1  # hidden: nothing to scroll yet
    tabs.locator("label").nth(1).click()
    web.settle()
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth && w.tabIndex === 0")


@pytest.mark.parametrize("rel", sorted({PAGES[n] for n in DATA}))
def test_missing_json_gives_an_inline_message(web, rel):
    web.allowed = re.compile(r"Failed to load resource.*404")
    web.page.route("**/generated/data/*.json", lambda r: r.fulfill(status=404))
    web.goto(rel)
    for w in widgets(web.page):
        name = w.get_attribute("data-widget")
        if name not in DATA:
            continue
        assert w.get_attribute("data-widget-state") == "error", name
        msg = shown(w.locator(".w-error"))
        assert f"generated/data/{DATA[name]}.json" in msg and "HTTP 404" in msg, msg
        assert w.locator(":scope > :not(.w-ui)").first.is_visible()  # the figure stays


def test_malformed_json_gives_an_inline_message(web):
    web.page.route("**/generated/data/params.json",
                   lambda r: r.fulfill(status=200, body='{"defaults": 1}',
                                       content_type="application/json"))
    web.goto(PAGES["price"])
    w = web.page.locator('.widget[data-widget="price"]')
    assert w.get_attribute("data-widget-state") == "error"
    error = w.locator(".w-error")
    assert error.is_visible() and error.get_attribute("role") == "status"
    assert w.locator(":scope > :not(.w-ui)").first.is_visible()  # the figure stays


@pytest.mark.parametrize(("name", "script"), [("price", "price"),
                                             ("blueprint", "stack-diagram")])
def test_missing_script_gives_an_inline_message(web, name, script):
    web.allowed = re.compile(r"Failed to load resource.*404")
    web.page.route(f"**/javascripts/{script}.js", lambda r: r.fulfill(status=404))
    web.goto(PAGES[name])
    w = web.page.locator(f'.widget[data-widget="{name}"]')
    assert w.get_attribute("data-widget-state") == "error"
    assert f"javascripts/{script}.js did not load" in shown(w.locator(".w-error"))


def test_a_page_fetches_only_the_widget_scripts_it_shows(web):
    """Page speed: every page loads runtime.js and a11y.js; runtime.js adds the script of each
    widget the page shows (and the scripts those use), and none on a page without widgets."""
    ours = ("() => [...document.scripts].map(s => (s.src.match(/\\/javascripts\\/([\\w-]+)"
            "\\.js$/) || [])[1]).filter(Boolean).sort()")
    assert web.goto("code_lab/").evaluate(ours) == ["a11y", "runtime"]
    assert web.goto(PAGES["verdict"]).evaluate(ours) == ["a11y", "controls", "curves",
                                                         "runtime", "verdict"]
    assert web.goto(PAGES["blueprint"]).evaluate(ours) == ["a11y", "blueprint", "mathml",
                                                           "runtime", "stack-diagram"]


def test_works_under_a_sub_path(web):
    urls: list[str] = []
    web.page.on("request", lambda r: urls.append(r.url))
    web.goto(PAGES["price"], base=SUB)
    assert web.page.locator('.widget[data-widget="price"]').get_attribute(
        "data-widget-state") == "live"
    assert any(u.endswith(f"{SUB}generated/data/params.json") for u in urls), urls


def test_instant_navigation_initialises_once(web):
    page = web.goto(PAGES["price"])
    page.evaluate("window.__sameDocument = true")
    live = "() => document.querySelector('.widget[data-widget=\"{}\"]')?.dataset.widgetState"
    page.locator("a.md-footer__link--next").click()
    page.wait_for_function(live.format("live-stack") + " === 'live'")
    page.locator("a.md-footer__link--prev").click()
    page.wait_for_function(live.format("price") + " === 'live'")
    assert page.evaluate("window.__sameDocument") is True, "expected instant navigation"
    assert page.evaluate("StackWidgets.mounts") == ["price", "live-stack", "price"]
    assert page.evaluate("StackWidgets.contexts.length") == 1  # the detached widgets were released
    w = page.locator('.widget[data-widget="price"]')
    assert w.locator(":scope > .w-ui").count() == 1
    lstm = w.locator('[data-count="lstm"]')
    before = lstm.inner_text()
    w.locator('input[type="range"]').first.focus()
    page.keyboard.press("End")
    assert lstm.inner_text() != before


def test_no_animation_loop_off_screen(web):
    web.page.set_viewport_size({"width": 1000, "height": 320})  # the page scrolls well past it
    page = web.goto(PAGES["hero-lamps"])
    w = page.locator('.widget[data-widget="hero-lamps"]')
    probe = "() => document.querySelector('[data-widget=hero-lamps]').dataset.ticking === '{}'"
    w.scroll_into_view_if_needed()
    page.wait_for_function(probe.format(1))
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function(probe.format(0))  # no timer pending: nothing can move off-screen
    assert w.get_attribute("data-playing") == "true"  # still playing, just paused off-screen
    w.scroll_into_view_if_needed()
    page.wait_for_function(probe.format(1))


@pytest.mark.parametrize(("name", "fragment", "attr", "expected"), [
    ("follow-dot", "step=99", "data-step", "5"), ("climb", "step=abc", "data-step", "0"),
    ("live-stack", "probe=7&word=99", "data-word", "11"),
    ("live-stack", "probe=0&word=-5", "data-word", "0"),
])
def test_url_fragments_are_clamped(web, name, fragment, attr, expected):
    w = web.widget(name, f"{PAGES[name]}#{fragment}")
    assert w.get_attribute(attr) == expected


def test_a_phone_gets_the_phone_layout_of_a_figure(web):
    """hooks/img_size.py's <picture>: the phone file below 36em, the wide one above and in print."""
    web.page.set_viewport_size({"width": 360, "height": 740})
    page = web.goto(PAGES["depth-data"])
    img = page.locator('img[src$="depth_vs_data.svg"]')
    img.evaluate("i => i.decode()")
    assert img.evaluate("i => i.currentSrc").endswith("/depth_vs_data.phone.svg")
    page.set_viewport_size({"width": 1100, "height": 900})
    page.emulate_media(media="print")
    page.wait_for_function("() => document.querySelector('img[src$=\"depth_vs_data.svg\"]')"
                           ".currentSrc.endsWith('/depth_vs_data.svg')")
