"""What each page of the built site weighs (issue 22): at most 1.5 MB,
everything it loads counted, in the browser tests' own page loads; and, in
pure Python, what it leaves out to weigh less (_ext/page_weight.py,
scripts/maths_font.py, _ext/offline_site.py). ``make bench`` measures the
weights and times as a reader's browser meets them (benchmarks/pages.py,
benchmarks/phone.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import lean_scripts  # noqa: E402  (_ext/lean_scripts.py)
import maths_style  # noqa: E402  (_ext/maths_style.py)
import offline_site  # noqa: E402  (_ext/offline_site.py)
import page_weight  # noqa: E402  (_ext/page_weight.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)
import tiers  # noqa: E402  (tests/tiers.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
PAGES = sitetools.html_pages(SITE) if BUILT else ["(no site)"]
#: The pages a reader opens (the browser tests' pages: no redirects).
BROWSED = [p for p in PAGES if not BUILT or not sitetools.is_redirect(SITE, p)]
#: The most a page may weigh: everything it loads when opened, as files on
#: disk (a reader's file:// copy; a web host sends less, compressed).
MOST_BYTES = 1_500_000


# site, base_url and layouts: tests/conftest.py


@pytest.mark.parametrize("path", PAGES)
def test_only_the_search_page_loads_the_search(site, path):
    """The search's index (145 kB) and scripts load on the search page only
    (searchtools.js in the page's script bundle, _ext/page_bundles.py)."""
    scripts = sitetools.page_assets((site / path).read_text(encoding="utf-8"))
    search = [s for s in scripts if re.search(r"searchindex|searchtools", s)]
    assert search == (
        ["searchtools.js", "searchindex.js"] if path == "search.html" else []
    )


@pytest.mark.parametrize("path", PAGES)
def test_code_keeps_only_spans_that_colour_it(site, path):
    """No token of a code block is wrapped in a span whose colour is the
    block's own, in light or dark mode; every other token keeps its span."""
    plain = offline_site.plain_token_classes(site / "_static")
    assert {"n", "p"} <= plain and not {"k", "o", "mi", "s1", "c1"} & plain
    text = (site / path).read_text(encoding="utf-8")
    blocks = offline_site.CODE.findall(text)
    classes = {c for _, code, _ in blocks for c in re.findall(r'class="(\w+)"', code)}
    assert classes & plain == set()
    if "import numpy" in " ".join(code for _, code, _ in blocks):
        assert "kn" in classes  # "import" is still highlighted


#: Pages known to weigh more than MOST_BYTES, and why (issue 22 is open for
#: them). Strict: the test fails as soon as such a page is light enough,
#: so that it leaves this list.
TOO_HEAVY: dict[str, str] = {}


@pytest.mark.parametrize(
    "path",
    tiers.sampled(
        BROWSED,
        tiers.BOOK,
        {
            p: [pytest.mark.xfail(strict=True, reason=why)]
            for p, why in TOO_HEAVY.items()
        },
    ),
)
def test_page_weighs_at_most_1_5_MB(layouts, base_url, site, path):
    """Everything the page loads when opened (desktop, until the network is
    idle, no dropdown opened), at most 1.5 MB. docs/maintainers.md ("Page
    weight") says what was cut to get there, and what is left to cut."""
    sizes = sitetools.raw_sizes(site, base_url, layouts.visit(path).loaded)
    assert path in sizes
    heaviest = sorted(sizes.items(), key=lambda item: -item[1])[:6]
    total = sum(sizes.values())
    assert total <= MOST_BYTES, f"{total / 1e6:.3f} MB: " + ", ".join(
        f"{name} {size / 1e3:.0f} kB" for name, size in heaviest
    )


def test_figures_load_as_webp_with_the_pngs_pixels(site):
    """Every figure of a page (``_images``) loads as WebP, whose pixels are
    exactly its PNG's; the PNG stays beside it."""
    from PIL import Image, ImageChops

    pictures = set()
    for path in PAGES:
        text = (site / path).read_text(encoding="utf-8")
        assert not page_weight.PICTURE.search(text), f"{path} loads a PNG figure"
        for src in re.findall(r'<img\b[^>]*?\bsrc="([^"]*_images/[^"]+)"', text):
            pictures.add(((site / path).parent / src).resolve())
    assert len(pictures) >= 20
    for webp in sorted(pictures):
        assert webp.suffix == ".webp", webp
        with Image.open(webp) as lighter, Image.open(webp.with_suffix(".png")) as png:
            mode = "RGBA" if "A" in png.getbands() else "RGB"
            difference = ImageChops.difference(lighter.convert(mode), png.convert(mode))
            assert difference.getbbox(alpha_only=False) is None, webp.name


def test_every_icon_shown_is_in_the_cut_font(site):
    """Each Font Awesome icon a page names (``fa-...``) still has its rule in
    the purged style sheet, and its character is in the cut font it loads;
    the cut font does not bear the licence's Reserved Font Name."""
    from fontTools.ttLib import TTFont

    styles = site / "_static" / "styles" / "pydata-sphinx-theme.css"
    css = styles.read_text(encoding="utf-8")
    font = site / "_static" / page_weight.FONTS / "fa-solid-900.icons.woff"
    assert "fa-solid-900.icons.woff" in css
    cut = TTFont(font)
    drawn = set(cut.getBestCmap())
    for number in (1, 3, 4, 6, 16):
        assert "Font Awesome" not in (cut["name"].getDebugName(number) or "")
    assert "Font Awesome" not in css.replace("Font Awesome version", "")
    named = set()
    for path in PAGES:
        text = (site / path).read_text(encoding="utf-8")
        for value in re.findall(r'class="([^"]*\bfa-solid\b[^"]*)"', text):
            named.update(c for c in value.split() if c.startswith("fa-"))
    named -= {"fa-solid", "fa-lg", "fa-fw", "fa-2x", "fa-spin", "fa-pulse"}
    assert len(named) >= 5
    for icon in sorted(named):
        rule = re.search(
            rf"\.{re.escape(icon)}(?::before)?[,{{][^}}]*?(?:content|--fa):\s*"
            r'"([^"]*)"',
            css,
        )
        assert rule is not None, f"{icon}: no rule left"
        assert page_weight.icons(f'"{rule.group(1)}"') <= drawn, icon


def test_the_maths_font_holds_what_it_draws(site):
    """The maths' font (Latin Modern Math, cut by scripts/maths_font.py)
    holds every character the site's maths draws, and little else: the
    characters it was cut to (ASCII, Greek, and those drawn when it was
    cut)."""
    import maths_font  # scripts/maths_font.py
    from fontTools.ttLib import TTFont

    font = site / "_static" / maths_style.FONTS_DIR / maths_style.FONT_FILE
    held = set(TTFont(font).getBestCmap())
    drawn = maths_font.drawn(site)
    assert len(drawn) > 150
    assert sorted(f"U+{c:04X}" for c in drawn - held) == []
    assert len(held) < 600
    assert font.stat().st_size < 150_000


def test_purge_keeps_what_a_page_could_use():
    """A rule stays if the classes and ids its selector names are all in
    the site; what it only tests (states, attributes, :not) is not asked for."""
    words = {"nav", "show", "bd-header", "item"}
    css = (
        '@charset "UTF-8";:root{--x:1}'
        ".nav .item:hover,.popover{color:red}"
        'html[data-theme=dark] .nav:not(.collapsed)>a::before{content:"\\f0c9"}'
        "#bd-header{top:0}#other{top:1}"
        "@media (min-width:960px){.show{display:block}.toast{opacity:0}}"
        "@media print{.toast{display:none}}"
        "@font-face{font-family:X;src:url(x.woff)}@keyframes spin{to{rotate:1turn}}"
    )
    kept = page_weight.purge(css, words)
    assert ".nav .item:hover{color:red}" in kept
    assert "html[data-theme=dark] .nav:not(.collapsed)>a::before" in kept
    assert "#bd-header{top:0}" in kept and "#other" not in kept
    assert "@media (min-width:960px){.show{display:block}}" in kept
    assert "popover" not in kept and "toast" not in kept and "print" not in kept
    assert ":root{--x:1}" in kept and "@font-face" in kept and "@keyframes" in kept
    assert page_weight.icons(kept) == {0xF0C9}


def test_the_header_icons_are_preloaded_on_pages_of_the_theme(tmp_path):
    """A page of the theme preloads the header's icon font once, before its
    first style sheet, with the path from its folder; a page that is not
    (a deck) is left as it is. The browser tests check that every preload
    is drawn (tests/test_site.py)."""
    static = tmp_path / "_static"
    page = tmp_path / "book" / "rope.html"
    text = (
        '<head><link rel="stylesheet" href="../_static/a.css">'
        '<link rel="stylesheet" href="../_static/b.css">'
        '<script defer src="../_static/scripts/pydata-sphinx-theme.js"></script>'
    )
    preloaded = page_weight.preload_header_icons(text, page, static)
    link = (
        '<link rel="preload" href="../_static/vendor/fontawesome/webfonts/'
        'fa-solid-900.icons.woff" as="font" type="font/woff" crossorigin>\n'
    )
    assert preloaded == "<head>" + link + text[len("<head>") :]
    assert page_weight.preload_header_icons(preloaded, page, static) == preloaded
    deck = '<head><link rel="stylesheet" href="../_static/deck.css">'
    assert page_weight.preload_header_icons(deck, page, static) == deck
    top = tmp_path / "index.html"
    assert 'href="_static/vendor/' in page_weight.preload_header_icons(
        text, top, static
    )


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
def test_every_page_of_the_theme_preloads_the_header_icons_once(site):
    """Each page of the theme, in the built site, preloads the header's
    icon font once, before its style sheet (the browser tests check that it
    is drawn); no other file of the site does (decks, handouts)."""
    font = page_weight.HEADER_ICONS.as_posix()
    theme_pages = 0
    for path in site.rglob("*.html"):
        if sitetools.ASSET_DIRS & set(path.relative_to(site).parts):
            continue  # the theme's templates in _static
        text = path.read_text(encoding="utf-8")
        preloads = re.findall(rf'<link rel="preload" href="[^"]*{font}"[^>]*>', text)
        if lean_scripts.THEME_PAGE not in text:
            assert preloads == [], path
            continue
        theme_pages += 1
        assert len(preloads) == 1, path
        sheet = re.search(r'<link[^>]*rel="stylesheet"', text)
        assert sheet is not None and text.index(preloads[0]) < sheet.start(), path
    assert theme_pages >= 20
