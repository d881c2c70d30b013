"""README's library example runs as printed, and its comments state what it returns."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]


def test_readme_library_example_runs_and_its_comments_hold():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1
    scope: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)
    assert scope["output"].shape == (20, 4, 128) and scope["h_n"].shape == (3, 4, 128)
    assert scope["out"].h.shape == (3, 20, 4, 128)
    assert scope["out"].gates["f"].shape == (3, 20, 4, 128)
    assert scope["grads"].h_norm.shape == (20, 3)
    lstm, x = scope["lstm"], torch.from_numpy(scope["x"])
    assert isinstance(lstm, torch.nn.LSTM)
    with torch.no_grad():
        np.testing.assert_allclose(lstm(x)[0].numpy(), scope["output"], atol=1e-6)
