"""The two layers of a chapter (``_ext/folding.py``), on the built site.

(Named test_site_*: its browser tests start Playwright, whose event loop
stays for the worker's session, so it is collected after the modules that
run their own asyncio loop, as test_notebooks does.)

* every check cell (first line ``# check: ...``) of a chapter's source is
  folded on its page under "Checked: ..." and has its ``check-`` anchor;
* every cell tagged ``deeper`` sits inside a dropdown;
* no fold is announced as "Toggle hidden content": a summary's name is its
  visible text, and a collapse button of sphinx-togglebutton is named by the
  title it folds (in Chromium, after the page's scripts ran);
* a link to a check opens its fold.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import folding  # noqa: E402  (_ext/folding.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
CHAPTERS = sorted(p.stem for p in (ROOT / "book").glob("*.md"))
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(?P<body>.*?)^```$", re.M | re.S)
needs_site = pytest.mark.skipif(not BUILT, reason="build the book first")


def cells(chapter: str) -> list[str]:
    """The sources of a chapter's code cells, without their options."""
    text = (ROOT / "book" / f"{chapter}.md").read_text()
    sources = []
    for match in CELL.finditer(text):
        lines = match.group("body").split("\n")
        if lines and lines[0] == "---":  # a YAML header
            end = lines.index("---", 1)
            lines = lines[end + 1 :]
        while lines and lines[0].startswith(":"):
            lines = lines[1:]
        while lines and not lines[0].strip():
            lines = lines[1:]
        sources.append("\n".join(lines))
    return sources


def test_check_line_and_anchor():
    assert folding.CHECK.match("# check: g is even in Δ\nassert True")
    assert folding.CHECK.match("#check:   spaced  ").group("what") == "spaced"
    assert not folding.CHECK.match("x = 1\n# check: not first")
    assert not folding.CHECK.match("# checks: a plural")
    assert folding.slug("The cross term (m − n) is EXACT") == (
        "the-cross-term-m-n-is-exact"
    )


class Folds(HTMLParser):
    """Where each cell of a page sits: its classes, id, the folds around it,
    and the summaries of the page."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.stack: list[tuple[str, list[str], str]] = []
        self.cells: list[dict] = []
        self.summaries: list[dict] = []
        self._summary: dict | None = None
        self.feed(path.read_text())

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "div" and "cell" in classes:
            self.cells.append(
                {
                    "classes": classes,
                    "id": attributes.get("id"),
                    "dropdown": any(
                        t == "details" and "sd-dropdown" in c for t, c, _ in self.stack
                    ),
                    "summary": None,
                }
            )
        if tag == "summary":
            self._summary = {"label": attributes.get("aria-label"), "text": ""}
            self.summaries.append(self._summary)
            cell = self._innermost_cell()
            if cell is not None and cell["summary"] is None:
                cell["summary"] = self._summary
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source"):
            self.stack.append((tag, classes, attributes.get("id") or ""))

    def _innermost_cell(self):
        depth = sum(1 for t, c, _ in self.stack if t == "div" and "cell" in c)
        return self.cells[-1] if depth else None

    def handle_startendtag(self, tag, attrs):
        """A self-closed tag (``<img/>``) opens and closes at once: it
        must not be taken for the end of an open element."""
        if tag == "summary":
            self.handle_starttag(tag, attrs)
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == "summary":
            self._summary = None
        if tag not in [t for t, _, _ in self.stack]:
            return  # a stray end tag closes nothing
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self._summary is not None:
            self._summary["text"] += data


@needs_site
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_checks_are_folded_under_their_name(chapter):
    page = SITE / "book" / f"{chapter}.html"
    if not page.exists():
        pytest.skip("not a page of the book")
    wanted = [
        folding.CHECK.match(s).group("what").rstrip(".")
        for s in cells(chapter)
        if folding.CHECK.match(s)
    ]
    folded = [c for c in Folds(page).cells if "posenc-check" in c["classes"]]
    assert len(folded) == len(wanted)
    for cell, what in zip(folded, wanted, strict=True):
        assert cell["id"] and cell["id"].startswith("check-"), cell
        assert cell["summary"] is not None, f"check {what!r} is not folded"
        shown = " ".join(cell["summary"]["text"].split())
        assert shown.startswith(f"Checked: {what}"), shown


@needs_site
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_deeper_cells_are_in_a_dropdown(chapter):
    page = SITE / "book" / f"{chapter}.html"
    if not page.exists():
        pytest.skip("not a page of the book")
    deeper = [c for c in Folds(page).cells if "tag_deeper" in c["classes"]]
    assert all(c["dropdown"] for c in deeper), [c["id"] for c in deeper]


@needs_site
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_fold_is_named_toggle_hidden_content(chapter):
    page = SITE / "book" / f"{chapter}.html"
    if not page.exists():
        pytest.skip("not a page of the book")
    labels = [s["label"] for s in Folds(page).summaries if s["label"]]
    assert labels == []


#: JavaScript: the name and visible title of each collapse button of
#: sphinx-togglebutton (solutions, admonition dropdowns) once it is set up.
BUTTON_NAMES = """() => [...document.querySelectorAll("button.toggle-button")]
  .map(b => [b.getAttribute("aria-label"),
             (b.closest(".admonition-title") || b).textContent.trim()])"""


@needs_site
def test_collapse_buttons_are_named_by_their_title(browser, base_url):
    """On a page with exercise solutions (their titles are "Solution to
    Exercise ..."), each button's name is the title it sits in."""
    page = browser.new_page()
    page.goto(base_url + "book/taylor_expansion.html", wait_until="load")
    page.wait_for_function(
        "document.querySelectorAll('button.toggle-button').length > 0"
    )
    names = page.evaluate(BUTTON_NAMES)
    page.close()
    assert names
    for label, title in names:
        assert label and label != "Toggle hidden content"
        assert " ".join(title.split()) in label or label in " ".join(title.split())


@needs_site
def test_a_link_to_a_check_opens_it(browser, base_url, site):
    """Opening a page at a check's address shows the check's code."""
    for chapter in CHAPTERS:
        anchors = (
            [
                c["id"]
                for c in Folds(site / "book" / f"{chapter}.html").cells
                if "posenc-check" in c["classes"]
            ]
            if (site / "book" / f"{chapter}.html").exists()
            else []
        )
        if anchors:
            break
    else:
        pytest.skip("no check cell on the site yet")
    page = browser.new_page()
    page.goto(base_url + f"book/{chapter}.html#{anchors[0]}", wait_until="load")
    shown = page.evaluate(
        "id => document.getElementById(id).querySelector('details').open", anchors[0]
    )
    page.close()
    assert shown


@needs_site
def test_checked_lines_are_readable_in_both_modes(browser, base_url, site):
    """The "Checked: ..." line is small and muted, yet ≥ 4.5:1 (WCAG AA)
    on its background, in light and in dark mode."""
    from test_site import CONTRAST

    pages = [
        f"book/{c}.html"
        for c in CHAPTERS
        if (site / "book" / f"{c}.html").exists()
        and any(
            "posenc-check" in x["classes"]
            for x in Folds(site / "book" / f"{c}.html").cells
        )
    ]
    if not pages:
        pytest.skip("no check cell on the site yet")
    page = browser.new_page()
    page.goto(base_url + pages[0], wait_until="load")
    ratios = {}
    for scheme in ("light", "dark"):
        ratios[scheme] = page.evaluate(
            f"""scheme => {{
              document.documentElement.dataset.theme = scheme;
              const title = document.querySelector(
                ".posenc-check summary .admonition-title.collapsed");
              return ({CONTRAST})(title);
            }}""",
            scheme,
        )
    page.close()
    assert min(ratios.values()) >= 4.5, ratios


@needs_site
def test_a_link_into_a_dropdown_opens_it(browser, base_url, site):
    """An equation of the deeper layer, linked from the main text, shows
    when its address is opened: the dropdown around it opens."""
    page_path = site / "book" / "complex_solution.html"
    if 'id="equation-eq-polar"' not in page_path.read_text():
        pytest.skip("eq-polar is not on the page")
    page = browser.new_page()
    page.goto(base_url + "book/complex_solution.html#equation-eq-polar")
    page.wait_for_load_state("load")
    opened = page.evaluate(
        """() => {
          const fold = document.getElementById("equation-eq-polar")
            .closest("details");
          return fold === null ? null : fold.open;
        }"""
    )
    page.close()
    assert opened is True
