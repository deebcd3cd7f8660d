"""Checks of arguments: one function per kind of argument, used by every module.

Each check returns the argument in the form the maths uses (an ``int``, a
``float``, a float64 array) or raises a ``ValueError`` whose message starts
with the parameter's name and states the rule it broke, e.g. ``d must be a
positive even integer, got 7``. Nothing here depends on the rest of
:mod:`posenc`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "check_base",
    "check_choice",
    "check_count",
    "check_dimension",
    "check_finite",
    "check_given",
    "check_integers",
    "check_minimum",
    "check_scalar",
    "check_square_matrix",
    "check_table",
    "check_tolerance",
]


def _is_integer(value: object) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_dimension(d: object, name: str = "d", at_least: int = 2) -> int:
    """``d`` as an int if it is an even integer of at least ``at_least``.

    With the default ``at_least = 2`` the rule reads "a positive even
    integer". A larger ``at_least`` serves formulas that need several pairs
    (tensor2tensor's schedule divides by ``d/2 - 1``).
    """
    rule = (
        "a positive even integer"
        if at_least <= 2
        else f"an even integer of at least {at_least}"
    )
    if not _is_integer(d):
        raise ValueError(f"{name} must be {rule}, got {d!r} of type {type(d).__name__}")
    d = int(d)
    if d <= 0 or d % 2:
        raise ValueError(f"{name} must be {rule}, got {d}")
    if d < at_least:
        raise ValueError(f"{name} must be {rule}, got {d}")
    return d


def check_base(base: object) -> float:
    """``base`` as a float if it is a finite real number greater than 1."""
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise ValueError(
            f"base must be a finite real number greater than 1, got {base!r} "
            f"of type {type(base).__name__}"
        )
    value = float(base)
    if not math.isfinite(value) or value <= 1.0:
        raise ValueError(
            f"base must be a finite real number greater than 1, got {base}"
        )
    return value


def check_finite(values: ArrayLike, name: str) -> NDArray[np.float64]:
    """``values`` as a float64 array if every entry is a finite real number."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be real numbers, got {values!r}") from error
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite (no NaN or infinity), got {values!r}")
    return array


def check_scalar(value: ArrayLike, name: str) -> float:
    """``value`` as a float if it is a single finite real number."""
    array = check_finite(value, name)
    if array.ndim != 0:
        raise ValueError(
            f"{name} must be a single real number (a scalar), got shape {array.shape}"
        )
    return float(array)


def check_integers(values: ArrayLike, name: str, limit: int) -> NDArray[np.float64]:
    """``values`` as float64 if every entry is an integer of magnitude <= limit."""
    array = check_finite(values, name)
    if np.any(array != np.round(array)) or np.any(np.abs(array) > limit):
        raise ValueError(
            f"{name} must be integers of magnitude at most {limit}, got {values!r}"
        )
    return array


def check_count(value: object, name: str, at_least: int = 1) -> int:
    """``value`` as an int if it is an integer of at least ``at_least``."""
    if not _is_integer(value):
        raise ValueError(f"{name} must be an integer >= {at_least}, got {value!r}")
    if value < at_least:
        raise ValueError(f"{name} must be an integer >= {at_least}, got {value}")
    return int(value)


def check_minimum(
    value: object,
    name: str,
    minimum: float,
    *,
    strict: bool = False,
    minimum_name: str | None = None,
) -> float:
    """``value`` as a float if it is a finite real number >= ``minimum``
    (> with ``strict``), e.g. a scaling factor of at least 1. When the
    minimum is another parameter, ``minimum_name`` names it in the rule
    (``high must be a finite real number > low (4), got 1.0``)."""
    bound = f"{minimum:g}" if minimum_name is None else f"{minimum_name} ({minimum:g})"
    rule = f"a finite real number {'>' if strict else '>='} {bound}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {rule}, got {value!r}")
    number = float(value)
    allowed = number > minimum if strict else number >= minimum
    if not math.isfinite(number) or not allowed:
        raise ValueError(f"{name} must be {rule}, got {value!r}")
    return number


def check_given(value: object, name: str, reason: str) -> object:
    """``value`` unless it is ``None``: an optional argument that ``reason``
    (e.g. ``"method 'yarn'"``) needs."""
    if value is None:
        raise ValueError(f"{name} must be given for {reason}")
    return value


def check_choice(value: object, name: str, options: Sequence[object]) -> object:
    """``value`` if it is one of ``options`` (a layout, a schedule, a method)."""
    if value not in options:
        raise ValueError(f"{name} must be one of {tuple(options)}, got {value!r}")
    return value


def check_tolerance(value: object, name: str = "atol", *, zero: bool = False) -> float:
    """``value`` as a float if it is a real number > 0 (>= 0 with ``zero``)."""
    rule = "non-negative" if zero else "positive"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a {rule} real number, got {value!r}")
    allowed = value >= 0 if zero else value > 0
    if not allowed:
        raise ValueError(f"{name} must be a {rule} real number, got {value!r}")
    return float(value)


def check_square_matrix(values: ArrayLike, name: str) -> NDArray[np.float64]:
    """``values`` as a float64 array if it is a finite square matrix."""
    matrix = check_finite(values, name)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {matrix.shape}")
    return matrix


def check_table(table: ArrayLike, d: int | None = None) -> NDArray[np.float64]:
    """``table`` as a float64 (n, d) array: n >= 3 rows (consecutive positions)
    and an even number d >= 4 of columns (equal to ``d`` if given)."""
    table = check_finite(table, "table")
    if table.ndim != 2:
        raise ValueError(
            f"table must be 2-D (positions x dimensions), got shape {table.shape}"
        )
    if table.shape[0] < 3:
        raise ValueError(
            "table must have at least 3 rows (consecutive positions), "
            f"got {table.shape[0]}"
        )
    if table.shape[1] < 4 or table.shape[1] % 2:
        raise ValueError(
            "table must have an even number of columns, at least 4, "
            f"got {table.shape[1]}"
        )
    if d is not None and table.shape[1] != d:
        raise ValueError(f"table has {table.shape[1]} columns but d = {d}")
    return table
