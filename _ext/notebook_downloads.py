"""Each chapter page offers its notebook, executed, for download.

The chapters are MyST Markdown notebooks (``book/<name>.md``): text, with no
outputs. A reader who downloads a chapter wants a notebook with its figures,
so this extension publishes the chapter with the outputs the page shows as
``_sources/<page>.ipynb`` and links it from the page's download menu (the
theme's ``.ipynb`` button).

The outputs come from myst-nb's execution cache (jupyter-cache), matched to
the chapter's code as myst-nb matches them. Not from
``_build/jupyter_execute/<page>.ipynb``: myst-nb 1.x writes the notebook it
read there, and when the outputs come from the cache they are merged into a
copy, so that file has none (the bug readers met: a download with no
figures).

Published notebooks are cleaned for a reader without the book's build:

* an explorer's output keeps its PNG only (the live widget view needs a
  running kernel, and the static player needs the website's frames); running
  the cell in Jupyter brings the sliders back;
* the embedded widget state and the jupytext pairing are dropped, so the file
  is a plain notebook that opens anywhere.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from parallel_execution import is_text_notebook
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: Dropped from outputs that carry a widget view (see the module docstring).
WIDGET_COMPANIONS = (WIDGET_VIEW, "text/html")


def reader_notebook(executed: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``executed`` as a reader downloads it (see the module docstring)."""
    for cell in executed.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                for mime in WIDGET_COMPANIONS:
                    data.pop(mime, None)
    for key in ("widgets", "jupytext", "source_map"):
        executed.metadata.pop(key, None)
    return executed


def executed_notebook(app: Sphinx, pagename: str) -> nbformat.NotebookNode | None:
    """The chapter ``pagename`` with the outputs of its cached execution, or
    None if the page is not a chapter."""
    import jupytext
    from jupyter_cache import get_cache

    source = Path(app.env.doc2path(pagename))
    if not is_text_notebook(source):
        return None
    config = app.env.mystnb_config
    cache = get_cache(config.execution_cache_path)
    try:
        _, notebook = cache.merge_match_into_notebook(jupytext.read(source))
    except KeyError:
        # The chapter failed to execute (myst-nb reports why) or execution is
        # off: say so, and let the build go on to report everything else.
        logger.warning(
            f"{source.name}: no executed notebook in the cache, so its page "
            "offers no .ipynb download"
        )
        return None
    return notebook


def offer_notebook(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """Publish the page's executed notebook and name it for the theme's menu."""
    if app.builder.format != "html":
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    notebook = executed_notebook(app, pagename)
    if notebook is None:
        # No stale download from an earlier build: the page offers none, and
        # notebooks.zip (_ext/notebook_bundle.py) must not pack it either.
        target.unlink(missing_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(reader_notebook(notebook), target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app: Sphinx) -> dict:
    # Before the theme builds its header buttons (priority 500).
    app.connect("html-page-context", offer_notebook, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
