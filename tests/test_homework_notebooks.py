"""Homework notebooks: generated for every derivation chapter and RoPE from
their exercises (titled by the problem bank's tags), they run top to bottom
in a fresh kernel three ways: with the starter code (every check "not
attempted"), with the answer key's cells in place of the tasks (every
check "correct") and as a student who answers wrongly (every check "not
yet"); they show no answer; the site links each from its chapter.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from homework_cases import KEY, KEY_CELLS, ROOT, key_imports, wrong_cell

from posenc import homework

sys.path.insert(0, str(ROOT / "_ext"))

import homework_notebooks  # noqa: E402

#: nbclient's command line, beside this Python (the venv's).
EXECUTE = str(Path(sys.executable).with_name("jupyter-execute"))


def test_the_assignments_are_the_derivation_and_rope_in_book_order():
    chapters = homework_notebooks.assignment_chapters()
    assert chapters == [*homework_notebooks.derivation_chapters(), "rope"]
    numbers = homework_notebooks.chapter_numbers()
    assert [numbers[c] for c in chapters] == [1, 2, 3, 4, 5, 6, 9]  # as on the site


def test_exercises_are_read_with_or_without_a_title():
    text = (
        "```{exercise} Standard · prove, code\n:label: ex-a\n\nShow it.\n```\n\n"
        "```{exercise}\n:label: ex-b\n\nCompute {eq}`eq-x`.\n```\n"
    )
    assert homework_notebooks.exercises(text) == [
        homework_notebooks.Exercise("ex-a", "Standard · prove, code", "Show it."),
        homework_notebooks.Exercise(
            "ex-b", "", "Compute the chapter's equation `eq-x`."
        ),
    ]


@pytest.mark.parametrize("chapter", homework_notebooks.assignment_chapters())
def test_every_task_belongs_to_an_exercise_of_its_chapter(chapter):
    text = (ROOT / "book" / f"{chapter}.md").read_text()
    found = homework_notebooks.exercises(text)
    assert found and all(exercise.title for exercise in found)  # tagged
    labels = [exercise.label for exercise in found]
    assert homework.tasks_of(chapter), chapter
    for task in homework.tasks_of(chapter):
        assert task.exercise in labels, task.name


def _task_cells(notebook) -> dict[str, nbformat.NotebookNode]:
    return {
        cell.metadata["posenc"]["task"]: cell
        for cell in notebook.cells
        if cell.cell_type == "code" and "posenc" in cell.metadata
    }


def _filled(notebook, source_of) -> nbformat.NotebookNode:
    """``notebook`` with each task cell's code replaced by ``source_of``
    (the task's name) and the answer key's imports after the notebook's."""
    notebook = nbformat.from_dict(notebook)
    for name, cell in _task_cells(notebook).items():
        cell.source = source_of(name)
    notebook.cells.insert(2, nbformat.v4.new_code_cell(key_imports()))
    return notebook


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every assignment, executed three ways in fresh kernels (the venv's
    python3), in one jupyter-execute: {way: {chapter: notebook}}.
    nbclient runs in a process of its own, so nothing it leaves behind (an
    event loop, ZMQ sockets) reaches the other tests of this worker."""
    folder = tmp_path_factory.mktemp("homework")
    written = homework_notebooks.write_assignments(folder / "starter")
    ways = {"starter": None, "key": KEY_CELLS.__getitem__, "wrong": wrong_cell}
    paths = {}
    for way, source_of in ways.items():
        (folder / way).mkdir(exist_ok=True)
        for path in written:
            notebook = nbformat.read(path, as_version=4)
            if source_of is not None:
                notebook = _filled(notebook, source_of)
            target = folder / way / path.name
            nbformat.write(notebook, target)
            paths[way, path.stem] = target
    execute = [EXECUTE, "--inplace", "--timeout=300", "--kernel_name=python3"]
    subprocess.run(
        [*execute, *map(str, paths.values())], check=True, capture_output=True
    )
    found: dict = {}
    for (way, chapter), path in paths.items():
        found.setdefault(way, {})[chapter] = nbformat.read(path, as_version=4)
    return found


def _printed(cell) -> list[str]:
    """The non-blank lines a cell printed (blank lines between the checks'
    messages are not counted)."""
    text = "".join(output.get("text", "") for output in cell.outputs)
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(
    "way, says",
    [("starter", "not attempted"), ("key", "correct."), ("wrong", "not yet")],
)
def test_every_notebook_runs_and_each_check_says(runs, way, says):
    assert set(runs[way]) == set(homework_notebooks.assignment_chapters())
    for chapter, notebook in runs[way].items():
        cells = _task_cells(notebook)
        assert sorted(cells) == sorted(t.name for t in homework.tasks_of(chapter))
        for name, cell in cells.items():
            lines = _printed(cell)
            assert lines, (chapter, name)
            for line in lines:
                assert line.startswith(f"{name}: {says}"), (chapter, line)
        others = [
            line
            for cell in notebook.cells
            if cell.cell_type == "code" and "posenc" not in cell.metadata
            for line in _printed(cell)
        ]
        assert not others, (chapter, others)  # only the tasks print


def test_notebooks_show_no_answers(runs):
    """A generated notebook holds no digest, no hidden test's input, and
    no line of the answer key that its own starter code does not hold."""
    hidden = [test.says for task in homework.TASKS.values() for test in task.hidden]
    for chapter, notebook in runs["starter"].items():
        text = "\n".join(cell.source for cell in notebook.cells)
        assert not re.search(r"[0-9a-f]{64}", text), chapter
        assert not re.search(r"\{[a-z:-]+\}`", text), chapter  # MyST roles
        assert not any(says in text for says in hidden), chapter
        for name, cell in _task_cells(notebook).items():
            for line in KEY_CELLS[name].splitlines()[1:]:
                line = line.strip()
                if len(line) > 12 and line not in cell.source:
                    assert line not in text, (name, line)


def test_a_notebook_reads_as_an_assignment(runs):
    """The RoPE notebook as a student opens it: its title, what check does,
    each exercise with its tag, each task with what its answer is."""
    cells = runs["starter"]["rope"].cells
    assert cells[0].source.startswith("# Homework 9: From adding")
    assert "hidden tests" in cells[0].source and "restart the kernel" in cells[0].source
    headings = [c.source.splitlines()[0] for c in cells if c.source.startswith("## ")]
    assert headings == [
        "## Exercise 9.1 (Warm-up · prove, code)",
        "## Exercise 9.2 (Challenge · prove)",
        "## Exercise 9.3 (Standard · prove, code)",
        "## Exercise 9.4 (Challenge · code)",
    ]
    task_lines = [c.source for c in cells if c.source.startswith("**Task")]
    assert task_lines[0].startswith(
        "**Task `rope-rotate`** (a function, checked by hidden tests)."
    )


def test_answer_key_is_stored_as_jupytext_writes_it_with_short_lines():
    text = KEY.read_text()
    assert jupytext.writes(jupytext.reads(text, fmt="md:myst"), fmt="md:myst") == text
    for cell in jupytext.read(KEY).cells:
        if cell.cell_type == "code":
            assert all(len(line) <= 72 for line in cell.source.splitlines())


@pytest.mark.parametrize("name", sorted(homework.TASKS))
def test_each_key_cell_answers_its_task_alone(name):
    """One cell a task, which sets ``answer`` and checks it (the notebook
    run with the key puts the cell in place of the task's)."""
    source = KEY_CELLS[name]
    assert re.search(rf'^assert check\("{name}", answer\)$', source, re.MULTILINE)
    assert "answer = " in source
    others = set(re.findall(r'check\("([a-z-]+)"', source)) - {name}
    assert not others, others


def test_the_site_links_each_assignment(site):
    """The top of each chapter's "Exercises" offers its notebook, which the
    site holds (the pages of a partial build that are there)."""
    checked = 0
    for chapter in homework_notebooks.assignment_chapters():
        page = site / "book" / f"{chapter}.html"
        if not page.exists():
            continue
        html = page.read_text()
        link = re.search(r'class="posenc-homework".*?href="([^"]+)"', html, re.DOTALL)
        assert link and link.group(1) == f"../homework/{chapter}.ipynb", chapter
        assert (site / "homework" / f"{chapter}.ipynb").exists(), chapter
        checked += 1
    assert checked
