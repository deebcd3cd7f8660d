"""Reading a table of position encodings: what it is, from its numbers alone.

Given a table whose rows are the encodings of consecutive positions,
:func:`column_frequencies` measures the frequency of every column,
:func:`measure_table` reads off the layout, the order of sine and cosine,
the frequency schedule and the start position, and
:func:`find_column_permutation` and :func:`column_distances` compare two
tables column by column. Derived in the chapter "The encoding in real code".
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .codebases import CODEBASE_SCHEDULES
from .core import pair_columns
from .validate import (
    check_base,
    check_count,
    check_finite,
    check_table,
    check_tolerance,
)

__all__ = [
    "find_column_permutation",
    "column_distances",
    "column_frequencies",
    "offset_profiles",
    "Measured",
    "measure_table",
]


def find_column_permutation(
    a: ArrayLike, b: ArrayLike, atol: float = 1e-9
) -> NDArray[np.intp] | None:
    """A permutation ``perm`` with ``a[:, perm] == b`` (to ``atol``), or None.

    Column ``k`` of ``b`` must equal exactly one column of ``a`` (entry by
    entry, to ``atol``) and no column of ``a`` may be used twice; otherwise
    no column permutation maps ``a`` onto ``b`` and the answer is None.
    """
    a = check_finite(a, "a")
    b = check_finite(b, "b")
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(
            f"a and b must be 2-D arrays of the same shape, got {a.shape} and {b.shape}"
        )
    atol = check_tolerance(atol, zero=True)
    perm = np.empty(b.shape[1], dtype=np.intp)
    for k in range(b.shape[1]):
        equal = np.flatnonzero(np.abs(a - b[:, [k]]).max(axis=0) <= atol)
        if equal.size != 1:
            return None
        perm[k] = equal[0]
    if np.unique(perm).size != perm.size:
        return None
    return perm


def column_distances(a: ArrayLike, b: ArrayLike) -> NDArray[np.float64]:
    r"""Root-mean-square distance between every column of ``a`` and of ``b``.

    Entry :math:`(c, c')` is the root mean square over the rows :math:`t`
    (positions) the two tables share,

    .. math:: \Big(\operatorname{mean}_t\,(a_{tc} - b_{tc'})^2\Big)^{1/2}.

    Shape ``(a.shape[1], b.shape[1])``; an entry is 0 exactly where column
    :math:`c'` of ``b`` equals column :math:`c` of ``a``.
    """
    a = check_finite(a, "a")
    b = check_finite(b, "b")
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0]:
        raise ValueError(
            "a and b must be 2-D arrays with the same number of rows, "
            f"got {a.shape} and {b.shape}"
        )
    gaps = a[:, :, None] - b[:, None, :]
    return np.sqrt(np.mean(gaps**2, axis=0))


def offset_profiles(
    table: ArrayLike, anchors: tuple[int, ...] = (0, 300), span: int = 120
) -> NDArray[np.float64]:
    r"""Normalised inner products :math:`\langle p_m, p_{m+\Delta}\rangle/(d/2)`
    of a table's rows, for :math:`\Delta = 0, \dots,` ``span`` and each anchor
    :math:`m` of ``anchors``.

    ``table`` holds the encodings of positions 0, 1, ... (at least
    ``max(anchors) + span + 1`` rows); ``d`` is its number of columns.
    Returns shape ``(len(anchors), span + 1)``. For an encoding whose inner
    products depend on the offset only, the rows are equal.
    """
    table = check_finite(table, "table")
    span = check_count(span, "span", at_least=0)
    if table.ndim != 2 or table.shape[0] <= max(anchors) + span:
        raise ValueError(
            f"table must be 2-D with more than max(anchors) + span = "
            f"{max(anchors) + span} rows, got shape {table.shape}"
        )
    d = table.shape[1]
    offsets = np.arange(span + 1)
    return np.array(
        [table[anchor + offsets] @ table[anchor] / (d / 2) for anchor in anchors]
    )


def column_frequencies(table: ArrayLike) -> NDArray[np.float64]:
    r"""The angular frequency of every column, measured from the column alone.

    A sinusoid :math:`y(t) = \rho\sin(\theta t + \varphi)` sampled at consecutive
    integers obeys :math:`y(t+1) + y(t-1) = 2\cos\theta\; y(t)`. The least
    squares solution of that recurrence over the rows gives
    :math:`\cos\theta`, hence :math:`\theta \in [0, \pi]`, without knowing the
    layout, the order or the start position. Permuting columns permutes these
    numbers, so two tables whose sorted column frequencies differ are not
    column permutations of each other. Rows must be consecutive positions.
    """
    table = check_table(table)
    middle = table[1:-1]
    around = table[2:] + table[:-2]
    energy = np.sum(middle * middle, axis=0)
    if np.any(energy == 0):
        raise ValueError("table has a column that is zero on its inner rows")
    cosine = np.sum(middle * around, axis=0) / (2 * energy)
    return np.arccos(np.clip(cosine, -1.0, 1.0))


class Measured(NamedTuple):
    """What :func:`measure_table` reads off a table of numbers."""

    layout: str
    first: str
    schedule: str
    start: float


def measure_table(table: ArrayLike, base: float = 10000.0) -> Measured:
    """Layout, order, frequency schedule and start position of a table.

    ``table`` holds the encodings of consecutive token indices 0, 1, 2, ...
    Columns are paired by equal :func:`column_frequencies`; the pairing
    pattern gives the layout, the direction in which each pair turns gives
    the order (sine first turns counter-clockwise in (cos, sin)), the pair
    frequencies are compared with
    :data:`posenc.codebases.CODEBASE_SCHEDULES`, and the angle of the
    first pair in the first row (whose frequency is 1 in every schedule here)
    gives the start position. Anything unrecognised is reported as
    ``"other"``; the start is then measured with the first pair's frequency.
    """
    table = check_table(table)
    base = check_base(base)
    d = table.shape[1]
    theta = column_frequencies(table)
    gaps = np.abs(np.subtract.outer(theta, theta))
    np.fill_diagonal(gaps, np.inf)
    partner = np.argmin(gaps, axis=1)
    columns = np.arange(d)
    if np.array_equal(partner, columns ^ 1):
        layout = "interleaved"
    elif np.array_equal(partner, (columns + d // 2) % d):
        layout = "halves"
    else:
        return Measured("other", "other", "other", float("nan"))
    first_of_pair, second_of_pair = pair_columns(d, layout)
    turn = table[:, second_of_pair] + 1j * table[:, first_of_pair]
    steps = np.angle(turn[1] * np.conj(turn[0]))
    if np.all(steps > 0):
        first = "sin"
    elif np.all(steps < 0):
        first = "cos"
    else:
        first = "other"
    pair_theta = np.abs(steps)
    schedule = "other"
    for name, schedule_of in CODEBASE_SCHEDULES.items():
        if np.allclose(pair_theta, schedule_of(d, base), rtol=1e-6, atol=1e-12):
            schedule = name
    # The first pair of the first row is (cos s, sin s), or its mirror image
    # (sin s, cos s) = e^(i(pi/2 - s)) when the cosine comes first.
    angle = float(np.angle(turn[0, 0]))
    start = (angle if first == "sin" else math.pi / 2 - angle) / pair_theta[0]
    return Measured(layout, first, schedule, start)
