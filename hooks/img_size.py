"""MkDocs hook: give every local <img> its intrinsic width and height, and phones a figure's
phone layout when its generator drew one.

Markdown images (`![alt](generated/figures/x.svg)`) become `<img>` without size attributes, so
the browser reserves no space until each figure has downloaded and the text below jumps down
when it arrives: a layout shift (CLS) that Lighthouse charges to the page (page speed).
With `width`/`height` attributes the browser knows the aspect ratio up front; Material's
`.md-typeset img { max-width: 100%; height: auto }` still scales the figure to the column, so
the rendering does not change. Sizes are read from the file: an SVG's root `width`/`height`
(pt, px, in, cm, mm; else its viewBox) or a PNG's header. Images that already carry a width or
height, remote images and unreadable files are left alone.

A wide figure scaled down to a phone's column (about 330 px) shrinks its text to a few pixels,
so a generator may draw a figure twice: `NAME.svg` (the wide layout: desktop and print) and
`NAME.phone.svg` beside it (narrower, its text readable at that width). An <img> of `NAME.svg`
whose `NAME.phone.svg` exists is wrapped in a <picture> whose <source> offers the phone file
below PHONE_MEDIA, with that file's own width and height (no layout shift there either). Print
keeps the wide figure: a printed page is wider than PHONE_MEDIA.

Runs at priority 50, like hooks/mathml.py, so the print page (print-site, last) gets sized
images too. print-site then re-bases each <img src> for the print page's folder but leaves
<source srcset> alone: after it has written that page, each phone source is derived from its
<img> again (on_post_build), so no link there is broken.
"""

from __future__ import annotations

import html
import logging
import posixpath
import re
import struct
from pathlib import Path

import mkdocs.plugins

log = logging.getLogger("mkdocs.hooks.img_size")

_IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_SRC = re.compile(r'\ssrc="([^"]+)"')
_SVG_ROOT = re.compile(r"<svg\b[^>]*>", re.DOTALL)
_LENGTH = re.compile(r"^\s*([\d.]+)\s*(px|pt|in|cm|mm)?\s*$")
PX_PER = {None: 1.0, "px": 1.0, "pt": 4 / 3, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4}
PHONE_MEDIA = "(max-width: 36em)"  # narrower than Material's tablet layout: one column
PHONE_SUFFIX = ".phone.svg"


def _svg_attr(tag: str, name: str) -> str | None:
    m = re.search(rf'\s{name}\s*=\s*"([^"]*)"', tag)
    return m.group(1) if m else None


def _length(value: str | None) -> float | None:
    m = _LENGTH.match(value or "")
    return float(m.group(1)) * PX_PER[m.group(2)] if m else None


def intrinsic_size(path: Path) -> tuple[int, int] | None:
    """(width, height) in CSS px of an SVG or PNG file, or None."""
    head = path.read_bytes()[:4096]
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    if path.suffix.lower() != ".svg":
        return None
    root = _SVG_ROOT.search(head.decode("utf-8", "replace"))
    if not root:
        return None
    w, h = _length(_svg_attr(root.group(0), "width")), _length(_svg_attr(root.group(0), "height"))
    if w is None or h is None:
        box = (_svg_attr(root.group(0), "viewBox") or "").replace(",", " ").split()
        if len(box) != 4:
            return None
        w, h = float(box[2]), float(box[3])
    return (round(w), round(h)) if w > 0 and h > 0 else None


def phone_variant(src: str) -> str:
    """generated/figures/x.svg -> generated/figures/x.phone.svg"""
    return src.removesuffix(".svg") + PHONE_SUFFIX


def size_images(content: str, page_dest: str, lookup) -> str:
    """`content` with width/height added to each local <img>, and a <picture> around those with
    a phone variant; `lookup(site_path)` -> its source file or None."""

    def size_of(url: str) -> tuple[int, int] | None:
        path = lookup(posixpath.normpath(posixpath.join(posixpath.dirname(page_dest), url)))
        return intrinsic_size(path) if path is not None and path.is_file() else None

    def repl(m: re.Match) -> str:
        tag = m.group(0)
        src = _SRC.search(tag)
        if not src or re.search(r"\s(width|height)\s*=", tag):
            return tag
        url = html.unescape(src.group(1)).split("#")[0].split("?")[0]
        if re.match(r"^[a-z][a-z0-9+.-]*:|^/", url, re.IGNORECASE):
            return tag
        size = size_of(url)
        if size is None:
            return tag
        end = -2 if tag.endswith("/>") else -1
        tag = f'{tag[:end].rstrip()} width="{size[0]}" height="{size[1]}"{tag[end:]}'
        phone = size_of(phone_variant(url)) if url.endswith(".svg") else None
        if phone is None:
            return tag
        return (f'<picture><source media="{PHONE_MEDIA}" srcset="{html.escape(phone_variant(url))}"'
                f' width="{phone[0]}" height="{phone[1]}">{tag}</picture>')

    return _IMG.sub(repl, content)


_PICTURE = re.compile(r'(<picture><source\b[^>]*\ssrcset=")[^"]*("[^>]*>)(<img\b[^>]*>)')


def resync_sources(text: str) -> str:
    """`text` with each <picture>'s phone <source> pointing beside its <img> again."""
    def repl(m: re.Match) -> str:
        src = html.unescape(_SRC.search(m.group(3)).group(1))
        return f"{m.group(1)}{html.escape(phone_variant(src))}{m.group(2)}{m.group(3)}"

    return _PICTURE.sub(repl, text)


@mkdocs.plugins.event_priority(-100)  # after print-site has written the print page
def on_post_build(config):
    plugin = config.plugins.get("print-site")
    if plugin is None or getattr(plugin, "print_page", None) is None:
        return
    path = Path(plugin.print_page.file.abs_dest_path)
    text = path.read_text(encoding="utf-8")
    fixed = resync_sources(text)
    if fixed != text:
        path.write_text(fixed, encoding="utf-8")


@mkdocs.plugins.event_priority(50)
def on_page_content(html_content: str, page, config, files):
    def lookup(site_path: str) -> Path | None:
        file = files.get_file_from_path(site_path)
        return Path(file.abs_src_path) if file is not None and file.abs_src_path else None

    return size_images(html_content, page.file.dest_uri, lookup)
