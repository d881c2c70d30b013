"""Versioned site with mike: two versions and a `latest` alias in gh-pages, selector lists both.

Runs in a temporary git repository holding a copy of the working tree (tracked and untracked,
not ignored files), so uncommitted pages are deployed as they are. Nothing is pushed.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile

import pytest

from scripts.delivery.versions import deploy
from scripts.site import ROOT, serve

GIT_ENV = {"GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
           "GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
           "GIT_CONFIG_NOSYSTEM": "1"}


def git(*args, cwd, **kw):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, **kw)


@pytest.fixture(scope="module")
def deployed(tmp_path_factory, monkeypatch_module):
    repo = tmp_path_factory.mktemp("clone")
    files = git("ls-files", "-z", "-c", "-o", "--exclude-standard", cwd=ROOT).stdout
    for rel in filter(None, files.decode().split("\0")):
        if (ROOT / rel).is_file():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, repo / rel)
    # the version machinery does not need the print page
    fast = {"STACK_PRINT_SITE": "false"}
    for key, value in {**GIT_ENV, **fast}.items():
        monkeypatch_module.setenv(key, value)
    git("init", "-q", "-b", "main", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "snapshot of the working tree", cwd=repo)
    deploy("0.1", [], cwd=repo)
    deploy("0.2", ["latest"], default="latest", cwd=repo)
    site = tmp_path_factory.mktemp("gh-pages")
    archive = git("archive", "--format=tar", "gh-pages", cwd=repo).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(site, filter="tar")
    return repo, site


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def test_versions_json_lists_both_and_latest(deployed):
    _, site = deployed
    versions = json.loads((site / "versions.json").read_text(encoding="utf-8"))
    assert [v["version"] for v in versions] == ["0.2", "0.1"]
    assert versions[0]["aliases"] == ["latest"] and versions[1]["aliases"] == []
    for version in ("0.1", "0.2", "latest"):
        assert (site / version / "index.html").is_file(), version
    assert "latest/" in (site / "index.html").read_text(encoding="utf-8")  # default redirect


def test_material_version_selector_lists_both(deployed, browser):
    _, site = deployed
    with serve(site, ("/",)) as origin:
        page = browser.new_page()
        try:
            page.goto(origin + "/latest/", wait_until="networkidle")
            page.wait_for_selector(".md-version__current", state="attached", timeout=10_000)
            current = page.inner_text(".md-version__current").strip()
            items = [t.strip() for t in page.locator(".md-version__link").all_text_contents()]
        finally:
            page.close()
    assert current == "0.2"
    assert "0.1" in items and "0.2" in items, items


def test_plain_builds_have_no_version_selector(lecture_site):
    # hooks/versions.py: only mike builds fetch versions.json (else a 404 on every page)
    html = (lecture_site / "index.html").read_text(encoding="utf-8")
    assert '"provider": "mike"' not in html
    assert os.environ.get("MIKE_DOCS_VERSION") is None
