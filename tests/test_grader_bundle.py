"""The homework grader comes with the default edition's ``notebooks.zip``
(``grader/``: ``_ext/homework_notebooks.py``, ``grader_files``), so a
lecturer who has only the site can grade: the zip holds the repository's
``scripts/grade.py`` byte for byte, the course it grades
(``exercises.json``: the chapters with an assignment and each exercise's
level, as the book was built) and how to run it. The student edition's zip
has no grader. The quick tests read the built zip;
:func:`grade_the_answer_key` runs the zip's grader in the zip's own fresh
environment (``test_bundle.py``'s fresh-venv test calls it, in ``make
bundle-test``): the answer key of the encoding chapter's homework gets
every mark.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import grade
import nbformat
import pytest
from homework_cases import KEY_CELLS, key_imports

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import sitetools  # noqa: E402  (scripts/sitetools.py)
from homework_notebooks import grading_course  # noqa: E402
from notebook_bundle import BUNDLE, FOLDER  # noqa: E402

from posenc import homework  # noqa: E402

SITE = sitetools.site_dir()
STUDENT_ZIP = SITE.parent / "student" / "html" / BUNDLE
CHAPTER = "the_encoding"


def _zip_files(path: Path) -> dict[str, bytes]:
    if not path.is_file():
        pytest.fail(f"no {BUNDLE} at {path}: build the book first (make book)")
    with zipfile.ZipFile(path) as archive:
        return {
            info.filename.removeprefix(f"{FOLDER}/"): archive.read(info)
            for info in archive.infolist()
        }


def test_the_default_zip_holds_the_grader_and_its_course():
    files = _zip_files(SITE / BUNDLE)
    assert files["grader/grade.py"] == (ROOT / "scripts" / "grade.py").read_bytes()
    assert json.loads(files["grader/exercises.json"]) == grading_course()
    readme = files["grader/README.md"].decode()
    assert "grader/grade.py SUBMISSIONS" in readme
    assert "container" in readme  # a submission is code: say where to run it
    # the zip's own README lists them among what is inside
    for name in ("grader/grade.py", "grader/exercises.json"):
        assert f"`{name}`" in files["README.md"].decode()


def test_the_student_zip_has_no_grader():
    if not STUDENT_ZIP.is_file():
        pytest.skip("no student edition built (make student)")
    assert not [name for name in _zip_files(STUDENT_ZIP) if name.startswith("grader/")]


def test_the_grader_reads_its_course_from_beside_it(tmp_path, monkeypatch):
    """In the zip there is no book to read: ``exercises.json`` is the
    course, whatever the repository says."""
    course = {"chapters": ["rope"], "exercises": {"rope": [["ex-x", "challenge"]]}}
    path = tmp_path / "exercises.json"
    path.write_text(json.dumps(course))
    monkeypatch.setattr(grade, "COURSE_FILE", path)
    grade.course.cache_clear()
    try:
        assert grade.assignment_chapters() == ["rope"]
        assert grade.chapter_exercises("rope") == [("ex-x", "challenge")]
    finally:
        monkeypatch.undo()
        grade.course.cache_clear()
    assert grade.assignment_chapters() == grading_course()["chapters"]


def answer_key_notebook(starter: Path) -> nbformat.NotebookNode:
    """The homework notebook ``starter`` with the answer key's code in each
    task's cell (and the key's imports after the notebook's own)."""
    notebook = nbformat.read(starter, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code" and "posenc" in cell.metadata:
            cell.source = KEY_CELLS[cell.metadata["posenc"]["task"]]
    notebook.cells.insert(2, nbformat.v4.new_code_cell(key_imports()))
    return notebook


def grade_the_answer_key(python: Path, folder: Path, env: dict) -> None:
    """In the unzipped bundle ``folder`` with its environment's ``python``:
    the zip's grader gives the answer key of the encoding chapter's homework
    (the site's ``homework/the_encoding.ipynb``) every automatic mark."""
    submissions = folder.parent / "submissions"
    submissions.mkdir()
    starter = SITE / "homework" / f"{CHAPTER}.ipynb"
    nbformat.write(answer_key_notebook(starter), submissions / f"{CHAPTER}.ipynb")
    out = folder.parent / "grades.csv"
    command = [python, "grader/grade.py", submissions, "--out", out, "--timeout", "120"]
    result = subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    with out.open() as handle:
        rows = [row for row in csv.DictReader(handle) if row["task"]]
    tasks = {task.name for task in homework.tasks_of(CHAPTER)}
    assert {row["task"] for row in rows} == tasks
    wrong = [row for row in rows if float(row["marks"]) != float(row["max_marks"])]
    assert not wrong, wrong
