"""Delivery tests share one site build and one PDF per session.

`lecture_site` reuses the `built_site` fixture when a conftest visible from here defines it
(tests/site/conftest.py's is only visible under tests/site/; moved to tests/conftest.py, it is
shared by both); otherwise it runs its own strict build once.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


@pytest.fixture(scope="session")
def lecture_site(request, tmp_path_factory) -> Path:
    try:
        build = request.getfixturevalue("built_site")
    except pytest.FixtureLookupError:
        build = None
    if build is not None:
        if build.returncode != 0:
            pytest.fail(f"mkdocs build --strict failed:\n{build.output[-4000:]}")
        return build.site
    from _sitelib import build_site

    site = tmp_path_factory.mktemp("delivery-site")
    build_site(site)
    return site


@pytest.fixture(scope="session")
def lecture_pdf(lecture_site, tmp_path_factory, browser) -> Path:
    from build_pdf import print_pdf

    return print_pdf(lecture_site, tmp_path_factory.mktemp("pdf") / "lecture.pdf",
                     browser=browser)


@pytest.fixture(scope="session")
def pdf_text(lecture_pdf) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(lecture_pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
