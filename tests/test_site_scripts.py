"""The scripts of the built site never hold a page up (issue 22: maths
readable on a phone within 1.25 times the load with JavaScript off;
_ext/lean_scripts.py). ``make bench`` times it (benchmarks/phone.py); these
tests check the causes, without timing anything:

* no script file stops the parser but ``documentation_options.js``, and
  none of sphinx-thebe's is loaded;
* the theme's tab stops measure every box before setting any;
* no page runs the theme's Bootstrap as it loads: its tag is typed to load
  on first use (``static/posenc-menus.js``), and the download menu, the
  tooltips and the "back to top" button still work, by mouse, finger and
  keyboard, also when a press comes before Bootstrap has loaded;
* the colour mode and the search still work;
* a page loads sphinx-design's and sphinx-copybutton's scripts only if it
  has tabs or code;
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


@pytest.mark.parametrize("path", PAGES)
def test_no_page_runs_bootstrap_as_it_loads(site, path):
    """A page of the theme neither loads nor preloads bootstrap.js: it keeps
    its tag once, typed to load on first use, and loads posenc-menus.js."""
    text = (site / path).read_text(encoding="utf-8")
    if lean_scripts.THEME_PAGE not in text:
        assert "bootstrap.js" not in text
        return
    tags = re.findall(r"<(?:script|link)\b[^>]*scripts/bootstrap\.js[^>]*>", text)
    assert tags == [
        re.search(r'<script type="text/x-load-on-use" src="[^"]*"', text).group(0) + ">"
    ], tags
    assert lean_scripts.MENUS_SCRIPT in sitetools.page_assets(text)


@pytest.mark.parametrize("path", PAGES)
def test_scripts_load_only_where_needed(site, path):
    """sphinx-design's tabs script only on a page with tabs,
    sphinx-copybutton's two only on a page with code, sphinx-togglebutton's
    only on a page with its toggles."""
    text = (site / path).read_text(encoding="utf-8")
    scripts = set(sitetools.page_assets(text))
    for script, marker in lean_scripts.ONLY_WITH.items():
        assert (script in scripts) <= lean_scripts.present(marker, text), script


def test_toggles_are_found_as_togglebutton_finds_them():
    """An element of class ``toggle`` or an admonition of class
    ``dropdown`` (an exercise's solution) needs togglebutton.js; a
    ``dropdown-toggle`` button, a ``<details>`` dropdown or a
    ``sidebar-toggle`` does not."""
    assert lean_scripts.has_toggles('<div class="cell toggle">')
    assert lean_scripts.has_toggles('<div class="solution dropdown admonition">')
    assert lean_scripts.has_toggles('<div class="admonition note dropdown">')
    assert not lean_scripts.has_toggles(
        '<button class="btn dropdown-toggle"><label class="sidebar-toggle">'
        '<details class="sd-dropdown"><div class="dropdown">'
    )


def test_only_our_script_sets_up_back_to_top(site):
    """bootstrap.js no longer sets up the "back to top" button (which
    measured the header as the page loaded): posenc-menus.js does."""
    built = (site / "_static" / lean_scripts.THEME_BOOTSTRAP).read_text("utf-8")
    assert "pst-back-to-top" not in built
    assert lean_scripts.BACK_TO_TOP not in built
    ours = (site / "_static" / lean_scripts.MENUS_SCRIPT).read_text("utf-8")
    assert "pst-back-to-top" in ours


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
    lazy = lean_scripts.without_back_to_top(theme_file(lean_scripts.THEME_BOOTSTRAP))
    with pytest.raises(ValueError, match="found 0 times"):
        lean_scripts.without_back_to_top(lazy)


def test_bootstrap_on_use_needs_the_theme_s_two_tags():
    """The theme's two tags for bootstrap.js, as its template writes them,
    become one typed tag; a page of the theme without them fails loudly; a
    page that is done, or not the theme's, is left as it is."""
    import pydata_sphinx_theme

    macros = (
        Path(pydata_sphinx_theme.__file__).parent
        / "theme"
        / "pydata_sphinx_theme"
        / "static"
        / "webpack-macros.html"
    ).read_text(encoding="utf-8")
    written = re.sub(r"\{\{ pathto\('([^']*)', 1\) \}\}", r"../\1", macros)
    page = written + f'<script defer src="../{lean_scripts.THEME_PAGE}"></script>'
    lean = lean_scripts.bootstrap_on_use(page)
    assert 'rel="preload" as="script" href="../_static/scripts/bootstrap' not in lean
    assert lean.count('<script type="text/x-load-on-use" src="../_static/scripts/') == 1
    assert lean_scripts.bootstrap_on_use(lean) == lean
    deck = '<script defer src="_static/scripts/bootstrap.js"></script>'
    assert lean_scripts.bootstrap_on_use(deck) == deck  # not a page of the theme
    with pytest.raises(ValueError, match="preloaded 0 and loaded 0 times"):
        lean_scripts.bootstrap_on_use(f'<script src="{lean_scripts.THEME_PAGE}">')


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
    page.evaluate(sitetools.WAIT_FOR_SCRIPTS)  # those run after the load too
    page.wait_for_timeout(1500)
    forced, writes = page.evaluate("() => [window.__forced, window.__writes]")
    marked = page.locator(".posenc-more-right").count()
    # posenc-sections.js lays out each section in idle time after the load,
    # reading its height: one layout of that section alone, meant (each
    # section of a chapter, _ext/static/posenc-sections.js)
    sections = page.locator(".bd-article > section > section").count()
    context.close()
    assert marked > 0
    assert writes > 0  # the count sees the scripts' changes
    assert forced <= MOST_FORCED + sections, f"{forced} reads after {writes} changes"


#: A page with the header's download menu, in every build.
MENU_PAGE = "book/the_encoding.html"
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
TOGGLE = '[data-bs-toggle="dropdown"]'
MENU = ".dropdown-download-buttons .dropdown-menu"


def menu_page(browser, base_url, hold: bool = False, **size):
    """A fresh page at MENU_PAGE, loaded and idle, with the requests for
    bootstrap.js it made, and its script errors; ``hold``: bootstrap.js is
    answered only when the test calls the returned ``release``."""
    context = browser.new_context(**(size or DESKTOP))
    page = context.new_page()
    asked, errors, held = [], [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "request",
        lambda request: asked.append(request.url) if "bootstrap" in request.url else 0,
    )
    if hold:
        page.route("**/scripts/bootstrap.js*", lambda route: held.append(route))
    page.goto(base_url + MENU_PAGE, wait_until="networkidle")
    page.wait_for_timeout(300)

    def release():
        for _ in range(50):  # the request may still be on its way
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "bootstrap.js was never asked for"
        held.pop().continue_()
        page.wait_for_function("() => window.bootstrap !== undefined", timeout=5000)

    return context, page, asked, errors, release


def menu_state(page):
    """The download menu: open (Bootstrap's ``show``: the theme's style sheet
    also shows it while the pointer is over the button), named expanded, and
    where the focus is."""
    return page.evaluate(
        """([toggle, menu]) => {
          const t = document.querySelector(toggle);
          const m = document.querySelector(menu);
          return {
            open: m.classList.contains("show"),
            expanded: t.getAttribute("aria-expanded"),
            focusInMenu: m.contains(document.activeElement),
            focusOnToggle: document.activeElement === t,
          };
        }""",
        [TOGGLE, MENU],
    )


def test_bootstrap_loads_on_first_use_and_menu_works_by_keyboard(browser, base_url):
    """No request for bootstrap.js as the page loads and idles, nor when the
    reader scrolls; focus on the download button loads it; then Enter opens
    the menu, ArrowDown moves into it, Escape closes it and gives focus back."""
    context, page, asked, errors, _ = menu_page(browser, base_url)
    assert asked == []
    assert page.evaluate("() => window.bootstrap") is None
    page.mouse.wheel(0, 2000)
    page.wait_for_timeout(300)
    assert asked == []
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator(TOGGLE).focus()
    page.wait_for_function("() => window.bootstrap !== undefined", timeout=5000)
    assert len(asked) == 1
    assert menu_state(page)["open"] is False
    page.keyboard.press("Enter")
    state = menu_state(page)
    assert state["open"] and state["expanded"] == "true"
    page.keyboard.press("ArrowDown")
    assert menu_state(page)["focusInMenu"]
    page.keyboard.press("Escape")
    state = menu_state(page)
    assert not state["open"] and state["expanded"] == "false"
    assert state["focusOnToggle"]
    context.close()
    assert errors == []


def test_a_press_before_bootstrap_has_loaded_is_played_again(browser, base_url):
    """bootstrap.js held back: a mouse click on the download button, and an
    ArrowDown on it, made before it has loaded, open the menu once it has;
    a tooltip under the pointer shows; a tap on a phone opens it too."""
    context, page, asked, errors, release = menu_page(browser, base_url, hold=True)
    page.locator(TOGGLE).click()
    assert not menu_state(page)["open"]
    release()
    page.wait_for_function(
        f"() => document.querySelector({MENU!r}).classList.contains('show')",
        timeout=5000,
    )
    assert menu_state(page)["expanded"] == "true"
    page.keyboard.press("Escape")
    context.close()

    context, page, asked, errors, release = menu_page(browser, base_url, hold=True)
    page.locator(TOGGLE).focus()
    page.keyboard.press("ArrowDown")
    release()
    page.wait_for_function(
        f"() => document.querySelector({MENU!r}).contains(document.activeElement)",
        timeout=5000,
    )
    assert menu_state(page)["open"]
    context.close()

    context, page, asked, errors, release = menu_page(browser, base_url, hold=True)
    page.locator(".theme-switch-button").hover()
    release()
    tip = page.locator('[role="tooltip"]')
    tip.wait_for(state="visible", timeout=3000)
    assert tip.inner_text().strip() == "Color mode"
    context.close()

    context, page, asked, errors, release = menu_page(
        browser, base_url, hold=True, **PHONE
    )
    page.locator(TOGGLE).tap()
    release()
    page.wait_for_function(
        f"() => document.querySelector({MENU!r}).classList.contains('show')",
        timeout=5000,
    )
    context.close()
    assert errors == []


def test_back_to_top_without_bootstrap(browser, base_url):
    """Scrolled down, then a little up: the "back to top" button shows, and
    takes the reader to the top; bootstrap.js is not loaded for it."""
    context, page, asked, errors, _ = menu_page(browser, base_url, **PHONE)
    button = page.locator("#pst-back-to-top")
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(300)
    assert not button.is_visible()
    page.mouse.wheel(0, -300)
    button.wait_for(state="visible", timeout=3000)
    button.click()
    page.wait_for_function("() => window.scrollY === 0", timeout=5000)
    assert asked == [] and errors == []
    context.close()


def test_colour_mode_and_search_still_work(browser, base_url):
    """The theme's own buttons, which Bootstrap only gave tooltips: the
    colour mode switches on a click, the search opens with Ctrl+K and with
    its button; no script error."""
    context, page, asked, errors, _ = menu_page(browser, base_url)
    theme = "() => document.documentElement.dataset.theme"
    before = page.evaluate(theme)
    page.locator(".theme-switch-button").click()
    page.wait_for_function(f"() => ({theme})() !== {before!r}", timeout=5000)
    dialog = "() => document.querySelector('#pst-search-dialog').open"
    page.keyboard.press("Control+k")
    page.wait_for_function(dialog, timeout=5000)
    page.keyboard.press("Escape")
    page.wait_for_function(f"() => !({dialog})()", timeout=5000)
    page.locator("button.search-button__button:visible").first.click()
    page.wait_for_function(dialog, timeout=5000)
    context.close()
    assert errors == []


#: JavaScript: whether the dialog of each sidebar is open, and whether the
#: wide screen's primary sidebar is hidden.
SIDEBARS = """() => [
  document.getElementById("pst-primary-sidebar-modal").open,
  document.getElementById("pst-secondary-sidebar-modal").open,
  document.getElementById("pst-primary-sidebar").classList.contains("pst-sidebar-hidden"),
]"""


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
def test_the_sidebar_buttons_that_show_open_their_sidebars(browser, base_url):
    """The sidebar buttons a reader sees, in the article's header (the
    header's own are hidden): on a phone each opens its sidebar as a
    dialog, which Escape closes, focus back on the button; on a desktop the
    first hides the table of contents and shows it again. The theme's
    scripts wire only the first button of each kind on the page, the hidden
    one (seen failing: nothing opened, at either size)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(base_url + "book/rope.html", wait_until="load")
    page.evaluate(sitetools.WAIT_FOR_SCRIPTS)
    for index, kind in enumerate(["primary", "secondary"]):
        button = page.locator(f".bd-header-article .{kind}-toggle")
        assert button.is_visible()
        button.click()
        opened = page.evaluate(SIDEBARS)
        assert opened[index] and not opened[1 - index], (kind, opened)
        page.keyboard.press("Escape")
        assert page.evaluate(SIDEBARS)[:2] == [False, False]
        assert page.evaluate(
            f"() => document.activeElement.matches('.bd-header-article .{kind}-toggle')"
        )
    context.close()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base_url + "book/rope.html", wait_until="load")
    page.evaluate(sitetools.WAIT_FOR_SCRIPTS)
    button = page.locator(".bd-header-article .primary-toggle")
    for hidden in (True, False):
        button.click()
        assert page.evaluate(SIDEBARS) == [False, False, hidden]
    page.close()
