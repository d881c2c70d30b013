"""Shared plumbing of the generators: paths, environment, input hashing, writers, figure style.

A generator module (``scripts/gen_*.py``) defines::

    NAME = "params"                      # key in docs/generated/manifest.json
    INPUTS = ["stacklib/params.py", ...] # files/globs (repo-relative) whose content it depends on
    def run(out: Path) -> list[str]      # writes under out/, returns the relative paths written

Its cache key is the SHA-256 of INPUTS + its own source + this file (+ CONFIG, if defined).
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GENERATED = DOCS / "generated"
SCRIPTS = ROOT / "scripts"

# Layer colours, layer 1 -> 3: teal -> sky -> violet, the light scheme's --lamp-1..3 of
# docs/stylesheets/lecture.css (tests/site/test_elements.py checks they agree).
LAYER_COLORS = ("#0d9488", "#0284c7", "#7c3aed")


def layer_color(layer: int, num_layers: int = 3) -> str:
    """Colour of layer `layer` (1-based) of `num_layers`: teal -> sky -> violet, interpolated."""
    from matplotlib.colors import to_hex, to_rgb

    if num_layers <= 3:
        return LAYER_COLORS[(layer - 1) % 3]
    pos = 2 * (layer - 1) / (num_layers - 1)  # 0 .. 2 along teal -> sky -> violet
    i = min(int(pos), 1)
    a, b = to_rgb(LAYER_COLORS[i]), to_rgb(LAYER_COLORS[i + 1])
    return to_hex(tuple(x + (y - x) * (pos - i) for x, y in zip(a, b, strict=True)))


CELL_COLORS = {"rnn": "#64748b", "gru": "#0ea5e9", "lstm": "#7c3aed"}
GREY = "#94a3b8"
INK = "#1f2937"

def setup_env() -> None:
    """Keep every tool's state inside the project; make stacklib importable from a clone."""
    for path in (str(ROOT), str(SCRIPTS)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from _toolenv import apply

    apply(make_dirs=True)


def expand(patterns: Iterable[str]) -> list[Path]:
    """Repo-relative files and globs -> sorted existing files."""
    files: set[Path] = set()
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            files.update(p for p in ROOT.glob(pattern) if p.is_file())
        elif (ROOT / pattern).is_file():
            files.add(ROOT / pattern)
    return sorted(p for p in files if "__pycache__" not in p.parts)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def inputs_hash(module) -> str:
    """Hash of a generator's inputs: its INPUTS files, its own source, this file, its CONFIG."""
    h = hashlib.sha256()
    own = [Path(module.__file__).resolve(), Path(__file__).resolve()]
    for path in sorted(set(expand(getattr(module, "INPUTS", [])) + own)):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    h.update(json.dumps(getattr(module, "CONFIG", {}), sort_keys=True, default=str).encode())
    return h.hexdigest()


# --- writers ----------------------------------------------------------------------------------

def resolve(out: Path, rel: str) -> Path:
    """Where `rel` lives: under `out`, except "_docs/..." which is docs/... for the real run."""
    if rel.startswith("_docs/") and Path(out).resolve() == GENERATED.resolve():
        return DOCS / rel.removeprefix("_docs/")
    return Path(out) / rel


def write_text(out: Path, rel: str, text: str) -> str:
    path = resolve(out, rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text, encoding="utf-8", newline="\n")
    return rel


def _round_floats(obj, digits: int):
    if isinstance(obj, float):
        if not math.isfinite(obj):
            raise ValueError(f"non-finite number {obj!r} in generated JSON")
        return float(f"{obj:.{digits}g}")
    if isinstance(obj, dict):
        return {str(k): _round_floats(v, digits) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_round_floats(v, digits) for v in obj]
    if hasattr(obj, "tolist"):  # numpy arrays and scalars
        return _round_floats(obj.tolist(), digits)
    return obj


def write_json(out: Path, rel: str, obj, digits: int = 12) -> str:
    """Deterministic JSON: sorted keys, floats to `digits` significant digits, no NaN."""
    text = json.dumps(_round_floats(obj, digits), indent=1, sort_keys=True, ensure_ascii=False,
                      allow_nan=False)
    return write_text(out, rel, text)


def md_table(header: list[str], rows: list[list], align: str | None = None) -> str:
    """A pipe table; `align` is one letter per column (l, r, c), default first l, rest r."""
    align = align or "l" + "r" * (len(header) - 1)
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(marks[a] for a in align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fmt_int(n: int) -> str:
    return f"{int(n):,}"


def fmt_num(x: float, digits: int = 4) -> str:
    """Fixed decimals with a true minus sign (U+2212) as the prose uses it."""
    text = f"{x:.{digits}f}"
    if text.startswith("-") and float(text) == 0.0:
        text = text[1:]
    return text.replace("-", "\u2212")


# No-break space: joins a number to its "±" / "×" so a table cell never wraps inside a value.
NBSP = "\u00a0"


def fmt_sci(v: float) -> str:
    """0.000123 -> '1.23 × 10<sup>−4</sup>' (no-break spaces round ×); 0.0456 -> '0.0456'."""
    mant, exp = f"{v:.2e}".split("e")
    if abs(int(exp)) <= 2:
        return f"{v:.3g}".replace("-", "\u2212")
    return f"{mant}{NBSP}×{NBSP}10<sup>{int(exp)}</sup>".replace("-", "\u2212")


def header_comment(generator: str) -> str:
    return (f"<!-- generated by scripts/generate.py ({generator}); "
            "do not edit: change stacklib or scripts/ and regenerate -->\n\n")


# --- figures ----------------------------------------------------------------------------------

def mpl():
    """matplotlib with a deterministic SVG backend configuration."""
    setup_env()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({
        "svg.hashsalt": "depth-lecture",
        "svg.fonttype": "none",  # text stays text: searchable, selectable, small
        "font.family": "sans-serif",
        "font.sans-serif": ["DejaVu Sans"],
        "font.size": 10,
        "axes.edgecolor": INK,
        "axes.labelcolor": INK,
        "axes.titlesize": 11,
        "axes.titleweight": "bold",
        "axes.spines.top": False,
        "axes.spines.right": False,
        "xtick.color": INK,
        "ytick.color": INK,
        "text.color": INK,
        "legend.frameon": False,
        "figure.facecolor": "white",
        "savefig.facecolor": "white",
        "path.simplify": False,
    })
    return plt


def save_svg(fig, out: Path, rel: str, title: str) -> str:
    """Save a figure as SVG without date, with a <title> (accessible name), then close it."""
    import matplotlib.pyplot as plt

    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None, "Title": title, "Creator": None},
                bbox_inches="tight", pad_inches=0.08)
    plt.close(fig)
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    path.write_text(text, encoding="utf-8", newline="\n")
    return rel


def experiments_dir(out: Path) -> Path:
    """Experiments JSON: from `out` if the experiments generator wrote there, else committed."""
    candidate = out / "experiments"
    if candidate.is_dir() and any(candidate.glob("*.json")):
        return candidate
    return GENERATED / "experiments"


def load_experiment(out: Path, name: str):
    path = experiments_dir(out) / f"{name}.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))
