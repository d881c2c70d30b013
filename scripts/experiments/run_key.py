"""A trained run's key: what its numbers are a function of, and nothing else.

A run of the Shakespeare study is a pure function of four things, each named here by its role:

model   the language model's code (``stacklib.lm.model``)
loop    the training loop, how it cuts the text and how it scores a model (``stacklib.lm.train``,
        ``stacklib.lm.text``, and ``stacklib.charlm.jobs``, which trains a job and scores it)
data    the texts themselves: the ids of the training, validation and test plays, and the
        vocabulary they index
config  the job: the model's shape and options, the training settings (device included), the
        training characters

plus the releases of torch and NumPy, which do the arithmetic (torch's without its build tag,
``+cpu`` or ``+cu126``: the config already names the device). Code counts as Python reads it: a
module's syntax tree without its docstrings and imports. So a module moved to another folder, a
comment or docstring reworded, or an import path changed leaves every key, and every record, as
it was; an edit to what the code computes changes them. (The syntax tree is Python 3.11's, the
version the project pins: another Python may print it differently and call every record stale.)
"""

from __future__ import annotations

import ast
import hashlib
import json
from functools import cache
from pathlib import Path

import numpy as np

from scripts.generation.cache import ROOT, module_file

COMPUTING = {"model": ("stacklib.lm.model",),
             "loop": ("stacklib.lm.train", "stacklib.lm.text", "stacklib.charlm.jobs")}


class _WhatRuns(ast.NodeTransformer):
    """A syntax tree without docstrings and imports (a body left empty gets ``pass``)."""

    def visit_Import(self, node):
        return None

    visit_ImportFrom = visit_Import

    def generic_visit(self, node):
        super().generic_visit(node)
        body = getattr(node, "body", None)
        if isinstance(body, list):
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                body.pop(0)
            if not body and not isinstance(node, ast.Module):
                body.append(ast.Pass())
        return node


@cache
def code_digest(module: str, root: Path = ROOT) -> str:
    """SHA-256 of what module ``module`` (a dotted name) computes: its syntax tree without
    docstrings and imports."""
    path = module_file(module, root)
    if path is None:
        raise ValueError(f"module: no module named {module!r} in the repository")
    tree = _WhatRuns().visit(ast.parse(path.read_text(encoding="utf-8")))
    return hashlib.sha256(ast.dump(tree, include_attributes=False).encode()).hexdigest()


def data_digest(texts) -> str:
    """SHA-256 of the texts a run reads (``jobs.Texts``)."""
    digest = hashlib.sha256()
    for split in ("train", "validation", "test"):
        ids = np.ascontiguousarray(getattr(texts, split), dtype=np.int64)
        digest.update(split.encode() + b"\0" + ids.tobytes())
    return digest.hexdigest()


def run_key(job, data: str, versions: dict) -> str:
    """The run's key (16 hex digits): its config, its code by role, its data, the versions."""
    payload = {"config": job.describe(), "data": data, "versions": versions,
               "code": {role: [code_digest(m) for m in modules]
                        for role, modules in COMPUTING.items()}}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]
