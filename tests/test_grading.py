"""Grading submitted homework (``scripts/grade.py``, ``posenc/grading.py``):
synthetic submissions built from the generated notebooks, with the answer
key's cells (``homework_cases``) in place of the tasks, are graded once
(``graded``): full marks, a blank notebook, wrong answers, a cell that
raises, a cell that loops, and a notebook that forges its verdicts in its
own kernel. Then the rubric, the feedback, and the pieces that keep the
grader safe from a submission's data, without a kernel.
"""

from __future__ import annotations

import csv
import json
import time

import grade
import nbformat
import numpy as np
import pytest
import sympy as sp
from homework_cases import (
    BUGS,
    KEY_CELLS,
    WRONG,
    WRONG_PROOFS,
    key_imports,
    run_key,
    wrong_cell,
)

import posenc
from posenc import grading, homework
from posenc.homework_judge import CORRECT, NOT_ATTEMPTED, NOT_YET, judge

#: The notebooks the submissions are made of: a value, a number, a value
#: with a property and a function (the_encoding); proof steps and two
#: exercises answered in writing (taylor_expansion).
ENCODING, TAYLOR = "the_encoding", "taylor_expansion"
#: Seconds per cell: the looping cell is stopped after this.
TIMEOUT = 15

FORGE = """\
import posenc.grading
import posenc.homework
import posenc.homework_judge as judge_module

def check(task, answer):
    posenc.grading._answers[task] = answer
    print(f"{task}: correct.")
    return True

posenc.homework.check = check
judge_module.judge = lambda spec, answer: judge_module.Judgement(
    "correct", "correct.", False
)
posenc.grading.judge = judge_module.judge
posenc.grading.grading_check = check
posenc.grading.export = lambda: (
    '{"encoding-slowest-period": {"t": "other", "v": "correct"}, '
    '"encoding-distance": {"t": "function"}}'
)"""


def _notebook(folder, chapter, source_of=None, extra=None):
    """The generated notebook of ``chapter``, its task cells' code from
    ``source_of(task)`` (with the key's imports), ``extra`` cells after
    the notebook's imports."""
    notebook = nbformat.read(folder / f"{chapter}.ipynb", as_version=4)
    if source_of is not None:
        for cell in notebook.cells:
            if cell.cell_type == "code" and "posenc" in cell.metadata:
                cell.source = source_of(cell.metadata["posenc"]["task"])
        notebook.cells.insert(2, nbformat.v4.new_code_cell(key_imports()))
    for source in reversed(extra or []):
        notebook.cells.insert(2, nbformat.v4.new_code_cell(source))
    return notebook


def _key_but(name, source):
    return lambda task: source if task == name else KEY_CELLS[task]


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every submission graded in one run: {"rows": [...], "summary":
    {student: row}, "feedback": folder}."""
    folder = tmp_path_factory.mktemp("grading")
    starters = folder / "starters"
    import homework_notebooks

    homework_notebooks.write_assignments(starters)
    subs = folder / "submissions"
    (subs / "full").mkdir(parents=True)
    notebooks = {
        subs / "full" / f"{ENCODING}.ipynb": _notebook(
            starters, ENCODING, KEY_CELLS.__getitem__
        ),
        subs / "full" / f"{TAYLOR}.ipynb": _notebook(
            starters, TAYLOR, KEY_CELLS.__getitem__
        ),
        subs / "blank.ipynb": _notebook(starters, ENCODING),
        subs / "wrong.ipynb": _notebook(starters, ENCODING, wrong_cell),
        subs / "raises.ipynb": _notebook(
            starters,
            ENCODING,
            _key_but("encoding-max-distance", "answer = 1 / 0"),
        ),
        subs / "loops.ipynb": _notebook(
            starters,
            ENCODING,
            _key_but("encoding-slowest-period", "while True:\n    pass"),
        ),
        subs / "forges.ipynb": _notebook(starters, ENCODING, wrong_cell, [FORGE]),
    }
    for path, notebook in notebooks.items():
        nbformat.write(notebook, path)
    out = folder / "grades.csv"
    grade.grade(subs, out, feedback_folder=folder / "feedback", timeout=TIMEOUT, jobs=3)
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    with grade.summary_path(out).open() as handle:
        summary = {row["student"]: row for row in csv.DictReader(handle)}
    return {"rows": rows, "summary": summary, "feedback": folder / "feedback"}


def _verdicts(graded, student, notebook=None) -> dict[str, str]:
    return {
        row["task"]: row["verdict"]
        for row in graded["rows"]
        if row["student"] == student
        and row["task"]
        and (notebook is None or row["notebook"] == notebook)
    }


def _names(chapter):
    return {task.name for task in homework.tasks_of(chapter)}


def test_the_answer_key_gets_full_marks(graded):
    verdicts = _verdicts(graded, "full")
    assert set(verdicts) == _names(ENCODING) | _names(TAYLOR)
    assert set(verdicts.values()) == {CORRECT}, verdicts
    row = graded["summary"]["full"]
    assert sorted(row["notebooks"].split()) == [f"{TAYLOR}.ipynb", f"{ENCODING}.ipynb"]
    # by level: warm-up 1, standard 2 (the_encoding: two of each)
    encoding = [r for r in graded["rows"] if r["notebook"] == f"{ENCODING}.ipynb"]
    assert sorted(
        float(r["max_marks"]) for r in encoding if r["student"] == "full"
    ) == [
        1,
        1,
        2,
        2,
    ]
    assert float(row["auto_marks"]) == float(row["auto_max"]) > 6


def test_exercises_answered_in_writing_are_left_to_the_lecturer(graded):
    written = [
        r
        for r in graded["rows"]
        if r["student"] == "full" and r["verdict"] == grade.WRITTEN
    ]
    assert {r["exercise"] for r in written} == {"ex-taylor-exp", "ex-taylor-three"}
    assert all(r["marks"] == "" and float(r["max_marks"]) > 0 for r in written)
    row = graded["summary"]["full"]
    assert row["written_marks"] == ""
    assert float(row["written_max"]) == sum(float(r["max_marks"]) for r in written)
    total = float(row["auto_max"]) + float(row["written_max"])
    assert float(row["total_max"]) == total


def test_a_blank_notebook_gets_nothing(graded):
    verdicts = _verdicts(graded, "blank")
    assert set(verdicts) == _names(ENCODING)
    assert set(verdicts.values()) == {NOT_ATTEMPTED}
    assert graded["summary"]["blank"]["auto_marks"] == "0"
    assert graded["summary"]["blank"]["problems"] == ""


def test_wrong_answers_get_nothing(graded):
    assert set(_verdicts(graded, "wrong").values()) == {NOT_YET}
    assert graded["summary"]["wrong"]["auto_marks"] == "0"


def test_a_cell_that_raises_is_reported_and_the_rest_graded(graded):
    verdicts = _verdicts(graded, "raises")
    assert verdicts.pop("encoding-max-distance") == NOT_ATTEMPTED
    assert set(verdicts.values()) == {CORRECT}
    assert "raised ZeroDivisionError" in graded["summary"]["raises"]["problems"]


def test_a_cell_that_loops_is_stopped_and_the_rest_graded(graded):
    verdicts = _verdicts(graded, "loops")
    assert verdicts.pop("encoding-slowest-period") == NOT_ATTEMPTED
    assert set(verdicts.values()) == {CORRECT}
    assert f"ran over {TIMEOUT} s" in graded["summary"]["loops"]["problems"]


def test_a_notebook_cannot_forge_its_verdicts(graded):
    """It replaces check, the judge and the export in its kernel; the
    grader judges the data it hands over, and names the code to read."""
    verdicts = _verdicts(graded, "forges")
    assert CORRECT not in verdicts.values(), verdicts
    problems = graded["summary"]["forges"]["problems"]
    assert "read the code" in problems and "posenc.grading" in problems


def test_feedback_gives_verdicts_and_hints_never_answers(graded):
    text = (graded["feedback"] / "wrong.md").read_text()
    assert text.startswith("# Homework feedback: wrong")
    notes = {r["task"]: r["note"] for r in graded["rows"] if r["student"] == "wrong"}
    for task in homework.tasks_of(ENCODING):
        assert f"| {task.name} | not yet | 0 / " in text
        assert len(notes[task.name]) > 30 and notes[task.name][:60] in text
    for name in ("encoding-slowest-period", "encoding-max-distance"):
        answer = run_key(name)[1]["answer"]
        assert f"{answer}"[:6] not in text, name
    assert "marked by your teacher" in (graded["feedback"] / "full.md").read_text()


# ------------------------------------------------------------ no kernel


def test_a_rubric_file_overrides_the_default(tmp_path):
    path = tmp_path / "rubric.toml"
    path.write_text(
        "[levels]\nstandard = 5\n[tasks]\nencoding-slowest-period = 4\n"
        "[written]\nex-taylor-exp = 7\n"
    )
    rubric = grade.load_rubric(path)
    assert rubric.task("encoding-slowest-period", "warm-up") == 4
    assert rubric.task("encoding-max-distance", "standard") == 5
    assert rubric.task("encoding-inverse-permutation", "warm-up") == 1
    assert rubric.exercise("ex-taylor-exp", "standard") == 7
    assert rubric.exercise("ex-taylor-three", "challenge") == 3
    path.write_text("[tasks]\nno-such-task = 1\n")
    with pytest.raises(SystemExit, match="no-such-task"):
        grade.load_rubric(path)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('echo forged')",
        "Symbol('x').__class__",
        "Symbol('x') + Symbol('y')",
        "Function('f')(Symbol('x'))",
        "(lambda: 1)()",
        "Symbol(open('/etc/passwd').read())",
        "Integer(2)(3)",
        "sympify('2')",
        "Symbol('x').subs(Symbol('x'), Integer(1))",
    ],
)
def test_srepr_text_is_read_without_evaluating_code(text):
    with pytest.raises(ValueError):
        grading.sympy_from_srepr(text)


def test_proof_steps_and_values_survive_the_round_trip():
    m, theta = sp.symbols("m theta", real=True)
    step = -sp.cos(m * theta) / 2 + sp.pi * sp.I + sp.Float(0.5)
    assert grading.decode(grading.encode(step)) == step
    values = [
        3,
        -2.5,
        float("nan"),
        True,
        (1, 6),
        [[1, 0], [0, -1]],
        np.arange(6.0).reshape(2, 3),
        np.array([1 + 2j]),
        {(0, 1)},
        ...,
    ]
    for value in values:
        back = grading.decode(json.loads(json.dumps(grading.encode(value))))
        if isinstance(value, np.ndarray):
            assert back.dtype == value.dtype and np.array_equal(back, value)
        elif value == value:
            assert back == value and type(back) is type(value), value
    assert isinstance(grading.decode({"t": "other", "v": "x"}), grading.Opaque)
    assert isinstance(grading.decode({"t": "array", "dtype": "O"}), grading.Opaque)


def test_rejudge_judges_data_only():
    right = run_key("encoding-slowest-period")[1]["answer"]
    name = "encoding-slowest-period"
    assert grading.rejudge(name, grading.encode(right)).status == CORRECT
    assert grading.rejudge(name, grading.encode(right + 1)).status == NOT_YET
    assert grading.rejudge(name, {"t": "function"}).status == NOT_YET
    assert grading.rejudge(name, {"t": "other", "v": "correct"}).status == NOT_YET
    text = "__import__('os').getcwd()"
    assert grading.rejudge("taylor-sum-part", text).status == NOT_YET


@pytest.mark.parametrize("name", sorted(BUGS))
def test_a_function_called_through_json_gets_the_checks_verdict(name):
    """Every function task, with the key's function and each wrong one:
    judged through ``remote`` (arguments and results as JSON data, as
    between the grader and the kernel) the verdict and message are the
    ones ``check`` gives in the notebook."""
    functions = [run_key(name)[1]["answer"]]
    for source, _ in BUGS[name]:
        namespace = {"np": np, "sp": sp, "posenc": posenc}
        exec(source, namespace)
        functions.append(namespace["answer"])
    spec = homework.TASKS[name]
    for function in functions:
        grading._answers[name] = function
        through = grade.remote(lambda payload: grading.call(name, payload))
        assert judge(spec, through)[:2] == judge(spec, function)[:2]
    grading._answers.clear()


def test_the_guide_states_the_defaults():
    """The instructor's guide, "Grading the homework": the marks by level
    and the timeout are the script's."""
    guide = (grade.ROOT / "book" / "instructor" / "guide.md").read_text()
    section = guide.split("## Grading the homework")[1].split("\n## ")[0]
    stated = "By the level of the task's exercise: warm-up 1, standard 2,\nchallenge 3"
    assert stated in section
    assert grade.LEVELS == {"warm-up": 1, "standard": 2, "challenge": 3}
    assert f"(seconds per cell, {grade.TIMEOUT} by default)" in section


@pytest.mark.parametrize(
    "name", sorted(n for n, t in homework.TASKS.items() if t.kind != "code")
)
def test_every_value_and_proof_step_gets_the_checks_verdict_from_its_data(name):
    """The key's answer and the wrong ones, encoded as the kernel hands
    them over (JSON) and judged by ``rejudge``: the verdict and message
    are the ones ``check`` gives in the notebook."""
    answers = [run_key(name)[1]["answer"]]
    if name in WRONG:
        answers += WRONG[name]
    for source, _ in WRONG_PROOFS.get(name, []):
        namespace = {"np": np, "sp": sp, "posenc": posenc}
        exec(source, namespace)
        answers.append(namespace["answer"])
    for answer in answers:
        data = json.loads(json.dumps(grading.encode(answer)))
        spec = homework.TASKS[name]
        assert grading.rejudge(name, data)[:2] == judge(spec, answer)[:2], answer


def test_a_step_that_would_compute_for_long_is_judged_at_once():
    """A power of 10 with a billion digits or a factorial of ten million,
    as srepr text: built without evaluation, judged (wrong) in well under
    a second instead of sympy computing them."""
    for text in (
        "Pow(Pow(Integer(10), Integer(1000)), Integer(1000))",
        "factorial(Integer(10000000))",
    ):
        start = time.perf_counter()
        verdict = grading.rejudge("taylor-sum-part", {"t": "sympy", "v": text})
        assert verdict.status == NOT_YET
        assert time.perf_counter() - start < 1.0, text
