"""A chapter's sections are laid out when they come near the screen
(``content-visibility: auto``, ``_ext/static/posenc-book.css``), then, once
the page has loaded, in idle time (``_ext/static/posenc-sections.js``).

What must hold for that to be invisible to a reader:

* with JavaScript off, a section far below the first screen is not laid
  out, and is once it is scrolled to (the saving is real, and nothing is
  lost without the script);
* with JavaScript on, every section is laid out soon after the load, and
  the marks and tab stops that the scripts set on boxes that scroll are set
  in every section, as on a page laid out whole;
* laying a section out moves nothing: its height and the place of its
  heading are the same before and after (each section is the same box
  either way: a formatting context of its own, margins held in);
* nothing a section holds sticks out of its box, where containment would
  clip it: on a phone, figures and dropdowns span the screen, and the
  section's box spans it too (focus rings and the heading's link included).

No timing here: ``make bench`` (benchmarks/phone.py) measures the load.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import sitetools  # noqa: E402  (scripts/sitetools.py)
import tiers  # noqa: E402  (tests/tiers.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
CHAPTERS = (
    [p for p in sitetools.html_pages(SITE) if p.startswith("book/")]
    if BUILT
    else ["(no site)"]
)
CHAPTERS = [p for p in CHAPTERS if not BUILT or not sitetools.is_redirect(SITE, p)]
SECTIONS = ".bd-article > section > section"
LAST = f"{SECTIONS}:last-of-type"
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True},
}
#: JavaScript: whether each section is laid out now (its heading is not
#: skipped: the section itself always counts as visible).
LAID_OUT = f"""() => [...document.querySelectorAll("{SECTIONS}")].map(
  s => s.querySelector("h2").checkVisibility({{contentVisibilityAuto: true}}))"""
#: JavaScript: a section's height and its heading's offset in it.
GEOMETRY = """(s) => {
  const box = s.getBoundingClientRect();
  const h = s.querySelector("h2").getBoundingClientRect();
  return [box.height, h.top - box.top, box.left, box.width];
}"""
#: JavaScript: what a section holds that sticks out of its box by more than
#: half a pixel (not counting what a box that scrolls or clips holds).
STICKS_OUT = f"""() => {{
  const out = [];
  for (const s of document.querySelectorAll("{SECTIONS}")) {{
    const r = s.getBoundingClientRect();
    for (const e of s.querySelectorAll("*")) {{
      const q = e.getBoundingClientRect();
      if (q.width === 0 || q.height === 0) continue;
      let p = e.parentElement, inside = false;
      while (p && p !== s) {{
        if (getComputedStyle(p).overflowX !== "visible") {{ inside = true; break; }}
        p = p.parentElement;
      }}
      if (inside) continue;
      const by = Math.max(r.left - q.left, q.right - r.right,
                          r.top - q.top, q.bottom - r.bottom);
      if (by > 0.5) {{
        out.push(`${{s.id}}: <${{e.localName}} class="${{e.className}}">`
                 + ` by ${{by.toFixed(1)}} px`);
      }}
    }}
  }}
  return out;
}}"""


def open_page(browser, base_url, path, size="phone", javascript=True):
    context = browser.new_context(**SIZES[size], java_script_enabled=javascript)
    page = context.new_page()
    page.goto(base_url + path, wait_until="load")
    return page


def test_without_javascript_a_far_section_waits_until_it_is_scrolled_to(
    browser, base_url
):
    page = open_page(
        browser, base_url, "book/instructor/exam_questions.html", javascript=False
    )
    page.wait_for_timeout(300)  # a few frames: the browser has decided
    assert not page.evaluate(LAID_OUT)[-1]
    page.evaluate(f"() => document.querySelector('{LAST}').scrollIntoView()")
    for _ in range(50):  # up to 5 s (no page script runs: no wait_for_function)
        page.wait_for_timeout(100)
        if page.evaluate(LAID_OUT)[-1]:
            break
    assert page.evaluate(LAID_OUT)[-1]
    page.context.close()


@pytest.mark.parametrize("path", tiers.BOOK[:3])
def test_every_section_is_laid_out_after_the_load_as_a_whole_page(
    browser, base_url, path
):
    """After the load every section is laid out, and the boxes that scroll
    in any of them are marked and tab stops as on the page laid out whole
    (every section laid out by the test, and the scripts' passes run again).
    On the sample of pages only: the scripts are the same on every page."""
    page = open_page(browser, base_url, path)
    # posenc-sections.js runs after the load (_ext/page_bundles.AFTER_LOAD)
    page.evaluate(sitetools.WAIT_FOR_SCRIPTS)
    assert page.evaluate("document.documentElement.dataset.posencSections")
    page.evaluate(sitetools.WAIT_FOR_SECTIONS)
    assert all(page.evaluate(LAID_OUT))
    marks = page.evaluate(MARKS)
    page.context.close()
    whole = open_page(browser, base_url, path)
    whole.add_style_tag(
        content=f"{SECTIONS} {{ content-visibility: visible !important; }}"
    )
    whole.evaluate("() => window.dispatchEvent(new Event('resize'))")
    whole.wait_for_timeout(600)
    assert marks == whole.evaluate(MARKS)
    whole.context.close()


#: JavaScript: the marks of formulas and tables that scroll, and the tab
#: stops of boxes that scroll, by element.
MARKS = """() => {
  const all = [...document.body.querySelectorAll("*")];
  const at = (selector, test) => [...document.querySelectorAll(selector)]
    .filter(test).map(e => all.indexOf(e));
  return {
    right: at(".posenc-more-right", () => true),
    stops: at("pre, .cell_output > .output, .pst-scrollable-table-container, span.math",
              e => e.tabIndex === 0),
  };
}"""
#: JavaScript: every section as it is when near the screen but not yet laid
#: out by the script: content-visibility: auto, not skipped, is layout, style
#: and paint containment (a style element; add_style_tag waits for a
#: script's event, and this page runs none).
CONTAINED = f"""() => {{
  const style = document.createElement("style");
  style.id = "contained";
  style.textContent = `{SECTIONS} {{ content-visibility: visible !important;
    contain: layout style paint !important; }}`;
  document.head.append(style);
}}"""
#: JavaScript: every section laid out by the script (no containment left).
LAID_OUT_ALL = f"""() => {{
  document.getElementById("contained").remove();
  document.querySelectorAll("{SECTIONS}")
    .forEach(s => s.classList.add("posenc-laid-out"));
}}"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", tiers.sampled(CHAPTERS, tiers.BOOK[:3]))
def test_laying_sections_out_moves_nothing_and_clips_nothing(
    browser, base_url, path, size
):
    """Every section, dropdowns open, is the same box contained (as the
    browser lays it out near the screen) and laid out by the script: same
    height, heading at the same place, same width. And nothing it holds
    sticks out of its box, where containment would clip it."""
    page = open_page(browser, base_url, path, size, javascript=False)
    page.evaluate(
        "() => document.querySelectorAll('details').forEach(d => d.open = true)"
    )
    page.evaluate(CONTAINED)
    sections = page.locator(SECTIONS)
    before = [sections.nth(i).evaluate(GEOMETRY) for i in range(sections.count())]
    page.evaluate(LAID_OUT_ALL)
    after = [sections.nth(i).evaluate(GEOMETRY) for i in range(sections.count())]
    out = page.evaluate(STICKS_OUT)
    page.context.close()
    moved = [
        f"section {i + 1}: {b} -> {a}"
        for i, (b, a) in enumerate(zip(before, after, strict=True))
        if max(abs(x - y) for x, y in zip(b, a, strict=True)) > 0.5
    ]
    assert moved == []
    assert out == []
