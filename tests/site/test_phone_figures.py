"""Figures on phones: every generated figure is readable in a phone's column, through its phone
layout (NAME.phone.svg) when it has one, and that layout is what the page offers phones
(hooks/img_size.py); print keeps the wide one."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from sitebuild import GENERATED

img_size = importlib.import_module("hooks.img_size")  # MkDocs loads the same file by path

PHONE_COLUMN_PX = 328  # a 360 px screen less Material's side padding
# Read without zooming: 9 px is also where a sub- or superscript (70 % of its text) lands in
# a phone layout's 11.5 pt labels (scripts/generation/figures.py).
MIN_PHONE_TEXT_PX = 9
FIGURES = GENERATED / "figures"
WIDE = sorted(p for p in FIGURES.glob("*.svg") if not p.name.endswith(img_size.PHONE_SUFFIX))


def smallest_text_px(svg: Path, column_px: float = PHONE_COLUMN_PX) -> float:
    """The smallest font size of an SVG's text, in CSS px, when the page shows it in a column
    `column_px` wide: scaled down to the column, never up (max-width: 100%)."""
    text = svg.read_text(encoding="utf-8")
    view_width = float(re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) ', text).group(1))
    sizes = [float(s) for s in re.findall(r"font-size: ([\d.]+)px", text)]
    assert sizes, f"{svg.name}: no text found"
    shown = min(img_size.intrinsic_size(svg)[0], column_px)
    return min(sizes) * shown / view_width


@pytest.mark.parametrize("wide", WIDE, ids=lambda p: p.name)
def test_every_figure_is_readable_on_a_phone(wide):
    phone = FIGURES / img_size.phone_variant(wide.name)
    shown = phone if phone.is_file() else wide
    assert smallest_text_px(shown) >= MIN_PHONE_TEXT_PX, (
        f"{shown.name}: {smallest_text_px(shown):.1f} px text at {PHONE_COLUMN_PX} px; "
        "draw a phone layout (scripts/generation/figures.py, save_layouts)")


def test_the_check_reads_text_sizes_as_a_phone_shows_them(tmp_path):
    svg = tmp_path / "a.svg"
    svg.write_text('<svg width="600pt" height="300pt" viewBox="0 0 600 300">'
                   '<text style="font-size: 9px">a</text><tspan style="font-size: 6.3px">'
                   "b</tspan></svg>", encoding="utf-8")
    assert smallest_text_px(svg) == pytest.approx(6.3 * 328 / 600)  # 800 px wide, scaled down
    svg.write_text(svg.read_text(encoding="utf-8").replace('width="600pt"', 'width="150pt"'),
                   encoding="utf-8")
    assert smallest_text_px(svg) == pytest.approx(6.3 * 200 / 600)  # 200 px wide, not scaled up


@pytest.mark.parametrize("phone", sorted(FIGURES.glob("*.phone.svg")), ids=lambda p: p.name)
def test_every_phone_layout_has_its_wide_figure(phone):
    assert (FIGURES / phone.name.replace(".phone.svg", ".svg")).is_file()


def test_pages_offer_phones_the_phone_layout(site):
    phones = {p.name.replace(".phone.svg", ".svg") for p in FIGURES.glob("*.phone.svg")}
    offered = 0
    for page in site.pages.values():
        for m in re.finditer(r'(<picture>.*?</picture>)|<img\b[^>]*\ssrc="([^"]+)"', page.html,
                             re.DOTALL):
            if m.group(1) is None:  # a bare <img>: only figures without a phone layout
                assert Path(m.group(2)).name not in phones, (page.rel, m.group(2))
                continue
            source = re.search(r'<source media="\(max-width: 36em\)" srcset="([^"]+)" '
                               r'width="(\d+)" height="(\d+)">', m.group(1))
            src = re.search(r'<img\b[^>]*\ssrc="([^"]+)"', m.group(1)).group(1)
            assert source and source.group(1) == img_size.phone_variant(src), (page.rel, src)
            size = img_size.intrinsic_size(FIGURES / Path(source.group(1)).name)
            assert size == (int(source.group(2)), int(source.group(3)))
            offered += 1
    assert offered >= 2  # §10 and the print page


def test_size_images_wraps_only_figures_with_a_phone_file(tmp_path):
    svg = '<svg width="{}pt" height="{}pt" viewBox="0 0 {} {}"></svg>'
    (tmp_path / "a.svg").write_text(svg.format(300, 150, 300, 150), encoding="utf-8")
    (tmp_path / "a.phone.svg").write_text(svg.format(150, 300, 150, 300), encoding="utf-8")
    (tmp_path / "b.svg").write_text(svg.format(30, 30, 30, 30), encoding="utf-8")
    files = {"f/a.svg": tmp_path / "a.svg", "f/a.phone.svg": tmp_path / "a.phone.svg",
             "f/b.svg": tmp_path / "b.svg"}
    out = img_size.size_images('<p><img alt="A" src="../f/a.svg"><img alt="B" src="../f/b.svg">'
                               '</p>', "page/index.html", files.get)
    assert out == ('<p><picture><source media="(max-width: 36em)" srcset="../f/a.phone.svg" '
                   'width="200" height="400"><img alt="A" src="../f/a.svg" width="400" '
                   'height="200"></picture><img alt="B" src="../f/b.svg" width="40" height="40">'
                   '</p>')


def test_resync_sources_points_each_phone_source_beside_its_img():
    """The print page re-bases <img src> only (print-site): its <source> follows the <img>."""
    page = ('<picture><source media="(max-width: 36em)" srcset="g/a.phone.svg" width="2" '
            'height="4"><img alt="A" src="../g/a.svg" width="4" height="2"></picture>')
    assert img_size.resync_sources(page) == page.replace('"g/a.phone.svg"', '"../g/a.phone.svg"')
    assert img_size.resync_sources(img_size.resync_sources(page)) == img_size.resync_sources(page)
