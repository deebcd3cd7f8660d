"""Make the built site self-contained: MathJax is served from the site itself.

Sphinx loads MathJax from a CDN by default, so a page read offline (in a
classroom, on a train) shows raw TeX. MathJax 3.2.2 comes from PyPI instead,
in the package ``django-static-mathjax`` (which despite its name holds only
MathJax's files and needs no Django; Apache-2.0, its LICENSE is copied too).
After an HTML build this extension copies the part of it a browser needs into
``_static/mathjax``, and ``_config.yml`` points ``mathjax_path`` there.

It also gives the site a favicon and the theme a default colour mode, and
writes each script tag once, so a page makes no request that fails and logs
no error (see :func:`quiet_pages` and :func:`unique_scripts`); and it drops
the theme's 1.5 MB icon script, which the theme's style sheet makes
redundant (see :func:`drop_icon_script`).

Display equations get a style sheet and a small script of the book's own
(``static/posenc-widths.css``, ``static/posenc-equations.js``): one that
still does not fit the column (on a phone) scrolls with a scrollbar a reader
can see, fades out at an edge it continues past, and has its number put
under it; and no long word of inline code makes a page wider than a phone.
"""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path

#: The book's own static files (shared with explorer_frames.py).
STATIC = Path(__file__).resolve().parent / "static"
#: The book's icon (a sine wave), so browsers do not ask for /favicon.ico.
FAVICON = STATIC / "favicon.svg"

# What the combined TeX -> CommonHTML bundle loads: itself, the TeX extensions
# it autoloads on demand (\boldsymbol, \cancel, ...), its menu, its fonts.
# Left out: the speech-rule engine (sre, ~20 MB) and the other bundles.
WANTED = [
    "tex-mml-chtml.js",
    "input/tex/extensions",
    "output/chtml/fonts/woff-v2",
    "ui",
    "a11y",
    "adaptors",
]


def mathjax_source() -> Path:
    root = resources.files("mathjax") / "static" / "mathjax"
    return Path(str(root))


def copy_mathjax(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    source = mathjax_source()
    target = Path(app.outdir) / "_static" / "mathjax"
    stamp = target / ".version"
    version = (source / "package.json").read_text()
    if stamp.exists() and stamp.read_text() == version:
        return  # already copied by an earlier build
    if target.exists():
        shutil.rmtree(target)
    for entry in WANTED:
        origin = source / "es5" / entry
        if origin.is_dir():
            shutil.copytree(origin, target / entry)
        else:
            (target / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, target / entry)
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    stamp.write_text(version)


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


def drop_icon_script(app, exception) -> None:
    """Remove the icon script from every page written."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        lean = ICON_SCRIPT.sub("", text)
        if lean != text:
            page.write_text(lean, encoding="utf-8")


def setup(app):
    # What the theme and the extensions lack for WCAG 2.1 AA, mended in the
    # pages this build writes (_ext/accessible.py), on every page as this.
    app.setup_extension("accessible")
    app.connect("config-inited", quiet_pages)
    app.connect("config-inited", add_static_path)
    app.add_css_file("posenc-widths.css")
    app.add_js_file("posenc-equations.js", loading_method="defer")
    app.connect("html-page-context", unique_scripts, priority=900)
    app.connect("build-finished", copy_mathjax)
    app.connect("build-finished", drop_icon_script)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
