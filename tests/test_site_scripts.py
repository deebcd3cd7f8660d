"""The scripts of the built site never hold a page up (issue 22: maths
readable on a phone within 1.25 times the load with JavaScript off;
_ext/lean_scripts.py). ``make bench`` times it (benchmarks/phone.py); these
tests check the causes, without timing anything:

* no script file stops the parser but ``documentation_options.js``, and
  none of sphinx-thebe's is loaded;
* the theme's tab stops measure every box before setting any;
* the theme's "back to top" button measures the header at the first
  scroll, not as the page is parsed;
* loading the heaviest pages, the scripts measure every box before they
  change any (counted by wrapping the DOM's getters and setters), so the
  browser lays the page out a few times, not once for each box.
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
import sitetools  # noqa: E402  (scripts/sitetools.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
PAGES = sitetools.html_pages(SITE) if BUILT else ["(no site)"]
#: The pages with the most formulas that scroll on a phone.
HEAVIEST = [
    "book/instructor/exam_questions.html",
    "book/decay_finite_d.html",
    "book/decay_integral.html",
]
#: The reads of a box's size right after a change to the page, at most: 4 on
#: these pages (one per pass of each script); the loops that measured each
#: box after changing the one before made 580 to 1,160.
MOST_FORCED = 12
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
#: JavaScript, run before the page's own: counts the changes the scripts
#: make that can move things (a class or tab stop that changes), and the
#: reads of a size or position that come right after one (each read makes
#: the browser lay the page out again, then and there).
COUNT_FORCED = """(() => {
  let dirty = false;
  window.__forced = 0;
  window.__writes = 0;
  const wrote = () => { dirty = true; window.__writes++; };
  const read = () => { if (dirty) { window.__forced++; dirty = false; } };
  for (const name of ["add", "remove", "toggle"]) {
    const original = DOMTokenList.prototype[name];
    DOMTokenList.prototype[name] = function (...args) {
      const before = this.value;
      const result = original.apply(this, args);
      if (this.value !== before) wrote();
      return result;
    };
  }
  const tab = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "tabIndex");
  Object.defineProperty(HTMLElement.prototype, "tabIndex", {
    get() { return tab.get.call(this); },
    set(value) {
      const before = this.getAttribute("tabindex");
      tab.set.call(this, value);
      if (this.getAttribute("tabindex") !== before) wrote();
    },
    configurable: true,
  });
  const sizes = [
    [Element.prototype, ["scrollWidth", "scrollHeight", "clientWidth",
                         "clientHeight", "scrollLeft", "scrollTop"]],
    [HTMLElement.prototype, ["offsetWidth", "offsetHeight", "offsetTop",
                             "offsetLeft"]],
  ];
  for (const [proto, names] of sizes) {
    for (const name of names) {
      const own = Object.getOwnPropertyDescriptor(proto, name);
      Object.defineProperty(proto, name, {
        get() { read(); return own.get.call(this); },
        set: own.set ? function (value) { own.set.call(this, value); } : undefined,
        configurable: true,
      });
    }
  }
  const rect = Element.prototype.getBoundingClientRect;
  Element.prototype.getBoundingClientRect = function () {
    read();
    return rect.call(this);
  };
})()"""
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.DOTALL)


def head(text: str) -> str:
    return text.split("</head>", 1)[0]


@pytest.mark.parametrize("path", PAGES)
def test_no_script_file_stops_the_parser(site, path):
    """Every script file of a page's head is deferred or async, but
    ``documentation_options.js`` (an inline script after it uses it)."""
    text = (site / path).read_text(encoding="utf-8")
    blocking = [
        Path(src.group(1).split("?")[0]).name
        for attributes, _ in SCRIPT.findall(head(text))
        if (src := re.search(r'\bsrc="([^"]*)"', attributes))
        and not re.search(r"\b(?:defer|async)\b", attributes)
    ]
    assert set(blocking) <= lean_scripts.IN_PLACE, blocking


@pytest.mark.parametrize("path", PAGES)
def test_no_page_loads_thebe(site, path):
    """sphinx-thebe's script, style sheet and configuration (a live kernel
    from unpkg.com, which the book never launches) are on no page."""
    text = (site / path).read_text(encoding="utf-8")
    assert "sphinx-thebe" not in text
    assert lean_scripts.THEBE_CONFIG not in text


def test_theme_measures_every_box_before_setting_tab_stops(site):
    """The built theme's script has the batched loop, and not the theme's."""
    built = (site / "_static" / lean_scripts.THEME_SCRIPT).read_text(encoding="utf-8")
    assert not lean_scripts.THEME_TAB_STOPS.search(built)
    assert built.count("(s=>{const v=s.map(e=>e.scrollWidth") == 1


def test_theme_measures_the_header_at_the_first_scroll(site):
    built = (site / "_static" / lean_scripts.THEME_BOOTSTRAP).read_text("utf-8")
    assert lean_scripts.HEADER_AT_ONCE not in built
    assert built.count(lean_scripts.HEADER_AT_SCROLL) == 1


def theme_file(name: Path) -> str:
    import pydata_sphinx_theme

    theme = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
    return (theme / "static" / name).read_text(encoding="utf-8")


def test_rewriting_the_theme_needs_what_it_rewrites_once():
    """Each rewrite finds its code once in the theme's own files, and fails
    loudly on code it does not know (such as its own output)."""
    batched = lean_scripts.batched_tab_stops(theme_file(lean_scripts.THEME_SCRIPT))
    with pytest.raises(ValueError, match="found 0 times"):
        lean_scripts.batched_tab_stops(batched)
    lazy = lean_scripts.header_at_scroll(theme_file(lean_scripts.THEME_BOOTSTRAP))
    with pytest.raises(ValueError, match="found 0 times"):
        lean_scripts.header_at_scroll(lazy)


@pytest.mark.parametrize("path", HEAVIEST)
def test_scripts_measure_the_page_before_they_change_it(browser, base_url, path):
    """From the navigation to one and a half seconds after the load, on a
    phone, the scripts read a box's size right after a change to the page
    (which makes the browser lay it out again for that read) at most
    MOST_FORCED times; and the formulas that scroll are marked."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.add_init_script(COUNT_FORCED)
    page.goto(base_url + path, wait_until="load")
    page.wait_for_timeout(1500)
    forced, writes = page.evaluate("() => [window.__forced, window.__writes]")
    marked = page.locator(".posenc-more-right").count()
    context.close()
    assert marked > 0
    assert writes > 0  # the count sees the scripts' changes
    assert forced <= MOST_FORCED, f"{forced} reads after {writes} changes"
