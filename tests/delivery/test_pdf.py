"""The printed lecture (scripts/delivery/pdf.py): every section, tab, number and answer."""

from __future__ import annotations

import html
import json
import re
import subprocess
import unicodedata

import pytest

import stacklib.params
from scripts.site import ROOT, load_config, nav
from stacklib.walkthrough import walkthrough

DOCS = ROOT / "docs"
LABS = {"PyTorch": "pytorch_lab.py", "Keras": "keras_lab.py", "NumPy": "numpy_lab.py"}
# The PDF is one download a reader takes offline. Vector figures keep it within this budget;
# figures embedded as full-page rasters would not.
MAX_BYTES = 6 * 1024 * 1024


def norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def page_title(src: str) -> str:
    path = DOCS / src
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        lines = [line for c in cells if c["cell_type"] == "markdown" for line in
                 "".join(c["source"]).splitlines()]
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
    h1 = next(line[2:] for line in lines if line.startswith("# "))
    return norm(re.sub(r"[`*_]", "", h1))


def distinctive_lines(name: str) -> list[str]:
    """Code lines of one lab file found in no other lab file (short enough not to wrap)."""
    def lines(file):
        text = (ROOT / "code_lab" / file).read_text(encoding="utf-8")
        return [norm(re.sub(r"\s+#.*$", "", line)) for line in text.splitlines()]

    others = {line for f in LABS.values() if f != name for line in lines(f)}
    return [line for line in lines(name) if 20 <= len(line) <= 70
            and not line.startswith(("#", '"""')) and line not in others]


def test_pdf_size_and_first_page_renders(lecture_pdf, tmp_path):
    """The cover is drawn: some of its pixels are ink, not blank paper."""
    from matplotlib.image import imread

    assert lecture_pdf.stat().st_size <= MAX_BYTES
    subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-r", "30", "-gray", "-png",
                    str(lecture_pdf), str(tmp_path / "p")], check=True, capture_output=True)
    pngs = list(tmp_path.glob("p*.png"))
    assert len(pngs) == 1
    page = imread(pngs[0])
    gray = page if page.ndim == 2 else page[..., 0]
    ink = (gray < 0.7).mean()  # at 30 dpi the cover's text is grey, not black
    assert ink > 0.002, f"the first page is blank ({ink:.4%} dark pixels)"


def test_pdf_has_no_print_date(lecture_pdf):
    info = subprocess.run(["pdfinfo", str(lecture_pdf)], capture_output=True, text=True,
                          check=True).stdout
    assert "CreationDate" not in info and "ModDate" not in info


def test_cover_toc_and_every_section_in_order(pdf_text):
    text = norm(pdf_text)
    pages = nav()
    titles = [page_title(src) for _, src in pages]
    assert text.startswith(norm(load_config()["site_name"]))  # cover
    pos = text.index("Table of Contents")
    for nav_title, src in pages:  # the table of contents lists every page in nav order ...
        entry = nav_title or page_title(src)
        pos = text.index(entry, pos) + len(entry)
    for title in titles:  # ... and the pages follow, in the same order
        found = text.find(title, pos)
        assert found >= 0, f"section {title!r} missing or out of order"
        pos = found + len(title)
    assert titles[-1].startswith("Appendix")


@pytest.mark.parametrize("label", list(LABS))
def test_every_code_tab_prints_under_its_label(pdf_text, label):
    lines = [norm(line) for line in pdf_text.splitlines()]
    text = norm(pdf_text)
    expected = distinctive_lines(LABS[label])
    assert len(expected) >= 3
    missing = [line for line in expected if line not in text]
    assert not missing, f"{LABS[label]} lines not in the PDF: {missing}"
    first = text.index(expected[0])
    label_at = [m.start() for m in re.finditer(rf"(?<!\S){label}(?!\S)", text) if m.start() < first]
    assert label in lines and label_at, f"no tab label {label!r} before its code"


def test_the_shared_weights_print(pdf_text):
    """The file every tab imports is printed too: a tab needs nothing the PDF leaves out."""
    text = norm(pdf_text)
    expected = distinctive_lines("shared_weights.py")
    assert len(expected) >= 3
    missing = [line for line in expected if line not in text]
    assert not missing, f"shared_weights.py lines not in the PDF: {missing}"


def test_numbers_walkthrough_and_depth_vs_width(pdf_text):
    text = norm(pdf_text)
    y = walkthrough().y
    shown = f"[{y[0]:.4f}, {y[1]:.4f}]".replace("-", "−")
    assert shown == "[0.7215, −0.0432]" and shown in text
    for (layers, hidden) in ((1, 512), (3, 256)):
        for framework in ("keras", "torch"):
            count = stacklib.params.count_params("lstm", 300, hidden, layers, framework=framework)
            assert f"{count:,}" in text, (layers, hidden, framework, count)


def test_math_is_selectable_text(pdf_text):
    # MathML renders identifiers as Mathematical Alphanumeric Symbols: text, not pictures
    assert sum("\U0001d400" <= ch <= "\U0001d7ff" for ch in pdf_text) > 100


def test_answer_key_appendix_has_every_quiz_answer(pdf_text):
    text = norm(pdf_text)
    appendix = text[text.rindex(page_title("appendix-answers.md")):]
    quiz = json.loads((DOCS / "generated" / "data" / "quiz.json").read_text(encoding="utf-8"))
    for key, entry in sorted(quiz.items(), key=lambda kv: int(kv[0][1:])):
        n, answer = int(key[1:]), entry["answer"]
        if isinstance(answer, str) and re.fullmatch(r"[A-D]", answer):
            assert re.search(rf"Q{n} {answer} —", appendix), (key, answer)
        elif isinstance(answer, int | float):
            shown = f"{answer:,}" if isinstance(answer, int) else f"{answer:g}"
            assert shown in appendix, (key, shown)
        elif "**" in answer:  # a formula: its value at the lecture's defaults is printed
            assert f"{entry['at_defaults']:g}" in appendix, (key, entry)
        else:
            words = re.findall(r"[\w=-]+", answer.lower())
            missing = [w for w in words if w not in appendix.lower()]
            assert not missing, (key, missing)


def test_the_shakespeare_probes_and_cells_print(pdf_text):
    """What each layer of the trained stacks holds prints: every score of the probe table, and
    the static heat map of the live widget (its feature labels and its scale's caption)."""
    text = norm(pdf_text)
    page = text[text.index(page_title("06b-shakespeare-layers.md")):]
    table = (DOCS / "generated/partials/shakespeare_probes.md").read_text(encoding="utf-8")
    scores = re.findall(r"\d\.\d{3}\u00a0±\u00a0\d\.\d{3}", table)
    assert len(scores) >= 7 * 2 * 3
    missing = [s for s in scores if norm(s) not in page]
    assert not missing, missing
    figure = (DOCS / "generated/figures/shakespeare_cells.svg").read_text(encoding="utf-8")
    labels = {html.unescape(t) for t in re.findall(r"<text\b[^>]*>([^<]{4,})</text>", figure)}
    assert len(labels) >= 7  # the features and the scale's caption, as the figure draws them
    missing = [label for label in labels if norm(label) not in page]
    assert not missing, missing
