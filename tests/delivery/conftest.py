"""Delivery tests share the session's one site build (`built_site`, tests/conftest.py), one PDF."""

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
def lecture_site(site) -> Path:
    return site.site


@pytest.fixture(scope="session")
def lecture_pdf(lecture_site, tmp_path_factory, browser) -> Path:
    from build_pdf import print_pdf

    return print_pdf(lecture_site, tmp_path_factory.mktemp("pdf") / "lecture.pdf",
                     browser=browser)


@pytest.fixture(scope="session")
def pdf_text(lecture_pdf) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(lecture_pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
