"""A trained run's key changes with what determines its numbers, and with nothing else."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from scripts.experiments import run_key
from scripts.study.plan import quick_base
from stacklib.charlm.jobs import Texts

TEXTS = Texts(np.arange(50) % 7, np.arange(20) % 7, np.arange(30) % 7)
VERSIONS = {"torch": "2.13.0", "numpy": "2.4.0"}


def _key(job=None, texts=TEXTS, versions=VERSIONS):
    return run_key.run_key(job or quick_base(77), run_key.data_digest(texts), versions)


def test_the_key_follows_the_config_the_data_and_the_versions():
    job = quick_base(77)
    assert _key(job) == _key(quick_base(77))
    changed = [dataclasses.replace(job, train=dataclasses.replace(job.train, seed=1)),
               dataclasses.replace(job, train=dataclasses.replace(job.train, device="cuda")),
               dataclasses.replace(job, model=job.model.replace(dropout=0.1)),
               dataclasses.replace(job, model=job.model.replace(forget_bias=1.0)),
               dataclasses.replace(job, test=False), dataclasses.replace(job, train_chars=40)]
    keys = {_key(j) for j in changed}
    assert len(keys) == len(changed) and _key(job) not in keys
    assert _key(texts=Texts(TEXTS.train[::-1], TEXTS.validation, TEXTS.test)) != _key()
    assert _key(texts=Texts(TEXTS.train, TEXTS.validation, TEXTS.test[:-1])) != _key()
    assert _key(versions={**VERSIONS, "torch": "2.14.0"}) != _key()


def _digest(tmp_path: Path, source: str, name: str = "stacklib/lm/probe.py") -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in (tmp_path / "stacklib", path.parent):
        (parent / "__init__.py").touch()
    path.write_text(source)
    module = name.removesuffix(".py").replace("/", ".")
    run_key.code_digest.cache_clear()
    try:
        return run_key.code_digest(module, root=tmp_path)
    finally:
        shutil.rmtree(tmp_path / "stacklib")


CODE = '''"""A module."""
import math


def f(x):
    """Twice x."""
    return 2 * math.sqrt(x)  # a comment
'''


def test_code_counts_as_python_reads_it(tmp_path):
    """Docstrings, comments, layout, imports and the module's place leave the digest; an
    edit to what the code computes changes it."""
    same = [CODE.replace('"""Twice x."""', '"""Double."""').replace("# a comment", ""),
            CODE.replace("import math", "from math import pi\nimport math"),
            CODE.replace("return 2 * math.sqrt(x)", "return (2 *\n            math.sqrt(x))")]
    base = _digest(tmp_path, CODE)
    assert all(_digest(tmp_path, source) == base for source in same)
    assert _digest(tmp_path, CODE, "stacklib/moved/elsewhere.py") == base
    assert _digest(tmp_path, CODE.replace("2 *", "3 *")) != base
    # a body that held only its docstring still differs from one that computes
    assert _digest(tmp_path, CODE.replace("    return 2 * math.sqrt(x)  # a comment\n", "")) != base


def test_an_unknown_module_is_named():
    with pytest.raises(ValueError, match=r"module: no module named 'stacklib\.nowhere'"):
        run_key.code_digest("stacklib.nowhere")
