"""What a reader's browser pays: bytes per page on first load, time to maths.

Each page of a built site is opened in a fresh Chromium context (empty
cache) from a local server; every response is counted (body and headers) until
the network is idle after the page's maths can be read (its fonts loaded).
Two passes: text files gzip-compressed, as a static web host sends them
("transferred"), and every file as it is on disk ("uncompressed", what a
file:// reader loads).
The time to maths is when those fonts have loaded (the maths is rendered
when the book is built), in milliseconds since navigation started (first
pass). ``benchmarks/phone.py`` measures a slow phone. A measurement, not a
test: it never fails.

Run: ``python benchmarks/pages.py [SITE]`` (default: ``POSENC_SITE``, else
``_build/html``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import sitetools  # noqa: E402  (scripts/sitetools.py)


@dataclass
class PageLoad:
    page: str
    bytes: int  # transferred, text gzip-compressed
    requests: int
    typeset_ms: float | None  # None: the page has no maths
    uncompressed: int = 0  # transferred with no compression


def load_page(browser, base_url: str, page_path: str) -> PageLoad:
    """Open one page in an empty context; count what it transfers."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(base_url + page_path, wait_until="load")
    typeset = page.evaluate(sitetools.WAIT_FOR_MATHS)
    page.wait_for_load_state("networkidle")
    total = 0
    for request in finished:
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    context.close()
    return PageLoad(page_path, total, len(finished), typeset)


def measure(site: Path) -> list[PageLoad]:
    """First-load weight and time to maths of every page of ``site``."""
    from playwright.sync_api import sync_playwright

    pages = [
        p for p in sitetools.html_pages(site) if not sitetools.is_redirect(site, p)
    ]
    with sync_playwright() as playwright:
        browser = sitetools.launch(playwright)
        with sitetools.serve(site) as url:
            loads = [load_page(browser, url, page) for page in pages]
        with sitetools.serve(site, compress=False) as url:
            for load in loads:
                load.uncompressed = load_page(browser, url, load.page).bytes
        browser.close()
    return loads


def main() -> list[PageLoad]:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else sitetools.site_dir()
    loads = measure(site)
    print(f"{'page':<40} {'kB gzip':>8} {'kB raw':>8} {'requests':>9} {'maths ms':>9}")
    for load in loads:
        maths = "-" if load.typeset_ms is None else f"{load.typeset_ms:.0f}"
        print(
            f"{load.page:<40} {load.bytes / 1e3:8.0f} {load.uncompressed / 1e3:8.0f} "
            f"{load.requests:9d} {maths:>9}"
        )
    return loads


if __name__ == "__main__":
    main()
