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

**Instructor-only material in a chapter** (the answers of an in-class
activity, say) leaves the student edition in the same places as solutions,
the same way. Mark it with the class ``instructor-only``:

* a directive: ``:class-container: instructor-only`` on a ``{dropdown}``
  (``:class: instructor-only`` on an admonition, ``{div} instructor-only``);
  title a dropdown so a reader of the full site sees whose it is ("For
  instructors: ...");
* a code cell: the tag ``instructor-only`` (its outputs and figures go
  with it; a ``deeper`` cell after an instructor-only dropdown needs the
  tag too, or the build warns);
* a slide: ``edition: instructor`` (``_ext/slides.py``: the student deck
  keeps the slide's number and title and shows its ``placeholder``).

Slide comments (``<!-- slide: ...``, ``_ext/slide_comments.py``) hold the speaker
notes, and the notes hold the plans' answers (the student decks have none):
the student edition cuts every slide comment out of its pages' HTML source
and its Markdown and notebook copies. (The decks are built from the
chapters' own sources, which keep them.)

In the student edition such a node leaves the doctree before Sphinx's
domains see its labels (:class:`DropEditionMaterial`), so a ``{numref}``
to a figure inside it fails the student build: say it in a
``{div} student-only`` block beside it instead. That block is the mirror
image: it shows in the student edition only (the default edition drops
it), e.g. "The activity's answers are discussed in class." where the
answers were. ``tests/test_editions.py`` checks the rope chapter's
activity answers are in the default site and nowhere in the student one.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

EDITIONS = ("default", "student")
#: The instructor section: every page below this folder, and only those.
INSTRUCTOR_DIR = "book/instructor"

#: The opening fence of a solution directive (plain or gated), with its
#: fence characters (``` or :::) in group 1.
SOLUTION_OPEN = re.compile(r"^(`{3,}|:{3,})\{(solution|solution-start)\}")
SOLUTION_END = re.compile(r"^(`{3,}|:{3,})\{solution-end\}")
FENCE = re.compile(r"^(`{3,}|:{3,})")

#: The class (and code-cell tag) of material only the default edition has.
INSTRUCTOR_ONLY = "instructor-only"
#: The class of what only the student edition has (what it says instead).
STUDENT_ONLY = "student-only"
#: A directive's opening fence, its name and its argument.
DIRECTIVE_OPEN = re.compile(r"^(`{3,}|:{3,})\{([\w:-]+)\}(.*)$")
#: An option line of a directive that marks it instructor-only: a class
#: option (``:class:``, ``:class-container:``) or a cell's tags (``:tags:``
#: or ``tags:`` in its YAML block) that name the class.
MARKING = re.compile(rf"^(?::class[\w-]*:|:tags:|tags:).*(?<![\w-]){INSTRUCTOR_ONLY}\b")
#: The first line of a slide comment (``_ext/slide_comments.py``).
SLIDE_OPEN = re.compile(r"^<!--\s*slide:")

logger = logging.getLogger(__name__)


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


def instructor_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, past-the-last) line numbers of each piece of instructor-only
    material: a directive or code cell marked ``instructor-only`` (its
    option lines, or a ``{div}``'s argument, name the class) and every slide
    comment (the speaker notes)."""
    spans = []
    index = 0
    while index < len(lines):
        line = lines[index].rstrip("\n")
        opening = DIRECTIVE_OPEN.match(line)
        if SLIDE_OPEN.match(line):
            end = index + 1
            while end < len(lines) and lines[end].rstrip() != "-->":
                end += 1
            spans.append((index, min(end + 1, len(lines))))
            index = end + 1
            continue
        if opening is None:
            index += 1
            continue
        fence, name, argument = opening.groups()
        marked = name == "div" and INSTRUCTOR_ONLY in argument.split()
        option = index + 1
        in_yaml = option < len(lines) and lines[option].rstrip() == "---"
        option += in_yaml
        while option < len(lines):
            text = lines[option].rstrip()
            if in_yaml and text == "---":
                break
            if not in_yaml and not text.startswith(":"):
                break
            marked = marked or bool(MARKING.match(text.lstrip()))
            option += 1
        end = _after_fence(lines, index + 1, fence)
        if marked:
            spans.append((index, end))
            index = end
        else:
            index += 1  # a marked directive may be nested in this one
    return spans


def solution_texts(text: str) -> list[str]:
    """The text of each solution of ``text`` (MyST Markdown)."""
    lines = text.splitlines(keepends=True)
    return ["".join(lines[a:b]) for a, b in solution_spans(lines)]


def strip_markdown(text: str) -> str:
    """``text`` (MyST Markdown) without its solution directives and its
    instructor-only material."""
    lines = text.splitlines(keepends=True)
    kept = []
    index = 0
    for start, end in sorted(solution_spans(lines) + instructor_spans(lines)):
        kept.extend(lines[index:start])
        index = max(index, end)  # a span inside one already cut out
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
    """``notebook`` (a chapter as jupytext reads it) without its solutions
    and its instructor-only material (cells tagged so; the rest is cut out of
    the Markdown, as :func:`strip_markdown` does).

    A gated solution spans cells: it opens in a Markdown cell, may hold
    code cells, and ends in a later Markdown cell. The Markdown of the whole
    notebook is stripped as one text, with a marker line where each code
    cell stood; code cells whose marker was cut out are dropped.
    """
    marker = "\x00cell {}\x00\n"
    pieces = []
    notebook.cells = [
        cell
        for cell in notebook.cells
        if INSTRUCTOR_ONLY not in cell.get("metadata", {}).get("tags", [])
    ]
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


def _marks(node: nodes.Node, mark: str) -> bool:
    """Whether ``node`` carries the class ``mark`` (a dropdown keeps its
    ``class-container`` apart until it is rendered), or is a code cell
    tagged with it."""
    if not isinstance(node, nodes.Element):
        return False
    tags = node.get("cell_metadata", {}).get("tags", [])
    classes = [*node.get("classes", []), *node.get("container_classes", [])]
    return mark in classes or mark in tags


class DropEditionMaterial(SphinxTransform):
    """Remove what the edition does not have: instructor-only material and
    slide comments from the student edition, student-only blocks from the
    default edition.

    It runs before Sphinx's domains collect labels (``SphinxDomains``,
    priority 850), so a label inside removed material is not a target: a
    reference to it fails the build rather than linking to nothing."""

    default_priority = 840

    def apply(self, **kwargs) -> None:
        student = self.config.posenc_edition == "student"
        self._check_deeper_cells()
        drop = INSTRUCTOR_ONLY if student else STUDENT_ONLY
        document = self.document

        def dropped(node: nodes.Node) -> bool:
            if student and isinstance(node, nodes.raw):
                return bool(SLIDE_OPEN.match(node.astext().lstrip()))
            return _marks(node, drop)

        for node in list(document.findall(dropped)):
            if node.parent is None:
                continue
            for inner in node.findall(nodes.Element):
                for key in inner["ids"]:
                    document.ids.pop(key, None)
                for name in inner["names"]:
                    document.nameids.pop(name, None)
                    document.nametypes.pop(name, None)
            node.parent.remove(node)

    def _check_deeper_cells(self) -> None:
        """A ``deeper`` cell goes into the dropdown before it (folding.py):
        after an instructor-only dropdown it must be instructor-only too, or
        the student edition would fold it into an earlier dropdown."""
        from folding import DEEPER_TAG, _is_dropdown

        for cell in self.document.findall(lambda n: _marks(n, DEEPER_TAG)):
            siblings = cell.parent.children[: cell.parent.index(cell)]
            before = next((s for s in reversed(siblings) if _is_dropdown(s)), None)
            if (
                before is not None
                and _marks(before, INSTRUCTOR_ONLY)
                and not _marks(cell, INSTRUCTOR_ONLY)
            ):
                logger.warning(
                    "a 'deeper' cell after an instructor-only dropdown is not "
                    f"tagged {INSTRUCTOR_ONLY!r}: the student edition would "
                    "show it",
                    location=cell,
                )


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
    app.add_transform(DropEditionMaterial)
    # After notebook_downloads (400), before the theme's buttons (500).
    app.connect("html-page-context", strip_download, priority=410)
    # Before notebook_bundle packs _sources into notebooks.zip.
    app.connect("build-finished", strip_sources, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
