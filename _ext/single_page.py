"""Let the one-page build (``make pdf``: Sphinx's ``singlehtml`` builder) render
everything the HTML build renders.

Sphinx looks up how to write a custom node under the builder's name, and only
when there is no entry for that name under its format ("html"). Some
extensions register their nodes for "singlehtml" too, so that entry exists,
and myst-nb's, registered for "html" only (the hidden-code-cell node), are
then unknown to the one-page build, which fails. This copies every "html"
handler that "singlehtml" lacks.

The one page is written as ``book/intro.html`` (the root document's name)
with links relative to the site's root, so its styles, scripts and pictures
do not load there. It is moved to ``index.html``, where they do, and the old
name redirects to it.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx

REDIRECT = '<meta http-equiv="Refresh"'


def share_html_handlers(app: Sphinx) -> None:
    if app.builder.name != "singlehtml":
        return
    handlers = app.registry.translation_handlers
    single = handlers.setdefault("singlehtml", {})
    for node, visitors in handlers.get("html", {}).items():
        single.setdefault(node, visitors)


def move_page_to_root(app: Sphinx, exception: Exception | None) -> None:
    root = app.config.root_doc
    if exception is not None or app.builder.name != "singlehtml" or "/" not in root:
        return
    outdir = Path(app.outdir)
    page = outdir / f"{root}.html"
    text = page.read_text()
    if text.startswith(REDIRECT):
        return  # nothing was rewritten: index.html is up to date
    (outdir / "index.html").write_text(text)
    up = "../" * root.count("/")
    page.write_text(f'{REDIRECT} content="0; url={up}index.html" />\n')


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", share_html_handlers)
    # before sphinx-external-toc writes index.html as a redirect (priority 500)
    app.connect("build-finished", move_page_to_root, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
