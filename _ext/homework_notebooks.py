"""Homework: an assignment notebook for each derivation chapter.

The notebooks are generated from the chapters, never written by hand: for
each ``{exercise}`` of a chapter of the part "The derivation" of
``_toc.yml``, the exercise as the chapter states it, then its tasks from
``posenc.homework.TASKS`` (the question to answer in code, starter code and
a cell ``check(task, answer)``). A check says right or wrong with a hint,
never the answer; an exercise without a task is answered in writing.

* ``make homework`` (``scripts/homework.py``) writes them to
  ``_build/homework/<chapter>.ipynb``;
* every HTML build (both editions) publishes them as
  ``homework/<chapter>.ipynb`` and links each from the top of its
  chapter's "Exercises" section.

The reference solutions are on the answer-key page of the instructor
section (``book/instructor/homework_answers.md``), in the default edition
only.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import yaml
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.osutil import relative_uri

ROOT = Path(__file__).resolve().parent.parent
#: The part of _toc.yml whose chapters get an assignment.
PART = "The derivation"
FOLDER = "homework"

EXERCISE = re.compile(r"^```\{exercise\}[^\n]*\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
#: MyST roles, as plain Markdown for a notebook outside the book.
ROLES = [
    (re.compile(r"\{(?:ref|numref)\}`([^`<]+?)\s*<[^`>]+>`"), r"\1"),
    (re.compile(r"\{eq\}`([^`]+)`"), r"the chapter's equation `\1`"),
    (re.compile(r"\{prf:ref\}`([^`]+)`"), r"the chapter's theorem `\1`"),
    (re.compile(r"\{(?:ref|numref)\}`([^`]+)`"), r"the section `\1` of the book"),
    (re.compile(r"\{cite:[tp]\}`([^`]+)`"), r"[\1]"),
]


def derivation_chapters(toc: Path = ROOT / "_toc.yml") -> list[str]:
    """The names of the chapters that get an assignment, in book order."""
    parts = yaml.safe_load(toc.read_text(encoding="utf-8"))["parts"]
    part = next(p for p in parts if p.get("caption", "").split(":")[0] == PART)
    return [Path(entry["file"]).name for entry in part["chapters"]]


def exercises(text: str) -> list[tuple[str, str]]:
    """(label, statement) of each exercise of a chapter (MyST Markdown)."""
    found = []
    for body in EXERCISE.findall(text):
        lines = body.splitlines()
        label = next(
            line.removeprefix(":label:").strip()
            for line in lines
            if line.startswith(":label:")
        )
        statement = "\n".join(line for line in lines if not line.startswith(":"))
        found.append((label, plain_markdown(statement.strip())))
    return found


def plain_markdown(text: str) -> str:
    """``text`` with the book's MyST roles written out as Markdown."""
    for pattern, replacement in ROLES:
        text = pattern.sub(replacement, text)
    return text


def chapter_title(text: str) -> str:
    return next(line[2:].strip() for line in text.splitlines() if line.startswith("# "))


def assignment(chapter: str, number: int) -> nbformat.NotebookNode:
    """The assignment notebook of ``chapter`` (the ``number``-th chapter)."""
    from posenc.homework import tasks_of

    text = (ROOT / "book" / f"{chapter}.md").read_text(encoding="utf-8")
    tasks = tasks_of(chapter)
    new_md, new_code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [
        new_md(
            f"# Homework {number}: {plain_markdown(chapter_title(text))}\n\n"
            "The exercises of the chapter, with tasks you answer in code. Put "
            "your answer in place of the `...` of each task and run its cell: "
            "`check` says whether the answer is right and, if not, gives a "
            "hint. It never shows the answer. Exercises without a task are "
            "answered in writing.\n\n"
            "Run this notebook where the book's notebooks run (the folder of "
            "`notebooks.zip`, with its environment): it needs `posenc`."
        ),
        new_code(
            "import numpy as np\n\nimport posenc\nfrom posenc.homework import check"
        ),
    ]
    for index, (label, statement) in enumerate(exercises(text), start=1):
        cells.append(new_md(f"## Exercise {number}.{index}\n\n{statement}"))
        mine = [task for task in tasks if task.exercise == label]
        if not mine:
            cells.append(new_md("*Answer this exercise in writing.*"))
        for task in mine:
            cells.append(new_md(f"**Task `{task.name}`.** {task.prompt}"))
            cells.append(new_code(f'{task.starter}\n\ncheck("{task.name}", answer)'))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    notebook.metadata["posenc"] = {"homework": chapter}
    return notebook


def write_assignments(folder: Path) -> list[Path]:
    """Every assignment notebook, written to ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number, chapter in enumerate(derivation_chapters(), start=1):
        target = folder / f"{chapter}.ipynb"
        nbformat.write(assignment(chapter, number), target)
        written.append(target)
    return written


# ------------------------------------------------------------ Sphinx


def link_assignment(app: Sphinx, doctree, docname: str) -> None:
    """A line at the top of a derivation chapter's "Exercises" section
    that offers its assignment notebook."""
    if app.builder.format != "html":
        return
    chapter = Path(docname).name
    if not docname.startswith("book/") or chapter not in derivation_chapters():
        return
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is None or title.astext() != "Exercises":
            continue
        uri = relative_uri(
            app.builder.get_target_uri(docname), f"{FOLDER}/{chapter}.ipynb"
        )
        paragraph = nodes.paragraph(classes=["posenc-homework"])
        paragraph += nodes.Text("Homework: ")
        paragraph += nodes.reference(
            "", "these exercises as an assignment notebook", refuri=uri
        )
        paragraph += nodes.Text(
            ", with tasks whose answers you check yourself (a check says "
            "right or wrong and gives a hint, never the answer)."
        )
        section.insert(section.index(title) + 1, paragraph)
        return


def publish(app: Sphinx, exception) -> None:
    if exception is None and app.builder.format == "html":
        write_assignments(Path(app.outdir) / FOLDER)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", link_assignment)
    app.connect("build-finished", publish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
