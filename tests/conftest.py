"""Fixtures shared by the browser tests (test_site, test_site_players,
test_quiz, test_slides_measured, ...)."""

from __future__ import annotations

import re
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


# ------------------------------------------------------------ the built site
# One of each per test process, for test_site and test_site_players: a
# fixture imported from one test module into another is a second instance
# there (it would load every page again).


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site (POSENC_SITE, else _build/html)."""
    site = sitetools.site_dir()
    if not (site / "index.html").exists():
        pytest.fail(f"no built site at {site}: build the book first: make book")
    return site


@pytest.fixture(scope="session")
def base_url(site):
    with sitetools.serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser(base_url, chromium):
    """The process's one Chromium, once the site is served."""
    return chromium


@pytest.fixture(scope="session")
def layouts(browser, base_url):
    """Each page laid out at each reader's size: test_site.page_layouts."""
    import test_site

    yield from test_site.page_layouts(browser, base_url)


#: Test modules whose tests of one page share its loads in Chromium (the
#: ``layouts`` fixture of test_site), and a page in a test's parameters.
PAGE_MODULES = {
    "tests/test_site.py",
    "tests/test_site_players.py",
    "tests/test_accessibility.py",
    "tests/test_site_weight.py",
}
PAGE_PARAMETER = re.compile(r"\[(book/[\w-]+\.html|index\.html)")


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` (make test), with one change: the browser tests
    of one page form one scope, whatever their module, so the page is loaded
    once per size on one worker and the pages spread over the workers.
    Every other test stays with its module (module-scoped fixtures run
    once). (``--dist loadgroup`` with marks would do this, but pytest 9.2
    ignores its groups: pytest-xdist issue 1386.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class PageScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module, _, test = nodeid.partition("::")
            page = PAGE_PARAMETER.search(test)
            if module in PAGE_MODULES and page:
                return f"page {page.group(1)}"
            return module

    return PageScheduling(config, log)
