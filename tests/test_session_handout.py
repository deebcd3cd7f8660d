"""The 90-minute session's handout (``_ext/session_handout.py``).

It is written from the plan's timing table at each build. What a lecturer
relies on is checked on the built site (``POSENC_SITE``):

* it prints on two pages, of A4 and of US Letter, with Chromium as
  ``make handouts`` prints it (``scripts/teaching.py``), its text at 9 pt
  or more, nothing wider than the page (so Chromium does not shrink it),
  and its second page at least 80 % full (``test_it_prints_on_two_pages``);
* every equation and code listing of every slide the plan's timing table
  names is on it (``test_every_equation_of_the_plan_is_on_it``). The slides
  are read here with the lesson-plan tests' own parser, not the
  generator's, so a slide the generator missed fails here;
* each block reads on its own: the symbols of :data:`SYMBOLS` and the two
  pairings are introduced in the block that first uses them or before
  (``test_every_symbol_is_introduced_where_used``);
* it links the book, ``notebooks.zip``, the activity and every homework
  notebook, each to a file of the built site
  (``test_it_says_where_everything_is``).

Seen failing, each on a planted bug in a built site, then restored: the
page count with the figure 12 cm tall (Letter: 3 pages); the text size
with captions at 8 pt; the width with the code block 25 cm wide; the
equation check with one equation's id gone from the handout. Added with
the lead-ins (issue 21, a fresh lecturer's review): the document width
without the style sheet's rule for the hidden MathML (691 px on A4, 701 on
Letter, against 672 and 695); the last page with the homework and the two
closing boxes cut (A4 at least 69 %, Letter 80 %: under 80 % fails); the
symbols with the plan's ``leads`` removed (x, Delta and both pairings
introduced nowhere); the links with ``notebooks.zip`` misspelt (a link to
no file) and with the link to ``homework/rope.ipynb`` made plain text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import teaching  # noqa: E402  (scripts/teaching.py)
import test_lesson_plans as plans  # noqa: E402

NAME = "session_90"
#: The smallest printed text, in CSS px (9 pt).
MIN_TEXT_PX = 12.0
#: The paper's width and height in mm; the text block is that less the
#: margins.
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: How full the last page must be, at least (a two-page handout whose second
#: page is half empty wastes paper and room for the students' notes).
MIN_LAST_PAGE = 0.8


def _margins(*sides: str) -> float:
    return sum(
        float(teaching.PAGE_SETUP["margin"][side].removesuffix("mm")) for side in sides
    )


def text_width_px(paper: str) -> int:
    """The printed text block's width in CSS px (96 to the inch)."""
    return int((PAPER_MM[paper][0] - _margins("left", "right")) / 25.4 * 96)


def text_height_px(paper: str) -> float:
    """The printed text block's height in CSS px."""
    return (PAPER_MM[paper][1] - _margins("top", "bottom")) / 25.4 * 96


def shown_names() -> list[str]:
    """Every equation label and code listing of the slides the 90-minute
    plan's timing table names, in order."""
    table = plans.decks()
    deck_slides = plans.deck_slides()
    plan = dict(plans.plans(plans.PLANS.read_text()))["lesson-plan-90"]
    header = plans.TIMING_HEADER.search(plan)
    rows = plan[header.end() :].split("\n\n", 1)[0]
    names = []
    for _, deck, number in plans.named_slides(rows, table)[0]:
        for entry in deck_slides[deck][number - 1].names:
            if entry.startswith(("eq-", "code-")) and entry not in names:
                names.append(entry)
    return names


def test_every_equation_of_the_plan_is_on_it(site):
    names = shown_names()
    # the RoPE half: the rotation, R_m^T R_n = R_{n-m}, the code
    assert {"eq-rope-matrix", "eq-rope-relative", "code-rope-elementwise"} <= set(names)
    assert len(names) >= 14, names
    text = (site / "handouts" / f"{NAME}.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    missing = [n for n in names if n not in ids and f"equation-{n}" not in ids]
    assert missing == [], f"on the plan's slides, not on the handout: {missing}"
    # the two pairings' figure and the activity's task are there too
    assert 'id="fig-rope-pairings"' in text
    assert "activities/rope_offset.ipynb" in text and "Homework" in text


#: In the page: the smallest font size of any element with text, and the
#: elements wider than the page's text block.
MEASURE = """() => {
  const main = document.querySelector("main");
  const width = main.getBoundingClientRect().width;
  let smallest = 100, where = "";
  const wide = [];
  for (const el of main.querySelectorAll("*")) {
    // maths: the formula (<math>) is measured; its sub- and superscripts
    // are smaller by design
    if (el.parentElement && el.parentElement.closest("math")) continue;
    const own = el.tagName.toLowerCase() === "math" || [...el.childNodes].some(
      n => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (own && box.width > 0) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < smallest) { smallest = size; where = el.outerHTML.slice(0, 80); }
    }
    if (box.width > width + 1 || el.scrollWidth > el.clientWidth + 1
        && getComputedStyle(el).overflowX !== "visible") {
      wide.push(el.outerHTML.slice(0, 80));
    }
  }
  // wider than the page, Chromium shrinks the whole page to fit on paper
  return {smallest, where, wide, height: main.getBoundingClientRect().height,
          document: document.documentElement.scrollWidth};
}"""


@pytest.mark.parametrize("paper", sorted(teaching.PAPERS))
def test_it_prints_on_two_pages(browser, base_url, tmp_path, paper):
    # laid out as wide as the printed text block, to measure what prints
    page = browser.new_page(viewport={"width": text_width_px(paper), "height": 900})
    try:
        pages = teaching.print_one(
            page, base_url, f"{NAME}.html", tmp_path / f"{NAME}.pdf", paper
        )
        measured = page.evaluate(MEASURE)
    finally:
        page.close()
    assert pages == teaching.MAX_PAGES, f"{paper}: {pages} pages"
    assert measured["smallest"] >= MIN_TEXT_PX, measured["where"]
    wide = measured["wide"]
    assert wide == [], wide
    # nothing at all wider than the page (the hidden MathML of a formula at
    # a line's end once was): else Chromium prints the page scaled down
    assert measured["document"] <= text_width_px(paper), measured["document"]
    # The last page is full enough. Printing only adds space (a block that
    # may not break moves to the next page), so the content's height laid
    # out as one column, less a page, is the least the second page holds.
    page = text_height_px(paper)
    last = (measured["height"] - page) / page
    assert last >= MIN_LAST_PAGE, f"{paper}: page 2 is at least {last:.0%} full"


#: Symbols the handout's blocks use, each with what introduces it, read in
#: the handout's text with each formula as its MathML's characters (so
#: ``$\theta_i = \mathrm{base}^{-2i/d}$`` reads ``θi=base−2i/d``).
SYMBOLS = {
    "d": r"a vector pt of d numbers",
    "θ": r"θi=base−2i/d",
    "x": r"xt for the vector of the token at position t",
    "f": r"f\(X\) is the mean",
    "H": r"H=WQWK⊤dk",
    "Δ": r"Δ=m−n for the offset",
    "S": r"share is S\(θ\)=",
    "μ": r"μ: the speeds' density",
    "R": r"Rt turns it by tθi",
}
#: Words for the two pairings, and what defines them.
PAIRINGS = {
    "interleaved": r"interleaved pairing turns coordinates 2i and 2i\+1",
    "half-split": r"half-split pairing, i and i\+d/2",
}


def handout_blocks(site: Path) -> list[tuple[str, set[str], str]]:
    """The handout in blocks, one a heading's (the title's first): each as
    (its text, the identifiers of its formulas, its heading)."""
    from bs4 import BeautifulSoup, NavigableString

    soup = BeautifulSoup(
        (site / "handouts" / f"{NAME}.html").read_text(encoding="utf-8"),
        "html.parser",
    )
    blocks = [["", set(), "title"]]
    for node in soup.find("main").descendants:
        if getattr(node, "name", None) == "h2":
            blocks.append(["", set(), node.get_text(" ", strip=True)])
        elif getattr(node, "name", None) == "math":
            maths = node
            blocks[-1][0] += "".join(maths.get_text().split())
            blocks[-1][1].update(mi.get_text() for mi in maths.find_all("mi"))
        elif isinstance(node, NavigableString) and not node.find_parent("math"):
            blocks[-1][0] += str(node)
    return [(" ".join(text.split()), names, head) for text, names, head in blocks]


def test_every_symbol_is_introduced_where_used(site):
    """Each block reads on its own: a symbol a formula uses, or a pairing a
    sentence names, is introduced in that block or an earlier one."""
    blocks = handout_blocks(site)
    late = []
    for symbol, introduction in [*SYMBOLS.items(), *PAIRINGS.items()]:
        used = [
            i
            for i, (text, names, _) in enumerate(blocks)
            if symbol in names or symbol in PAIRINGS and symbol in text.lower()
        ]
        found = [
            i for i, (text, _, _) in enumerate(blocks) if re.search(introduction, text)
        ]
        assert used, f"{symbol!r} is on no block: is the list out of date?"
        if not found or found[0] > used[0]:
            late.append(
                f"{symbol!r}: used in {blocks[used[0]][2]!r}, introduced "
                + (f"in {blocks[found[0]][2]!r}" if found else "nowhere")
            )
    assert late == [], late


def test_it_says_where_everything_is(site):
    """Links to the book, notebooks.zip, the activity and every homework
    notebook, each to a file of the built site (relative to handouts/, as
    the site's pages link when the book has no address)."""
    from bs4 import BeautifulSoup

    handout = site / "handouts" / f"{NAME}.html"
    soup = BeautifulSoup(handout.read_text(encoding="utf-8"), "html.parser")
    links = [a["href"] for a in soup.find("main").find_all("a", href=True)]
    relative = [href for href in links if "://" not in href]
    missing = [h for h in relative if not (handout.parent / h).resolve().is_file()]
    assert missing == [], f"links to no file of the site: {missing}"
    homework = re.findall(r"homework/[\w-]+\.ipynb", soup.find("main").get_text())
    wanted = {"index.html", "notebooks.zip", "activities/rope_offset.ipynb", *homework}
    # relative (../path) or under the book's address (.../path)
    unlinked = [w for w in wanted if not any(h.endswith(f"/{w}") for h in links)]
    assert unlinked == [], f"not linked: {unlinked}"
    assert "homework/rope.ipynb" in wanted
