"""Grade submitted homework notebooks, a row per task in a CSV.

(In the book's repository: ``make grade SUBMISSIONS=folder``.)

    python scripts/grade.py FOLDER [--out grades.csv] [--rubric rubric.toml]
                            [--feedback DIR] [--timeout SECONDS]

``FOLDER`` holds one notebook per student (``alice.ipynb``: the student is
the file's name) or one folder per student with any of their homework
notebooks (``alice/rope.ipynb``, ``alice/decay_integral.ipynb``). Which
homework a notebook is comes from its file name if that is a chapter's
(``rope.ipynb``), else from the metadata the generated notebook carries.

Each notebook runs top to bottom in a fresh kernel (nbclient; a timeout
per cell; a cell that raises does not stop the run), in grading mode
(``posenc.grading``): every ``check`` records its answer, the last one
for a task counts, and the grader judges the recorded answers in its own
process. A notebook that fails is graded on what ran, with the failure in
the report. Written to:

* ``--out`` (default ``grades.csv``): a row per task and per exercise
  answered in writing: student, notebook, chapter, exercise, level, task,
  verdict, marks, max_marks, note;
* the same name with ``-summary``: a row per student: automatic marks out
  of their maximum, the written exercises' maximum (a blank column for the
  lecturer's marks), the total maximum, and the problems met;
* ``--feedback DIR``: a Markdown file per student with each task's verdict
  and what the check says (a hint, never the answer).

Marks: by the level of the task's exercise (warm-up 1, standard 2,
challenge 3), an exercise answered in writing as its level too; a TOML
file (``--rubric``) overrides any of them:

    [levels]              # by the exercise's level
    standard = 2
    [tasks]               # by task
    rope-rotate = 4
    [written]             # exercises answered in writing, by label
    ex-rope-norm = 5
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import multiprocessing
import re
import secrets
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
#: The repository (scripts/ beside posenc/ and _ext/), or the unzipped
#: notebooks.zip (grader/ beside posenc/, with the course in
#: ``grader/exercises.json``: _ext/homework_notebooks.py writes it there).
ROOT = HERE.parent
COURSE_FILE = HERE / "exercises.json"
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT))

from posenc import grading, homework  # noqa: E402
from posenc.homework_judge import NOT_ATTEMPTED, NOT_YET, Judgement  # noqa: E402

#: Marks by the level of an exercise (the first word of its tag).
LEVELS = {"warm-up": 1, "standard": 2, "challenge": 3}
WRITTEN = "to mark by hand"
#: Seconds a cell may run before it is interrupted.
TIMEOUT = 60
#: Code in a submission that reaches into the checks: named in the
#: report for the lecturer to read (the grade does not depend on it).
SUSPECT = re.compile(
    r"posenc\.grading|homework_judge|\b_answers\b|\bTASKS\b|sys\.modules"
    r"|os\.environ|importlib|\bcheck\s*=|homework\.check\b|\.judge\b"
)
COLUMNS = [
    "student",
    "notebook",
    "chapter",
    "exercise",
    "level",
    "task",
    "verdict",
    "marks",
    "max_marks",
    "note",
]
SUMMARY = [
    "student",
    "notebooks",
    "auto_marks",
    "auto_max",
    "written_marks",
    "written_max",
    "total_max",
    "problems",
]


# ------------------------------------------------------------ the rubric


@dataclass
class Rubric:
    levels: dict[str, float] = field(default_factory=lambda: dict(LEVELS))
    tasks: dict[str, float] = field(default_factory=dict)
    written: dict[str, float] = field(default_factory=dict)

    def task(self, name: str, level: str) -> float:
        return self.tasks.get(name, self.levels.get(level, 1))

    def exercise(self, label: str, level: str) -> float:
        return self.written.get(label, self.levels.get(level, 1))


def load_rubric(path: Path | None) -> Rubric:
    """The default rubric, with what the TOML file at ``path`` sets."""
    rubric = Rubric()
    if path is None:
        return rubric
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - {"levels", "tasks", "written"}
    if unknown:
        raise SystemExit(f"{path}: unknown tables {sorted(unknown)}")
    for name in data.get("tasks", {}):
        if name not in homework.TASKS:
            raise SystemExit(f"{path}: no task is called {name!r}")
    rubric.levels.update(
        {k.lower(): float(v) for k, v in data.get("levels", {}).items()}
    )
    rubric.tasks.update({k: float(v) for k, v in data.get("tasks", {}).items()})
    rubric.written.update({k: float(v) for k, v in data.get("written", {}).items()})
    return rubric


@functools.cache
def course() -> dict:
    """The chapters with an assignment and their exercises' levels
    (``homework_notebooks.grading_course``): read from the book's sources
    in the repository, from ``exercises.json`` beside this script in
    notebooks.zip."""
    if COURSE_FILE.is_file():
        return json.loads(COURSE_FILE.read_text(encoding="utf-8"))
    from homework_notebooks import grading_course

    return grading_course()


def assignment_chapters() -> list[str]:
    return course()["chapters"]


def chapter_exercises(chapter: str) -> list[tuple[str, str]]:
    """(label, level) of each exercise of ``chapter``, in order; the level
    is the first word of its tag, lower case ("" if untagged)."""
    return [tuple(pair) for pair in course()["exercises"].get(chapter, [])]


# ------------------------------------------------------------ running


@dataclass
class Graded:
    """One notebook's grade: a verdict and message per task, and the
    problems met while running it."""

    student: str
    path: Path
    chapter: str | None
    verdicts: dict[str, Judgement] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def chapter_of(path: Path, notebook) -> str | None:
    chapters = assignment_chapters()
    if path.stem in chapters:
        return path.stem
    named = notebook.metadata.get("posenc", {}).get("homework")
    return named if named in chapters else None


def submissions(folder: Path) -> list[tuple[str, Path]]:
    """(student, notebook) for each notebook: ``folder/<student>.ipynb``
    and ``folder/<student>/*.ipynb``; checkpoints skipped."""
    found = [(path.stem, path) for path in sorted(folder.glob("*.ipynb"))]
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        if sub.name.startswith("."):
            continue
        found += [
            (sub.name, path)
            for path in sorted(sub.rglob("*.ipynb"))
            if ".ipynb_checkpoints" not in path.parts
        ]
    return found


class _Kernel:
    """A fresh kernel that runs a submission's cells, and the grader's own
    cells (whose printed line starts with a nonce the notebook never saw)."""

    def __init__(self, client, timeout: float):
        self.client, self.timeout = client, timeout
        self.nonce = secrets.token_hex(16)

    def run(self, source: str, timeout: float | None = None):
        """Execute ``source``, interrupted after ``timeout`` seconds; the
        cell, with its outputs. ``over`` says whether it ran over."""
        cell = nbformat.v4.new_code_cell(source)
        self.client.nb.cells = [cell]  # nbclient writes outputs to nb.cells[i]
        limit = timeout or self.timeout
        self.client.timeout = limit
        start = time.monotonic()
        try:
            self.client.execute_cell(cell, 0)
        finally:
            self.client.timeout = self.timeout
        self.over = time.monotonic() - start >= limit
        return cell

    def own(self, source: str, timeout: float = TIMEOUT) -> str | None:
        """Run the grader's ``source``, which prints the nonce then its
        answer on one line; that answer, or None."""
        cell = self.run(source, timeout)
        text = "".join(
            out.get("text", "")
            for out in cell.outputs
            if out.get("output_type") == "stream" and out.get("name") == "stdout"
        )
        for line in text.splitlines():
            if line.startswith(self.nonce):
                return line[len(self.nonce) :]
        return None

    def responsive(self) -> bool:
        """Whether the kernel runs a cell again (after an interrupted one:
        a loop that catches KeyboardInterrupt does not stop)."""
        self.run("pass", timeout=10)
        return not self.over

    def proxy(self, task: str):
        """The student's function for ``task`` as a function of the
        grader: each call runs in the kernel (``posenc.grading.call``)."""

        def send(payload: str) -> str:
            source = (
                "import posenc.grading as _grading_\n"
                f"print({self.nonce!r} + _grading_.call({task!r}, {payload!r}))"
            )
            line = self.own(source, timeout=self.timeout)
            if self.over:
                self.responsive()
                raise TimeoutError(f"ran over {self.timeout:g} s")
            if line is None:
                raise RuntimeError("the call gave no result")
            return line

        return remote(send)


def remote(send):
    """A function that sends its arguments (encoded, JSON) to ``send`` and
    returns what the reply (``posenc.grading.call``'s) says: the result,
    or the exception raised; array arguments the call changed are changed
    here too."""

    def function(*args, **kwargs):
        payload = json.dumps(
            {
                "args": [grading.encode(a) for a in args],
                "kwargs": {k: grading.encode(v) for k, v in kwargs.items()},
            }
        )
        reply = json.loads(send(payload))
        for before, after in zip(args, reply.get("args", []), strict=False):
            changed = grading.decode(after) if after is not None else None
            if isinstance(changed, type(before)) and hasattr(before, "shape"):
                if changed.shape == before.shape:
                    before[...] = changed
        if "raised" in reply:
            name, text = (list(reply["raised"]) + ["", ""])[:2]
            raise _raised(str(name), str(text))
        return grading.decode(reply.get("result"))

    return function


def _raised(name: str, text: str) -> Exception:
    """What the student's function raised in the kernel, as an exception
    here: a built-in one by its name (a hidden test may want ValueError),
    else one of that name."""
    import builtins

    known = getattr(builtins, name, None)
    if isinstance(known, type) and issubclass(known, Exception):
        return known(text)
    return type(name if name.isidentifier() else "Exception", (Exception,), {})(text)


def grade_notebook(student: str, path: Path, timeout: float = TIMEOUT) -> Graded:
    """Run and grade one notebook; never raises."""
    print(f"grading {student}: {path.name}", file=sys.stderr)
    graded = Graded(student, path, None)
    try:
        notebook = nbformat.read(path, as_version=4)
    except Exception as error:  # not a notebook
        graded.problems.append(f"not read as a notebook ({type(error).__name__})")
        return graded
    graded.chapter = chapter_of(path, notebook)
    if graded.chapter is None:
        graded.problems.append("not one of the homework notebooks")
        return graded
    sources = [c.source for c in notebook.cells if c.cell_type == "code"]
    suspect = sorted({m.group(0) for s in sources for m in SUSPECT.finditer(s)})
    if suspect:
        graded.problems.append(f"read the code: it uses {', '.join(suspect)}")
    skip: set[int] = set()
    for _ in range(3):  # a cell that kills or hangs the kernel is skipped
        problems, stuck = [], None
        try:
            stuck = _run(graded, sources, skip, problems, timeout)
        except Exception as error:  # the kernel or its client failing
            problems.append(f"the run failed ({type(error).__name__}: {error})")
        if stuck is None:
            break
        skip.add(stuck)
        graded.problems += [
            problems[-1],
            f"ran again in a new kernel without code cell {stuck + 1}",
        ]
    graded.problems += problems
    return graded


def _run(graded, sources, skip, problems, timeout) -> int | None:
    """Run the cells in a fresh kernel and judge what they recorded; the
    index of a cell to skip on a second run, or None when done."""
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    with tempfile.TemporaryDirectory() as work:
        client = NotebookClient(
            nbformat.v4.new_notebook(),
            timeout=timeout,
            kernel_name="python3",
            allow_errors=True,
            interrupt_on_timeout=True,
            error_on_timeout={"ename": "TimeoutError", "evalue": "", "traceback": []},
            resources={"metadata": {"path": work}},
        )
        with client.setup_kernel():
            kernel = _Kernel(client, timeout)
            kernel.run("import posenc.grading\nposenc.grading.start()")
            for index, source in enumerate(sources):
                if index in skip:
                    continue
                try:
                    cell = kernel.run(source)
                except DeadKernelError:
                    problems.append(f"the kernel died in code cell {index + 1}")
                    return index
                if kernel.over:
                    problems.append(f"code cell {index + 1} ran over {timeout:g} s")
                    if not kernel.responsive():
                        return index
                    continue
                for out in cell.outputs:
                    if out.get("output_type") == "error":
                        problems.append(
                            f"code cell {index + 1} raised {out.get('ename')}: "
                            f"{str(out.get('evalue'))[:120]}"
                        )
            line = kernel.own(
                "import posenc.grading as _grading_\n"
                f"print({kernel.nonce!r} + _grading_.export())"
            )
            if line is None:
                problems.append("the answers could not be read from the kernel")
                return None
            graded.verdicts = _judge_all(graded.chapter, json.loads(line), kernel)
    return None


def _judge_all(chapter: str, recorded: dict, kernel: _Kernel) -> dict:
    verdicts = {}
    for task in homework.tasks_of(chapter):
        if task.name not in recorded:
            verdicts[task.name] = Judgement(
                NOT_ATTEMPTED, "not attempted: no check of this task ran.", False
            )
            continue
        try:
            verdicts[task.name] = grading.rejudge(
                task.name, recorded[task.name], kernel.proxy(task.name)
            )
        except Exception as error:  # an answer the judge cannot handle
            verdicts[task.name] = Judgement(
                NOT_YET, f"not yet: not judged ({type(error).__name__}).", False
            )
    return verdicts


# ------------------------------------------------------------ reports


def rows_of(graded: Graded, rubric: Rubric) -> list[dict]:
    """The CSV rows of one notebook: its tasks, then its exercises
    answered in writing (empty if it was not graded)."""
    if graded.chapter is None:
        return []
    levels = dict(chapter_exercises(graded.chapter))
    base = {"student": graded.student, "notebook": graded.path.name}
    rows = []
    tasks = homework.tasks_of(graded.chapter)
    for task in tasks:
        level = levels.get(task.exercise, "")
        status, message, _ = graded.verdicts.get(
            task.name,
            Judgement(NOT_ATTEMPTED, "not attempted: the notebook did not run.", False),
        )
        worth = rubric.task(task.name, level)
        rows.append(
            base
            | {
                "chapter": graded.chapter,
                "exercise": task.exercise,
                "level": level,
                "task": task.name,
                "verdict": status,
                "marks": _number(worth if status == homework.CORRECT else 0),
                "max_marks": _number(worth),
                "note": message,
            }
        )
    with_tasks = {task.exercise for task in tasks}
    for label, level in levels.items():
        if label not in with_tasks:
            rows.append(
                base
                | {
                    "chapter": graded.chapter,
                    "exercise": label,
                    "level": level,
                    "task": "",
                    "verdict": WRITTEN,
                    "marks": "",
                    "max_marks": _number(rubric.exercise(label, level)),
                    "note": "answered in writing",
                }
            )
    return rows


def _number(value: float) -> str:
    return f"{value:g}"


def summary_of(student: str, graded: list[Graded], rows: list[dict]) -> dict:
    auto = [r for r in rows if r["verdict"] != WRITTEN]
    written = [r for r in rows if r["verdict"] == WRITTEN]
    total = sum(float(r["max_marks"]) for r in rows)
    problems = [f"{g.path.name}: {p}" for g in graded for p in g.problems]
    return {
        "student": student,
        "notebooks": " ".join(g.path.name for g in graded),
        "auto_marks": _number(sum(float(r["marks"]) for r in auto)),
        "auto_max": _number(sum(float(r["max_marks"]) for r in auto)),
        "written_marks": "",
        "written_max": _number(sum(float(r["max_marks"]) for r in written)),
        "total_max": _number(total),
        "problems": "; ".join(problems),
    }


def feedback(student: str, graded: list[Graded], rows: list[dict]) -> str:
    """A student's feedback, in Markdown: each task's verdict and what the
    check says (the grader's judge, never an answer)."""
    lines = [f"# Homework feedback: {student}", ""]
    for one in graded:
        lines += [f"## {one.path.name}", ""]
        shown = [p for p in one.problems if not p.startswith("read the code")]
        lines += [f"- Running it: {problem}." for problem in shown]
        mine = [r for r in rows if r["notebook"] == one.path.name]
        if mine:
            lines += [""] * bool(shown) + [
                "| task | verdict | marks | what the check says |"
            ]
            lines.append("|---|---|---|---|")
        for row in mine:
            name = row["task"] or f"exercise `{row['exercise']}`"
            marks = (
                f"{row['marks']} / {row['max_marks']}"
                if row["marks"]
                else (f"– / {row['max_marks']}")
            )
            note = row["note"].replace("|", "\\|").replace("\n", " ")
            if row["verdict"] == WRITTEN:
                note = "marked by your teacher"
            lines.append(f"| {name} | {row['verdict']} | {marks} | {note} |")
        lines.append("")
    return "\n".join(lines)


def grade(
    folder: Path,
    out: Path,
    rubric: Rubric | None = None,
    feedback_folder: Path | None = None,
    timeout: float = TIMEOUT,
    jobs: int = 1,
) -> list[dict]:
    """Grade every submission in ``folder``; write the CSVs (and the
    feedback), ``jobs`` notebooks at a time; the summary rows."""
    rubric = rubric or Rubric()
    found = submissions(folder)
    if not found:
        raise SystemExit(f"{folder}: no notebook (.ipynb) in it")
    students, paths = zip(*found, strict=True)
    if jobs <= 1:
        done = list(map(grade_notebook, students, paths, [timeout] * len(found)))
    else:  # spawned: a forked process would share the parent's ZMQ sockets
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=spawn) as pool:
            done = list(
                pool.map(grade_notebook, students, paths, [timeout] * len(found))
            )
    by_student: dict[str, list[Graded]] = {}
    for graded in done:
        by_student.setdefault(graded.student, []).append(graded)
    all_rows, summary = [], []
    for student, graded in by_student.items():
        rows = [row for one in graded for row in rows_of(one, rubric)]
        all_rows += rows
        summary.append(summary_of(student, graded, rows))
        if feedback_folder is not None:
            feedback_folder.mkdir(parents=True, exist_ok=True)
            (feedback_folder / f"{student}.md").write_text(
                feedback(student, graded, rows), encoding="utf-8"
            )
    _write(out, COLUMNS, all_rows)
    _write(summary_path(out), SUMMARY, summary)
    return summary


def summary_path(out: Path) -> Path:
    return out.with_name(f"{out.stem}-summary{out.suffix}")


def _write(path: Path, columns: list[str], rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--out", type=Path, default=Path("grades.csv"))
    parser.add_argument("--rubric", type=Path)
    parser.add_argument("--feedback", type=Path)
    parser.add_argument(
        "--timeout", type=float, default=TIMEOUT, help="seconds per cell"
    )
    parser.add_argument("--jobs", type=int, default=1, help="notebooks at a time")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        raise SystemExit(f"{args.folder}: not a folder")
    summary = grade(
        args.folder,
        args.out,
        load_rubric(args.rubric),
        args.feedback,
        args.timeout,
        args.jobs,
    )
    for row in summary:
        print(
            f"{row['student']}: {row['auto_marks']} / {row['auto_max']} automatic"
            f" (+ {row['written_max']} written)"
            + (f"  [{row['problems']}]" if row["problems"] else "")
        )
    print(f"wrote {args.out} and {summary_path(args.out)}")


if __name__ == "__main__":
    main()
