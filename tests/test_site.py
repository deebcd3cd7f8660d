"""The built website, in a real browser: offline, clean, typeset, navigable.

The site (``POSENC_SITE``, else ``_build/html``; build it first with
``make book``) is served on 127.0.0.1 from a thread and opened in Debian's
Chromium through Playwright. Every request to any other host is blocked and
counted. For every page: nothing leaves the machine, the console stays free
of errors, all the maths arrives rendered (no raw TeX is left), and every
image loads. On pages with a static player, moving each slider loads its new
frame; with JavaScript off the figures are still there. Links (the table of
contents, next/previous, cross-references, citations) lead to existing pages
and anchors (tests/test_site_html.py, without a browser); search finds a
word; "next" walks through the whole book.

With ``POSENC_SCREENSHOTS=<folder>`` set (``make site-test
POSENC_SCREENSHOTS=...``), a full-page screenshot of every page (and of each
player before and after a slider moves, without JavaScript and in dark mode)
is written there, for a person to look at; ``make test`` takes none (they
cost a third of the browser tests' time).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import axe  # noqa: E402  (tests/axe.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)
import test_quiz  # noqa: E402  (its checks of a page's questions)

# the site and its pages, the sample in make test (tests/test_site_html.py)
from test_site_html import ALL, BUILT, PAGE_PARAMS, PAGES, SITE, resolve  # noqa: E402

SHOTS = os.environ.get("POSENC_SCREENSHOTS")
SCREENSHOTS = Path(SHOTS) if SHOTS else None
REDIRECTS = [p for p in ALL if BUILT and sitetools.is_redirect(SITE, p)]
VIEWPORT = {"width": 1280, "height": 900}
RAW_TEX = ("\\(", "\\)", "\\[", "\\]", "$$", "\\begin{")

# ------------------------------------------------------------ in the page

#: JavaScript: snippets of raw TeX left in the text (code and rendered maths
#: excluded). Hidden text counts too (closed dropdowns).
FIND_RAW_TEX = r"""marks => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll("pre, code, script, style, textarea, noscript, math")
    .forEach(e => e.remove());
  const text = copy.textContent;
  return marks.filter(m => text.includes(m)).map(m => {
    const i = text.indexOf(m);
    return text.slice(Math.max(0, i - 40), i + 40).replace(/\s+/g, " ");
  });
}"""

#: JavaScript: wait for every image, then list those that did not load.
BROKEN_IMAGES = """async () => {
  const images = [...document.images];
  images.forEach(img => { img.loading = "eager"; });
  await Promise.all(images.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener("load", done); img.addEventListener("error", done);
  })));
  return images.filter(img => !(img.complete && img.naturalWidth > 0))
    .map(img => (img.currentSrc || img.getAttribute("src") || "").slice(0, 120));
}"""

#: JavaScript: the contrast ratio (WCAG) of an element's text on what is
#: behind it; a text made translucent (its colour's alpha, the opacity of
#: the element and of its parents up to the background) is blended first.
CONTRAST = """element => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let back = element, alpha = 1;
  while (back && rgb(getComputedStyle(back).backgroundColor)[3] === 0) {
    alpha *= Number(getComputedStyle(back).opacity);
    back = back.parentElement;
  }
  const bg = back ? rgb(getComputedStyle(back).backgroundColor) : [255, 255, 255];
  const [r, g, b, a = 1] = rgb(getComputedStyle(element).color);
  const k = alpha * a;
  const fg = [r, g, b].map((v, i) => k * v + (1 - k) * bg[i]);
  const [x, y] = [lum(fg), lum(bg)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""


#: The parts of a figure caption, each with its own colour: number, text,
#: maths, and the values a player shows.
CAPTION_PARTS = (
    "figcaption",
    "figcaption .caption-number",
    "figcaption .caption-text",
    "figcaption math",
    "figcaption .posenc-caption-values",
)
#: JavaScript: the first caption's colour, and the contrast of each part of
#: each caption, with the page in the theme's mode ``scheme`` (set as the
#: theme's button sets it).
CAPTIONS = f"""([scheme, parts]) => {{
  document.documentElement.dataset.theme = scheme;
  const first = document.querySelector("figcaption");
  return [
    first ? getComputedStyle(first).color : null,
    parts.flatMap(part => [...document.querySelectorAll(part)]
      .map(element => [part, ({CONTRAST})(element)])),
  ];
}}"""


def screenshot(target, page: str, suffix: str = "", **options) -> None:
    """Save a screenshot of ``target`` (a page or an element) if asked for."""
    if SCREENSHOTS is None:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = page.removesuffix(".html").replace("/", "__") + suffix + ".png"
    target.screenshot(path=SCREENSHOTS / name, **options)


# ------------------------------------------------------------ fixtures


# site, base_url, browser and layouts are in tests/conftest.py: one of each
# per test process, shared with test_site_players (a fixture imported into a
# second module would be a second instance there, and load every page again).


@dataclass
class Visit:
    """What one page did when loaded with JavaScript on."""

    outside: list[str] = field(default_factory=list)  # requests to other hosts
    errors: list[str] = field(default_factory=list)  # console errors, exceptions
    has_maths: bool = False
    typeset_ms: float | None = None
    raw_tex: list[str] = field(default_factory=list)
    broken_images: list[str] = field(default_factory=list)
    #: In each of the theme's modes: the colour of the first caption, and
    #: (part, contrast) for each part of each figure caption (CAPTIONS).
    captions: dict[str, tuple[str, list]] = field(default_factory=dict)
    #: "Check your understanding" pressed as tests/test_quiz.py says: None
    #: (no questions), "" (all gave the right feedback) or the failure.
    quiz: str | None = None
    #: Every file the page asked for, and those it had loaded when the
    #: network was idle, before any dropdown opened (test_site_weight.py).
    requested: list[str] = field(default_factory=list)
    loaded: list[str] = field(default_factory=list)
    #: Fonts preloaded and not drawn (sitetools.UNUSED_FONT_PRELOADS).
    unused_fonts: list[str] = field(default_factory=list)


def open_page(browser, base_url: str, visit: Visit, **context_options):
    """A new page whose requests off 127.0.0.1 are blocked into ``visit``."""
    context = browser.new_context(**({"viewport": VIEWPORT} | context_options))

    def route(request_route) -> None:
        url = request_route.request.url
        if url.startswith(base_url):
            request_route.continue_()
        else:
            visit.outside.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("websocket", lambda socket: visit.outside.append(socket.url))
    page.on(
        "console",
        lambda message: message.type == "error" and visit.errors.append(message.text),
    )
    page.on("pageerror", lambda error: visit.errors.append(str(error)))
    page.on("requestfinished", lambda request: visit.requested.append(request.url))
    return page


def load(page, url: str) -> None:
    """Open ``url``, and wait for the scripts it runs after its load."""
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, f"{url}: HTTP error"
    page.evaluate(sitetools.WAIT_FOR_SCRIPTS)


@pytest.fixture(scope="session")
def visits(layouts):
    """Each page loaded once (JavaScript on), checked, and photographed: the
    load that lays it out on a desktop (one load fewer per page)."""

    def visit(path: str) -> Visit:
        return layouts.visit(path)

    return visit


# ------------------------------------------------------------ every page


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_no_request_leaves_the_machine(visits, path):
    visit = visits(path)
    assert visit.outside == [], f"requests off the machine: {visit.outside}"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_console_has_no_errors(visits, path):
    assert visits(path).errors == []


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_maths_is_typeset(visits, path):
    visit = visits(path)
    if visit.has_maths:
        assert visit.typeset_ms is not None, "no rendered maths"
    assert visit.raw_tex == [], "raw TeX left in the text"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_images_load(visits, path):
    assert visits(path).broken_images == []


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_preloaded_fonts_are_drawn(visits, path):
    """Every font the page preloads (the maths', the header's icons:
    _ext/prerender_maths.py, _ext/page_weight.py) is drawn on it."""
    assert visits(path).unused_fonts == []


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_captions_read_well_in_both_modes(visits, path):
    """Every part of every figure caption has a contrast of at least 4.5
    (WCAG AA) on what is behind it, in the theme's light and dark modes (the
    page switched between them as the theme's button does)."""
    captions = visits(path).captions
    if captions["light"][0] is None:
        return  # no figure
    assert captions["light"][0] != captions["dark"][0], "dark mode changed nothing"
    low = [
        (scheme, part, round(ratio, 2))
        for scheme, (_, parts) in captions.items()
        for part, ratio in parts
        if ratio < 4.5
    ]
    assert low == []


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_questions_give_feedback(visits, path):
    """Every question of the page, in the load of its desktop layout: a
    wrong option says "Not quite" and why, the right one "Right" and why,
    and the keyboard alone answers one (tests/test_quiz.py's checks; that
    module checks the student edition and the questions' sources)."""
    visit = visits(path)
    if visit.quiz is not None:
        assert visit.quiz == ""
    chapter = path.removeprefix("book/").removesuffix(".html")
    if chapter in {p.stem for p in test_quiz.CHAPTERS}:
        assert visit.quiz is not None, "a chapter without its questions"


@pytest.mark.parametrize("path", REDIRECTS)
def test_redirect_leads_to_a_page(browser, base_url, path):
    visit = Visit()
    page = open_page(browser, base_url, visit)
    page.goto(base_url + path)
    page.wait_for_url(lambda url: not url.endswith(path), timeout=10_000)
    landed = urlsplit(page.url).path.lstrip("/")
    assert landed in PAGES and page.locator("article h1").count() == 1
    assert visit.outside == [] and visit.errors == []
    page.context.close()


# ------------------------------------------------------------ at every size

#: The sizes a reader brings (Playwright context options): a desktop, a phone,
#: and a projector (1024 x 768 at 125 %, so 819 x 614 CSS px).
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "color_scheme": "dark",  # a phone at night (the theme follows it)
    },
    # measured in the desktop's load, resized (LOADED_IN)
    "projector": {"viewport": {"width": 819, "height": 614}},
    # a desktop window as narrow as a phone (the desktop's load, resized)
    "narrow": {"viewport": {"width": 390, "height": 844}},
}

#: JavaScript: the page's width in CSS px, the width it scrolls over, and the
#: zoom (a phone zooms out of a page wider than itself).
PAGE_WIDTH = """() => ({
  inner: innerWidth,
  scroll: document.documentElement.scrollWidth,
  zoom: visualViewport.scale,
})"""


#: JavaScript: every inline formula (span.math) wider than its box, after
#: the display equations' call opened the dropdowns: its start, the width of
#: its typeset maths, the box's width, whether the box scrolls over all of
#: it, the height of the scrollbar it draws, and whether it is faded.
WIDE_INLINE_MATHS = """() => [...document.querySelectorAll("span.math")]
.flatMap(box => {
  const maths = box.querySelector("math");
  if (!maths) return [];
  const style = getComputedStyle(box);
  // the formula's width: its parts' (Temml's inline <math> wraps as a flex
  // box, so its own box is cut to the span's)
  const parts = [...maths.children].map(c => c.getBoundingClientRect());
  const width = parts.length
    ? Math.max(...parts.map(r => r.right)) - Math.min(...parts.map(r => r.left))
    : 0;
  if (width <= box.clientWidth + 0.5) return [];
  return [{
    name: box.textContent.trim().slice(0, 40),
    heading: Boolean(box.closest("h1, h2, h3, h4")),
    width: width,
    room: box.clientWidth,
    scrolls: ["auto", "scroll"].includes(style.overflowX)
      && box.scrollWidth + 1 >= width,
    scrollbar: box.offsetHeight - box.clientHeight,
    faded: (style.maskImage || style.webkitMaskImage || "none") !== "none",
  }];
})"""


#: JavaScript: every table wider than its box: its first header cell, its
#: width and number of columns, the box's width, whether the box scrolls
#: over all of it, and whether it is faded at its right edge.
WIDE_TABLES = """() => [...document.querySelectorAll(".bd-article table")]
.flatMap(table => {
  const box = table.parentElement;
  const style = getComputedStyle(box);
  const width = table.getBoundingClientRect().width;
  if (width <= box.clientWidth + 0.5) return [];
  return [{
    name: (table.querySelector("th, td") || table).textContent.trim(),
    columns: Math.max(...[...table.rows].map(row => row.cells.length)),
    width: width,
    room: box.clientWidth,
    scrolls: ["auto", "scroll"].includes(style.overflowX)
      && box.scrollWidth + 1 >= width,
    faded: (style.maskImage || style.webkitMaskImage || "none") !== "none",
  }];
})"""


#: JavaScript: each shown image of the article: its source, its natural and
#: shown widths (CSS px), its shown aspect ratio over its natural one, the
#: box that cuts it sideways if one does (a parent whose overflow is not
#: visible, narrower than the image), whether it is a static figure (not a
#: player's frame) and the address its link leads to.
IMAGES = """() => [...document.querySelectorAll("article img")]
  .filter(img => img.naturalWidth > 0 && img.offsetWidth > 0)
  .map(img => {
    const box = img.getBoundingClientRect();
    let cut = null;
    for (let e = img.parentElement; e && !cut; e = e.parentElement) {
      if (getComputedStyle(e).overflowX === "visible") continue;
      const outer = e.getBoundingClientRect();
      if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5) {
        cut = e.tagName + "." + [...e.classList].join(".");
      }
    }
    return {
      src: img.currentSrc || img.src,
      natural: img.naturalWidth,
      shown: box.width,
      aspect: (img.offsetWidth / img.offsetHeight)
        / (img.naturalWidth / img.naturalHeight),
      cut: cut,
      static: !!img.closest("figure") && !img.closest(".posenc-explorer"),
      link: img.closest("a") ? img.closest("a").href : null,
    };
  })"""


@dataclass
class Layout:
    """How one page is laid out at one size (dropdowns opened)."""

    equations: list[dict]
    width: dict
    inline: list[dict] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    theme: str = ""  # the theme's mode (light or dark)
    images: list[dict] = field(default_factory=list)  # IMAGES, once loaded
    #: axe's violations (tests/axe.py: WCAG 2.1 A and AA, formulas without
    #: MathML), dropdowns opened: in light mode on a desktop, in dark mode
    #: on a phone (tests/test_accessibility.py reads them)
    axe: list[str] = field(default_factory=list)


#: The load each size is measured in (a page load costs 2 to 5 s of
#: Chromium, mostly MathJax). The projector, 1024 x 768 at 125 %, is a
#: viewport of 819 x 614 CSS px: the desktop's load, resized, lays out as a
#: fresh load at that width. It has a pixel ratio of 1, not 1.25: MathJax
#: sizes its maths from the ex-height of the text in device pixels, and
#: makes it about 3 % wider at 1 than at 1.25 (342.8 against 333.2 px for
#: equation 5.1), so each check of width is the stricter one here. A phone
#: is a load of its own: a mobile context draws overlay scrollbars and
#: zooms out of a page wider than itself.
LOADED_IN = {
    "desktop": "desktop",
    "phone": "phone",
    "projector": "desktop",
    "narrow": "desktop",
}


def measure(page) -> Layout:
    """The layout of ``page`` at its present size, dropdowns opened."""
    page.evaluate(BROKEN_IMAGES)  # which waits until every image has loaded
    return Layout(
        page.evaluate(sitetools.DISPLAY_EQUATIONS, True),
        page.evaluate(PAGE_WIDTH),
        page.evaluate(WIDE_INLINE_MATHS),
        page.evaluate(WIDE_TABLES),
        page.evaluate("document.documentElement.dataset.theme"),
        page.evaluate(IMAGES),
    )


def page_layouts(browser, base_url):
    """The ``layouts`` fixture (tests/conftest.py): each page laid out at a
    reader's size, in a browser that draws its scrollbars as a reader's does
    (Playwright's headless default hides them). ``layouts(path, size)``
    loads the page at most once for each load of LOADED_IN."""
    chromium = sitetools.launch(browser.browser_type, scrollbars=True)
    done: dict[tuple[str, str], Layout] = {}
    visited: dict[str, Visit] = {}

    def layout(path: str, size: str) -> Layout:
        if (path, size) in done:
            return done[path, size]
        loaded = LOADED_IN[size]
        record = Visit()
        page = open_page(chromium, base_url, record, **SIZES[loaded])
        load(page, base_url + path)
        typeset_ms = page.evaluate(sitetools.WAIT_FOR_MATHS)
        # the page as it stays: every section laid out, boxes that scroll
        # marked and tab stops (sitetools.WAIT_FOR_SECTIONS)
        page.evaluate(sitetools.WAIT_FOR_SECTIONS)
        if loaded == "desktop":
            # the page as a reader first sees it, before dropdowns open
            visited[path] = record
            record.has_maths = page.locator(".math").count() > 0
            record.typeset_ms = typeset_ms
            record.raw_tex = page.evaluate(FIND_RAW_TEX, list(RAW_TEX))
            record.broken_images = page.evaluate(BROKEN_IMAGES)
            record.unused_fonts = page.evaluate(sitetools.UNUSED_FONT_PRELOADS)
            theme = page.evaluate("document.documentElement.dataset.theme")
            for scheme in ("dark", "light"):
                record.captions[scheme] = page.evaluate(
                    CAPTIONS, [scheme, list(CAPTION_PARTS)]
                )
            assert theme == "light"  # as the reader's system: back to it
            page.wait_for_load_state("networkidle")
            record.loaded = list(record.requested)
            screenshot(page, path, full_page=True)
        done[path, loaded] = measure(page)
        done[path, loaded].axe = axe.audit(page)
        if loaded == "desktop":
            for resized in ("projector", "narrow"):
                page.set_viewport_size(SIZES[resized]["viewport"])
                done[path, resized] = measure(page)
            page.set_viewport_size(SIZES["desktop"]["viewport"])
            if page.locator(".posenc-quiz").count():
                # the questions, answered last (it changes the page)
                try:
                    test_quiz.check_unanswered(page)
                    test_quiz.check_keyboard(page)
                    test_quiz.check_feedback(page)
                    record.quiz = ""
                except AssertionError as error:
                    record.quiz = f"{error!r}"
        page.context.close()
        return done[path, size]

    def visit(path: str) -> Visit:
        layout(path, "desktop")
        return visited[path]

    layout.visit = visit
    yield layout
    chromium.close()


def fits(equation: dict) -> bool:
    return equation["width"] <= equation["room"] + 0.5


def described(equations: list[dict]) -> str:
    """Each equation by its number (or its TeX), with its width and room."""
    return "; ".join(
        f"{e['name']}: {e['width']:.0f} px in {e['room']} px "
        f"(scrolls: {e['scrolls']}, scrollbar {e['scrollbar']:g} px, "
        f"faded: {e['faded']})"
        for e in equations
    )


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_display_equations_fit_the_column_on_a_desktop(layouts, path):
    """At 1280 px every display equation fits its column, with no scrolling:
    a long one is broken over lines."""
    wide = [e for e in layouts(path, "desktop").equations if not fits(e)]
    assert wide == [], described(wide)


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_display_equations_are_not_clipped_on_a_phone(layouts, path):
    """At 390 px an equation wider than the column scrolls, and shows that it
    does: a phone draws its own scrollbars only while one scrolls, so the
    book draws one, and fades the equation out where it continues (for a
    browser that draws no styled scrollbar): _ext/static/posenc-widths.css."""
    clipped = [
        e
        for e in layouts(path, "phone").equations
        if not fits(e) and not (e["scrolls"] and e["scrollbar"] >= 3 and e["faded"])
    ]
    assert clipped == [], described(clipped)


@pytest.mark.parametrize("size", ["phone", "projector"])
@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_inline_formulas_are_not_clipped(layouts, path, size):
    """An inline formula wider than the column scrolls, with a scrollbar and
    faded edges as a display equation's: the theme cut it off at the column's
    edge (span.math: overflow hidden), some fifty of them on a phone, one at
    819 px (_ext/static/posenc-widths.css)."""
    clipped = [
        e
        for e in layouts(path, size).inline
        if not (e["scrolls"] and e["scrollbar"] >= 3 and e["faded"])
    ]
    assert clipped == [], described(clipped)
    # a title's formula fits: a title that scrolls reads badly
    titles = [e for e in layouts(path, size).inline if e["heading"]]
    assert titles == [], described(titles)


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_tables_fit_or_show_that_they_scroll_on_a_phone(layouts, path):
    """At 390 px a table of two columns (the notation: a symbol and its
    meaning) fits the column, each row a block; a wider table scrolls and
    fades out at the edge it continues past, on every row, since its
    scrollbar is at its foot, often a screen below (posenc-widths.css). The
    notation table was 613 px wide in 358, its scrollbar 7 screens down."""
    tables = layouts(path, "phone").tables
    bad = [t for t in tables if t["columns"] <= 2 or not (t["scrolls"] and t["faded"])]
    assert bad == [], bad


def test_the_theme_follows_the_readers_system(layouts):
    """Dark on a phone set to dark mode, light on a desktop set to light."""
    assert layouts("book/intro.html", "phone").theme == "dark"
    assert layouts("book/intro.html", "desktop").theme == "light"


@pytest.mark.parametrize("path", PAGE_PARAMS)
def test_no_page_scrolls_sideways_on_a_phone(layouts, path):
    """Nothing makes a page wider than a phone's 390 px (which would also
    make the phone zoom out of the page)."""
    width = layouts(path, "phone").width
    assert width == {"inner": 390, "scroll": 390, "zoom": 1}


def test_previous_and_next_links_are_not_squeezed_on_a_phone(browser, base_url):
    """At 390 px the links to the previous and next chapters each have a line
    of their own (the theme gave each at most 45 % of one: chapter 9's long
    title stood in a column 100 px wide, seven lines high). The test page is
    the chapter before it."""
    page = open_page(browser, base_url, Visit(), **SIZES["phone"])
    load(page, base_url + "book/shift_is_rotation.html")
    widths = page.evaluate(
        """() => [...document.querySelectorAll(".prev-next-area a")].map(
          link => link.getBoundingClientRect().width
            / link.parentElement.getBoundingClientRect().width)"""
    )
    page.context.close()
    assert len(widths) == 2 and min(widths) > 0.9, widths


#: Equations shown whole at every size, with no scrolling: the cross term
#: p_m^T H p_n of the Taylor expansion is the point of its chapter.
WHOLE_AT_EVERY_SIZE = [("book/taylor_expansion.html", "equation-eq-taylor")]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("path", "label"), WHOLE_AT_EVERY_SIZE)
def test_key_equations_show_whole_at_every_size(layouts, path, label, size):
    [equation] = [e for e in layouts(path, size).equations if e["id"] == label]
    assert fits(equation), described([equation])


# ------------------------------------------------------------ navigating


def test_next_links_walk_through_the_whole_book(browser, base_url, site):
    """Clicking "next" from the first page visits the table of contents in
    order, and each page's "previous" link points to the page before.

    Only the pages themselves load (no scripts, styles or pictures: the other
    tests check those), which keeps the walk fast.
    """
    context = browser.new_context(viewport=VIEWPORT, java_script_enabled=False)
    outside: list[str] = []

    def route(request_route) -> None:
        request = request_route.request
        if not request.url.startswith(base_url):
            outside.append(request.url)
        if request.resource_type == "document" and request.url.startswith(base_url):
            request_route.continue_()
        else:
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    load(page, base_url + "book/intro.html")

    def path_of(link) -> str:
        return urlsplit(urljoin(page.url, link.get_attribute("href"))).path

    toc = [path_of(a) for a in page.locator("nav.bd-docs-nav a.reference").all()]
    walked = [urlsplit(page.url).path]
    while page.locator("a.right-next").count():
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.locator("a.right-next").first.click()
        walked.append(urlsplit(page.url).path)
        assert page.locator("article h1").count() == 1, page.url
        assert path_of(page.locator("a.left-prev").first) == walked[-2]
        assert len(walked) <= len(toc) + 1, "next links go round in circles"
    assert walked == [walked[0], *[p for p in toc if p != walked[0]]]
    assert outside == []
    context.close()


def test_search_finds_a_word(browser, base_url, site):
    visit = Visit()
    page = open_page(browser, base_url, visit)
    load(page, base_url + "search.html?q=encoding")
    results = page.locator("#search-results ul.search li")
    results.first.wait_for(timeout=15_000)
    assert results.count() >= 2
    href = results.first.locator("a").first.get_attribute("href")
    target = resolve("search.html", href)
    assert target is not None and (site / target[0]).is_file()
    assert visit.outside == [] and visit.errors == []
    page.context.close()
