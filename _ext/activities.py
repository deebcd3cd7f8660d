"""In-class code activities: short notebooks a student runs in class.

An activity is a MyST Markdown notebook in ``book/activities/`` (not a page
of the book: ``_toc.yml`` does not list it), whose front matter names its
chapter::

    posenc:
      chapter: book/rope

Every HTML build (both editions) publishes it, without outputs, as
``activities/<name>.ipynb``; links it from the top of its chapter's
"Exercises" section; and puts it in ``notebooks.zip`` under
``activities/`` (the event of ``_ext/notebook_bundle.py``, which loads this
extension). Cells a student writes in are tagged ``edit-me``; the reference
answer is ``book/activities/<name>_answers.py``, one ``# %%`` cell for each
of them, shown on the instructor's guide only. ``tests/test_activity.py``
runs each activity from a clean kernel with its starter code (it must stop
with a message that says what to write) and with the answers (every cell,
the self-check included, must pass).
"""

from __future__ import annotations

from pathlib import Path

import jupytext
import nbformat
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.osutil import relative_uri

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "book" / "activities"
#: Where the site and the zip put the notebooks.
FOLDER = "activities"


def activities() -> list[Path]:
    """The activities' sources (answers files aside)."""
    return sorted(SOURCES.glob("*.md"))


def activity_notebook(path: Path) -> nbformat.NotebookNode:
    """The student's notebook of an activity: its cells, no outputs, cell
    ids numbered (the same bytes in every build and both editions)."""
    notebook = jupytext.read(path)
    for key in ("jupytext", "posenc"):
        notebook.metadata.pop(key, None)
    for number, cell in enumerate(notebook.cells):
        cell.id = f"cell-{number}"
    return notebook


def chapter_of(path: Path) -> str:
    return jupytext.read(path).metadata["posenc"]["chapter"]


def notebook_bytes(path: Path) -> bytes:
    return nbformat.writes(activity_notebook(path)).encode() + b"\n"


def title_of(path: Path) -> str:
    notebook = activity_notebook(path)
    first = notebook.cells[0].source.splitlines()[0]
    return first.removeprefix("# ").removeprefix("In-class activity: ")


# ------------------------------------------------------------ Sphinx


def link_activity(app: Sphinx, doctree, docname: str) -> None:
    """A line at the top of the chapter's "Exercises" section that offers
    its activities."""
    if app.builder.format != "html":
        return
    mine = [path for path in activities() if chapter_of(path) == docname]
    if not mine:
        return
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is None or title.astext() != "Exercises":
            continue
        here = app.builder.get_target_uri(docname)
        for path in mine:
            uri = relative_uri(here, f"{FOLDER}/{path.stem}.ipynb")
            paragraph = nodes.paragraph(classes=["posenc-activity"])
            paragraph += nodes.Text("In-class activity (10 minutes): ")
            paragraph += nodes.reference("", title_of(path), refuri=uri)
            paragraph += nodes.Text(
                ", a notebook with starter code and a self-check (also in "
                "notebooks.zip, under activities/)."
            )
            section.insert(section.index(title) + 1, paragraph)
        return


def publish(app: Sphinx, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir) / FOLDER
    folder.mkdir(exist_ok=True)
    for path in activities():
        (folder / f"{path.stem}.ipynb").write_bytes(notebook_bytes(path))


def bundle_files(app: Sphinx) -> dict[str, bytes]:
    return {f"{FOLDER}/{p.stem}.ipynb": notebook_bytes(p) for p in activities()}


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", link_activity)
    # before notebooks.zip is written (its listener has the default 500)
    app.connect("build-finished", publish, priority=400)
    app.connect("notebook-bundle-extra-files", bundle_files)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
