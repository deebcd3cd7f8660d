"""Make the built site self-contained and its console clean.

Nothing is fetched from another host: the maths is rendered when the book is
built (``_ext/prerender_maths.py``), so no page loads MathJax, from a CDN
or from the site.

It also gives the site a favicon and the theme a default colour mode, and
writes each script tag once, so a page makes no request that fails and logs
no error (see :func:`quiet_pages` and :func:`unique_scripts`); and it drops
the theme's 1.5 MB icon script, which the theme's style sheet makes
redundant, and the search's index (145 kB) from every page but the search
page, and the highlighted code's spans that do not change its colour
(see :func:`drop_icon_script`).

Display equations get a style sheet and a small script of the book's own
(``static/posenc-widths.css``, ``static/posenc-equations.js``): one that
still does not fit the column (on a phone) scrolls with a scrollbar a reader
can see, fades out at an edge it continues past, and has its number put
under it; and no long word of inline code makes a page wider than a phone.
"""

from __future__ import annotations

import re
from pathlib import Path

#: The book's own static files (shared with explorer_frames.py).
STATIC = Path(__file__).resolve().parent / "static"
#: The book's icon (a sine wave), so browsers do not ask for /favicon.ico.
FAVICON = STATIC / "favicon.svg"


def quiet_pages(app, config) -> None:
    """Keep the browser console of every page free of errors.

    With no favicon, a browser asks for ``/favicon.ico`` and logs a 404; the
    book gets a small one. With no default mode, the theme's inline script
    sets an empty colour mode, which its JavaScript reports as an error
    before falling back to "auto"; "auto" is now the default.
    """
    if not config.html_favicon:
        config.html_favicon = str(FAVICON)
    config.html_context.setdefault("default_mode", "auto")


def add_static_path(app, config) -> None:
    """Serve the style sheet and the script for equations from ``_static``."""
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def unique_scripts(app, pagename, templatename, context, doctree) -> None:
    """Write each script tag once.

    sphinx-thebe registers its inline configuration (``const THEBE_JS_URL =
    ...``) twice in a Jupyter Book build; the second copy throws "Identifier
    'THEBE_JS_URL' has already been declared" in every page's console.
    """
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        key = (script.filename or "", tuple(sorted(script.attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    scripts[:] = unique


#: The theme's Font Awesome script: every icon as JavaScript (1.5 MB), to turn
#: ``<i class="fa-...">`` into inline SVG. The theme's CSS already draws those
#: icons with Font Awesome's web font (156 kB, and only the style in use),
#: so the script only doubles the heaviest download of every page.
ICON_SCRIPT = re.compile(
    r'[ \t]*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?'
)


#: The theme loads Sphinx's search (its script, its word stemmer and the
#: whole index of the book, 145 kB) on every page, for results shown as
#: one types (the theme's ``search_as_you_type``, off in this book). The
#: search box sends its query to ``search.html``, which loads them itself.
SEARCH_SCRIPTS = re.compile(
    r'[ \t]*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js'
    r'|searchindex\.js)"></script>\n?'
)


#: A highlighted code block's lines (Pygments' ``<div class="highlight">``).
CODE = re.compile(r'(<div class="highlight[^"]*"><pre>)(.*?)(</pre>)', re.DOTALL)


def plain_token_classes(static: Path) -> set[str]:
    """Pygments' token classes that look like the code's own text: those
    whose only rule, in the light and in the dark theme, is the colour of
    ``.highlight`` itself (names, punctuation, spaces: half of a code
    block's markup)."""
    sheet = static / "pygments.css"
    if not sheet.exists():
        return set()
    css = sheet.read_text(encoding="utf-8")
    themes = ("light", "dark")
    default = {}
    for theme in themes:
        found = re.search(
            rf'html\[data-theme="{theme}"\] \.highlight \{{[^}}]*?color: (#\w+)', css
        )
        if found is None:
            return set()
        default[theme] = found.group(1)
    rules: dict[str, dict[str, list[str]]] = {}
    for theme, name, body in re.findall(
        r'html\[data-theme="(\w+)"\] \.highlight \.([\w-]+) \{([^}]*)\}', css
    ):
        rules.setdefault(name, {}).setdefault(theme, []).append(body.strip())
    return {
        name
        for name, by_theme in rules.items()
        if all(by_theme.get(t) == [f"color: {default[t]}"] for t in themes)
    }


def plain_code(text: str, plain: set[str]) -> str:
    """``text`` with the spans of :func:`plain_token_classes` unwrapped in
    its code blocks: the same letters in the same colours."""
    if not plain:
        return text
    names = "|".join(map(re.escape, sorted(plain)))
    token = re.compile(rf'<span class="(?:{names})">([^<]*)</span>')
    return CODE.sub(
        lambda m: m.group(1) + token.sub(r"\1", m.group(2)) + m.group(3), text
    )


def drop_icon_script(app, exception) -> None:
    """Remove the icon script from every page written, the search's
    scripts from every page but the search page (:data:`SEARCH_SCRIPTS`),
    and the code's spans that change nothing (:func:`plain_code`)."""
    if exception is not None or app.builder.format != "html":
        return
    if app.config.html_theme_options.get("search_as_you_type"):
        raise ValueError("search_as_you_type needs the search on every page")
    outdir = Path(app.outdir)
    plain = plain_token_classes(outdir / "_static")
    for page in outdir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lean = plain_code(ICON_SCRIPT.sub("", text), plain)
        if page != outdir / "search.html":
            lean = SEARCH_SCRIPTS.sub("", lean)
        if lean != text:
            page.write_text(lean, encoding="utf-8")


def setup(app):
    # What the theme and the extensions lack for WCAG 2.1 AA, mended in the
    # pages this build writes (_ext/accessible.py), on every page as this.
    app.setup_extension("accessible")
    # The theme's style sheets without the rules no page uses, its icon
    # font cut to the icons drawn (_ext/page_weight.py), on every build.
    app.setup_extension("page_weight")
    # Scripts that never hold a page up: deferred, thebe's dropped, the
    # theme's tab stops measured at once (_ext/lean_scripts.py).
    app.setup_extension("lean_scripts")
    # One style sheet and one script file a page, its inline scripts before
    # them (_ext/page_bundles.py), last of all.
    app.setup_extension("page_bundles")
    app.connect("config-inited", quiet_pages)
    app.connect("config-inited", add_static_path)
    app.add_css_file("posenc-widths.css")
    app.add_js_file("posenc-equations.js", loading_method="defer")
    app.connect("html-page-context", unique_scripts, priority=900)
    # after the theme has written its light and dark pygments.css (500)
    app.connect("build-finished", drop_icon_script, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
