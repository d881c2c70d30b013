"""scripts/delivery/pdf_finish.py on small PDFs laid out as Chromium writes them: per-run node ids
renumbered, the metadata replaced, every cross-reference offset still right."""

from __future__ import annotations

import io

import pytest

from scripts.delivery.pdf_finish import _xref, finish_pdf

META = {"title": "Depth", "author": "The authors", "subject": "Stacked\n  RNNs × 3"}


def chromium_like(first: int, second: int) -> bytes:
    """A one-page tagged PDF with two header cells named by DOM node ids, and a print date."""
    objects = {
        1: b"<</Title (Depth - Depth)\n/CreationDate (D:20261201180625+00'00')>>",
        2: b"<</Type /Catalog /Pages 3 0 R /StructTreeRoot 4 0 R /Lang (en)>>",
        3: b"<</Type /Pages /Count 1 /Kids [8 0 R]>>",
        4: b"<</Type /StructTreeRoot /K [5 0 R 6 0 R] /IDTree 7 0 R>>",
        5: b"<</Type /StructElem /S /TH /P 4 0 R /ID (node%08d)>>" % first,
        6: b"<</Type /StructElem /S /TH /P 4 0 R /ID (node%08d)>>" % second,
        7: b"<</Names [(node%08d) 5 0 R (node%08d) 6 0 R]>>" % (first, second),
        8: b"<</Type /Page /Parent 3 0 R /MediaBox [0 0 100 100]>>",
    }
    out, offsets = b"%PDF-1.4\n", {}
    for number, body in objects.items():
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 9\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % offsets[n] for n in sorted(offsets))
    return out + b"trailer\n<</Size 9\n/Root 2 0 R\n/Info 1 0 R>>\nstartxref\n%d\n%%%%EOF" % xref


def test_two_runs_with_different_node_ids_give_the_same_bytes():
    a = finish_pdf(chromium_like(418, 1203), **META)
    b = finish_pdf(chromium_like(9, 77), **META)
    assert a == b
    assert b"(node00000001)" in a and b"(node00000002)" in a and b"node00000418" not in a


def test_every_offset_points_at_its_object_and_the_metadata_is_ours():
    from pypdf import PdfReader

    pdf = finish_pdf(chromium_like(418, 1203), **META)
    xref_at, offsets = _xref(pdf)
    assert pdf[xref_at:].startswith(b"xref")
    for number, offset in offsets.items():
        assert pdf.startswith(b"%d 0 obj" % number, offset), number
    reader = PdfReader(io.BytesIO(pdf), strict=True)
    assert reader.metadata.title == "Depth" and reader.metadata.author == "The authors"
    assert reader.metadata.subject == "Stacked RNNs × 3"
    assert "/CreationDate" not in reader.metadata
    names = reader.trailer["/Root"]["/StructTreeRoot"]["/IDTree"]["/Names"]
    assert names[0] == "node00000001" and names[2] == "node00000002"  # still sorted


@pytest.mark.parametrize("name", ["title", "author", "subject"])
def test_empty_metadata_is_refused(name):
    with pytest.raises(ValueError, match=name):
        finish_pdf(chromium_like(1, 2), **{**META, name: " "})


@pytest.mark.parametrize("pdf", [b"%PDF-1.4\n", b"%PDF-1.7\nstartxref\n9\n%%EOF"])
def test_a_pdf_not_laid_out_as_chromium_writes_it_is_refused(pdf):
    with pytest.raises(ValueError, match="cross-reference"):
        finish_pdf(pdf, **META)
