"""The drift check's comparison: a committed generated file against a freshly generated one.

JSON must have the same structure, strings, booleans and integers, and floats equal within
``RTOL`` plus ``ATOL`` (arithmetic may differ in the last bits between machines); every other
file (markdown, SVG, the notebook) must match byte for byte.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path

RTOL = 1e-6
ATOL = 1e-9


def compare_json(expected, actual, where: str = "$") -> list[str]:
    """Differences between two JSON values (empty when equal within tolerance)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        same = type(expected) is type(actual) and expected == actual
        return [] if same else [f"{where}: {expected!r} != {actual!r}"]
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        if isinstance(expected, int) and isinstance(actual, int):
            return [] if expected == actual else [f"{where}: {expected} != {actual}"]
        if math.isclose(expected, actual, rel_tol=RTOL, abs_tol=ATOL):
            return []
        return [f"{where}: {expected!r} != {actual!r} (rtol={RTOL:g}, atol={ATOL:g})"]
    if type(expected) is not type(actual):
        return [f"{where}: type {type(expected).__name__} != {type(actual).__name__}"]
    if isinstance(expected, dict):
        diffs = [f"{where}: key {k!r} missing" for k in sorted(set(expected) - set(actual))]
        diffs += [f"{where}: extra key {k!r}" for k in sorted(set(actual) - set(expected))]
        for k in sorted(set(expected) & set(actual)):
            diffs += compare_json(expected[k], actual[k], f"{where}.{k}")
        return diffs
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return [f"{where}: length {len(expected)} != {len(actual)}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for d in compare_json(e, a, f"{where}[{i}]")]
    return [] if expected == actual else [f"{where}: {expected!r} != {actual!r}"]


def _first_diff(a: bytes, b: bytes) -> str:
    la, lb = a.decode("utf-8", "replace").splitlines(), b.decode("utf-8", "replace").splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False), start=1):
        if x != y:
            return f" (line {i}: {x[:80]!r} != {y[:80]!r})"
    return f" (length {len(la)} != {len(lb)} lines)"


def compare_files(expected_root: Path, actual_root: Path, rels: Iterable[str]) -> list[str]:
    """Differences, one line each, between the files `rels` under the two roots."""
    diffs = []
    for rel in rels:
        expected, actual = Path(expected_root) / rel, Path(actual_root) / rel
        if not expected.is_file() or not actual.is_file():
            missing = expected_root if not expected.is_file() else actual_root
            diffs.append(f"{rel}: missing from {missing}")
            continue
        a, b = expected.read_bytes(), actual.read_bytes()
        if a == b:
            continue
        if rel.endswith(".json"):
            found = compare_json(json.loads(a), json.loads(b))
            diffs += [f"{rel}: {d}" for d in found[:5]]
            diffs += [f"{rel}: ... {len(found) - 5} more"] if len(found) > 5 else []
        else:
            diffs.append(f"{rel}: content differs{_first_diff(a, b)}")
    return diffs
