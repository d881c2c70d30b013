"""Every page: no console error, nothing leaves 127.0.0.1 (both checked by the `web` fixture),
no serious or critical axe-core violation, the static figure is what prints. Every widget page
on a 360 px phone in the dark palette with reduced motion. Plus the runtime's promises:
sub-path hosting, instant navigation without double init, no loop off-screen, inline messages
for missing or broken JSON or a missing widget script, widget scripts fetched only where their
widget is, clamped URL fragments, the size budget."""

from __future__ import annotations

import re

import pytest
from browser_helpers import PAGES, ROOT, SUB, nav_pages, shown

WIDGET_PAGES = sorted(set(PAGES.values()))
DATA = {"hero-lamps": "hero", "lenses": "lenses", "price": "params", "live-stack": "live_stack",
        "climb": "walkthrough", "vanishing": "vanishing", "verdict": "verdict", "quiz": "quiz",
        "depth-data": "depth_data"}


def axe_problems(page, context=None) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=context).response
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


@pytest.mark.parametrize("rel", nav_pages())
def test_page_is_clean_accessible_and_prints_the_static_figure(web, rel):
    page = web.goto(rel)
    for w in widgets(page):
        assert w.get_attribute("data-widget-state") == "live", w.get_attribute("data-widget")
    bad = axe_problems(page)
    assert not bad, "\n".join(bad)
    if rel == "print_page/":
        return  # every widget again, already checked on its own page
    for w in widgets(page):  # on screen: the live UI; the static figure hidden
        assert w.locator(":scope > .w-main").is_visible()
        static = w.locator(":scope > :not(.w-ui):not(.w-keep)").all()
        assert static and not any(s.is_visible() for s in static)
    page.emulate_media(media="print")
    for w in widgets(page):  # in print: the static figure, no widget UI
        assert not any(u.is_visible() for u in w.locator(".w-ui").all())
        static = w.locator(":scope > :not(.w-ui)").all()
        assert static and all(s.is_visible() for s in static), w.get_attribute("data-widget")
        assert all(img.is_visible() for img in w.locator("img").all())


@pytest.mark.parametrize("rel", nav_pages())
def test_page_is_accessible_in_the_dark_palette(web, rel):
    """axe again in the dark palette: colours that pass on white may not on slate (the
    notebook's operators and comments did not)."""
    web.page.emulate_media(color_scheme="dark")
    page = web.goto(rel)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    bad = axe_problems(page)
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", WIDGET_PAGES)
def test_phone_dark_palette_reduced_motion(web, rel):
    page = web.page
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")
    web.goto(rel)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    for w in widgets(page):
        name = w.get_attribute("data-widget")
        ui = w.locator(":scope > .w-main")
        ui.scroll_into_view_if_needed()
        page.wait_for_function("n => document.querySelector(`[data-widget=${n}] > .w-main`)"
                               ".classList.contains('is-visible')", arg=name)
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


@pytest.mark.parametrize("rel", [PAGES["verdict"], PAGES["climb"]])
def test_wide_tables_scroll_from_the_keyboard_on_a_phone(web, rel):
    """A table wider than a 360 px screen is keyboard-scrollable even while it is off-screen
    (content-visibility: auto skips its layout, so its wrapper reports no overflow then)."""
    web.page.set_viewport_size({"width": 360, "height": 740})
    page = web.goto(rel)
    wraps = page.locator(".md-typeset > .md-typeset__scrollwrap")
    focusable = wraps.evaluate_all("ws => ws.map(w => w.tabIndex === 0)")
    wide = wraps.evaluate_all("ws => ws.map(w => { w.style.contentVisibility = 'visible';"
                              " return w.scrollWidth > w.clientWidth; })")
    assert sum(wide) >= 2 and focusable == wide, (focusable, wide)


@pytest.mark.parametrize("rel", ["02-motivation/#four-reasons-one-bill",
                                 "09-vanishing-paths/#in-practice"])
def test_a_link_to_a_heading_lands_on_it_after_the_widgets_mount(web, rel):
    """The widgets above the heading mount (and change height) after the browser has scrolled
    to it; the heading must still be at the top of the screen, under the header."""
    web.page.set_viewport_size({"width": 360, "height": 740})
    page = web.goto(rel)
    top = page.locator(f"#{rel.split('#')[1]}").evaluate("h => h.getBoundingClientRect().top")
    header = page.locator(".md-header").evaluate("h => h.getBoundingClientRect().bottom")
    assert header - 1 <= top <= header + 40, (top, header)


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
    assert "could not start" in shown(w.locator(".w-error"))


def test_missing_widget_script_gives_an_inline_message(web):
    web.allowed = re.compile(r"Failed to load resource.*404")
    web.page.route("**/javascripts/price.js", lambda r: r.fulfill(status=404))
    web.goto(PAGES["price"])
    w = web.page.locator('.widget[data-widget="price"]')
    assert w.get_attribute("data-widget-state") == "error"
    assert "javascripts/price.js did not load" in shown(w.locator(".w-error"))


def test_a_page_fetches_only_the_widget_scripts_it_shows(web):
    """Page speed: every page loads runtime.js and a11y.js; runtime.js adds the script of each
    widget the page shows, and none on a page without widgets."""
    ours = ("() => [...document.scripts].map(s => (s.src.match(/\\/javascripts\\/([\\w-]+)"
            "\\.js$/) || [])[1]).filter(Boolean).sort()")
    assert web.goto("code_lab/").evaluate(ours) == ["a11y", "runtime"]
    assert web.goto(PAGES["verdict"]).evaluate(ours) == ["a11y", "depth-data", "runtime",
                                                         "verdict"]


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
    assert page.evaluate("StackWidgets.ctxs.length") == 1  # the detached widgets were released
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


def test_widget_code_fits_the_budget():
    """The runtime, one script per widget and widgets.css: <= 60 KiB unminified. (a11y.js and
    a11y.css patch the theme and other pages' styles; they are not widget code.)"""
    js = ROOT / "docs" / "javascripts"
    files = [js / "runtime.js", *(js / f"{name}.js" for name in PAGES),
             ROOT / "docs" / "stylesheets" / "widgets.css"]
    assert {f.name for f in js.glob("*.js")} == {f.name for f in files[:-1]} | {"a11y.js"}
    total = sum(f.stat().st_size for f in files)
    assert len(files) == 14 and total <= 60 * 1024, f"{total / 1024:.1f} KiB in {len(files)} files"
