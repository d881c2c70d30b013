"""One table of tool state dirs (scripts/toolenv.py) — the Makefile must export the same."""

from __future__ import annotations

import re

from scripts.toolenv import ROOT, defaults, tool_env


def makefile_exports() -> dict[str, str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.findall(r"^export (\w+) := (.*)$", text, flags=re.M)
    return {k: v.strip().replace("$(CURDIR)", str(ROOT)) for k, v in found}


def test_makefile_exports_the_same_values_as_the_table():
    exports = makefile_exports()
    assert exports == defaults(), "Makefile exports and scripts/toolenv.py disagree"


def test_every_state_dir_is_inside_the_project():
    for key, value in defaults().items():
        if key.endswith(("DIR", "HOME")):
            assert str(value).startswith(str(ROOT / ".cache")), key


def test_caller_values_win_and_extra_overrides():
    env = tool_env({"KERAS_HOME": "/elsewhere", "PATH": "/bin"}, MPLCONFIGDIR="/x")
    assert env["KERAS_HOME"] == "/elsewhere"
    assert env["MPLCONFIGDIR"] == "/x"
    assert env["IPYTHONDIR"] == str(ROOT / ".cache" / "ipython")
    assert env["PATH"] == "/bin"
