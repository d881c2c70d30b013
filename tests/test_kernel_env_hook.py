"""hooks/kernel_env.py: a build that would execute the notebook without torch/keras stops at
once with a message naming the torch-free preview (not with a notebook traceback)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[1]


def _hook():
    spec = importlib.util.spec_from_file_location("kernel_env", ROOT / "hooks" / "kernel_env.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _config(monkeypatch, execute: str):
    monkeypatch.setenv("STACK_EXECUTE_NOTEBOOK", execute)
    return load_config(str(ROOT / "mkdocs.yml"))


def test_missing_torch_stops_the_build_with_the_preview_named(monkeypatch):
    hook = _hook()
    config = _config(monkeypatch, "true")
    no_torch = lambda name: None if name == "torch" else object()  # noqa: E731
    with pytest.raises(PluginError, match=r"needs torch, .*make preview"):
        hook.check_notebook_kernel(config, find_spec=no_torch)
    hook.check_notebook_kernel(config)  # this environment has both


def test_preview_without_execution_needs_no_torch(monkeypatch):
    hook = _hook()
    config = _config(monkeypatch, "false")
    hook.check_notebook_kernel(config, find_spec=lambda name: None)
