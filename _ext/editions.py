"""Two editions from the same sources: the book, and the student edition.

The default edition (``make book``) is the website as it always was, with
every solution in a dropdown, plus the instructor section (``book/
instructor/``: the guide, the lesson plans, the homework answer keys).

The student edition (``make student``, ``scripts/student_edition.py``) is
the same build with the config value ``posenc_edition = "student"``. Then
this extension removes every solution, wherever the site would carry it:

* the page: every ``solution`` node of sphinx-exercise (gated
  ``solution-start``/``solution-end`` blocks included, with the code cells
  and outputs inside them) leaves the doctree when it is read, before the
  HTML, the search index or any cross-reference sees it. (sphinx-exercise's
  own ``hide_solutions`` is not enough: it drops the ``solution-start``
  marker and leaves the gated content on the page.)
* the notebook download ``_sources/<page>.ipynb``
  (``_ext/notebook_downloads.py``): solution cells and the solution text of
  Markdown cells are cut out (:func:`strip_notebook`); notebooks.zip packs
  these files (``_ext/notebook_bundle.py``), so it has no solutions either;
* the Markdown copies ``_sources/**/*.md`` (:func:`strip_markdown`).

The instructor pages are not in the student edition's table of contents
(``scripts/student_edition.py`` writes it without them), so they are not
built. ``tests/test_editions.py`` searches every file of the student build
for the text of every solution.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

EDITIONS = ("default", "student")
#: The instructor section: every page below this folder, and only those.
INSTRUCTOR_DIR = "book/instructor"

#: The opening fence of a solution directive (plain or gated), with its
#: fence characters (``` or :::) in group 1.
SOLUTION_OPEN = re.compile(r"^(`{3,}|:{3,})\{(solution|solution-start)\}")
SOLUTION_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}")
FENCE = re.compile(r"^(`{3,}|:{3,})")


def is_student(app: Sphinx) -> bool:
    return app.config.posenc_edition == "student"


def check_edition(app: Sphinx, config) -> None:
    if config.posenc_edition not in EDITIONS:
        raise ExtensionError(
            f"posenc_edition must be one of {EDITIONS}, got {config.posenc_edition!r}"
        )
    if config.posenc_edition == "student":
        config.exclude_patterns.append(f"{INSTRUCTOR_DIR}/**")


# ------------------------------------------------------------ text


def solution_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, past-the-last) line numbers of each solution directive.

    A plain ``{solution}`` spans its body up to its closing fence; a gated
    ``{solution-start}`` spans everything up to and including the
    ``{solution-end}`` directive (whose closing fence follows it).
    """
    spans = []
    index = 0
    while index < len(lines):
        opening = SOLUTION_OPEN.match(lines[index])
        if opening is None:
            index += 1
            continue
        start = index
        fence, kind = opening.groups()
        index += 1
        if kind == "solution":
            index = _after_fence(lines, index, fence)
        else:
            while index < len(lines) and not SOLUTION_END.match(lines[index]):
                index += 1
            if index == len(lines):
                raise ValueError("solution-start without a solution-end")
            end_fence = SOLUTION_END.match(lines[index]).group(1)
            index = _after_fence(lines, index + 1, end_fence)
        spans.append((start, index))
    return spans


def solution_texts(text: str) -> list[str]:
    """The text of each solution of ``text`` (MyST Markdown)."""
    lines = text.splitlines(keepends=True)
    return ["".join(lines[a:b]) for a, b in solution_spans(lines)]


def strip_markdown(text: str) -> str:
    """``text`` (MyST Markdown) without its solution directives."""
    lines = text.splitlines(keepends=True)
    kept = []
    index = 0
    for start, end in solution_spans(lines):
        kept.extend(lines[index:start])
        index = end
    kept.extend(lines[index:])
    return "".join(kept)


def _after_fence(lines: list[str], index: int, fence: str) -> int:
    """The index after the line that closes ``fence`` (nested fences of
    other lengths or characters are skipped over)."""
    depth = 0
    while index < len(lines):
        line = lines[index].rstrip()
        match = FENCE.match(line)
        if match and line == match.group(1) and match.group(1) == fence:
            if depth == 0:
                return index + 1
            depth -= 1
        elif match and line != match.group(1) and match.group(1) == fence:
            depth += 1
        index += 1
    raise ValueError(f"unclosed solution fence {fence}")


def strip_notebook(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``notebook`` (a chapter as jupytext reads it) without its solutions.

    A gated solution spans cells: it opens in a Markdown cell, may hold
    code cells, and ends in a later Markdown cell. The Markdown of the whole
    notebook is stripped as one text, with a marker line where each code
    cell stood; code cells whose marker was cut out are dropped.
    """
    marker = "\x00cell {}\x00\n"
    pieces = []
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            pieces.append(cell.source.rstrip("\n") + "\n")
        pieces.append(marker.format(number))
    text = strip_markdown("".join(pieces))
    kept = []
    parts = re.split("\x00cell (\\d+)\x00\n", text)
    # parts: [markdown before cell 0, "0", markdown after cell 0, "1", ...]
    for position in range(1, len(parts), 2):
        number = int(parts[position])
        cell = notebook.cells[number]
        if cell.cell_type == "markdown":
            source = parts[position - 1].strip("\n")
            if source:
                cell.source = source
                kept.append(cell)
        else:
            before = parts[position - 1].strip("\n")
            if before:
                kept.append(nbformat.v4.new_markdown_cell(before))
            kept.append(cell)
    tail = parts[-1].strip("\n")
    if tail:
        kept.append(nbformat.v4.new_markdown_cell(tail))
    notebook.cells = kept
    return notebook


# ------------------------------------------------------------ Sphinx


def drop_solutions(app: Sphinx, doctree) -> None:
    """Remove every solution from a page of the student edition."""
    if not is_student(app):
        return
    from sphinx_exercise.nodes import (
        solution_end_node,
        solution_node,
        solution_start_node,
    )

    kinds = (solution_node, solution_start_node, solution_end_node)
    for node in list(doctree.findall(lambda n: isinstance(n, kinds))):
        node.parent.remove(node)
    registry = getattr(app.env, "sphinx_exercise_registry", {})
    for label in [k for k, v in registry.items() if v["type"] == "solution"]:
        if registry[label]["docname"] == app.env.docname:
            del registry[label]


def strip_download(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """The page's notebook download without solutions (student edition).
    Runs after _ext/notebook_downloads.py has written it."""
    if not is_student(app) or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    if target.exists():
        notebook = nbformat.read(target, as_version=4)
        nbformat.write(strip_notebook(notebook), target)


def strip_sources(app: Sphinx, exception) -> None:
    """The Markdown copies of the pages without solutions (student)."""
    if exception is not None or not is_student(app):
        return
    for copy in (Path(app.outdir) / "_sources").rglob("*.md*"):
        text = copy.read_text(encoding="utf-8")
        stripped = strip_markdown(text)
        if stripped != text:
            copy.write_text(stripped, encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.add_config_value("posenc_edition", "default", "env", [str])
    app.connect("config-inited", check_edition)
    app.connect("doctree-read", drop_solutions)
    # After notebook_downloads (400), before the theme's buttons (500).
    app.connect("html-page-context", strip_download, priority=410)
    # Before notebook_bundle packs _sources into notebooks.zip.
    app.connect("build-finished", strip_sources, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
