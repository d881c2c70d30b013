"""The offline copy (scripts/delivery/offline.py): a zip that works from file://, with search."""

from __future__ import annotations

import re
import zipfile
from html.parser import HTMLParser

import pytest

from scripts.delivery.offline import CONFIG, FOLDER, build_offline
from scripts.site import load_config

REMOTE = re.compile(r"^(https?:)?//", re.IGNORECASE)
# attributes that make the browser load something (links to other sites are fine offline)
LOADING = {("script", "src"), ("img", "src"), ("iframe", "src"), ("source", "src"),
           ("source", "srcset"), ("img", "srcset"), ("video", "src"), ("audio", "src"),
           ("embed", "src"), ("object", "data"), ("link", "href")}
NOT_LOADED_LINKS = {"canonical", "alternate", "author", "license"}


class Resources(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and set((a.get("rel") or "").split()) & NOT_LOADED_LINKS:
            return
        self.urls += [a[attr] for t, attr in LOADING if t == tag and a.get(attr)]
        self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", a.get("style") or "")


@pytest.fixture(scope="module")
def offline(tmp_path_factory):
    out = build_offline(tmp_path_factory.mktemp("offline") / "lecture-offline.zip")
    site = out.parent / "unzipped"
    with zipfile.ZipFile(out) as zf:
        assert zf.testzip() is None
        zf.extractall(site)
    return out, site / FOLDER


def test_zip_holds_the_whole_site(offline):
    _, site = offline
    for name in ("index.html", "13-mastery-check.html", "appendix-answers.html",
                 "search/search_index.js", "assets/vendor/iframe-worker/shim.js",
                 "assets/vendor/iframe-worker/LICENSE", "assets/offline-data.js"):
        assert (site / name).is_file(), name


def test_home_page_loads_nothing_remote(offline):
    _, site = offline
    html = (site / "index.html").read_text(encoding="utf-8")
    parser = Resources()
    parser.feed(html)
    assert parser.urls, "no resources found: parser broken?"
    remote = [u for u in parser.urls if REMOTE.match(u)]
    assert not remote, remote
    assert "unpkg.com" not in html and "iframe-worker/shim.js" in html
    assert 'href="02-motivation.html"' in html  # use_directory_urls: false


def test_offline_config_keeps_the_site_plugins():
    site = [next(iter(p)) if isinstance(p, dict) else p for p in load_config()["plugins"]]
    offline = [next(iter(p)) if isinstance(p, dict) else p for p in load_config(CONFIG)["plugins"]]
    assert offline == [p for p in site if p != "print-site"] + ["offline"]


def test_search_works_from_file_url(offline, browser):
    _, site = offline
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    remote = []
    try:
        page.on("request", lambda r: r.url.startswith(("http:", "https:"))
                and remote.append(r.url))
        page.goto((site / "index.html").as_uri())
        page.click("input.md-search__input")
        page.keyboard.type("receptive field")
        page.wait_for_selector(".md-search-result__item", timeout=15_000)
        assert page.locator(".md-search-result__item").count() >= 1
    finally:
        page.close()
    assert not remote, remote


def test_widgets_mount_from_file_url(offline, browser):
    """fetch() is refused over file://: the widgets read window.STACK_DATA instead."""
    _, site = offline
    bundled = (site / "assets/offline-data.js").read_text(encoding="utf-8")
    assert '"generated/data/params.json"' in bundled
    assert "generated/data/shakespeare.json" not in bundled  # read by tests, not by widgets
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto((site / "05-cell-flavors.html").as_uri())
        page.wait_for_selector('[data-widget="price"][data-widget-state="live"]',
                               state="attached", timeout=15_000)
    finally:
        page.close()


def test_the_live_shakespeare_models_write_from_file_url(offline, browser):
    """Their weights come by <script> tags, which file:// allows (fetch it refuses)."""
    _, site = offline
    bundled = (site / "assets/offline-data.js").read_text(encoding="utf-8")
    assert '"generated/data/shakespeare_live.json"' in bundled
    assert "shakespeare_live_check" not in bundled    # the browser test's reference
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    widget = "[data-widget=shakespeare-live]"
    try:
        page.goto((site / "06b-shakespeare-layers.html").as_uri())
        page.wait_for_selector(f'{widget}[data-widget-state="live"]', state="attached",
                               timeout=15_000)
        page.locator(widget).get_by_label("Text for the models to read").click()  # starts it
        page.wait_for_selector(f'{widget}[data-state="ready"]', state="attached",
                               timeout=60_000)
        page.locator(widget).get_by_label("Write at once").check()
        page.locator(widget).get_by_role("button", name="Write on").click()
        page.wait_for_selector(f'{widget}[data-state="done"]', state="attached",
                               timeout=60_000)
        assert page.locator(widget).get_attribute("data-written") == "100"
    finally:
        page.close()


def test_offline_data_holds_what_the_widget_scripts_name(tmp_path):
    from scripts.delivery.offline import write_offline_data

    (tmp_path / "javascripts").mkdir()
    (tmp_path / "javascripts/a.js").write_text('data:["generated/data/x.json"]')
    (tmp_path / "javascripts/b.js").write_text('data:["generated/data/y-1.json"]')
    (tmp_path / "generated/data").mkdir(parents=True)
    for name, value in (("x", 1), ("y-1", 2), ("summary", 3)):
        (tmp_path / f"generated/data/{name}.json").write_text(str(value))
    text = write_offline_data(tmp_path).read_text()
    assert text == ('window.STACK_DATA = {"generated/data/x.json":1,'
                    '"generated/data/y-1.json":2};\n')
