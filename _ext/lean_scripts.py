"""Scripts that never hold a page up (issue 22: maths readable on a phone
within 1.25 times the page's load with JavaScript off).

On a phone (the CPU 4x slower, ``benchmarks/phone.py``), the exam questions
took 8 s to load with JavaScript on against 3 s with it off, and every
page took 1.6 to 3.8 times as long. The scripts' own code is small; what
cost the time was two loops that measured a thousand boxes one at a time,
each measure after a write, so the browser laid the whole page out again
for each box (docs/maintainers.md, "Scripts"):

* the book's ``posenc-equations.js``, which marks the formulas that scroll
  (it now measures every box, then writes every mark);
* the theme's tab stops for scrolling boxes (pydata-sphinx-theme's
  ``addTabStopsToScrollableElements``: every ``pre`` and cell output, when
  the page has loaded and again 0.3 s after any change to the page, such
  as a quiz's feedback). :func:`batch_theme_tab_stops` rewrites that loop
  in the built copy of the theme's script the same way: measure all, then
  set each ``tabIndex`` that changes; and it measures in the next frame
  (``requestAnimationFrame``), when the browser lays the page out anyway,
  not inside the load event, which it held up by a whole layout.

And, for every page (:func:`lean_page_scripts`):

* **the colour scheme resolved at once** (:data:`RESOLVE_THEME`), so that
  the theme's script, which resolves it again, changes nothing;
* **deferred**: every script file in the page's head that Sphinx and the
  extensions load without ``defer`` or ``async`` (Sphinx's ``doctools.js``
  and ``sphinx_highlight.js``, the copy buttons' two, the toggles', the
  tabs', sphinx-book-theme's) runs once the page is parsed, in the same
  order, instead of stopping the parser where it stands. Each waits for the
  document anyway (``DOMContentLoaded``, or at once if it has passed).
  ``documentation_options.js`` is not deferred: the inline script after it
  sets ``DOCUMENTATION_OPTIONS.pagename`` as the page is parsed (and
  ``page_bundles`` then writes it in the page, before the style sheets).
* **dropped**: sphinx-thebe's script, style sheet and configuration
  (``THEBE_JS_URL``, an address on unpkg.com). They serve a "launch a live
  kernel" button, which this book does not have (``_config.yml``: no launch
  buttons; the site runs no kernel and asks no other host for anything).
  And on a page without what they work on (:data:`ONLY_WITH`),
  sphinx-design's tabs script (no page has tabs), sphinx-copybutton's
  two (a page without code) and sphinx-togglebutton's (a page without a
  solution to fold).
* **loaded on first use**: the theme's Bootstrap (``scripts/bootstrap.js``,
  81 kB, a fifth to a third of the time the scripts took on a phone as a
  page loaded), which serves the header's download menu and the buttons'
  tooltips only. Each page keeps its tag, typed so that no browser runs or
  fetches it (:func:`bootstrap_on_use`), and ``static/posenc-menus.js``
  loads it when a pointer comes over, a finger or key presses, or focus
  comes to, a button that needs it, then plays again a click or arrow key
  that came before it had loaded. The theme's "back to top" button, which
  bootstrap.js set up as the page loaded, is set up by ``posenc-menus.js``
  (:func:`without_back_to_top`).
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.builders.html._assets import _JavaScript

#: Scripts that must run where they stand: an inline script after them uses
#: what they define as the page is parsed.
IN_PLACE = {"documentation_options.js"}
#: sphinx-thebe's files, and the start of its inline configuration.
THEBE_FILES = {"sphinx-thebe.js", "sphinx-thebe.css"}
THEBE_CONFIG = "const THEBE_JS_URL"

#: The theme's tab stops, as pydata-sphinx-theme 0.17.1 ships them
#: (minified): each box measured after the previous box's ``tabIndex`` was
#: set, which makes the browser lay the page out again for every box.
THEME_SCRIPT = Path("scripts") / "pydata-sphinx-theme.js"
THEME_TAB_STOPS = re.compile(
    r"document\.querySelectorAll\((\[[^\]]*\]\.join\(\", \"\))\)"
    r"\.forEach\(e=>\{e\.tabIndex=e\.scrollWidth>e\.clientWidth"
    r"\|\|e\.scrollHeight>e\.clientHeight\?0:-1\}\)"
)
#: The same in the next frame (when the browser lays the page out anyway),
#: measuring every box first, then setting the tab stops that change.
#: A box in a closed dropdown is left for when it opens (:data:`THEME_RESIZE`):
#: measuring it has the browser lay out the dropdown's hidden content. So is
#: a box in a section the browser has not laid out yet (``content-visibility:
#: auto``, static/posenc-book.css): for when it is shown, or laid out in
#: idle time (static/posenc-sections.js, which then fires ``resize``).
BATCHED_TAB_STOPS = (
    "requestAnimationFrame(()=>(s=>{const v=s.map(e=>e.scrollWidth>e.clientWidth"
    "||e.scrollHeight>e.clientHeight?0:-1);"
    "s.forEach((e,i)=>{e.tabIndex!==v[i]&&(e.tabIndex=v[i])})})"
    "([...document.querySelectorAll(\\1)]"
    '.filter(e=>!e.closest("details:not([open])")&&'
    "!(e.checkVisibility&&!e.checkVisibility({contentVisibilityAuto:!0})))))"
)
#: The theme sets the tab stops again when the window is resized; so it does
#: when a dropdown opens or closes, and when a section is shown or skipped
#: (neither event bubbles: captured).
THEME_RESIZE = 'window.addEventListener("resize",t)'
ON_TOGGLE = (
    THEME_RESIZE + ',document.addEventListener("toggle",t,!0)'
    ',document.addEventListener("contentvisibilityautostatechange",t,!0)'
)


#: The colour scheme in force, as the theme's script sets it once the page
#: is parsed (``data-theme``: "light" or "dark"), set before the page is
#: styled: the theme's inline script leaves it "auto" (no stored choice), and
#: the change to "light" had every element of the page styled again (16,600
#: on the exam questions: 0.4 to 0.9 s on a phone).
RESOLVE_THEME = (
    "(d=>{if(d.theme!=='light'&&d.theme!=='dark')"
    "d.theme=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'})"
    "(document.documentElement.dataset)"
)


def _name(asset) -> str:
    return Path(str(getattr(asset, "filename", asset) or "")).name


def is_thebe(asset) -> bool:
    """Whether ``asset`` (a script or style sheet of a page) is sphinx-thebe's."""
    if _name(asset) in THEBE_FILES:
        return True
    body = getattr(asset, "attributes", {}).get("body") or ""
    return body.startswith(THEBE_CONFIG)


def deferred(script):
    """``script`` as it should load: a file that would stop the parser is
    deferred (:data:`IN_PLACE` excepted); anything else as it was."""
    if not isinstance(script, _JavaScript) or not script.filename:
        return script
    attributes = dict(script.attributes)
    if _name(script) in IN_PLACE or {"defer", "async"} & set(attributes):
        return script
    attributes["defer"] = "defer"
    return _JavaScript(script.filename, priority=script.priority, **attributes)


def has_toggles(body: str) -> bool:
    """Whether ``body`` has what sphinx-togglebutton works on (its selector,
    ``.toggle, .admonition.dropdown``): an element of class ``toggle``, or
    an admonition of class ``dropdown``: the exercises' solutions
    (sphinx-exercise) are. The book's other dropdowns are ``<details>``
    (sphinx-design's, myst-nb's hidden cells), which it leaves alone."""
    for value in re.findall(r'\bclass="([^"]*)"', body):
        classes = set(value.split())
        if "toggle" in classes or {"admonition", "dropdown"} <= classes:
            return True
    return False


#: Scripts an extension puts on every page, each needed only on a page whose
#: body has what it works on (a text it holds, or a test of it):
#: sphinx-design's tab sets, sphinx-copybutton's code blocks (its selector,
#: ``div.highlight pre``), sphinx-togglebutton's toggles (the solutions of
#: 15 pages; the other 13 have none).
ONLY_WITH = {
    "design-tabs.js": "sd-tab-set",
    "clipboard.min.js": 'class="highlight',
    "copybutton.js": 'class="highlight',
    "togglebutton.js": has_toggles,
}


def present(marker, body: str) -> bool:
    """Whether ``body`` has what ``marker`` (of :data:`ONLY_WITH`) asks for."""
    return marker(body) if callable(marker) else marker in body


def needed(script, body: str) -> bool:
    """Whether a page whose body is ``body`` needs ``script``."""
    marker = ONLY_WITH.get(_name(script))
    return marker is None or present(marker, body)


def lean_page_scripts(app, pagename, templatename, context, doctree) -> None:
    """Defer the page's parser-blocking scripts; drop sphinx-thebe's files,
    and the scripts the page does not need (:func:`needed`)."""
    scripts = context.get("script_files")
    # no body: the index and search pages, which have no tabs or code
    body = context.get("body") or ""
    if scripts:
        scripts[:] = [
            deferred(s) for s in scripts if not is_thebe(s) and needed(s, body)
        ]
    sheets = context.get("css_files")
    if sheets:
        sheets[:] = [s for s in sheets if not is_thebe(s)]


def batched_tab_stops(source: str) -> str:
    """The theme's script with its tab-stop loop measuring every open box
    first, in the next frame (:data:`BATCHED_TAB_STOPS`), and run again when
    a dropdown opens (:data:`ON_TOGGLE`); a ``ValueError`` if either is not
    found once, as in another version of the theme (look at it again then)."""
    for pattern, replacement in (
        (THEME_TAB_STOPS, BATCHED_TAB_STOPS),
        (re.compile(re.escape(THEME_RESIZE)), ON_TOGGLE.replace("\\", "\\\\")),
    ):
        source, found = pattern.subn(replacement, source)
        if found != 1:
            raise ValueError(
                f"{THEME_SCRIPT}: {pattern.pattern[:40]!r} was found {found} times, "
                "not once: has pydata-sphinx-theme changed? (_ext/lean_scripts.py)"
            )
    return source


#: The theme's Bootstrap, which every page ran as it loaded (81 kB, the
#: biggest script on a phone) for the header's download menu and
#: the buttons' tooltips only: each page keeps its tag with a type that no
#: browser runs or fetches (so the style sheets' purge, ``page_weight``,
#: still reads what it uses), and ``posenc-menus.js`` loads it on first use.
THEME_BOOTSTRAP = Path("scripts") / "bootstrap.js"
BOOTSTRAP_TYPE = "text/x-load-on-use"
MENUS_SCRIPT = "posenc-menus.js"
#: The theme's two tags for it (pydata-sphinx-theme's ``webpack-macros.html``).
BOOTSTRAP_PRELOAD = re.compile(
    r'[ \t]*<link rel="preload" as="script" href="[^"]*_static/scripts/bootstrap\.js'
    r'[^"]*" />\n?'
)
BOOTSTRAP_LOAD = re.compile(
    r'<script defer src="([^"]*_static/scripts/bootstrap\.js[^"]*)"></script>'
)
BOOTSTRAP_ON_USE = rf'<script type="{BOOTSTRAP_TYPE}" src="\1"></script>'
#: A page of the theme (decks, handouts and redirects are not) names the
#: theme's script: in its tag's address, or in a bundle's list of files
#: (``page_bundles``, ``data-bundle``).
THEME_PAGE = "scripts/pydata-sphinx-theme.js"


def bootstrap_on_use(text: str, name: str = "page") -> str:
    """A page of the theme with Bootstrap's tag typed to load on first use
    (:data:`BOOTSTRAP_ON_USE`) and its preload dropped; another page as it
    is; a ``ValueError`` if a page of the theme has not both tags once."""
    if THEME_PAGE not in text or (
        f'type="{BOOTSTRAP_TYPE}"' in text and not BOOTSTRAP_LOAD.search(text)
    ):
        return text
    text, preloads = BOOTSTRAP_PRELOAD.subn("", text)
    text, loads = BOOTSTRAP_LOAD.subn(BOOTSTRAP_ON_USE, text)
    if (preloads, loads) != (1, 1):
        raise ValueError(
            f"{name}: bootstrap.js preloaded {preloads} and loaded {loads} times, "
            "not once each: has pydata-sphinx-theme changed? (_ext/lean_scripts.py)"
        )
    return text


#: The theme's "back to top" button, set up by its bootstrap.js as the page
#: loaded (measuring the header then, a layout for it alone): set up by
#: ``posenc-menus.js`` instead, which measures the header at the first scroll.
BACK_TO_TOP = (
    ',go(function(){var t=document.getElementById("pst-back-to-top");'
    't&&t.addEventListener("click",function(){document.body.scrollTop=0,'
    "document.documentElement.scrollTop=0})}),"
    'go(function(){var t=document.getElementById("pst-back-to-top");if(t){'
    'var e=document.getElementsByClassName("bd-header")[0].getBoundingClientRect();'
    'window.addEventListener("scroll",function(){this.oldScroll>this.scrollY&&'
    'this.scrollY>e.bottom?t.style.display="block":t.style.display="none",'
    "this.oldScroll=this.scrollY})}})"
)


def without_back_to_top(source: str) -> str:
    """bootstrap.js without its "back to top" button (:data:`BACK_TO_TOP`);
    a ``ValueError`` if that is not found once."""
    if source.count(BACK_TO_TOP) != 1:
        raise ValueError(
            f"{THEME_BOOTSTRAP}: the back-to-top button was found "
            f"{source.count(BACK_TO_TOP)} times, not once: has "
            "pydata-sphinx-theme changed? (_ext/lean_scripts.py)"
        )
    return source.replace(BACK_TO_TOP, "")


#: The search page's own scripts, which its template writes without
#: ``defer``: searchtools.js calls doctools.js's ``_ready`` as it runs, and
#: doctools.js is deferred (:func:`deferred`), so they are deferred too, in
#: the same order, after it.
SEARCH_PAGE_SCRIPTS = re.compile(
    r'<script src="((?:_static/searchtools|_static/language_data|searchindex)\.js)">'
)


def deferred_search(text: str) -> str:
    """The search page with its three scripts deferred (a ``ValueError`` if
    they are not all there)."""
    lean, found = SEARCH_PAGE_SCRIPTS.subn(r'<script defer="defer" src="\1">', text)
    if found != 3:
        raise ValueError(f"search.html: {found} of its 3 scripts found")
    return lean


def batch_theme_tab_stops(app, exception) -> None:
    """Rewrite the built copies of the theme's scripts (Sphinx copies them
    again on every build), :func:`batched_tab_stops` and
    :func:`without_back_to_top`; every page with :func:`bootstrap_on_use`,
    and the search page's scripts deferred."""
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    for name, rewrite, done in (
        (THEME_SCRIPT, batched_tab_stops, lambda s: "(s=>{const v=s.map(" in s),
        (THEME_BOOTSTRAP, without_back_to_top, lambda s: "pst-back-to-top" not in s),
    ):
        script = static / name
        if script.exists():
            source = script.read_text(encoding="utf-8")
            if not done(source):
                script.write_text(rewrite(source), encoding="utf-8")
    outdir = Path(app.outdir)
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lean = bootstrap_on_use(text, str(page.relative_to(outdir)))
        if page == outdir / "search.html" and SEARCH_PAGE_SCRIPTS.search(lean):
            lean = deferred_search(lean)
        if lean != text:
            page.write_text(lean, encoding="utf-8")


def setup(app):
    # first of the head's scripts (documentation_options.js is 200)
    app.add_js_file(None, body=RESOLVE_THEME, priority=100)
    # after offline_site.unique_scripts (900): the scripts each written once
    app.connect("html-page-context", lean_page_scripts, priority=910)
    # Bootstrap on first use, and the back-to-top button (:data:`BOOTSTRAP_TYPE`)
    app.add_js_file(MENUS_SCRIPT, loading_method="defer")
    app.connect("build-finished", batch_theme_tab_stops, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
