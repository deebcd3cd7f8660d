"""Print the one-page build of the book to PDF with headless Chromium.

``make pdf`` builds the book with Sphinx's ``singlehtml`` builder, then runs
this: the page is served on 127.0.0.1, opened in Debian's Chromium (nothing
off the machine is fetched), its maths (rendered when the book was built,
``_ext/prerender_maths.py``) waits for its fonts, the page is told it is
about to be printed (so the theme opens solutions, as the browser's own
print would), ``print.css`` keeps code and
figures whole on a page, and Chromium prints it. Paper cannot scroll: a
display equation wider than the printed column would be cut off, so the
printer lays the page out at the column's width, names every such equation
and exits with status 1 (the PDF is written all the same).

Usage: python scripts/print_pdf.py SINGLEHTML_DIR OUTPUT.pdf
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sitetools  # noqa: E402  (scripts/sitetools.py)

PAGE_SETUP = {
    "format": "A4",
    "print_background": True,
    "margin": {"top": "18mm", "bottom": "18mm", "left": "16mm", "right": "16mm"},
    "display_header_footer": True,
    "header_template": "<span></span>",
    "footer_template": (
        '<div style="font-size:8px;width:100%;text-align:center;color:#666">'
        '<span class="pageNumber"></span> / <span class="totalPages"></span></div>'
    ),
}


#: The printed column in CSS px: A4's 210 mm less the margins, at 96 px/in.
PRINT_WIDTH = round((210 - 16 - 16) / 25.4 * 96)


def root_page(site: Path) -> str:
    """The page a one-page build puts the book in (``index.html`` redirects)."""
    pages = [
        p for p in sitetools.html_pages(site) if not sitetools.is_redirect(site, p)
    ]
    if len(pages) != 1:
        raise SystemExit(f"expected one page in {site}, found {pages}")
    return pages[0]


def print_pdf(site: Path, output: Path) -> tuple[float, list[dict]]:
    """Write ``output``; return the seconds until the maths could be read, and
    the display equations too wide for the printed column."""
    from playwright.sync_api import sync_playwright

    output.parent.mkdir(parents=True, exist_ok=True)
    with sitetools.serve(site) as url, sync_playwright() as playwright:
        browser = sitetools.launch(playwright)
        page = browser.new_page()
        # The one-page book is large (2.4 MB of HTML, every figure): on a
        # busy 2-core machine it took 75 s to load, past Playwright's 30 s.
        page.set_default_timeout(300_000)
        page.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith(url)
                else route.abort()
            ),
        )
        page.goto(url + root_page(site), wait_until="load")
        typeset_ms = page.evaluate(sitetools.WAIT_FOR_MATHS)
        if typeset_ms is None:
            raise SystemExit("no rendered maths: the maths would print as TeX")
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        page.add_style_tag(path=HERE / "print.css")
        page.emulate_media(media="print")
        # the fonts of maths that opening the solutions showed
        page.evaluate(sitetools.WAIT_FOR_MATHS)
        page.pdf(path=str(output), **PAGE_SETUP)
        page.set_viewport_size({"width": PRINT_WIDTH, "height": 1000})
        equations = page.evaluate(sitetools.DISPLAY_EQUATIONS, False)
        browser.close()
    too_wide = [e for e in equations if e["width"] > e["room"] + 0.5]
    return typeset_ms / 1000, too_wide


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the singlehtml build folder")
    parser.add_argument("output", type=Path, help="the PDF to write")
    args = parser.parse_args()
    start = time.perf_counter()
    typeset, too_wide = print_pdf(args.site.resolve(), args.output)
    size = args.output.stat().st_size / 1e6
    print(
        f"wrote {args.output} ({size:.1f} MB) in {time.perf_counter() - start:.1f} s "
        f"(maths readable after {typeset:.1f} s)"
    )
    if too_wide:
        for equation in too_wide:
            print(
                f"cut off in the PDF: {equation['name']} "
                f"({equation['width']:.0f} px in {equation['room']} px)",
                file=sys.stderr,
            )
        raise SystemExit(1)


if __name__ == "__main__":
    main()
