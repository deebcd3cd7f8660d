"""Homework: an assignment notebook for each derivation chapter and RoPE.

The notebooks are generated from the chapters, never written by hand: for
each ``{exercise}`` of a chapter of the part "The derivation" of
``_toc.yml`` (and of the chapters in ``BEYOND``), the exercise as the
chapter states it, with its title (the problem bank's tag, "Standard ·
prove, code"), then its tasks from ``posenc.homework.TASKS``: what to
answer, starter code and a cell ``check(task, answer)``. A task asks for a
value, a function (checked by hidden tests that live in ``posenc``, not in
the notebook) or a step of a proof (a sympy expression). A check says right
or wrong with a hint, never the answer, and judges a limited number of
different wrong answers per kernel; an exercise without a task is answered
in writing.

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

import json
import re
from pathlib import Path
from typing import NamedTuple

import nbformat
import yaml
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.osutil import relative_uri

ROOT = Path(__file__).resolve().parent.parent
#: The part of _toc.yml whose chapters get an assignment.
PART = "The derivation"
#: Chapters beyond that part that get one too.
BEYOND = ("rope",)
FOLDER = "homework"

#: An exercise directive: its title (whatever follows the directive's
#: name, e.g. "Warm-up · compute") and its body.
EXERCISE = re.compile(
    r"^```\{exercise\}([^\n]*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL
)
#: What the answer of a task is, by the task's kind.
KINDS = {
    "number": "a number",
    "integer": "an integer",
    "integers": "a tuple of integers",
    "boolean": "True or False",
    "property": "a value, checked by its property",
    "code": "a function, checked by hidden tests",
    "proof": "a proof step, checked by sympy",
}
#: MyST roles, as plain Markdown for a notebook outside the book.
ROLES = [
    (re.compile(r"\{(?:ref|numref)\}`([^`<]+?)\s*<[^`>]+>`"), r"\1"),
    (re.compile(r"\{eq\}`([^`]+)`"), r"the chapter's equation `\1`"),
    (re.compile(r"\{prf:ref\}`([^`]+)`"), r"the chapter's theorem `\1`"),
    (re.compile(r"\{(?:ref|numref)\}`([^`]+)`"), r"the section `\1` of the book"),
    (re.compile(r"\{cite:[tp]\}`([^`]+)`"), r"[\1]"),
]


class Exercise(NamedTuple):
    label: str
    title: str  # the problem bank's tag, e.g. "Standard · prove, code"
    statement: str  # plain Markdown


def _parts(toc: Path) -> list[dict]:
    return yaml.safe_load(toc.read_text(encoding="utf-8"))["parts"]


def derivation_chapters(toc: Path = ROOT / "_toc.yml") -> list[str]:
    """The names of the chapters of the part ``PART``, in book order."""
    part = next(p for p in _parts(toc) if p.get("caption", "").split(":")[0] == PART)
    return [Path(entry["file"]).name for entry in part["chapters"]]


def chapter_numbers(toc: Path = ROOT / "_toc.yml") -> dict[str, int]:
    """The book's number of each chapter of a numbered part (the numbers
    run on across parts, as on the site)."""
    names = [
        Path(entry["file"]).name
        for part in _parts(toc)
        if part.get("numbered")
        for entry in part["chapters"]
    ]
    return {name: number for number, name in enumerate(names, start=1)}


def assignment_chapters(toc: Path = ROOT / "_toc.yml") -> list[str]:
    """The chapters that get an assignment, in book order: ``PART`` and
    ``BEYOND``."""
    chosen = {*derivation_chapters(toc), *BEYOND}
    numbers = chapter_numbers(toc)
    return sorted(chosen, key=numbers.__getitem__)


def exercises(text: str) -> list[Exercise]:
    """Each exercise of a chapter (MyST Markdown), titled or not."""
    found = []
    for title, body in EXERCISE.findall(text):
        lines = body.splitlines()
        label = next(
            line.removeprefix(":label:").strip()
            for line in lines
            if line.startswith(":label:")
        )
        statement = "\n".join(line for line in lines if not line.startswith(":"))
        found.append(Exercise(label, title.strip(), plain_markdown(statement.strip())))
    return found


def plain_markdown(text: str) -> str:
    """``text`` with the book's MyST roles written out as Markdown."""
    for pattern, replacement in ROLES:
        text = pattern.sub(replacement, text)
    return text


def chapter_title(text: str) -> str:
    return next(line[2:].strip() for line in text.splitlines() if line.startswith("# "))


INTRODUCTION = """\
The exercises of chapter {number}, with tasks you answer in code. Put your
answer in place of the `...` of each task and run its cell: `check` says
whether it is right and, if not, gives a hint (the idea or the step to use,
never the answer). A task asks for one of three things:

* **a value** (a number, a tuple, a matrix): right to the precision the
  task states;
* **a function** you write: `check` runs hidden tests on it, at inputs this
  notebook does not show, and names the first property that fails;
* **a proof step**, as a sympy expression: `check` verifies it
  symbolically, and does not accept the goal merely restated.

`check` judges only a few different wrong answers per task ({value} for a
value, up to {code} for a function) in one kernel; after that it stops saying right or
wrong until you restart the kernel. So work an answer out rather than try
values. Exercises without a task are answered in writing.

Run this notebook where the book's notebooks run (the folder of
`notebooks.zip`, with its environment): it needs `posenc`."""


def assignment(chapter: str, number: int) -> nbformat.NotebookNode:
    """The assignment notebook of ``chapter``, the ``number``-th chapter
    of the book."""
    from posenc.homework import tasks_of
    from posenc.homework_judge import BUDGETS

    text = (ROOT / "book" / f"{chapter}.md").read_text(encoding="utf-8")
    tasks = tasks_of(chapter)
    new_md, new_code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [
        new_md(
            f"# Homework {number}: {plain_markdown(chapter_title(text))}\n\n"
            + INTRODUCTION.format(
                number=number, value=BUDGETS["number"], code=BUDGETS["code"]
            )
        ),
        new_code(
            "import numpy as np\nimport sympy as sp\n\n"
            "import posenc\nfrom posenc.homework import check"
        ),
    ]
    for index, exercise in enumerate(exercises(text), start=1):
        title = f" ({exercise.title})" if exercise.title else ""
        cells.append(
            new_md(f"## Exercise {number}.{index}{title}\n\n{exercise.statement}")
        )
        mine = [task for task in tasks if task.exercise == exercise.label]
        if not mine:
            cells.append(new_md("*Answer this exercise in writing.*"))
        for task in mine:
            cells.append(
                new_md(f"**Task `{task.name}`** ({KINDS[task.kind]}). {task.prompt}")
            )
            cell = new_code(f'{task.starter}\n\ncheck("{task.name}", answer)')
            cell.metadata["posenc"] = {"task": task.name}
            cells.append(cell)
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
    numbers = chapter_numbers()
    written = []
    for chapter in assignment_chapters():
        target = folder / f"{chapter}.ipynb"
        nbformat.write(assignment(chapter, numbers[chapter]), target)
        written.append(target)
    return written


def grading_course() -> dict:
    """What the grader (``scripts/grade.py``) reads of the book: the
    chapters with an assignment, in book order, and each one's exercises
    as (label, level), the level the first word of its tag, lower case
    ("" if untagged). In the repository the grader computes it; in
    ``notebooks.zip`` it reads it from ``grader/exercises.json``."""
    levels = {}
    for chapter in assignment_chapters():
        text = (ROOT / "book" / f"{chapter}.md").read_text(encoding="utf-8")
        levels[chapter] = [
            [found.label, found.title.split("·")[0].strip().lower()]
            for found in exercises(text)
        ]
    return {"chapters": assignment_chapters(), "exercises": levels}


GRADER_README = """\
# The homework grader

`grade.py` grades the homework notebooks your students hand in (the
notebooks of the book's `homework/` folder, or of its chapter pages'
"Exercises" sections). Run it in this folder's parent, the unzipped
`notebooks.zip`, in the environment its README sets up (it needs posenc,
nbformat and nbclient, which `requirements.txt` installs):

```bash
.venv/bin/python grader/grade.py SUBMISSIONS --out grades.csv --feedback feedback
```

`SUBMISSIONS` holds one notebook per student (`alice.ipynb`) or a folder
per student (`alice/rope.ipynb`). Each notebook runs top to bottom in a
fresh kernel, so run the grader in a container or a throwaway account:
a submission is code. It writes a row per task to `grades.csv`, a row per
student to `grades-summary.csv` (with a blank column for the exercises
you mark by hand), and, with `--feedback`, a Markdown file per student
with each task's verdict and hint, never its answer. `--rubric
rubric.toml` changes the marks; `python grader/grade.py --help` lists
every option. The book's instructor guide, "Grading the homework", says
more. `exercises.json` is the course it grades: the chapters with an
assignment and each exercise's level, as the book was built.
"""


def grader_files(app: Sphinx) -> dict[str, bytes]:
    """The grader, in the default edition's ``notebooks.zip`` (a lecturer's
    edition; the student edition's zip has none): ``grader/grade.py``,
    the course it grades and how to run it."""
    if getattr(app.config, "posenc_edition", "default") == "student":
        return {}
    course = json.dumps(grading_course(), indent=1, ensure_ascii=False) + "\n"
    return {
        "grader/grade.py": (ROOT / "scripts" / "grade.py").read_bytes(),
        "grader/exercises.json": course.encode(),
        "grader/README.md": GRADER_README.encode(),
    }


# ------------------------------------------------------------ Sphinx


def link_assignment(app: Sphinx, doctree, docname: str) -> None:
    """A line at the top of the "Exercises" section of a chapter with an
    assignment that offers its notebook."""
    if app.builder.format != "html":
        return
    chapter = Path(docname).name
    if not docname.startswith("book/") or chapter not in assignment_chapters():
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
            ", with tasks you check yourself: values, functions run against "
            "hidden tests, and proof steps checked by sympy (a check says "
            "right or wrong and gives a hint, never the answer)."
        )
        section.insert(section.index(title) + 1, paragraph)
        return


def publish(app: Sphinx, exception) -> None:
    if exception is None and app.builder.format == "html":
        write_assignments(Path(app.outdir) / FOLDER)


def setup(app: Sphinx) -> dict:
    app.setup_extension("notebook_bundle")  # its event, for grader_files
    app.connect("notebook-bundle-extra-files", grader_files)
    app.connect("doctree-resolved", link_assignment)
    app.connect("build-finished", publish)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
