"""The maths as the built site carries it: MathML (Temml, rendered at build
time by _ext/prerender_maths.py), its font preloaded and served by the site,
nothing of MathJax's markup left.

The checks of every file need no browser; the last tests open a few pages
in Chromium and measure how it draws some formulas (a fraction, an operator
name, a display equation's number).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import maths_style  # noqa: E402  (_ext/maths_style.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
#: Every HTML file of the site with maths or a link to the maths' sheet:
#: pages, decks, handouts, clicker pages.
FILES = (
    sorted(
        p.relative_to(SITE).as_posix()
        for p in SITE.rglob("*.html")
        if not {"_static", "_sources"} & set(p.relative_to(SITE).parts)
    )
    if BUILT
    else ["(no site)"]
)
#: An element Sphinx or _ext/slides.py wrote for a formula, and what it holds.
FORMULA = re.compile(
    r'<(span|div) class="(math(?: [^"]*)?)"[^>]*>(.*?)</\1>', re.DOTALL
)
MATH_TAG = re.compile(r"<math\b([^>]*)>")
PRELOAD = re.compile(r'<link rel="preload" href="([^"]+)" as="font"[^>]*>')
#: The maths' style sheet's tag, or the tag of the bundle that holds it
#: (_ext/page_bundles.py).
SHEET = re.compile(
    r'<link[^>]*(?:href="[^"]*?posenc-maths\.css[^"]*"'
    r'|data-bundle="[^"]*\bposenc-maths\.css\b[^"]*")[^>]*>'
)


def read(path: str) -> str:
    return (SITE / path).read_text(encoding="utf-8")


@pytest.mark.parametrize("path", FILES)
def test_every_formula_is_mathml(site, path):
    """No MathJax markup anywhere; each formula one <math>, a display one
    (``div.math``, a deck's ``span.math.display``) with display="block",
    an inline one without; each a tab stop (tabindex 0)."""
    text = read(path)
    assert "mjx-" not in text
    assert "mathjax" not in " ".join(re.findall(r"<script[^>]*>", text)).lower()
    for element, classes, inner in FORMULA.findall(text):
        tags = MATH_TAG.findall(inner)
        assert len(tags) == 1, inner[:80]
        display = element == "div" or "display" in classes.split()
        assert ('display="block"' in tags[0]) == display, inner[:80]
        assert 'tabindex="0"' in tags[0]


@pytest.mark.parametrize("path", FILES)
def test_the_font_is_preloaded_from_the_site(site, path):
    """A file that links the maths' style sheet preloads the maths' font
    before it, from the site (the same file the sheet names)."""
    text = read(path)
    sheet = SHEET.search(text)
    if sheet is None:
        assert "<math" not in text, "maths without its style sheet"
        return
    # a page of the theme preloads the header's icons too (_ext/page_weight.py)
    maths_font = f"{maths_style.FONTS_DIR}/{maths_style.FONT_FILE}"
    preloads = [p for p in PRELOAD.finditer(text) if p.group(1).endswith(maths_font)]
    assert len(preloads) == 1, "the maths' font is not preloaded once"
    preload = preloads[0]
    assert preload.start() < sheet.start()
    href = preload.group(1)
    assert not re.match(r"^(https?:)?//", href)
    assert ((SITE / path).parent / href).resolve().is_file()
    assert "crossorigin" in preload.group(0)
    assert 'type="font/woff2"' in preload.group(0)


def test_the_style_sheet_names_local_fonts_drawn_once_there(site):
    """The sheet's fonts are the site's files, drawn only once they have
    arrived (font-display: block: no fallback font first, no shift), and
    the maths is set in the book's cut font."""
    sheet = (site / "_static" / "posenc-maths.css").read_text(encoding="utf-8")
    faces = re.findall(r"@font-face\{[^}]*\}", sheet)
    assert len(faces) == 2
    for face in faces:
        assert "font-display:block" in face
        url = re.search(r"url\(([^)]+)\)", face).group(1).strip("\"'")
        assert (site / "_static" / url).is_file(), url
    assert f'font-family:"{maths_style.FAMILY}", math' in sheet
    assert "mjx-" not in sheet
    licence = site / "_static" / maths_style.FONTS_DIR / "GUST-FONT-LICENSE.txt"
    assert "GUST Font License" in licence.read_text()


def test_formulas_are_rendered_as_tex_writes_them(site):
    """A few formulas of the book in Temml's MathML: a fraction is an
    <mfrac>, an operator name an upright <mi> applied with U+2061, a sum
    in a display equation takes its limits under and over it, a matrix is
    a table in stretched parentheses, an operator in a subscript is
    spaced as TeX spaces it there (not at all)."""
    text = read("book/the_encoding.html") + read("book/rope.html")
    assert re.search(r"<mfrac>", text)
    attention = read("book/attention_is_blind_to_order.html")
    assert re.search("<mi>softmax</mi><mo>\u2061</mo>", attention)
    displayed_sums = re.findall(
        r'<math [^>]*display="block".*?</math>', text, re.DOTALL
    )
    assert any("<munderover><mo" in m and "\u2211" in m for m in displayed_sums)
    assert re.search(
        r'<mo fence="true" form="prefix" stretchy="true">\(</mo><mtable>', text
    )
    # an operator in a script has no space around it, as in TeX
    assert re.search('<msub><mi>p</mi><mrow><mi>t</mi><mo lspace="0" rspace="0"', text)
    scripts = re.findall(
        r"<msub><mi>p</mi><mrow>((?:(?!</?mrow).)*)</mrow></msub>", text
    )
    operators = [o for s in scripts for o in re.findall(r"<mo[ >][^>]*", s)]
    assert operators and all('lspace="0" rspace="0"' in o for o in operators)


# ------------------------------------------------------------ in Chromium

#: JavaScript: how Chromium draws the page's maths: the font it loaded, the
#: fraction's parts (numerator over denominator), the space between an
#: operator name and what follows, the equation numbers' places.
DRAWN = r"""async () => {
  await document.fonts.ready;
  const family = [...document.fonts].filter(f => f.status === "loaded")
    .map(f => f.family.replace(/"/g, ""));
  const frac = document.querySelector("div.math mfrac");
  const [top, bottom] = [...frac.children].map(c => c.getBoundingClientRect());
  const numbers = [...document.querySelectorAll("div.math")].filter(
    d => d.querySelector(".eqno")).slice(0, 5).map(d => {
      const math = d.querySelector("math").getBoundingClientRect();
      const number = d.querySelector(".eqno").getBoundingClientRect();
      return {right: number.left >= math.right - 1,
              middle: Math.abs((number.top + number.bottom) / 2
                               - (math.top + math.bottom) / 2)};
    });
  // the space after an operator name (cos): Temml's <mrow> of the name,
  // U+2061 and a thin space before a letter, none before a parenthesis
  const gap = (before) => {
    const name = [...document.querySelectorAll("mrow > mi:first-child")].find(m =>
      m.textContent === "cos" && m.nextElementSibling
      && m.nextElementSibling.textContent === "\u2061"
      && m.parentElement.nextElementSibling
      && (m.parentElement.nextElementSibling.textContent[0] === "(")
        === (before === "("));
    const after = name.parentElement.nextElementSibling;
    const em = parseFloat(getComputedStyle(name).fontSize);
    return (after.getBoundingClientRect().left
      - name.getBoundingClientRect().right) / em;
  };
  return {family, stacked: top.bottom <= bottom.top + 1,
          numbers, gap: gap("a letter"), paren: gap("("),
          fontFamily: getComputedStyle(frac).fontFamily};
}"""


def test_chromium_draws_the_maths_with_the_book_font(site, chromium):
    """On the chapter of the encoding, opened from the site's server: no
    request leaves it; the maths' font arrives (preloaded) and draws it; a
    fraction's numerator is over its denominator; an equation's number is
    at the right of its equation, level with it; ``\\cos\\theta`` has TeX's
    thin space (1/6 em) between the name and its argument, and
    ``\\cos(\\Delta\\theta_i)`` none before the parenthesis."""
    with sitetools.serve(site) as base:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        requests = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(base + "book/the_encoding.html")
        page.wait_for_load_state("load")
        drawn = page.evaluate(DRAWN)
        context.close()
    assert [url for url in requests if not url.startswith(base)] == []
    fonts = [url for url in requests if url.endswith(".woff2")]
    assert sum(maths_style.FONT_FILE in url for url in fonts) == 1
    assert maths_style.FAMILY in drawn["family"]
    assert maths_style.FAMILY in drawn["fontFamily"]
    assert drawn["stacked"]
    assert drawn["numbers"] and all(
        n["right"] and n["middle"] < 4 for n in drawn["numbers"]
    ), drawn["numbers"]
    assert 0.12 < drawn["gap"] < 0.22, drawn["gap"]
    assert abs(drawn["paren"]) < 0.05, drawn["paren"]
