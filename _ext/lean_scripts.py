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
  ``documentation_options.js`` stays as it is: the inline script after it
  sets ``DOCUMENTATION_OPTIONS.pagename`` as the page is parsed.
* **dropped**: sphinx-thebe's script, style sheet and configuration
  (``THEBE_JS_URL``, an address on unpkg.com). They serve a "launch a live
  kernel" button, which this book does not have (``_config.yml``: no launch
  buttons; the site runs no kernel and asks no other host for anything).
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
#: measuring it has the browser lay out the dropdown's hidden content.
BATCHED_TAB_STOPS = (
    "requestAnimationFrame(()=>(s=>{const v=s.map(e=>e.scrollWidth>e.clientWidth"
    "||e.scrollHeight>e.clientHeight?0:-1);"
    "s.forEach((e,i)=>{e.tabIndex!==v[i]&&(e.tabIndex=v[i])})})"
    "([...document.querySelectorAll(\\1)]"
    '.filter(e=>!e.closest("details:not([open])"))))'
)
#: The theme sets the tab stops again when the window is resized; so it does
#: when a dropdown opens or closes (``toggle`` does not bubble: captured).
THEME_RESIZE = 'window.addEventListener("resize",t)'
ON_TOGGLE = THEME_RESIZE + ',document.addEventListener("toggle",t,!0)'


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


def lean_page_scripts(app, pagename, templatename, context, doctree) -> None:
    """Defer the page's parser-blocking scripts and drop sphinx-thebe's files."""
    scripts = context.get("script_files")
    if scripts:
        scripts[:] = [deferred(s) for s in scripts if not is_thebe(s)]
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


#: The theme's "back to top" button (bundled in its bootstrap.js) measured
#: the header as the page was parsed, a layout for it alone; it now measures
#: it at the first scroll, the only time it needs it.
THEME_BOOTSTRAP = Path("scripts") / "bootstrap.js"
HEADER_AT_ONCE = (
    'var e=document.getElementsByClassName("bd-header")[0].getBoundingClientRect();'
    'window.addEventListener("scroll",function(){'
)
HEADER_AT_SCROLL = (
    'var e=null;window.addEventListener("scroll",function(){'
    'e=e||document.getElementsByClassName("bd-header")[0].getBoundingClientRect();'
)


def header_at_scroll(source: str) -> str:
    """bootstrap.js measuring the header at the first scroll
    (:data:`HEADER_AT_SCROLL`); a ``ValueError`` if not found once."""
    if source.count(HEADER_AT_ONCE) != 1:
        raise ValueError(
            f"{THEME_BOOTSTRAP}: the header's measure was found "
            f"{source.count(HEADER_AT_ONCE)} times, not once: has "
            "pydata-sphinx-theme changed? (_ext/lean_scripts.py)"
        )
    return source.replace(HEADER_AT_ONCE, HEADER_AT_SCROLL)


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
    :func:`header_at_scroll`, and the search page's scripts deferred."""
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    for name, rewrite, done in (
        (THEME_SCRIPT, batched_tab_stops, "(s=>{const v=s.map("),
        (THEME_BOOTSTRAP, header_at_scroll, HEADER_AT_SCROLL),
    ):
        script = static / name
        if script.exists():
            source = script.read_text(encoding="utf-8")
            if done not in source:
                script.write_text(rewrite(source), encoding="utf-8")
    search = Path(app.outdir) / "search.html"
    if search.exists():
        text = search.read_text(encoding="utf-8")
        if SEARCH_PAGE_SCRIPTS.search(text):
            search.write_text(deferred_search(text), encoding="utf-8")


def setup(app):
    # first of the head's scripts (documentation_options.js is 200)
    app.add_js_file(None, body=RESOLVE_THEME, priority=100)
    # after offline_site.unique_scripts (900): the scripts each written once
    app.connect("html-page-context", lean_page_scripts, priority=910)
    app.connect("build-finished", batch_theme_tab_stops, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
