"""Delivery tests share the session's one site build (`built_site`, tests/conftest.py) and one
PDF, printed to build/lecture.pdf (what CI uploads)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sitebuild import ARTIFACTS


@pytest.fixture(scope="session")
def lecture_site(site) -> Path:
    return site.site


@pytest.fixture(scope="session")
def lecture_pdf(lecture_site, browser) -> Path:
    from scripts.delivery.pdf import print_pdf

    return print_pdf(lecture_site, ARTIFACTS / "lecture.pdf", browser=browser)


@pytest.fixture(scope="session")
def pdf_text(lecture_pdf) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(lecture_pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
