"""How long each page takes to read as it shows on load: a measurement.

A page is opened in Chromium at 1280 px and left as it loads: no dropdown,
folded cell or solution is opened. What a reader then sees in the page's
article is counted, at the rates of the learner's-path issue:

- prose at 200 words a minute (captions, admonitions and tables included;
  a word is a run of letters or digits);
- 2 s per inline formula, 30 s per display equation;
- visible code at 15 lines a minute (the input of code cells and literal
  blocks; a cell's output is counted as prose if it is text, not at all if
  it is a figure).

The sections "Check your understanding" and "Exercises" (practice, not
reading) are left out, and so is whatever lies in a closed ``<details>``, a
folded toggle or anything else the browser does not render. Visibility is
the browser's own (``Element.checkVisibility``), so a new way of folding
content is measured as the reader meets it.

Run: ``python benchmarks/reading.py [SITE]`` (default: ``POSENC_SITE``, else
``_build/html``). ``make bench`` runs it too.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import sitetools  # noqa: E402  (scripts/sitetools.py)

#: Reading rates (words a minute, seconds a formula, code lines a minute).
WORDS_PER_MINUTE = 200
INLINE_SECONDS = 2
DISPLAY_SECONDS = 30
CODE_LINES_PER_MINUTE = 15

#: Headings of the sections left out of the count (practice, not reading).
PRACTICE = ("Check your understanding", "Exercises")

#: The part of ``_toc.yml`` whose chapters have the derivation's target.
DERIVATION_PART = "The derivation"

#: JavaScript: what the article shows. Text nodes are counted once, through
#: their nearest element; maths and code are counted as units and their
#: text is not counted again as prose.
VISIBLE = r"""(practice) => {
  const article = document.querySelector("article.bd-article")
    || document.querySelector("main") || document.body;
  const shown = el => el.checkVisibility({checkOpacity: true,
    checkVisibilityCSS: true});
  const skipped = new Set();
  for (const section of article.querySelectorAll("section")) {
    const heading = section.querySelector(":scope > h1, :scope > h2, "
      + ":scope > h3, :scope > h4");
    if (!heading) continue;
    // "1.7. Check your understanding": the section number goes first.
    const title = heading.textContent.replace(/[\s¶#]+$/u, "").trim()
      .replace(/^(?:\d+|[A-Z])(?:\.\d+)*\.?\s+/u, "");
    if (practice.some(p => title.startsWith(p))) skipped.add(section);
  }
  const inSkipped = el => {
    for (let e = el; e && e !== article; e = e.parentElement) {
      if (skipped.has(e)) return true;
    }
    return false;
  };
  // Maths: MathML (rendered at build time) in Sphinx's spans and divs.
  const maths = [...article.querySelectorAll("math, .math")]
    .filter(el => !el.parentElement.closest("math, .math"));
  let inline = 0, display = 0;
  for (const el of maths) {
    if (inSkipped(el) || !shown(el)) continue;
    const isDisplay = el.matches("div.math, math[display='block']")
      || !!el.closest("div.math");
    if (isDisplay) display += 1; else inline += 1;
  }
  // Code: the input of cells and literal blocks (not outputs).
  let codeLines = 0;
  const blocks = [...article.querySelectorAll("pre")]
    .filter(pre => !pre.closest(".cell_output, .output"));
  for (const pre of blocks) {
    if (inSkipped(pre) || !shown(pre)) continue;
    codeLines += pre.innerText.replace(/\n+$/, "").split("\n")
      .filter(line => line.trim()).length;
  }
  // Prose: every other visible text.
  const excluded = "math, .math, script, style, .headerlink, "
    + "button, .toggle-button, nav, .prev-next-area, .bd-footer-article";
  let words = 0;
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  const cache = new Map();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el) continue;
    let keep = cache.get(el);
    if (keep === undefined) {
      keep = !el.closest(excluded) && !(el.closest("pre")
        && !el.closest(".cell_output, .output")) && !inSkipped(el) && shown(el);
      cache.set(el, keep);
    }
    if (!keep) continue;
    const found = node.textContent.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu);
    if (found) words += found.length;
  }
  return {words, inline, display, codeLines};
}"""


@dataclass
class Reading:
    page: str
    words: int
    inline: int
    display: int
    code_lines: int

    @property
    def minutes(self) -> float:
        return (
            self.words / WORDS_PER_MINUTE
            + (self.inline * INLINE_SECONDS + self.display * DISPLAY_SECONDS) / 60
            + self.code_lines / CODE_LINES_PER_MINUTE
        )


def read_page(browser, base_url: str, page_path: str) -> Reading:
    """Open one page as a reader does and count what it shows."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + page_path, wait_until="load")
    page.evaluate(sitetools.WAIT_FOR_MATHS)
    counts = page.evaluate(VISIBLE, list(PRACTICE))
    context.close()
    return Reading(
        page_path,
        counts["words"],
        counts["inline"],
        counts["display"],
        counts["codeLines"],
    )


def derivation_chapters() -> tuple[str, ...]:
    """The chapters of the derivation, by name, from ``_toc.yml``."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    (part,) = [p for p in toc["parts"] if p["caption"].split(":")[0] == DERIVATION_PART]
    return tuple(Path(chapter["file"]).name for chapter in part["chapters"])


def chapter_pages(site: Path) -> list[str]:
    """The book's pages in reading order: the introduction, the chapters of
    ``_toc.yml`` and the appendix (no bibliography, no instructor pages)."""
    import yaml

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc["parts"]:
        if part["caption"].split(":")[0] in ("Back matter", "For instructors"):
            continue
        files += [chapter["file"] for chapter in part["chapters"]]
    return [f + ".html" for f in files if (site / (f + ".html")).exists()]


def measure(site: Path) -> list[Reading]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = sitetools.launch(playwright)
        with sitetools.serve(site) as url:
            readings = [read_page(browser, url, p) for p in chapter_pages(site)]
        browser.close()
    return readings


def targets(readings: list[Reading]) -> list[tuple[str, float, float]]:
    """(what, minutes, target minutes) for each target of the issue."""
    derivation_names = derivation_chapters()
    by_name = {Path(r.page).stem: r for r in readings}
    rows = []
    intro = by_name.get("intro")
    if intro:
        rows.append(("introduction", intro.minutes, 6))
    derivation = [by_name[n] for n in derivation_names if n in by_name]
    for reading in derivation:
        rows.append((Path(reading.page).stem, reading.minutes, 10))
    if intro:
        total = intro.minutes + sum(r.minutes for r in derivation)
        rows.append(("introduction + derivation", total, 60))
    path = {"intro", *derivation_names}
    beyond = [r for r in readings if Path(r.page).stem not in path]
    for reading in beyond:
        rows.append((Path(reading.page).stem, reading.minutes, 20))
    rows.append(("whole book", sum(r.minutes for r in readings), 210))
    return rows


def as_dicts(readings: list[Reading]) -> list[dict]:
    return [dict(asdict(r), minutes=round(r.minutes, 1)) for r in readings]


def main() -> list[Reading]:
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else sitetools.site_dir()
    readings = measure(site)
    print(
        f"{'page':<44} {'words':>6} {'inline':>6} {'display':>7} {'code':>5} {'min':>6}"
    )
    for r in readings:
        print(
            f"{r.page:<44} {r.words:6d} {r.inline:6d} {r.display:7d} "
            f"{r.code_lines:5d} {r.minutes:6.1f}"
        )
    print()
    for what, minutes, target in targets(readings):
        mark = "ok" if minutes <= target else "OVER"
        print(f"{what:<44} {minutes:6.1f} min  <= {target:>3} min  {mark}")
    return readings


if __name__ == "__main__":
    main()
