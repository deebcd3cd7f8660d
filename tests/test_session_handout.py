"""The 90-minute session's handout (``_ext/session_handout.py``).

It is written from the plan's timing table at each build. Two things a
lecturer relies on are checked on the built site (``POSENC_SITE``):

* it prints on two pages, of A4 and of US Letter, with Chromium as
  ``make handouts`` prints it (``scripts/teaching.py``), its text at 9 pt
  or more and nothing wider than the page
  (``test_it_prints_on_two_pages``);
* every equation and code listing of every slide the plan's timing table
  names is on it (``test_every_equation_of_the_plan_is_on_it``). The slides
  are read here with the lesson-plan tests' own parser, not the
  generator's, so a slide the generator missed fails here.

Seen failing, each on a planted bug in a built site, then restored: the
page count with the figure 12 cm tall (Letter: 3 pages); the text size
with captions at 8 pt; the width with the code block 25 cm wide; the
equation check with one equation's id gone from the handout.
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
#: The paper's width in mm; the text block is that less the side margins.
PAPER_MM = {"a4": 210.0, "letter": 215.9}


def text_width_px(paper: str) -> int:
    """The printed text block's width in CSS px (96 to the inch)."""
    margins = sum(
        float(teaching.PAGE_SETUP["margin"][side].removesuffix("mm"))
        for side in ("left", "right")
    )
    return int((PAPER_MM[paper] - margins) / 25.4 * 96)


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
    // maths: its container is measured; sub- and superscripts are smaller
    // by design, and the assistive MathML is not printed
    if (el.closest("mjx-container") && el.tagName !== "MJX-CONTAINER") continue;
    const own = el.tagName === "MJX-CONTAINER" || [...el.childNodes].some(
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
  return {smallest, where, wide};
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
    # MathJax's own glyph boxes are not text of ours: only our elements
    wide = [w for w in measured["wide"] if "mjx-" not in w]
    assert wide == [], wide
