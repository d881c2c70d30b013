"""The one cache of generated files: what a result depends on, and whether it is up to date.

A result's *inputs key* is the SHA-256 of every repository source file it depends on, found by
walking imports from the code that computes it (``source_files``), plus the data files it reads,
plus any text the caller adds (a config, library versions). Nothing is listed by hand, so a
module edited deep in the import graph changes the key of exactly the results that import it.

``docs/generated/manifest.json`` records, per entry (a generator, a trained experiment), its
inputs key and the SHA-256 of every file it wrote, as paths relative to ``docs/``. An entry is
up to date when its key is unchanged and every output is present with its recorded content.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# Top-level names whose modules live in this repository (everything else is a dependency).
PACKAGES = ("stacklib", "scripts")


def module_file(name: str, root: Path) -> Path | None:
    """The file of module `name` under `root` (a package's __init__.py), or None."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _module_name(path: Path, root: Path) -> str | None:
    """`stacklib/numpy/cells.py` -> "stacklib.numpy.cells"; None outside the packages."""
    try:
        parts = list(path.relative_to(root).with_suffix("").parts)
    except ValueError:
        return None
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) if parts and parts[0] in PACKAGES else None


Statement = tuple[int, "str | None", tuple[str, ...]]


@functools.cache
def _import_statements(source: str, filename: str) -> tuple[Statement, ...]:
    """(level, from-module, names) of every import in `source`; ``import a, b`` is (0, None, ...).

    Cached by the text: one run hashes the same files for every entry, and parsing dominates.
    """
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            found.append((0, None, tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or "", tuple(alias.name for alias in node.names)))
    return tuple(found)


def _imported_names(path: Path, module: str | None) -> list[str]:
    """Every module name `path` may import (at any depth of its code: function bodies too).

    ``from pkg import name`` yields both ``pkg`` and ``pkg.name``: `name` may be a submodule.
    """
    package = module if path.name == "__init__.py" else (module or "").rpartition(".")[0]
    names: list[str] = []
    for level, base, imported in _import_statements(path.read_text(encoding="utf-8"), str(path)):
        if base is None:
            names += imported
            continue
        if level:  # relative: resolved against this module's package
            anchor = package.split(".")[: len(package.split(".")) - level + 1]
            base = ".".join([*anchor, base] if base else anchor)
        names.append(base)
        names += [f"{base}.{name}" for name in imported]
    return names


def source_files(modules: Iterable[str] = (), scripts: Iterable[Path] = (),
                 root: Path = ROOT) -> list[Path]:
    """Repository source files that `modules` (dotted names) and `scripts` (.py files run as
    programs, whose own folder is importable) depend on, transitively through their imports.

    Importing ``a.b.c`` runs ``a/__init__.py`` and ``a/b/__init__.py`` too, so those count.
    """
    seen: dict[Path, None] = {}
    todo: list[tuple[str, Path | None]] = [(name, None) for name in modules]
    todo += [(None, Path(p)) for p in scripts]
    while todo:
        name, path = todo.pop()
        if path is None:
            parts = name.split(".")
            todo += [(".".join(parts[:i]), None) for i in range(1, len(parts))]  # parents
            if parts[0] not in PACKAGES or (path := module_file(name, root)) is None:
                continue
        if path in seen:
            continue
        seen[path] = None
        module = _module_name(path, root)
        for imported in _imported_names(path, module):
            if imported.split(".")[0] in PACKAGES:
                todo.append((imported, None))
            elif module is None and (sibling := path.parent / f"{imported}.py").is_file():
                todo.append((None, sibling))  # a script's neighbour, e.g. code_lab/x.py
    return sorted(seen)


def expand(patterns: Iterable[str], root: Path = ROOT) -> list[Path]:
    """Repository-relative file names and globs -> the existing files, sorted."""
    files: set[Path] = set()
    for pattern in patterns:
        matches = root.glob(pattern) if any(c in pattern for c in "*?[") else [root / pattern]
        files.update(p for p in matches if p.is_file())
    return sorted(files)


def sha256_file(path: Path) -> str:
    """SHA-256 of a file's content, line endings normalised (a Windows checkout hashes alike)."""
    return hashlib.sha256(path.read_bytes().replace(b"\r\n", b"\n")).hexdigest()


def inputs_key(modules: Iterable[str] = (), data: Iterable[str] = (), extra: str = "",
               root: Path = ROOT) -> str:
    """The inputs key of a result computed by `modules` from the `data` files.

    modules  dotted names of the repository modules that compute it (their imports are walked)
    data     repository-relative files or globs it reads; a ``.py`` file among them is a program
             it runs, so that file's imports are walked too
    extra    anything else the result depends on (a config's repr, library versions)

    >>> inputs_key(["stacklib.params"]) == inputs_key(["stacklib.params"])
    True
    """
    data_files = expand(data, root)
    programs = [p for p in data_files if p.suffix == ".py"]
    files = sorted(set(source_files(modules, programs, root)) | set(data_files))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(sha256_file(path).encode() + b"\0")
    digest.update(extra.encode())
    return digest.hexdigest()


class Manifest:
    """docs/generated/manifest.json: per entry, its inputs key and its outputs' hashes.

    Output paths are relative to the docs folder the entry wrote into (``docs`` argument).
    """

    def __init__(self, docs: Path = DOCS):
        self.docs = Path(docs)
        self.path = self.docs / "generated" / "manifest.json"
        text = self.path.read_text(encoding="utf-8") if self.path.is_file() else "{}"
        self.entries: dict[str, dict] = json.loads(text).get("entries", {})

    def up_to_date(self, name: str, key: str) -> bool:
        entry = self.entries.get(name)
        return bool(entry) and entry["inputs"] == key and all(
            (self.docs / rel).is_file() and sha256_file(self.docs / rel) == digest
            for rel, digest in entry["outputs"].items())

    def record(self, name: str, key: str, outputs: Iterable[str]) -> None:
        """Record what `name` wrote; files it wrote last time and no longer writes are deleted."""
        outputs = sorted(set(outputs))
        for rel in set(self.entries.get(name, {}).get("outputs", {})) - set(outputs):
            (self.docs / rel).unlink(missing_ok=True)
        self.entries[name] = {"inputs": key,
                              "outputs": {rel: sha256_file(self.docs / rel) for rel in outputs}}

    def save(self) -> None:
        from scripts.generation.write import write_json

        write_json(self.path, {"entries": self.entries})
