"""hooks/repo.py's rules: REPO_URL, else a GitHub `origin`, else no repository (a strict build
of each case: tests/delivery/test_repo_links.py)."""

from __future__ import annotations

import importlib
import os

import pytest
from sitebuild import git_dir

repo = importlib.import_module("hooks.repo")  # MkDocs loads the same file by path


@pytest.mark.parametrize(("url", "expected"), [
    ("https://github.com/o/n", ("https://github.com/o/n", "o/n")),
    ("https://github.com/o-1/n.x.git", ("https://github.com/o-1/n.x", "o-1/n.x")),
    ("https://ghe.example.org/team/lecture/", ("https://ghe.example.org/team/lecture",
                                               "team/lecture")),
])
def test_repo_url_is_parsed(url, expected):
    assert repo.parse_repo_url(url) == expected


@pytest.mark.parametrize("url", ["github.com/o/n", "https://github.com/o", "http://github.com/o/n",
                                 "https://github.com/o/n/tree/main", "not a url"])
def test_a_repo_url_that_names_no_repository_is_refused(url):
    with pytest.raises(ValueError, match="REPO_URL"):
        repo.parse_repo_url(url)


@pytest.mark.parametrize(("remote", "expected"), [
    ("https://github.com/o/n.git", "o/n"),
    ("https://token@github.com/o/n", "o/n"),
    ("git@github.com:o/n.git", "o/n"),
    ("ssh://git@github.com/o/n", "o/n"),
    ("https://gitlab.com/o/n.git", None),
    ("/srv/git/lecture.git", None),
    ("../lecture", None),
])
def test_only_a_github_origin_names_the_repository(remote, expected):
    found = repo.github_remote(remote)
    assert (found and found[1]) == expected
    if found:
        assert found[0] == f"https://github.com/{expected}"


def test_repository_order_of_precedence(tmp_path):
    base = {**os.environ, "REPO_URL": ""}
    with_origin = {**base, "GIT_DIR": git_dir(tmp_path / "a", "https://github.com/o/orig.git")}
    assert repo.repository(with_origin, tmp_path)[1] == "o/orig"
    from_env = {**with_origin, "REPO_URL": "https://github.com/o/from-env"}
    assert repo.repository(from_env, tmp_path)[1] == "o/from-env"
    assert repo.repository({**base, "GIT_DIR": git_dir(tmp_path / "b", None)}, tmp_path) is None
    assert repo.repository({**base, "GIT_DIR": str(tmp_path / "missing")}, tmp_path) is None
