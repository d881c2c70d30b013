"""Shared helpers for the experiments: versions, thread control and timing."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from importlib import metadata

import numpy as np
import torch


def versions() -> dict[str, str]:
    try:
        import stacklib

        version = getattr(stacklib, "__version__", None) or metadata.version("stacklib")
    except (ImportError, metadata.PackageNotFoundError):
        version = "unknown"
    return {"numpy": np.__version__, "stacklib": version, "torch": torch.__version__}


@contextlib.contextmanager
def threads(n: int):
    """Set torch's intra-op thread count for the block, then restore it."""
    old = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def run(fn, config, body: dict) -> dict:
    """Wrap an experiment's measurements with its config, seed, versions and duration."""
    return {"name": fn, "config": dataclasses.asdict(config), "seed": config.seed,
            "versions": versions(), **body}


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
