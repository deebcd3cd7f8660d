"""A clicker page steps one question a screen on a projector.

The lecturer votes question by question at 1024 x 768 (a projector) with
Page Down, the arrows or a presenter's remote (``_ext/static/
posenc-clickers.js``). The browser's own keys scrolled by distances: Page
Down split questions over two screens, an arrow moved 40 px, and on load
the first question showed without its last option. Checked here, in
Chromium, on each clicker page of the default edition (the sample in
``make test``, the rest in ``make test-pages``):

* on load the title fills the screen and no question shows in part;
* each Page Down shows the next question whole, its heading and every
  option on screen at once, until the last; a question taller than the
  screen is shown screen by screen, and nothing of it is skipped;
* the down arrow and Space step as Page Down does, and Page Up walks back
  to the title;
* every text is at least 24 px, as on the slides (a formula's size is its
  body's: its sub- and superscripts are smaller, as in print).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

import sitetools  # noqa: E402
from tiers import TEACHING, sampled  # noqa: E402

SITE = sitetools.site_dir()
PROJECTOR = {"width": 1024, "height": 768}
PAGES = sorted(
    f"clickers/{path.name}"
    for path in (SITE / "clickers").glob("*.html")
    if path.name != "index.html"
) or ["(no site)"]

#: Where each question's heading and options are, relative to the screen.
BOXES = """() => [...document.querySelectorAll('.clicker-question')].map(q => {
  const parts = [q.querySelector('h2'), ...q.querySelectorAll('.clicker-options > li')];
  const boxes = parts.map(p => p.getBoundingClientRect());
  return {id: q.id, top: Math.min(...boxes.map(b => b.top)),
          bottom: Math.max(...boxes.map(b => b.bottom)),
          section: q.getBoundingClientRect().top};
})"""


#: Each text of the page under ``least`` px: its start and its size.
SMALL_TEXTS = """(least) => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const host = walker.currentNode.parentElement;
    const text = walker.currentNode.textContent.trim();
    if (!text || host.closest("math, mjx-container")) continue;
    const box = host.getBoundingClientRect();
    if (box.width <= 1 || getComputedStyle(host).visibility === "hidden") continue;
    const px = parseFloat(getComputedStyle(host).fontSize);
    if (px < least) small.push(`${px} px: ${text.slice(0, 30)}`);
  }
  for (const maths of document.querySelectorAll("math, mjx-container")) {
    if (maths.parentElement.closest("math, mjx-container")) continue;
    const px = parseFloat(getComputedStyle(maths).fontSize);
    if (px < least) small.push(`${px} px: a formula`);
  }
  return small;
}"""


def visible(box, height: float) -> bool:
    return box["top"] >= -1 and box["bottom"] <= height + 1


@pytest.fixture(scope="module")
def projector(chromium):
    with sitetools.serve(SITE) as url:
        context = chromium.new_context(viewport=PROJECTOR)
        yield context, url
        context.close()


@pytest.mark.parametrize(
    "relative", sampled(PAGES, [p for p in TEACHING if p.startswith("clickers/")])
)
def test_page_down_shows_one_whole_question_a_screen(projector, relative):
    if relative.startswith("("):
        pytest.fail(f"no clicker pages in {SITE}: make book")
    context, url = projector
    page = context.new_page()
    try:
        page.goto(url + relative)
        page.wait_for_load_state("load")
        height = PROJECTOR["height"]
        boxes = page.evaluate(BOXES)
        assert boxes, "no question on the page"
        assert page.evaluate(SMALL_TEXTS, 24) == [], "text under 24 px"
        # On load: the title's screen, no question in part.
        shown = [b["id"] for b in boxes if b["section"] < height - 1]
        assert not shown, f"on load, questions show in part: {shown}"
        seen: list[str] = []
        positions = [page.evaluate("scrollY")]
        for _ in range(4 * len(boxes)):
            page.keyboard.press("PageDown")
            y = page.evaluate("scrollY")
            if y == positions[-1]:
                break
            positions.append(y)
            boxes = page.evaluate(BOXES)
            whole = [b["id"] for b in boxes if visible(b, height)]
            seen += [name for name in whole if name not in seen]
            # A question in view is whole, or it is taller than the screen.
            for b in boxes:
                on = b["bottom"] > 0 and b["top"] < height
                partly = on and not visible(b, height)
                assert not partly or b["bottom"] - b["top"] > height - 40, (
                    f"after Page Down to {y} px, {b['id']} shows in part"
                )
        final = page.evaluate(BOXES)
        fit = [b["id"] for b in final if b["bottom"] - b["top"] <= height]
        assert fit == [i for i in seen if i in fit], (
            f"Page Down showed {seen} whole, of {[b['id'] for b in final]}"
        )
        assert positions == sorted(positions), "Page Down went back"
        # Page Up walks back over the same stops to the title.
        for expected in reversed(positions[:-1]):
            page.keyboard.press("PageUp")
            assert page.evaluate("scrollY") == pytest.approx(expected, abs=2)
        # The down arrow and Space step as Page Down does.
        for key in ("ArrowDown", "Space"):
            page.evaluate("scrollTo(0, 0)")
            page.keyboard.press(key)
            assert page.evaluate("scrollY") == pytest.approx(positions[1], abs=2), key
    finally:
        page.close()
