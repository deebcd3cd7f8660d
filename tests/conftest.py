"""Fixtures shared by the browser tests (test_site, test_site_players,
test_quiz, test_slides)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import sitetools  # noqa: E402


@pytest.fixture(scope="session")
def chromium():
    """One Playwright and one headless Chromium for each test process.

    Playwright's sync API runs an event loop for as long as it is open, and
    a second ``sync_playwright()`` in the same thread fails ("Sync API
    inside the asyncio loop"). pytest-xdist runs several test modules in one
    process, and a session-scoped browser of one module stays open while
    the next module runs, so every browser test takes its browser from
    here.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = sitetools.launch(playwright)
        yield browser
        browser.close()
