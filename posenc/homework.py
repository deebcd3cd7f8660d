"""Homework checks: right or wrong, with a hint, never the answer.

The assignment notebooks (``make homework``, ``scripts/homework.py``) are
generated from the exercises of the derivation chapters and of the RoPE
chapter. Each task of a notebook ends with ``check(task, answer)``, which
prints one of

* ``correct``;
* ``not yet``, with a hint: a targeted one for a known slip; "close, give
  more digits" for a number within a few tolerances of the right one; the
  property that failed, for a function or a proof step; what form the
  answer takes, if it has another. A hint names the idea or the step to
  use, never the result;
* ``not attempted``, while ``answer`` is still ``...`` (the starter);
* ``not judged``, once the task's budget of wrong answers is spent (below),

and returns True only for a right answer. The tasks are of three sorts
(``posenc.homework_judge`` says how each is judged):

* **values** (``posenc.homework_values``): a number, an integer, a tuple,
  a boolean, stored as salted digests of the answer's tolerance bin, or a
  value with a property (a permutation, a matrix, two frequencies);
* **code** (``posenc.homework_properties``, ``posenc.homework_rope``,
  ``posenc.homework_rope_batch``): the student writes a function, and
  hidden tests run it at inputs the notebook does not show (values there,
  "depends only on m − n" at random positions, shapes, negative offsets,
  edge cases), naming the first property that fails;
* **proof steps** (``posenc.homework_proofs``): the student states an
  identity or an intermediate step as a sympy expression; it is checked
  symbolically, and a restatement of the goal is rejected by the form the
  step asks for.

**The budget.** A loop over ``check`` must not find an answer. So in one
kernel ``check`` judges at most ``Task.budget`` *different* wrong answers
to a task (6 for a value, 8 for a value with a property, 12 for a proof
step, 20 for a function; the same answer again costs nothing, nor does an
answer of the wrong form or "not attempted"). After that it says "not
judged", for right and wrong answers alike, and asks the student to write
down their work and restart the kernel. A number is accepted only within
its tolerance and called close only within ``NEAR`` tolerances, so a scan
needs thousands of values, and each six of them a new kernel. This stops
loops, not a student who reads this module: the digests, the hidden tests
and the budget's counter are all in it, as in any autograder shipped with
a course. The notebooks themselves show none of them.

The reference solutions are on the instructor section's answer-key page
(``book/instructor/homework_answers.md``), in the default edition only;
``tests/test_homework.py`` runs them through every check, wrong answers
through each, a brute-force loop against every value task, and the
generated notebooks as a student would.
"""

from __future__ import annotations

from .homework_judge import (
    CORRECT,
    NOT_ATTEMPTED,
    NOT_JUDGED,
    NOT_YET,
    Task,
    fingerprint,
    judge,
)
from .homework_proofs import PROOF_TASKS
from .homework_properties import CODE_TASKS
from .homework_rope import ROPE_TASKS
from .homework_rope_batch import ROPE_BATCH_TASKS
from .homework_values import VALUE_TASKS
from .validate import check_choice

__all__ = [
    "CORRECT",
    "NOT_ATTEMPTED",
    "NOT_JUDGED",
    "NOT_YET",
    "TASKS",
    "check",
    "tasks_of",
    "verdict",
]

#: Every task by name. Within an exercise the notebook keeps this order:
#: proof steps, then values, then functions.
TASKS: dict[str, Task] = {
    task.name: task
    for task in [
        *PROOF_TASKS,
        *VALUE_TASKS,
        *CODE_TASKS,
        *ROPE_TASKS,
        *ROPE_BATCH_TASKS,
    ]
}

#: The fingerprints of the different wrong answers judged in this kernel,
#: by task (``posenc.homework_judge.fingerprint``).
_wrong: dict[str, set[str]] = {}


def tasks_of(chapter: str) -> list[Task]:
    """The tasks of a chapter, in the order of ``TASKS``."""
    return [task for task in TASKS.values() if task.chapter == chapter]


def _stopped(spec: Task) -> str:
    return (
        f"not judged: check has judged {spec.budget} different wrong answers "
        "to this task in this kernel, and now says neither right nor wrong, "
        "so that no loop can find the answer. Write down how you reached "
        "your answer, step by step, and find the step that fails (or show "
        "your work to your teacher). Then restart the kernel (Kernel → "
        "Restart Kernel) to check again."
    )


def verdict(task: str, answer: object) -> tuple[str, str]:
    """(``CORRECT`` | ``NOT_YET`` | ``NOT_ATTEMPTED`` | ``NOT_JUDGED``,
    message) for ``answer`` to ``task``, within the task's budget of wrong
    answers; the message never contains the right answer."""
    spec: Task = TASKS[check_choice(task, "task", tuple(TASKS))]
    if answer is ... or answer is None:
        return judge(spec, answer)[:2]
    wrong = _wrong.setdefault(spec.name, set())
    if len(wrong) >= spec.budget:
        return NOT_JUDGED, _stopped(spec)
    status, message, counts = judge(spec, answer)
    if counts:
        wrong.add(fingerprint(spec, answer))
        left = spec.budget - len(wrong)
        if left == 0:
            message += (
                " That was the last different wrong answer this kernel "
                "judges for this task."
            )
        elif left <= 2:
            message += (
                f" ({left} more different wrong answer{'s' * (left > 1)} "
                "before check stops judging this task.)"
            )
    return status, message


def check(task: str, answer: object) -> bool:
    """Print whether ``answer`` to ``task`` is right (with a hint if not);
    True if it is. See the module docstring."""
    status, message = verdict(task, answer)
    print(f"{task}: {message}")
    return status == CORRECT
