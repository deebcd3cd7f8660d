"""Grading the homework notebooks: the kernel's side and the verdicts.

``scripts/grade.py`` runs each submitted notebook in a fresh kernel
(nbclient) and grades it. This module is what both sides share:

* **In the student's kernel.** The grader's first cell calls ``start()``,
  which puts ``grading_check`` in place of ``posenc.homework.check``
  before the notebook imports it. ``grading_check`` records the last
  answer passed for each task (``_answers``) and prints the verdict
  without the attempt budget. The verdict printed there counts for
  nothing: once the notebook has run, the grader's last cell asks for the
  answers (``export``), as data (``encode``).
* **In the grader's process.** ``rejudge`` judges each recorded answer
  with the grader's own copy of the checks (``posenc.homework_judge``):
  a value as the data it is; a proof step as a sympy expression read back
  by ``sympy_from_srepr``, which evaluates nothing but sympy constructors
  of literals; a function by calling it in the student's kernel, one
  hidden test's call at a time (``call`` there; ``scripts/grade.py``'s
  proxy here), so that the hidden tests and their expected values stay in
  the grader's process. Data from the kernel is decoded by ``decode``,
  which builds numbers, strings, lists, tuples, sets and numpy arrays of
  numbers only (never ``pickle`` or ``eval``).

So code in a submission that replaces ``check``, the judge, ``TASKS`` or
this module in its own kernel changes only what the kernel prints and
which data it hands over: a task is correct in the grade only if the
grader's judge accepts that data. What this does not stop is said in the
instructor's guide ("Grading the homework").
"""

from __future__ import annotations

import ast
import inspect
import json
import numbers
from collections.abc import Callable

import numpy as np

from .homework_judge import CORRECT, NOT_YET, Judgement, Task, judge

#: The last answer passed to ``check`` for each task, in this kernel.
_answers: dict[str, object] = {}

#: Integers beyond this size are no task's answer (as in homework_judge).
_LARGEST_INTEGER = 10**4000
#: At most this many numbers and items in one encoded answer.
_MOST_ITEMS = 2_000_000
#: Integers in an srepr text beyond this size are not computed with.
_LARGEST_CONSTANT = 10**6
#: Longest srepr text read back.
_LONGEST_SREPR = 100_000


# ------------------------------------------------------------ the kernel


def _tasks() -> dict[str, Task]:
    from .homework import TASKS

    return TASKS


def start() -> None:
    """Grading mode in this kernel: ``posenc.homework.check`` records."""
    from . import homework

    _answers.clear()
    homework.check = grading_check


def grading_check(task: str, answer: object) -> bool:
    """``check`` in grading mode: record ``answer`` as the task's answer
    (the last one counts), print the verdict without the attempt budget;
    True if it is right."""
    from .validate import check_choice

    tasks = _tasks()
    spec = tasks[check_choice(task, "task", tuple(tasks))]
    _answers[spec.name] = answer
    status, message = judge(spec, answer)[:2]
    print(f"{task}: {message}")
    return status == CORRECT


def export() -> str:
    """Every recorded answer, encoded, as JSON text: {task: data}."""
    tasks = _tasks()
    found = {}
    for name, answer in _answers.items():
        if tasks[name].kind == "proof" and isinstance(answer, str):
            answer = _parsed_here(answer)
        found[name] = encode(answer)
    return json.dumps(found)


def _parsed_here(text: str) -> object:
    """A proof step given as text, read by sympy in the student's kernel
    (the grader never parses text); the text if sympy cannot read it."""
    import sympy as sp

    try:
        return sp.parse_expr(text)
    except Exception:  # any text sympy cannot read
        return text


def _guard(spec: Task):
    """The context a code task's hidden tests run in (``code_task``'s
    ``guard``: ``posenc.rotate`` switched off for the rotation tasks)."""
    import contextlib

    found = inspect.getclosurevars(spec.test).nonlocals.get("guard")
    return found() if found is not None else contextlib.nullcontext()


def call(task: str, payload: str) -> str:
    """Call the recorded function of ``task`` with the arguments in
    ``payload`` (JSON: {"args": [...], "kwargs": {...}}, each encoded);
    JSON of what it returned, or what it raised, and its array arguments
    after the call (a hidden test may check that an argument is left
    unchanged)."""
    data = json.loads(payload)
    args = [decode(item) for item in data["args"]]
    kwargs = {key: decode(item) for key, item in data["kwargs"].items()}
    function = _answers[task]
    try:
        with _guard(_tasks()[task]):
            result = {"result": encode(function(*args, **kwargs))}
    except Exception as error:  # the student's code may raise anything
        text = str(error).splitlines()[0][:120] if str(error) else ""
        result = {"raised": [type(error).__name__, text]}
    result["args"] = [encode(a) if isinstance(a, np.ndarray) else None for a in args]
    return json.dumps(result)


# ------------------------------------------------------------ the data


class Opaque:
    """An answer the grader does not rebuild (an object of another type);
    every check rejects it by its form."""

    def __init__(self, what: str):
        self.what = what

    def __repr__(self) -> str:
        return f"<{self.what}>"


def encode(value: object, budget: list[int] | None = None) -> object:
    """``value`` as JSON data ``decode`` rebuilds: numbers, strings,
    ``...``, lists, tuples, sets, numpy arrays of numbers, sympy
    expressions (as srepr text); a function as a marker; anything else by
    its type's name."""
    budget = [_MOST_ITEMS] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        return {"t": "other", "v": "too large"}
    if value is ... or value is None:
        return {"t": "ellipsis"} if value is ... else None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        value = int(value)
        return value if abs(value) <= _LARGEST_INTEGER else {"t": "bigint"}
    if isinstance(value, numbers.Real) and not _is_sympy(value):
        return float(value)
    if isinstance(value, (complex, np.complexfloating)):
        return {"t": "complex", "v": [value.real, value.imag]}
    if isinstance(value, str):
        return value[:_LONGEST_SREPR]
    if isinstance(value, np.ndarray):
        return _encode_array(value, budget)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [encode(item, budget) for item in list(value)[:10_000]]
        if len(value) > 10_000:
            return {"t": "other", "v": "too long"}
        kind = "list" if isinstance(value, list) else "tuple"
        return {"t": "set" if isinstance(value, (set, frozenset)) else kind, "v": items}
    if _is_sympy(value):
        import sympy as sp

        return {"t": "sympy", "v": sp.srepr(value)}
    if callable(value):
        return {"t": "function"}
    return {"t": "other", "v": type(value).__name__}


def _is_sympy(value: object) -> bool:
    return type(value).__module__.startswith("sympy")


def _encode_array(value: np.ndarray, budget: list[int]) -> object:
    if isinstance(value, np.ma.MaskedArray):
        return {"t": "other", "v": "masked array"}
    budget[0] -= value.size
    if value.dtype.kind not in "biufc" or budget[0] < 0:
        return {"t": "other", "v": f"array of {value.dtype}"}
    data = {"t": "array", "dtype": value.dtype.str, "shape": list(value.shape)}
    flat = value.ravel()
    if value.dtype.kind == "c":
        data["v"], data["im"] = flat.real.tolist(), flat.imag.tolist()
    else:
        data["v"] = flat.tolist()
    return data


def decode(data: object) -> object:
    """The value ``encode`` wrote (a sympy expression read back by
    ``sympy_from_srepr``); anything unexpected becomes ``Opaque``."""
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode(item) for item in data]
    if not isinstance(data, dict):
        return Opaque("unknown data")
    tag, value = data.get("t"), data.get("v")
    if tag == "ellipsis":
        return ...
    if tag == "bigint":
        return _LARGEST_INTEGER * 10
    if tag == "complex" and _numbers(value, 2):
        return complex(*value)
    if tag in ("list", "tuple", "set") and isinstance(value, list):
        items = [decode(item) for item in value]
        if tag == "set":
            try:
                return set(items)
            except TypeError:
                return Opaque("set of unhashable items")
        return items if tag == "list" else tuple(items)
    if tag == "array":
        return _decode_array(data)
    if tag == "sympy" and isinstance(value, str):
        try:
            return sympy_from_srepr(value)
        except ValueError as error:
            return Opaque(f"sympy text not read back: {error}")
    if tag == "function":
        return Opaque("function")
    return Opaque(str(value) if isinstance(value, str) else "unknown data")


def _numbers(value: object, count: int | None = None) -> bool:
    return (
        isinstance(value, list)
        and (count is None or len(value) == count)
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    )


def _decode_array(data: dict) -> object:
    try:
        dtype = np.dtype(str(data["dtype"]))
        shape = tuple(int(n) for n in data["shape"])
        if dtype.kind not in "biufc":
            raise ValueError(dtype)
        flat = np.array(data["v"], dtype=dtype if dtype.kind != "c" else float)
        if dtype.kind == "c":
            flat = flat + 1j * np.array(data["im"], dtype=float)
        return flat.astype(dtype).reshape(shape)
    except (KeyError, TypeError, ValueError):
        return Opaque("array not read back")


#: The nodes an srepr text may hold besides names, calls and minus signs.
_LITERALS = (ast.Constant, ast.Tuple, ast.List, ast.keyword, ast.Load, ast.USub)


def sympy_from_srepr(text: str) -> object:
    """The sympy expression of an ``srepr`` text, evaluating nothing but
    calls of sympy's classes (``Symbol``, ``Add``, ``cos``, ...) on
    literals, sympy's singletons (``pi``, ``I``) and minus signs; ValueError
    for any other text. A text that could make sympy compute for long (an
    integer beyond ``_LARGEST_CONSTANT``, a power of a power) is built
    without evaluation: judged by value all the same, maybe not by form."""
    import sympy as sp

    if len(text) > _LONGEST_SREPR:
        raise ValueError("too long")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError("not an expression") from None
    names, large = {}, False
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            large = large or abs(node.value) > _LARGEST_CONSTANT
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Pow":
            base = node.args[0] if node.args else None
            nested = (
                any(
                    isinstance(inner, ast.Call)
                    and getattr(inner.func, "id", "") == "Pow"
                    for inner in ast.walk(base)
                )
                if base is not None
                else False
            )
            large = large or nested
        if isinstance(node, ast.Name):
            found = getattr(sp, node.id, None)
            allowed = (isinstance(found, type) and issubclass(found, sp.Basic)) or (
                isinstance(found, sp.Basic)
            )
            if node.id.startswith("_") or not allowed:
                raise ValueError(f"name {node.id!r}")
            names[node.id] = found
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise ValueError("a call of something other than a sympy class")
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.USub):
                raise ValueError("an operator")
        elif not isinstance(node, (ast.Expression, *_LITERALS)):
            raise ValueError(type(node).__name__)
    try:
        with sp.evaluate(not large):
            value = eval(compile(tree, "<srepr>", "eval"), {"__builtins__": {}}, names)
    except Exception as error:  # sympy refusing its arguments
        raise ValueError(f"sympy: {type(error).__name__}") from None
    if not isinstance(value, sp.Basic):
        raise ValueError("not a sympy expression")
    return value


# ------------------------------------------------------------ the verdicts


def rejudge(
    name: str, data: object, remote: Callable[..., object] | None = None
) -> Judgement:
    """The verdict on the recorded answer ``data`` (``encode``) to the
    task ``name``, by the grader's judge, without the budget. A function
    is called through ``remote`` (the grader's proxy into the kernel)."""
    spec = _tasks()[name]
    if isinstance(data, dict) and data.get("t") == "function":
        if spec.kind != "code" or remote is None:
            return Judgement(NOT_YET, "not yet: the answer is not a value.", False)
        return judge(spec, remote)
    answer = decode(data)
    if spec.kind == "proof" and isinstance(answer, str):
        return Judgement(
            NOT_YET, "not yet: sympy cannot read the text of this step.", False
        )
    return judge(spec, answer)
