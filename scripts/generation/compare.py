"""Compare two generated trees: the drift check (committed docs/generated/ vs a fresh run).

Rules: markdown, SVG, HTML, text and notebooks must match byte for byte; JSON must have the same
structure, strings, booleans and integers, and floats equal within ``rtol`` (default 1e-6)
plus ``atol`` (default 1e-9). The manifest is ignored (it records hashes, not outputs).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

RTOL = 1e-6
ATOL = 1e-9
IGNORE = ("manifest.json",)


def compare_json(expected, actual, rtol: float = RTOL, atol: float = ATOL,
                 where: str = "$") -> list[str]:
    """Differences between two JSON values (empty list when equal within tolerance)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = type(expected) is type(actual) and expected == actual
        return [] if same else [f"{where}: {expected!r} != {actual!r}"]
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        if isinstance(expected, int) and isinstance(actual, int):
            return [] if expected == actual else [f"{where}: {expected} != {actual}"]
        if math.isclose(expected, actual, rel_tol=rtol, abs_tol=atol):
            return []
        return [f"{where}: {expected!r} != {actual!r} (rtol={rtol:g}, atol={atol:g})"]
    if type(expected) is not type(actual):
        return [f"{where}: type {type(expected).__name__} != {type(actual).__name__}"]
    if isinstance(expected, dict):
        diffs = [f"{where}: key {k!r} missing" for k in sorted(set(expected) - set(actual))]
        diffs += [f"{where}: extra key {k!r}" for k in sorted(set(actual) - set(expected))]
        for key in sorted(set(expected) & set(actual)):
            diffs += compare_json(expected[key], actual[key], rtol, atol, f"{where}.{key}")
        return diffs
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return [f"{where}: length {len(expected)} != {len(actual)}"]
        diffs = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            diffs += compare_json(e, a, rtol, atol, f"{where}[{i}]")
        return diffs
    return [] if expected == actual else [f"{where}: {expected!r} != {actual!r}"]


def _files(root: Path, ignore: tuple[str, ...]) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() and not any(p.relative_to(root).as_posix().startswith(i)
                                        for i in ignore)}


def compare_trees(expected_dir: Path, actual_dir: Path, *, rtol: float = RTOL, atol: float = ATOL,
                  only: set[str] | None = None, ignore: tuple[str, ...] = IGNORE) -> list[str]:
    """Differences between two generated trees, one line each (empty list = no drift).

    `only`: restrict the comparison to these relative paths (e.g. what a partial run wrote).
    """
    expected_dir, actual_dir = Path(expected_dir), Path(actual_dir)
    exp, act = _files(expected_dir, ignore), _files(actual_dir, ignore)
    if only is not None:
        exp, act = exp & only, act & only
    diffs = [f"{rel}: missing from {actual_dir}" for rel in sorted(exp - act)]
    diffs += [f"{rel}: not in {expected_dir}" for rel in sorted(act - exp)]
    for rel in sorted(exp & act):
        a, b = (expected_dir / rel).read_bytes(), (actual_dir / rel).read_bytes()
        if a == b:
            continue
        if rel.endswith(".json") and not rel.endswith(".ipynb"):
            try:
                ja, jb = json.loads(a), json.loads(b)
            except json.JSONDecodeError as exc:
                diffs.append(f"{rel}: invalid JSON ({exc})")
                continue
            found = compare_json(ja, jb, rtol, atol)
            diffs += [f"{rel}: {d}" for d in found[:5]]
            if len(found) > 5:
                diffs.append(f"{rel}: ... {len(found) - 5} more")
        else:
            diffs.append(f"{rel}: content differs{_first_diff(a, b)}")
    return diffs


def _first_diff(a: bytes, b: bytes) -> str:
    la, lb = a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False), start=1):
        if x != y:
            return f" (line {i}: {x[:80]!r} != {y[:80]!r})"
    return f" (length {len(la)} != {len(lb)} lines)"
