"""A strict build in each of the three cases of hooks/repo.py (tests/site/test_repo_hook.py
checks its rules): REPO_URL set, a GitHub `origin` only, no repository. The links follow."""

from __future__ import annotations

import re

import pytest
from sitebuild import git_dir

from scripts.site import build, nav, page_url

EDIT_BRANCH_PATH = "edit/main/docs/"


# case -> (environment of the build, expected repo_url or None)
CASES = {
    "env": ({"REPO_URL": "https://github.com/fork-owner/fork-lecture"}, "fork-owner/fork-lecture"),
    "origin": ({"REPO_URL": ""}, "origin-owner/origin-lecture"),
    "none": ({"REPO_URL": ""}, None),
}
ORIGINS = {"env": "git@github.com:someone-else/other.git",  # REPO_URL wins over origin
           "origin": "git@github.com:origin-owner/origin-lecture.git", "none": None}


@pytest.fixture(scope="module", params=list(CASES))
def case_build(request, tmp_path_factory):
    env, name = CASES[request.param]
    tmp = tmp_path_factory.mktemp(f"repo-{request.param}")
    env = {**env, "GIT_DIR": git_dir(tmp / "git", ORIGINS[request.param]),
           "STACK_PRINT_SITE": "false"}
    build(tmp / "site", **env)  # strict: raises with the log if it fails
    return tmp / "site", name


def test_repository_and_edit_links_follow_the_repository(case_build):
    site, name = case_build
    for _, src in nav():
        html = (site / page_url(src) / "index.html").read_text(encoding="utf-8")
        sources = re.findall(r'<a href="([^"]*)"[^>]*class="md-source"', html)
        edits = re.findall(r'<a href="([^"]*/edit/[^"]*)"', html)
        if name is None:  # nothing outside the prose points at GitHub (the prose may cite it)
            chrome = re.sub(r'<article class="md-content__inner.*?</article>', "", html, flags=re.S)
            assert not sources and not edits and "github.com" not in chrome, src
            continue
        url = f"https://github.com/{name}"
        assert sources and set(sources) == {url}, src  # header and navigation drawer
        assert 'data-md-component="source"' not in html  # no api.github.com query
        assert re.search(rf'md-source__repository">\s*{re.escape(name)}\s*<', html), src
        assert edits == [f"{url}/{EDIT_BRANCH_PATH}{src}"], (src, edits)
        assert "someone-else" not in html
