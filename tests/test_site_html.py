"""The built website's HTML, read without a browser: links, numbers, maths.

Every page of the site (``POSENC_SITE``, else ``_build/html``; build it
first with ``make book``), parsed with Python's ``html.parser``: the TeX
source shows nowhere outside the maths, every formula arrives as MathML,
no page asks another host for anything, links lead to existing pages and
anchors, figures and equations are numbered (no two alike, references
showing their target's number), the bibliography lists and links the
cited works, each notebook page offers its notebook, and every frame of
every player is in the site. tests/test_site.py opens the pages in a
browser.
"""

from __future__ import annotations

import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import chapter_notebooks  # noqa: E402  (scripts/chapter_notebooks.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)
import tiers  # noqa: E402  (tests/tiers.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
ALL = sitetools.html_pages(SITE) if BUILT else ["(no site)"]
PAGES = [p for p in ALL if not BUILT or not sitetools.is_redirect(SITE, p)]
#: PAGES as parameters: the sample in make test, the rest marked every_page.
PAGE_PARAMS = tiers.sampled(PAGES, tiers.BOOK)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class Page(HTMLParser):
    """The parts of a built page the checks need: ids, links, players, maths."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.ids: set[str] = set()
        self.links: list[tuple[str, set[str]]] = []  # href, classes of the <a>
        self.resources: list[str] = []  # src/href the browser fetches itself
        self.players: list[dict] = []  # explorer name and its sliders' sizes
        self.images = 0  # <img> elements (figures, player frames)
        self.caption_numbers: dict[str, str] = {}  # figure id -> "Fig. 1.1"
        self.other_numbers: dict[str, str] = {}  # exercise id -> "Exercise 1.1"
        self.equation_numbers: dict[str, str] = {}  # equation id -> "(1.1)"
        self._open: list[tuple[str, dict]] = []
        self._number_of: tuple[dict, str] | None = None
        self.feed((SITE / path).read_text())
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = {key: value or "" for key, value in attrs}
        classes = set(attrs.get("class", "").split())
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        if tag == "a" and "href" in attrs:
            self.links.append((attrs["href"], classes))
        if tag in ("script", "img", "iframe", "source", "audio", "video"):
            self.resources.append(attrs.get("src", ""))
        if tag == "img":
            self.images += 1
        if tag == "link" and "alternate" not in attrs.get("rel", ""):
            self.resources.append(attrs.get("href", ""))
        if "posenc-player" in classes:
            self.players.append({"explorer": attrs["data-explorer"], "sizes": []})
        if "data-kind" in attrs and self.players:  # a range or a group of buttons
            self.players[-1]["sizes"].append(len(json.loads(attrs["data-labels"])))
        self._numbering(tag, attrs, classes)
        if tag not in ("img", "input", "meta", "link", "br", "hr", "source"):
            self._open.append((tag, attrs))

    def _numbering(self, tag: str, attrs: dict, classes: set[str]) -> None:
        """Note the number of the figure or equation whose label this is."""
        owner = next(((t, a) for t, a in reversed(self._open) if a.get("id")), None)
        if owner is None:
            return
        if "caption-number" in classes:
            numbers = (
                self.caption_numbers if owner[0] == "figure" else self.other_numbers
            )
            self._number_of = (numbers, owner[1]["id"])
        elif "eqno" in classes:
            self._number_of = (self.equation_numbers, owner[1]["id"])

    def handle_endtag(self, tag):
        if any(open_tag == tag for open_tag, _ in self._open):
            while self._open.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if self._number_of is not None and data.strip():
            numbers, key = self._number_of
            numbers[key] = data.strip()
            self._number_of = None


_parsed: dict[str, Page] = {}


def parsed(path: str) -> Page:
    if path not in _parsed:
        _parsed[path] = Page(path)
    return _parsed[path]


def resolve(page: str, href: str) -> tuple[str, str] | None:
    """The site page and fragment ``href`` points to; None if off the site."""
    parts = urlsplit(urljoin("http://site/" + page, href))
    if parts.scheme not in ("http", "https") or parts.netloc != "site":
        return None
    return unquote(parts.path.lstrip("/")) or "index.html", unquote(parts.fragment)


PLAYER_PAGES = [p for p in PAGES if BUILT and parsed(p).players]
PLAYER_PARAMS = tiers.sampled(PLAYER_PAGES, ("book/rope.html",))
#: Pages of the chapters (MyST Markdown notebooks, book/<name>.md).
CHAPTER_PAGES = {f"book/{path.stem}.html" for path in chapter_notebooks.chapters()}
NOTEBOOK_PAGES = [p for p in PAGES if p in CHAPTER_PAGES]


class VisibleText(HTMLParser):
    """The text of a page outside maths, code and scripts, the <title> too."""

    SKIPPED = ("script", "style", "code", "pre", "textarea")
    VOID = ("br", "img", "meta", "link", "input", "hr", "source", "wbr")

    def __init__(self, source: str) -> None:
        super().__init__()
        self.skipping: list[bool] = []
        self.parts: list[str] = []
        self.feed(source)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        self.skipping.append(tag in self.SKIPPED or "math" in classes)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.skipping:
            self.skipping.pop()

    def handle_data(self, data):
        if not any(self.skipping):
            self.parts.append(data)


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_no_tex_source_shows_outside_the_maths(site, path):
    """TeX shows only where MathJax typesets it: not in the tab's title, the
    print heading, link texts or prose (a title with maths is written as
    Unicode there: _ext/plain_titles.py)."""
    text = " ".join(VisibleText((site / path).read_text()).parts)
    commands = sorted(set(re.findall(r"\\(?:[A-Za-z]+|[(),;!\[\]])", text)))
    assert commands == []


#: Every HTML file of the site: the pages, the decks, handouts and clicker
#: pages (their own tests open them in a browser), redirects.
EVERY_FILE = (
    sorted(
        path.relative_to(SITE).as_posix()
        for path in SITE.rglob("*.html")
        if not sitetools.ASSET_DIRS & set(path.relative_to(SITE).parts)
    )
    if BUILT
    else ["(no site)"]
)
#: An element written for maths (Sphinx's, _ext/slides.py's) and what it holds.
MATHS_ELEMENT = re.compile(
    r'<(span|div) class="math(?: [^"]*)?"[^>]*>(.*?)</\1>', re.DOTALL
)
#: TeX that would need a script to typeset: MathJax's delimiters, dollars.
TEX_LEFT = re.compile(r"\\\(|\\\[|\$\$|\$\\|\$[^$\s][^$]{0,80}?\$|\\begin\{")


@pytest.mark.parametrize("path", EVERY_FILE)
def test_maths_arrives_rendered(site, path):
    """Every formula is in the file as MathML (Temml's, made when the site
    was built: _ext/prerender_maths.py), which the browser draws and a
    screen reader reads; no TeX is left in the text, outside code, for a
    script to typeset; no file loads MathJax; one with maths links the
    shared style sheet, whose fonts are in the site. A fast test: no browser."""
    text = (site / path).read_text(encoding="utf-8")
    unrendered = [
        inner[:60]
        for _, inner in MATHS_ELEMENT.findall(text)
        if not re.fullmatch(
            r"(<span class=\"eqno\">.*?</span>)?<math[ >].*</math>", inner.strip(), re.S
        )
    ]
    assert unrendered == []
    body = text[text.find("<body") :]
    visible = " ".join(VisibleText(body).parts)
    assert TEX_LEFT.findall(visible) == [], "raw TeX in the text"
    assert "mathjax" not in " ".join(re.findall(r"<script[^>]*>", text)).lower()
    if "<math" in text:
        assert "posenc-maths.css" in sitetools.page_assets(text)
    sheet = (site / "_static" / "posenc-maths.css").read_text()
    fonts = [
        u
        for u in re.findall(r'url\("?([^")]+)"?\)', sheet)
        if not u.startswith("data:")
    ]
    assert fonts and all((site / "_static" / font).is_file() for font in fonts)


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_page_asks_no_other_host_for_anything(site, path):
    """No script, style, font or picture is referenced off the site (the
    browser test above sees requests; this sees hints it may never send)."""
    foreign = [url for url in parsed(path).resources if re.match(r"^(https?:)?//", url)]
    assert foreign == []


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_links_lead_to_existing_pages_and_anchors(site, path):
    """Table of contents, next/previous, cross-references, citations."""
    broken = []
    for href, _ in parsed(path).links:
        target = resolve(path, href)
        if target is None or href.startswith(("mailto:", "javascript:")):
            continue
        page, fragment = target
        if not (site / page).is_file():
            broken.append(href)
        elif fragment and page.endswith(".html") and fragment not in parsed(page).ids:
            broken.append(href)
    assert broken == []


def test_every_page_of_the_table_of_contents_is_built(site):
    toc = [
        resolve("book/intro.html", href)[0]
        for href, classes in parsed("book/intro.html").links
        if "reference" in classes and not href.startswith(("#", "http"))
    ]
    chapters = [p for p in toc if p.startswith("book/")]
    assert len(chapters) >= 3 and all((site / p).is_file() for p in chapters)


#: A number with its chapter: "1.1" in chapter 1, "A.1" in appendix A.
CHAPTER_NUMBER = r"(?:\d+|[A-Z])(?:\.\d+)+"


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_figures_and_equations_are_numbered(site, path):
    page = parsed(path)
    for numbers, pattern in (
        (page.caption_numbers, rf"Fig\. {CHAPTER_NUMBER}"),
        (page.equation_numbers, rf"\({CHAPTER_NUMBER}\)"),
    ):
        assert all(re.fullmatch(pattern, n) for n in numbers.values()), numbers
        assert len(set(numbers.values())) == len(numbers), "a number used twice"


def test_no_two_things_on_the_site_share_a_number(site):
    """Every figure, equation, exercise and theorem is numbered with its
    chapter, so that "Fig. 1.1" or "(1.1)" names one thing on the whole site
    (an unnumbered appendix would get bare numbers, "Fig. 1", that read like
    chapter 1's; _ext/appendix_numbers.py makes them "Fig. A.1")."""
    owners: dict[str, set[tuple[str, str]]] = {}
    for path in PAGES:
        page = parsed(path)
        kinds = (page.caption_numbers, page.equation_numbers, page.other_numbers)
        for numbers in kinds:
            for node_id, number in numbers.items():
                owners.setdefault(number.rstrip(". "), set()).add((path, node_id))
    assert owners, "no numbered things found"
    bare = [n for n in owners if not re.search(CHAPTER_NUMBER, n)]
    shared = {n: places for n, places in owners.items() if len(places) > 1}
    assert bare == [] and shared == {}


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_references_show_the_number_of_their_target(site, path):
    """{numref} and {eq} links read "Fig. 1.1" / "(1.1)", the target's number."""
    source = (site / path).read_text()
    page = parsed(path)
    shown = references(source)
    numbers = page.caption_numbers | page.equation_numbers | page.other_numbers
    for target, text in shown:
        assert text.strip() == numbers[target], target


def references(source: str) -> list[tuple[str, str]]:
    """(target id, text shown) of the {numref} and {eq} links of a page."""
    numref = r'href="#([\w-]+)"><span class="std std-numref">([^<]+)<'
    equation = r'href="#(equation-[\w-]+)">([^<]+)</a>'
    return re.findall(numref, source) + re.findall(equation, source)


def test_the_book_has_numbered_figures_and_equations(site):
    figures = sum(len(parsed(p).caption_numbers) for p in NOTEBOOK_PAGES)
    equations = sum(len(parsed(p).equation_numbers) for p in NOTEBOOK_PAGES)
    shown = [r for p in NOTEBOOK_PAGES for r in references((site / p).read_text())]
    assert figures >= 2 and equations >= 3
    assert any(target.startswith("equation-") for target, _ in shown)
    assert any(text.startswith("Fig.") for _, text in shown)


def test_bibliography_lists_the_cited_works(site):
    cited = {
        fragment
        for path in PAGES
        for href, _ in parsed(path).links
        if (target := resolve(path, href)) and target[0] == "book/bibliography.html"
        for fragment in [target[1]]
        if fragment
    }
    entries = (site / "book/bibliography.html").read_text().count('class="citation"')
    assert entries >= 3 and len(cited) >= 3
    assert cited <= parsed("book/bibliography.html").ids


#: What reads as an address in an entry's text: a scheme, or a host name
#: followed by a path (``github.com/x``, ``kexue.fm/archives/8231``).
ADDRESS = re.compile(r"https?://|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/", re.I)


def test_bibliography_addresses_are_links(site):
    """Every address an entry of the bibliography shows is a link to it
    (the theme may shorten a GitHub link's text to owner/repository)."""
    source = (site / "book/bibliography.html").read_text()
    entries = re.findall(r'<div class="citation".*?</div>', source, re.S)
    assert len(entries) >= 3
    for entry in entries:
        links = re.findall(r'<a [^>]*href="(https?://[^"]+)"[^>]*>(.*?)</a>', entry)
        outside = re.sub(r"<a .*?</a>|<[^>]+>", " ", entry, flags=re.S)
        assert not ADDRESS.search(outside), outside.strip()[:160]
        assert all(text.strip() for _, text in links), entry[:160]


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_notebook_page_offers_its_notebook(site, path):
    downloads = [
        resolve(path, href)[0]
        for href, classes in parsed(path).links
        if classes & {"btn-download-source-button", "btn-download-notebook-button"}
    ]
    notebooks = [d for d in downloads if d.endswith(".ipynb")]
    assert notebooks, "no .ipynb download"
    for download in notebooks:
        notebook = json.loads((site / download).read_text())
        assert notebook["nbformat"] == 4 and notebook["cells"]
        outputs = [
            output
            for cell in notebook["cells"]
            if cell["cell_type"] == "code"
            for output in cell["outputs"]
        ]
        figures = [o for o in outputs if "image/png" in o.get("data", {})]
        # A reader who downloads a chapter gets its figures, as the page shows
        # them (an explorer as its PNG: the live widget needs a kernel).
        captioned = len(parsed(path).caption_numbers)
        assert len(figures) >= captioned, f"{download}: {len(figures)} figures"
        assert not [o for o in outputs if WIDGET_VIEW in o.get("data", {})]


@pytest.mark.parametrize("path", PLAYER_PARAMS)
def test_every_frame_of_every_player_is_in_the_site(site, path):
    for player in parsed(path).players:
        frames = site / "_static" / "explorers" / player["explorer"]
        expected = 1
        for size in player["sizes"]:
            expected *= size
        names = {p.name for p in frames.glob("*.png")}
        assert len(names) == expected, player["explorer"]
        last = "_".join(str(size - 1) for size in player["sizes"]) + ".png"
        assert last in names


def test_every_chapter_page_is_checked_as_a_chapter(site):
    """The chapter checks (numbering, downloads) run over every chapter."""
    assert len(NOTEBOOK_PAGES) == len(CHAPTER_PAGES) >= 12
