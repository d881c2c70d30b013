"""The printed lecture's last step: Chromium's tagged PDF made deterministic, with our metadata.

Chromium (Skia) writes a classic PDF: uncompressed object dictionaries, one cross-reference
table, no incremental updates. Two things in it change from run to run or are not ours:

* the structure tree names table header cells by the DOM node ids of that run
  (``/ID (node00000418)``, and the same strings in the ``/IDTree``): they are renumbered in
  their numeric order, so the name tree stays sorted and two prints give the same bytes;
* the document information dictionary holds the print time and the page's ``<title>``: it is
  replaced by the lecture's title, author and subject, and no date.

Every edit changes lengths, so the cross-reference table's offsets are recomputed from the edits.
"""

from __future__ import annotations

import re

_NODE_ID = re.compile(rb"\(node(\d+)\)")
_STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")
_SUBSECTION = re.compile(rb"(\d+) (\d+)\r?\n")
_INFO_REF = re.compile(rb"/Info (\d+) 0 R")


def _layout_error(what: str) -> ValueError:
    return ValueError(f"pdf: {what}: expected Chromium's single cross-reference table")


def _xref(pdf: bytes) -> tuple[int, dict[int, int]]:
    """(offset of the `xref` table, {object number: offset}) of a PDF with one classic table."""
    m = _STARTXREF.search(pdf)
    if not m:
        raise _layout_error("no startxref")
    start = int(m.group(1))
    if not pdf.startswith(b"xref", start) or b"/Prev" in pdf[start:]:
        raise _layout_error("no classic table, or more than one")
    offsets, pos = {}, start + len(b"xref")
    pos += len(pdf[pos:]) - len(pdf[pos:].lstrip())
    while sub := _SUBSECTION.match(pdf, pos):
        first, count = int(sub.group(1)), int(sub.group(2))
        pos = sub.end()
        for k in range(count):
            entry = pdf[pos + 20 * k: pos + 20 * (k + 1)]
            if entry[17:18] == b"n":
                offsets[first + k] = int(entry[:10])
        pos += 20 * count
    return start, offsets


def _apply(pdf: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    """Replace the spans (start, end) -> bytes of the body, then rewrite the xref offsets."""
    xref_at, offsets = _xref(pdf)
    edits = sorted(edits)
    if any(end > xref_at for _, end, _ in edits):
        raise _layout_error("an edit reaches into the cross-reference table")

    def moved(offset: int) -> int:
        return offset + sum(len(new) - (end - start) for start, end, new in edits if end <= offset)

    body, last = [], 0
    for start, end, new in edits:
        body += [pdf[last:start], new]
        last = end
    body.append(pdf[last:xref_at])
    table = [b"xref\n0 %d\n0000000000 65535 f \n" % (max(offsets) + 1)]
    table += [b"%010d 00000 n \n" % moved(offsets[n]) if n in offsets else
              b"0000000000 65535 f \n" for n in range(1, max(offsets) + 1)]
    trailer_at = pdf.index(b"trailer", xref_at)
    tail = _STARTXREF.sub(b"startxref\n%d\n%%%%EOF\n" % moved(xref_at), pdf[trailer_at:])
    return b"".join(body) + b"".join(table) + tail


def pdf_text_string(text: str) -> bytes:
    """A PDF text string: UTF-16BE with its byte order mark, hex-encoded (any character)."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def _info_edit(pdf: bytes, info: dict[str, str]) -> tuple[int, int, bytes]:
    m = _INFO_REF.search(pdf, _xref(pdf)[0])
    if not m:
        raise _layout_error("no /Info in the trailer")
    number = int(m.group(1))
    start = _xref(pdf)[1][number]
    head = b"%d 0 obj" % number
    if not pdf.startswith(head, start):
        raise _layout_error(f"object {number} is not at its cross-reference offset")
    body_start = start + len(head)
    end = pdf.index(b"endobj", body_start)
    entries = b"".join(b"/%s %s\n" % (key.encode(), pdf_text_string(value))
                       for key, value in info.items())
    return body_start, end, b"\n<<" + entries.rstrip(b"\n") + b">>\n"


def finish_pdf(pdf: bytes, title: str, author: str, subject: str) -> bytes:
    """Chromium's PDF with renumbered node ids and an information dictionary of exactly
    Title, Author, Subject, Creator and Producer (no dates)."""
    for name, value in (("title", title), ("author", author), ("subject", subject)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    xref_at, _ = _xref(pdf)
    ids = sorted({int(m.group(1)) for m in _NODE_ID.finditer(pdf, 0, xref_at)})
    rank = {old: new for new, old in enumerate(ids, 1)}
    edits = [(m.start(), m.end(), b"(node%08d)" % rank[int(m.group(1))])
             for m in _NODE_ID.finditer(pdf, 0, xref_at)]
    info = {"Title": title, "Author": author, "Subject": " ".join(subject.split()),
            "Creator": "MkDocs, printed by Chromium", "Producer": "Skia/PDF"}
    edits.append(_info_edit(pdf, info))
    return _apply(pdf, edits)
