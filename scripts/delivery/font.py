"""Self-host the math font: Latin Modern Math (OTF, Debian fonts-lmodern) -> two WOFF2 files.

    python -m scripts.delivery.font [--src PATH] [--out DIR] [--css FILE]

Writes docs/assets/fonts/lecture-math.woff2 and lecture-math-ext.woff2 (committed), copies the
font's licence notice (GUST Font License) next to them, and rewrites the `unicode-range` of the
two @font-face rules in docs/assets/css/math.css to the exact coverage of each file. The font is
subset to the Unicode blocks a lecture's formulas use (Latin, Greek, mathematical alphanumerics,
operators, arrows, delimiters), each file with its OpenType MATH table (stretchy variants and
assemblies) kept. The split is for page speed: the core file holds what this lecture's
formulas use (ASCII, Greek, math italic, operators, braces; ~110 kB), so a page downloads only
it; the extension (the rest of the blocks) is fetched by the browser only for a page whose math
uses one of its characters (CSS unicode-range). As the licence asks of modified versions, the
subsets carry file names of their own. Needs fontTools and brotli. Deterministic (timestamps are
not recomputed).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

from scripts.toolenv import ROOT

OUT = ROOT / "docs" / "assets" / "fonts"
CSS = ROOT / "docs" / "assets" / "css" / "math.css"
CANDIDATES = [
    Path("/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf"),
    Path("/usr/share/fonts/opentype/lmodern/latinmodern-math.otf"),
    Path("/usr/share/texlive/texmf-dist/fonts/opentype/public/lm-math/latinmodern-math.otf"),
]
LICENCE = Path("/usr/share/doc/fonts-lmodern/README-Latin-Modern-Math.txt")


def find_font() -> Path:
    for path in CANDIDATES:
        if path.is_file():
            return path
    found = sorted(Path("/usr/share").rglob("latinmodern-math.otf"))
    if not found:
        sys.exit("latinmodern-math.otf not found: install the Debian package fonts-lmodern")
    return found[0]


# Unicode blocks kept by the subset (inclusive ranges).
BLOCKS = [
    (0x0020, 0x00FF),  # Basic Latin, Latin-1
    (0x0300, 0x036F),  # combining diacritics (hats, bars, dots)
    (0x0370, 0x03FF),  # Greek
    (0x2000, 0x214F),  # punctuation, super/subscripts, letterlike symbols
    (0x2190, 0x23FF),  # arrows, mathematical operators, miscellaneous technical
    (0x27E8, 0x27E9),  # angle brackets
    (0x1D400, 0x1D503),  # mathematical bold, italic, bold italic, script (a-z, A-Z)
    (0x1D6A4, 0x1D7CB),  # mathematical Greek: bold, italic, bold italic
]
# The core file: what the formulas of this lecture use, with their families (MathML renders a
# one-letter <mi> in math italic: x -> U+1D465, h -> U+210E, sigma -> U+1D70E).
CORE = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00A0), (0x00AC, 0x00AC), (0x00B1, 0x00B1), (0x00B7, 0x00B7),  # nbsp ¬ ± ·
    (0x00D7, 0x00D7), (0x00F7, 0x00F7),  # × ÷
    (0x0391, 0x03A9), (0x03B1, 0x03C9),  # Greek
    (0x03D1, 0x03D1), (0x03D5, 0x03D6), (0x03F0, 0x03F1), (0x03F5, 0x03F5),  # ϑ ϕ ϖ ϰ ϱ ϵ
    (0x2016, 0x2016), (0x2032, 0x2034), (0x2061, 0x2064),  # ‖, primes, invisible operators
    (0x2102, 0x2102), (0x210E, 0x210E), (0x2113, 0x2113), (0x2115, 0x2115),  # ℂ ℎ ℓ ℕ
    (0x211A, 0x211A), (0x211D, 0x211D), (0x2124, 0x2124),  # ℚ ℝ ℤ
    (0x2190, 0x2199), (0x21A6, 0x21A6), (0x21D0, 0x21D5),  # arrows, ↦, ⇐ ⇒ ⇔
    (0x2200, 0x22FF),  # mathematical operators
    (0x2308, 0x230B), (0x23DC, 0x23E1), (0x27E8, 0x27E9),  # ⌈⌉⌊⌋, over/under braces, ⟨⟩
    (0x1D434, 0x1D467), (0x1D6E2, 0x1D71B),  # math italic Latin, Greek
]
FILES = {"lecture-math.woff2": "core", "lecture-math-ext.woff2": "ext"}


def codepoints(blocks) -> set[int]:
    return {u for lo, hi in blocks for u in range(lo, hi + 1)}


def unicode_range(points) -> str:
    """CSS unicode-range of a set of code points: "U+20-7E, U+A0, …"."""
    runs = []
    for cp in sorted(points):
        if runs and cp == runs[-1][1] + 1:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp])
    return ", ".join(f"U+{lo:X}" if lo == hi else f"U+{lo:X}-{hi:X}" for lo, hi in runs)


def subset_font(src: Path, dest: Path, unicodes: set[int]) -> set[int]:
    """Write the subset as WOFF2; return the code points it maps."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(src), recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    mapped = set(font.getBestCmap())
    font.flavor = "woff2"
    font.save(str(dest), reorderTables=True)
    return mapped


def set_ranges(css: str, ranges: dict[str, str]) -> str:
    """math.css with each @font-face's unicode-range set to its file's coverage."""
    def face(m: re.Match) -> str:
        name = re.search(r'url\("?\.\./fonts/([^")]+)', m.group(0)).group(1)
        return re.sub(r"unicode-range:[^;]*;", f"unicode-range: {ranges[name]};", m.group(0))

    return re.sub(r"@font-face\s*\{[^}]*\}", face, css)


def build(src: Path, out_dir: Path, css: Path | None = CSS) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    core = codepoints(CORE)
    parts = {"core": core, "ext": codepoints(BLOCKS) - core}
    ranges, written = {}, []
    for name, part in FILES.items():
        dest = out_dir / name
        ranges[name] = unicode_range(subset_font(src, dest, parts[part]) & parts[part])
        written.append(dest)
    if css is not None:
        css.write_text(set_ranges(css.read_text(encoding="utf-8"), ranges), encoding="utf-8")
    if LICENCE.is_file():
        shutil.copyfile(LICENCE, out_dir / "LICENSE-latinmodern-math.txt")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=None, help="latinmodern-math.otf")
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    parser.add_argument("--css", type=Path, default=CSS, help="stylesheet with the @font-face")
    args = parser.parse_args(argv)
    src = args.src or find_font()
    for dest in build(src, args.out, args.css):
        print(f"{src} ({src.stat().st_size:,} B) -> {dest} ({dest.stat().st_size:,} B)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
