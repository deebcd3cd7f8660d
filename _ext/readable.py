"""Pages that read well at every width: the book's style sheet and linked URLs.

* ``static/posenc-book.css`` on every page: a figure is shown at its design
  width (the width its PNG records, ``posenc.plots``) and never wider; on a
  phone it spans the whole screen (the column's padding would shrink it
  below three quarters of its design width); a figure that links to its
  full-size PNG (Sphinx links every image given a width) says so with the
  pointer; the theme's "back to top" button, which on a narrow screen sat in
  the middle of the text (over a caption, as often as not), is a small round
  button in the sticky header bar there, where it covers nothing.
* ``static/posenc-sections.js`` with it: a chapter's sections (h2) are
  laid out and painted when they come near the screen
  (``content-visibility: auto``), then, after the load, in idle time.
* The introduction's figures carry no number: the introduction is no
  chapter, and a bare "Fig. 1" would read like chapter 1's (see
  ``appendix_numbers.py`` for the appendix's "Fig. A.1").
* URLs in the bibliography are links. sphinxcontrib-bibtex links an entry's
  ``url`` and ``doi`` fields; a URL written in a ``note`` ("Code:
  https://github.com/...") stays text, so :func:`link_urls` turns every
  ``http(s)://`` in a citation's text into a link.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

STATIC = Path(__file__).resolve().parent / "static"
STYLE = "posenc-book.css"
SECTIONS = "posenc-sections.js"
#: A URL in running text, without the punctuation that ends a sentence.
URL = re.compile(r"https?://[^\s<>\"]*[^\s<>\".,;:)]")


def add_style(app: Sphinx, config) -> None:
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def unnumber_root_figures(app: Sphinx, env) -> list[str]:
    """Drop the numbers Sphinx gave the figures of the root document."""
    numbers = env.toc_fignumbers.get(app.config.root_doc, {})
    numbers.pop("figure", None)
    return []


def link_urls(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Turn each URL in the text of a citation into a link to itself."""
    for citation in list(doctree.findall(nodes.citation)):
        for text in list(citation.findall(nodes.Text)):
            if isinstance(text.parent, nodes.reference) or not URL.search(text):
                continue
            parts: list[nodes.Node] = []
            start = 0
            for match in URL.finditer(text):
                if match.start() > start:
                    parts.append(nodes.Text(text[start : match.start()]))
                url = match.group()
                parts.append(nodes.reference(url, url, refuri=url))
                start = match.end()
            if start < len(text):
                parts.append(nodes.Text(text[start:]))
            text.parent.replace(text, parts)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", add_style)
    app.add_css_file(STYLE)
    app.add_js_file(SECTIONS, loading_method="defer")
    app.connect("doctree-resolved", link_urls)
    # after Sphinx's table-of-contents collector (priority 500) numbers them
    app.connect("env-get-updated", unnumber_root_figures, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
