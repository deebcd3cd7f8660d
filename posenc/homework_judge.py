"""How a homework answer is judged, before the attempt budget.

``posenc.homework.check`` is what a student calls; it counts attempts
(``posenc.homework``'s docstring) and asks ``judge`` here for the verdict.
A task (``Task``) is judged by its kind:

* a value ("integer", "integers", "boolean", "number"): the answer's
  canonical text (``canonical``; for a number, the bin of width
  ``tolerance`` that holds it) is hashed with the task's name and looked up
  among the accepted digests, the digests of known slips (each with its own
  hint) and, for a number, the wider "near" bins (``NEAR`` tolerances);
* "property": ``test(answer)`` says whether a value (a permutation, a
  matrix, a pair of frequencies) has the property the task asks for;
* "code": the answer is the student's function; ``test`` runs hidden
  tests on it (``run_suite``, a list of ``Property``) and the first that
  fails is named, never its expected value;
* "proof": the answer is a sympy expression (a step of a proof);
  ``test`` checks it symbolically (``posenc.homework_proofs``).

A test raises ``AnswerForm`` for an answer of the wrong form (a string for
a matrix), ``NearMiss`` for a value right but for its digits, ``Unmet``
when a property fails and ``NotAttempted`` for starter code. Form errors
and "not attempted" say nothing about the answer, so they do not count
against the budget; every other wrong verdict does.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

#: What ``check`` says: right, wrong (with a hint), nothing to check yet,
#: or no verdict (the task's budget of wrong answers is spent).
CORRECT, NOT_YET, NOT_ATTEMPTED = "correct", "not yet", "not attempted"
NOT_JUDGED = "not judged"

#: Different wrong answers judged per task and kernel, by kind: few for a
#: value (a loop over values must not find it), more for a function or a
#: proof step, which a student debugs by trying.
BUDGETS = {
    "integer": 6,
    "integers": 6,
    "boolean": 6,
    "number": 6,
    "property": 8,
    "proof": 12,
    "code": 20,
}


@dataclass(frozen=True)
class Property:
    """One hidden test of a student's function: ``holds(function)`` says
    whether it has the property ``says`` names (the failure message)."""

    says: str
    holds: Callable[[Callable], bool]


@dataclass(frozen=True)
class Task:
    """One task of an assignment.

    ``kind`` is one of ``BUDGETS``. ``digests`` are the accepted answers'
    digests: for a number, ``number_digests`` of its exact value (not of a
    rounding of it, which would shift the window off centre). ``slips``
    maps the digests of a known wrong answer to its own hint: for a number,
    the bins about its exact value and about its usual roundings. ``near``,
    for a number, are ``near_digests`` of its exact value: an answer within
    ``NEAR`` tolerances (none beyond twice that) that is neither right nor
    a slip is told it is close. ``length`` and ``increasing``, for
    "integers", are the form of the tuple. ``test``, for "property",
    "code" and "proof", judges the answer; ``hidden``, for "code", are the
    hidden tests it runs (``code_task``). ``hint`` names the idea or the
    step to use, never the result. ``attempts`` overrides the kind's
    budget.
    """

    name: str
    chapter: str
    exercise: str
    prompt: str
    starter: str
    kind: str
    hint: str
    digests: frozenset[str] = frozenset()
    tolerance: float = 0.0
    slips: dict[str, str] = field(default_factory=dict)
    test: Callable[[object], object] | None = None
    near: frozenset[str] = frozenset()
    length: int | None = None
    increasing: bool = False
    attempts: int | None = None
    hidden: tuple[Property, ...] = ()

    @property
    def budget(self) -> int:
        """How many different wrong answers are judged in one kernel."""
        return self.attempts if self.attempts is not None else BUDGETS[self.kind]


class AnswerForm(ValueError):
    """The answer has the wrong form; the message says what form the task
    wants."""


class NearMiss(ValueError):
    """The answer misses only by its digits; the message says so."""


class Unmet(ValueError):
    """A property the answer must have fails; the message names it."""


class NotAttempted(Exception):
    """The answer is still the starter code (a function returning ...)."""


def digests(text: str) -> frozenset[str]:
    """Stored digests, written one a line (whitespace-separated)."""
    return frozenset(text.split())


def digest(task: str, canonical: str) -> str:
    """The stored form of an answer: salted with the task's name."""
    return hashlib.sha256(f"posenc-homework:{task}:{canonical}".encode()).hexdigest()


def _scalar(answer: object) -> object:
    """A 0-d or one-element numpy array (what ``np.float64(...)`` math or
    ``scipy.optimize.fsolve`` returns) as the number it holds."""
    if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
        return None  # masked entries hold no answer
    if isinstance(answer, np.ndarray) and answer.size == 1:
        return answer.reshape(()).item()
    return answer


#: Integers beyond this size are no task's answer; checking it first keeps
#: Python's limit on converting long integers to text (4,300 digits) from
#: raising.
_LARGEST_INTEGER = 10**4000


def _integer_text(value: object) -> str | None:
    """An integer (not a boolean) of at most 4,000 digits as its text, else
    None."""
    if not isinstance(value, numbers.Integral) or isinstance(value, (bool, np.bool_)):
        return None
    value = int(value)
    return str(value) if abs(value) <= _LARGEST_INTEGER else None


def finite_real(answer: object) -> float | None:
    """``answer`` as a finite float, or None (NaN, infinities, ints beyond
    the floats' range, non-numbers, booleans)."""
    answer = _scalar(answer)
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        return None
    try:
        value = float(answer)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def _bin(value: float, width: float) -> str:
    """The bin of ``value``, as hashed; beyond the floats' range (a huge
    value over a small width) a bin no digest holds."""
    ratio = value / width
    return str(math.floor(ratio)) if math.isfinite(ratio) else "out of range"


def canonical(kind: str, answer: object, tolerance: float = 0.0) -> str | None:
    """``answer`` as the text that is hashed, or None if it is not of the
    task's kind (a string for a number, a float for an integer, ...). A
    0-d or one-element array counts as the number it holds."""
    answer = _scalar(answer)
    if kind == "boolean":
        if isinstance(answer, (bool, np.bool_)):
            return str(bool(answer))
        return None
    if kind == "integer":
        return _integer_text(answer)
    if kind == "integers":
        # a sequence (a tuple, a list, an array), not a set, a dict, bytes,
        # a string or an endless iterator
        if not isinstance(answer, (tuple, list, np.ndarray)):
            return None
        if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
            return None
        texts = [_integer_text(v) for v in list(answer)[:100]]
        if len(answer) > 100 or any(text is None for text in texts):
            return None
        return ",".join(texts)
    if kind == "number":
        value = finite_real(answer)
        return None if value is None else _bin(value, tolerance)
    raise ValueError(f"kind must be one of the value kinds, got {kind!r}")


def number_digests(task: str, value: float, tolerance: float) -> frozenset[str]:
    """Digests that accept any number within ``tolerance`` of ``value``,
    and none more than twice ``tolerance`` from it: the bin of width
    ``tolerance`` that holds ``value`` and its two neighbours. ``value``
    must be the exact value. Used to write the digests of the tasks; the
    values themselves are not stored."""
    centre = math.floor(value / tolerance)
    return frozenset(
        digest(task, str(bin_)) for bin_ in (centre - 1, centre, centre + 1)
    )


#: How close a number counts as "close, give more digits", in tolerances.
#: A student who rounds to one digit fewer than the tolerance asks is
#: within it; a scan for "close" must still step by 10 tolerances.
NEAR = 10


def near_digests(task: str, value: float, tolerance: float) -> frozenset[str]:
    """As ``number_digests``, with bins ``NEAR`` times wider (salted
    "near:"): they hold every number within ``NEAR`` tolerances of
    ``value`` and none beyond twice that."""
    centre = math.floor(value / (NEAR * tolerance))
    return frozenset(
        digest(task, f"near:{bin_}") for bin_ in (centre - 1, centre, centre + 1)
    )


# ------------------------------------------------------------ hidden tests


class _Raised(Exception):
    """The student's function raised; the message says what."""


def call(function: Callable, *args, **kwargs) -> object:
    """``function(*args, **kwargs)``, the student's code: what it raised
    becomes ``_Raised``, and ``...`` (the starter's return) NotAttempted."""
    try:
        result = function(*args, **kwargs)
    except Exception as error:  # the student's code may raise anything
        text = str(error).splitlines()[0][:120] if str(error) else ""
        raise _Raised(f"{type(error).__name__}: {text}".rstrip(": ")) from None
    if result is ...:
        raise NotAttempted
    return result


def close(result: object, expected: object, atol: float = 1e-9) -> bool:
    """Whether ``result`` is a real array (or number) of ``expected``'s
    shape, within ``atol`` of it entry by entry."""
    try:
        raw = np.asarray(result)
    except (TypeError, ValueError):
        return False
    if raw.dtype.kind not in "iuf":
        return False
    want = np.asarray(expected, dtype=float)
    return raw.shape == want.shape and bool(
        np.allclose(raw.astype(float), want, rtol=0, atol=atol)
    )


def shaped(result: object, shape: tuple[int, ...]) -> bool:
    """Whether ``result`` is an array (or number) of finite reals of
    ``shape``."""
    try:
        raw = np.asarray(result)
    except (TypeError, ValueError):
        return False
    return (
        raw.dtype.kind in "iuf"
        and raw.shape == shape
        and bool(np.all(np.isfinite(raw)))
    )


def run_suite(function: object, properties: list[Property], usage: str) -> None:
    """Run the hidden tests on the student's ``function``, in order; Unmet
    naming the first property that fails. ``usage`` says how to hand the
    function in (shown if the answer is not a function)."""
    if not callable(function):
        raise AnswerForm(f"the answer is your function itself: {usage}")
    for test in properties:
        try:
            holds = test.holds(function)
        except _Raised as raised:
            raise Unmet(
                f"this hidden test fails: {test.says} (your function raised {raised})"
            ) from None
        if not holds:
            raise Unmet(f"this hidden test fails: {test.says}")


def code_task(
    *,
    properties: list[Property],
    usage: str,
    guard: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext,
    **fields,
) -> Task:
    """A "code" task: the student's function must pass ``properties``, run
    in order inside ``guard()`` (e.g. with a function of posenc switched
    off); ``usage`` says how to hand the function in."""

    def test(function: object) -> None:
        with guard():
            run_suite(function, properties, usage)

    return Task(kind="code", test=test, hidden=tuple(properties), **fields)


# ------------------------------------------------------------ the verdict


class Judgement(NamedTuple):
    status: str
    message: str
    counts: bool  # a wrong verdict that says something about the answer


def judge(spec: Task, answer: object) -> Judgement:
    """The verdict on ``answer`` to the task ``spec``, without the budget;
    the message never contains the right answer."""
    if answer is ... or answer is None:
        return Judgement(
            NOT_ATTEMPTED, "not attempted: replace the ... with your answer.", False
        )
    if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
        return Judgement(
            NOT_YET,
            "not yet: the answer is masked in places; give plain values.",
            False,
        )
    if spec.kind in ("property", "code", "proof"):
        return _judge_by_test(spec, answer)
    text = canonical(spec.kind, answer, spec.tolerance)
    if text is None or not _has_form(spec, text):
        return Judgement(NOT_YET, f"not yet: {_expected(spec, answer)}", False)
    key = digest(spec.name, text)
    if key in spec.digests:
        return Judgement(CORRECT, "correct.", False)
    if key in spec.slips:
        return Judgement(NOT_YET, "not yet. " + spec.slips[key], True)
    if spec.kind == "number":
        coarse = _bin(finite_real(answer), NEAR * spec.tolerance)
        if digest(spec.name, f"near:{coarse}") in spec.near:
            return Judgement(
                NOT_YET,
                f"not yet, but close: the check wants the value to within "
                f"{spec.tolerance:g}. If you rounded, give more digits; "
                "if not, recheck your computation.",
                True,
            )
    return Judgement(NOT_YET, f"not yet. {spec.hint}", True)


def _judge_by_test(spec: Task, answer: object) -> Judgement:
    try:
        holds = spec.test(answer)
    except NotAttempted:
        return Judgement(
            NOT_ATTEMPTED, "not attempted: your function still returns ...", False
        )
    except AnswerForm as form:
        return Judgement(NOT_YET, f"not yet: {form}", False)
    except NearMiss as near:
        return Judgement(NOT_YET, f"not yet, but {near}", True)
    except Unmet as unmet:
        return Judgement(NOT_YET, f"not yet: {unmet}. Hint: {spec.hint}", True)
    if spec.kind == "property" and not holds:
        return Judgement(NOT_YET, f"not yet. {spec.hint}", True)
    return Judgement(CORRECT, "correct.", False)


def _has_form(spec: Task, text: str) -> bool:
    """For "integers": the tuple's length and order, if the task sets them."""
    if spec.kind != "integers":
        return True
    values = [int(v) for v in text.split(",")] if text else []
    if spec.length is not None and len(values) != spec.length:
        return False
    return not spec.increasing or values == sorted(set(values))


def _expected(spec: Task, answer: object) -> str:
    if spec.kind == "integers":
        size = "" if spec.length is None else f"{spec.length} "
        order = ", smaller first" if spec.increasing else ""
        return f"the answer is a tuple of {size}integers (ints){order}."
    if spec.kind == "number" and isinstance(_scalar(answer), numbers.Real):
        return (
            "the answer is a finite number (a float or an int within the "
            "floats' range), not nan or inf."
        )
    return {
        "integer": "the answer is an integer (an int, not a float or a string).",
        "boolean": "the answer is True or False.",
        "number": (
            "the answer is a number (a float or an int; an array holding "
            "one number counts as that number), not a string or a list."
        ),
    }[spec.kind]


def fingerprint(spec: Task, answer: object) -> str:
    """What makes two wrong answers "the same" for the budget: a value's
    canonical text (a number's bin), a function's compiled code and
    defaults, else the answer's text. Running an unchanged cell again
    costs nothing."""
    if spec.kind in ("integer", "integers", "boolean", "number"):
        text = canonical(spec.kind, answer, spec.tolerance)
        if text is not None:
            return text
    code = getattr(answer, "__code__", None)
    if code is not None:
        data = (
            marshal.dumps(code) + repr(getattr(answer, "__defaults__", None)).encode()
        )
        return hashlib.sha256(data).hexdigest()
    try:
        return repr(np.asarray(answer, dtype=object).tolist())[:100_000]
    except Exception:  # an answer numpy cannot hold
        return repr(answer)[:100_000]
