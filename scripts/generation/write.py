"""Writing generated files: the project's one JSON format, text files, a generator's output tree.

Every generated file is deterministic: UTF-8, "\\n" line endings, a final newline; JSON with
sorted keys, floats rounded to 12 significant digits (what survives arithmetic that differs in
the last bits between machines), no NaN or infinity (a missing value is None, written null).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path

SIGNIFICANT_DIGITS = 12


def _rounded(value, where: str):
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: {value!r} cannot be written to JSON (use None)")
        return float(f"{value:.{SIGNIFICANT_DIGITS}g}")
    if isinstance(value, dict):
        return {str(k): _rounded(v, f"{where}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if hasattr(value, "tolist"):  # NumPy arrays and scalars
        return _rounded(value.tolist(), where)
    raise TypeError(f"{where}: {type(value).__name__} cannot be written to JSON")


def _dumps(value, indent: str) -> str:
    inner = indent + " "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dumps(value[k], inner)}"
                 for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        return "[\n" + ",\n".join(inner + _dumps(v, inner) for v in value) + "\n" + indent + "]"
    # scalars, and lists of scalars on one line: short files, one-line diffs per series
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))


def json_text(value) -> str:
    """`value` (dicts, lists, numbers, strings, NumPy arrays) as the project's JSON text.

    Keys sorted, one key per line, lists of scalars on one line, floats to 12 significant
    digits; NaN or infinity raise ValueError naming where they are.

    >>> print(json_text({"b": [0.1 + 0.2, 2], "a": None}), end="")
    {
     "a": null,
     "b": [0.3, 2]
    }
    """
    return _dumps(_rounded(value, "$"), "") + "\n"


def non_finite_as_none(value):
    """`value` with NaN and infinities replaced by None, for measurements in which a non-finite
    number means "no value" (a diverged training run's norms): say so where you call it, since
    ``json_text`` refuses them otherwise."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: non_finite_as_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [non_finite_as_none(v) for v in value]
    if hasattr(value, "tolist"):  # NumPy arrays and scalars
        return non_finite_as_none(value.tolist())
    return value


def write_text(path: Path, text: str) -> Path:
    """Write UTF-8 text with "\\n" line endings and a final newline; returns `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = text.replace("\r\n", "\n")
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8", newline="\n")
    return path


def write_json(path: Path, value) -> Path:
    """Write `value` as ``json_text`` to `path`; returns `path`."""
    return write_text(path, json_text(value))


class Output:
    """Where one generator writes (a docs/ tree: the real one or a scratch copy) and reads.

    Paths written are relative to that docs folder ("generated/data/params.json",
    "code_lab.ipynb") and remembered for the manifest. Data files are read only through
    ``read_json`` and only those in `data` (the generator's declared DATA, repository-relative
    paths under `repo`): the cache hashes exactly what is read.
    """

    def __init__(self, docs: Path, data: Iterable[str], repo: Path):
        self.docs, self.data, self.repo = Path(docs), set(data), Path(repo)
        self.written: list[str] = []

    def path(self, rel: str) -> Path:
        """A path to write `rel` to (for tools that write files themselves), recorded."""
        self.written.append(rel)
        path = self.docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def text(self, rel: str, text: str) -> None:
        write_text(self.path(rel), text)

    def json(self, rel: str, value) -> None:
        write_json(self.path(rel), value)

    def read_json(self, rel: str):
        """A declared data file, parsed."""
        if rel not in self.data:
            raise ValueError(f"{rel} is not among this generator's DATA files {sorted(self.data)}")
        path = self.repo / rel
        if not path.is_file():
            raise FileNotFoundError(f"{rel} is missing: run `python -m scripts.experiments`")
        return json.loads(path.read_text(encoding="utf-8"))
