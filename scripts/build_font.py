"""Self-host the math font: Latin Modern Math (OTF, Debian fonts-lmodern) -> WOFF2.

    python scripts/build_font.py [--src PATH] [--out DIR]

Writes docs/assets/fonts/lecture-math.woff2 (committed; used by docs/assets/css/math.css)
and copies the font's licence notice (GUST Font License) next to it. The font is subset to the
Unicode blocks a lecture's formulas use (Latin, Greek, mathematical alphanumerics, operators,
arrows, delimiters) with its OpenType MATH table (stretchy variants and assemblies) kept, which
cuts the download to about half. As the licence asks of modified versions, the subset
carries a file name of its own. Needs fontTools and brotli. Deterministic (timestamps are not
recomputed).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "assets" / "fonts"
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


def build(src: Path, out_dir: Path) -> Path:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    out_dir.mkdir(parents=True, exist_ok=True)
    dest = out_dir / "lecture-math.woff2"
    font = TTFont(str(src), recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[u for lo, hi in BLOCKS for u in range(lo, hi + 1)])
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(str(dest), reorderTables=True)
    if LICENCE.is_file():
        shutil.copyfile(LICENCE, out_dir / "LICENSE-latinmodern-math.txt")
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=None, help="latinmodern-math.otf")
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    args = parser.parse_args(argv)
    src = args.src or find_font()
    dest = build(src, args.out)
    print(f"{src} ({src.stat().st_size:,} B) -> {dest} ({dest.stat().st_size:,} B)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
