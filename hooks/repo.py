"""MkDocs hook: the repository the site links to (header link, every page's edit link).

A fork publishes links to itself, and a build that knows no repository shows none rather than
links to one that does not exist. The repository is, in order:

1. ``REPO_URL`` from the environment, ``https://HOST/OWNER/NAME`` (the deploy workflow sets it
   from the GitHub context of the repository that runs it);
2. else the checkout's git remote ``origin``, when it is a GitHub URL (https or ssh);
3. else none: ``repo_url``, ``repo_name`` and ``edit_uri`` are cleared, so Material draws no
   repository link and no edit button.

``repo_name`` is ``OWNER/NAME``; ``edit_uri`` stays mkdocs.yml's (the branch deploys publish).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import mkdocs.plugins

_REPO_URL = re.compile(r"^https://(?P<host>[\w.-]+(?::\d+)?)/(?P<owner>[\w.-]+)/(?P<name>[\w.-]+?)"
                       r"(?:\.git)?/?$")
_GITHUB_REMOTE = re.compile(r"^(?:https://(?:[^@/]+@)?github\.com/|ssh://git@github\.com/"
                            r"|git@github\.com:)(?P<owner>[\w.-]+)/(?P<name>[\w.-]+?)(?:\.git)?/?$")


def parse_repo_url(url: str) -> tuple[str, str]:
    """REPO_URL -> (canonical URL, OWNER/NAME); ValueError for anything but a repository URL."""
    m = _REPO_URL.match(url.strip())
    if not m:
        raise ValueError(f"REPO_URL must be a repository URL such as "
                         f"https://github.com/OWNER/NAME, got {url!r}")
    name = f"{m['owner']}/{m['name']}"
    return f"https://{m['host']}/{name}", name


def github_remote(url: str) -> tuple[str, str] | None:
    """A git remote URL on GitHub -> (https URL, OWNER/NAME); any other remote -> None."""
    m = _GITHUB_REMOTE.match(url.strip())
    if not m:
        return None
    name = f"{m['owner']}/{m['name']}"
    return f"https://github.com/{name}", name


def origin_url(cwd: Path, environ: dict[str, str]) -> str | None:
    """`git remote get-url origin` in `cwd` (environment `environ`), or None: no git, no
    repository, no origin."""
    try:
        proc = subprocess.run(["git", "remote", "get-url", "origin"], cwd=cwd, env=environ,
                              capture_output=True, text=True, timeout=30, check=False)
    except FileNotFoundError:
        return None
    url = proc.stdout.strip() if proc.returncode == 0 else ""
    return url or None


def repository(environ: dict[str, str], cwd: Path) -> tuple[str, str] | None:
    """(repo_url, repo_name) from REPO_URL, else from a GitHub `origin`, else None."""
    if environ.get("REPO_URL", "").strip():
        return parse_repo_url(environ["REPO_URL"])
    origin = origin_url(cwd, environ)
    return github_remote(origin) if origin else None


# Before every plugin's on_config: print-site makes its page (and that page's edit link) there.
@mkdocs.plugins.event_priority(100)
def on_config(config):
    found = repository(dict(os.environ), Path(config.config_file_path).resolve().parent)
    if found is None:
        config.repo_url = config.repo_name = config.edit_uri = None
    else:
        config.repo_url, config.repo_name = found
    return config
