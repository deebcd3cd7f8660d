"""The teaching kit out of a built site: standalone slides, printed handouts.

The site build writes the decks (``slides/<name>.html``) and the handout
pages (``handouts/<name>.html``) from the chapters (``_ext/slides.py``).

``slides SITE OUT``: copies the decks with everything they load (reveal.js,
the maths' style sheet and fonts, the player, the figures and frames they
show) into ``OUT``, with an ``index.html`` listing them: a folder to put
on a USB stick, opened from disk or from any static host, with no network.

``handouts SITE OUT``: prints each handout page to ``OUT/<name>.pdf`` (A4,
or US Letter with ``--paper letter``) with headless Chromium, once the
fonts of its maths (rendered when the site was built) have loaded, and
fails if one runs past two pages. The handouts are the chapters' and the
90-minute session's (``handouts/session_90.html``, ``_ext/session_handout.py``).

Usage: python scripts/teaching.py {slides,handouts} SITE OUT [--paper letter]
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import sitetools  # noqa: E402  (scripts/sitetools.py)

#: The most pages a handout may have.
MAX_PAGES = 2
#: The paper sizes a handout prints on, by their name on the command line.
PAPERS = {"a4": "A4", "letter": "Letter"}
PAGE_SETUP = {
    "format": "A4",
    "print_background": True,
    "margin": {"top": "14mm", "bottom": "14mm", "left": "16mm", "right": "16mm"},
}
#: What every deck loads from _static (the rest: its figures and frames).
DECK_STATIC = [
    "revealjs",
    "posenc-maths.css",
    "maths-font",
    "posenc-player.js",
    "posenc-player.css",
    "posenc-slides.css",
    "favicon.svg",
]


def decks(site: Path) -> list[Path]:
    found = sorted((site / "slides").glob("*.html"))
    if not found:
        raise SystemExit(f"no decks in {site}/slides: build the book first")
    return found


def copy_slides(site: Path, out: Path) -> list[Path]:
    if out.exists():
        shutil.rmtree(out)
    (out / "slides").mkdir(parents=True)
    for name in DECK_STATIC:
        source = site / "_static" / name
        if source.is_dir():
            shutil.copytree(source, out / "_static" / name)
        else:
            (out / "_static").mkdir(exist_ok=True)
            shutil.copy2(source, out / "_static" / name)
    items = []
    for deck in decks(site):
        text = deck.read_text(encoding="utf-8")
        shutil.copy2(deck, out / "slides" / deck.name)
        for image in set(re.findall(r'src="\.\./(_images/[^"]+)"', text)):
            (out / image).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(site / image, out / image)
        for explorer in set(re.findall(r'data-explorer="(\w+)"', text)):
            frames = site / "_static" / "explorers" / explorer
            if frames.is_dir():
                shutil.copytree(
                    frames, out / "_static" / "explorers" / explorer, dirs_exist_ok=True
                )
        title = re.search(r"<title>(.*?) \(slides\)</title>", text)
        items.append(
            f'<li><a href="slides/{deck.name}">'
            f"{title.group(1) if title else html.escape(deck.stem)}</a></li>"
        )
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>Slides: Why Sines?</title>"
        '<link rel="icon" href="_static/favicon.svg"></head>'
        '<body style="font: 20px sans-serif; max-width: 40em; margin: 2em auto">'
        "<h1>Slides</h1><p>One deck per chapter. In a deck: the arrow keys "
        "or space move, Esc shows every slide, S opens the speaker notes, "
        "F is full screen.</p>"
        f"<ul>{''.join(items)}</ul></body></html>\n",
        encoding="utf-8",
    )
    return decks(out)


def pdf_pages(path: Path) -> int:
    """Pages of a PDF that Chromium wrote (its page objects are plain)."""
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


def print_handouts(
    site: Path, out: Path, paper: str = "a4", only: str = "*"
) -> dict[str, int]:
    """Print the handouts named ``only`` (a glob) on ``paper`` (one of
    :data:`PAPERS`); return each one's number of pages."""
    from playwright.sync_api import sync_playwright

    pages = sorted((site / "handouts").glob(f"{only}.html"))
    if not pages:
        raise SystemExit(f"no handouts in {site}/handouts: build the book first")
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    with sitetools.serve(site) as url, sync_playwright() as playwright:
        browser = sitetools.launch(playwright)
        page = browser.new_page()
        page.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith(url)
                else route.abort()
            ),
        )
        for handout in pages:
            target = out / f"{handout.stem}.pdf"
            counts[handout.stem] = print_one(page, url, handout.name, target, paper)
        browser.close()
    return counts


def print_one(page, url: str, name: str, target: Path, paper: str = "a4") -> int:
    """Print ``handouts/<name>`` of the site served at ``url`` with the
    Playwright ``page`` to ``target`` on ``paper``; return its pages."""
    page.emulate_media(media="screen")
    page.goto(f"{url}handouts/{name}", wait_until="load")
    if page.evaluate(sitetools.WAIT_FOR_MATHS) is None:
        raise SystemExit(f"{name}: no rendered maths")
    page.emulate_media(media="print")
    page.pdf(path=str(target), **{**PAGE_SETUP, "format": PAPERS[paper]})
    return pdf_pages(target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["slides", "handouts"])
    parser.add_argument("site", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4")
    args = parser.parse_args()
    if args.what == "slides":
        written = copy_slides(args.site.resolve(), args.out)
        print(f"{len(written)} decks in {args.out}; open {args.out}/index.html")
        return
    counts = print_handouts(args.site.resolve(), args.out, args.paper)
    for name, pages in counts.items():
        print(f"{args.out}/{name}.pdf: {pages} page(s)")
    long = {name: n for name, n in counts.items() if not 1 <= n <= MAX_PAGES}
    if long:
        raise SystemExit(f"handouts past {MAX_PAGES} pages: {long}")


if __name__ == "__main__":
    main()
