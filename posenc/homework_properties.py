"""Homework answers judged by a property, not a digest.

Two groups, each a test that ``posenc.homework_judge.judge`` calls:

* **values with a property** ("property" tasks): a permutation, a matrix, a
  pair of frequencies, which the answer must satisfy
  (``inverse_permutation``, ``clockwise_map``, ``breaks_rms_law``);
* **functions the student writes** ("code" tasks of the derivation
  chapters, ``CODE_TASKS``): hidden tests (``Property``) run the function
  at inputs the notebook does not show, check values there and properties
  such as "depends only on m − n", shapes, negative offsets and edge
  cases, and name the first that fails, never its expected value.

The rotary-embedding chapter's tasks are in ``posenc.homework_rope``.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from fractions import Fraction

import numpy as np

from .core import encoding, frequencies
from .homework_judge import (
    AnswerForm,
    NearMiss,
    Property,
    call,
    code_task,
    shaped,
)

# ------------------------------------------------------------ value properties


def inverse_permutation(answer: object) -> bool:
    """Halves to interleaved for d = 8: the interleaved table, from the
    halves table's columns in the order ``answer``; AnswerForm unless it
    is 8 integers, each of 0 to 7 once."""
    form = AnswerForm(
        "the answer is a list of 8 integers (ints, not floats or "
        "strings), each of 0 to 7 once."
    )
    if isinstance(answer, (str, bytes)):
        raise form
    try:
        order = np.asarray(answer)
    except (TypeError, ValueError):
        raise form from None
    if order.shape != (8,) or order.dtype.kind not in "iu":
        raise form
    if sorted(order.tolist()) != list(range(8)):
        raise form
    positions = np.arange(50)
    halves = encoding(positions, 8, layout="halves")
    return bool(np.array_equal(halves[:, order], encoding(positions, 8)))


def clockwise_map(answer: object) -> bool:
    """An orthogonal 2x2 matrix O with O (cos m t, sin m t) = (cos m t,
    -sin m t) for every m and t; AnswerForm unless it is a 2x2 matrix of
    finite numbers."""
    form = AnswerForm("the answer is a 2×2 matrix of finite numbers.")
    if isinstance(answer, (str, bytes)):
        raise form
    try:
        # Read without a cast first: a complex array cast to float would
        # drop its imaginary parts (with a mere warning).
        raw = np.asarray(answer)
        if raw.dtype.kind not in "biuf" or raw.dtype.kind == "b":
            raise form
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            matrix = raw.astype(float)
    except (TypeError, ValueError, OverflowError, Warning):
        raise form from None
    if matrix.shape != (2, 2) or not np.all(np.isfinite(matrix)):
        raise form
    angles = np.linspace(-7, 7, 29)
    counter = np.stack([np.cos(angles), np.sin(angles)])
    clockwise = np.stack([np.cos(angles), -np.sin(angles)])
    return bool(
        np.allclose(matrix @ counter, clockwise, rtol=0, atol=1e-9)
        and np.allclose(matrix.T @ matrix, np.eye(2), rtol=0, atol=1e-9)
    )


#: No float is a nonzero multiple of 2 pi (pi is irrational), so an angle
#: this close to one (an absolute distance, far below pi) is read as that
#: multiple: k * 2 * np.pi, or 2 * (k * np.pi), lies within it of 2 pi k
#: for every |k| up to 10^6 (at most 7.1e-10, at k = 997,982).
_MULTIPLE_ATOL = 1e-9


#: A resonance this close to a nonzero multiple of 2 pi, but not within
#: ``_MULTIPLE_ATOL``, is a value typed with too few digits (3.14, 3.1416).
_NEAR_ATOL = 1e-2


@functools.cache
def two_pi() -> Fraction:
    """2 pi to within 2^-1200, by Machin's formula pi = 16 arctan(1/5) -
    4 arctan(1/239) in integers: enough for the distance of any float's
    double (below 2^1025) to its nearest multiple of 2 pi."""
    one = 1 << 1240

    def arctan_inverse(x: int) -> int:  # arctan(1/x) * one, to ~300 units
        term = total = one // x
        n, sign = 1, 1
        while term:
            term //= x * x
            n, sign = n + 2, -sign
            total += sign * (term // n)
        return total

    return Fraction(2 * (16 * arctan_inverse(5) - 4 * arctan_inverse(239)), one)


def _is_multiple_of_two_pi(value: Fraction, atol: float = _MULTIPLE_ATOL) -> bool:
    """Whether ``value`` (exact) is 0, or within ``atol`` of a nonzero
    multiple of 2 pi."""
    if value == 0:
        return True
    turns = round(value / two_pi())
    return turns != 0 and abs(value - turns * two_pi()) <= atol


def _two_reals(answer: object) -> tuple[Fraction, Fraction]:
    """``answer`` as two exact numbers; AnswerForm if it is not two finite
    real numbers in the floats' range (strings, booleans and complex
    numbers are not)."""
    form = AnswerForm(
        "the answer is a tuple of two finite real numbers (floats or ints), "
        "not strings or booleans."
    )
    if isinstance(answer, (str, bytes)):
        raise form
    try:
        values = list(answer)
    except TypeError:
        raise form from None
    if len(values) != 2:
        raise form
    exact = []
    for value in values:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise form
        try:  # ints are kept exact, within the floats' range
            approximate = float(value)
        except OverflowError:
            raise form from None
        if not math.isfinite(approximate):
            raise form
        if isinstance(value, numbers.Integral):
            exact.append(Fraction(int(value)))
        else:
            exact.append(Fraction(approximate))
    return exact[0], exact[1]


def breaks_rms_law(answer: object) -> bool:
    """Two frequencies (theta_0, theta_1) for which the long-run mean of
    g(Delta)^2 = (cos Delta theta_0 + cos Delta theta_1)^2 over all the
    integer offsets is not N/2 = 1.

    g^2 = 1 + cos(2 Delta theta_0)/2 + cos(2 Delta theta_1)/2
    + cos(Delta (theta_0 - theta_1)) + cos(Delta (theta_0 + theta_1)), and
    the long-run mean of cos(Delta phi) over the integers is 1 if phi is a
    multiple of 2 pi and 0 otherwise. So the mean is 1 plus non-negative
    terms, and it differs from 1 exactly when one of 2 theta_0, 2 theta_1,
    theta_0 - theta_1, theta_0 + theta_1 is a multiple of 2 pi.

    What "exactly" means for floats: the two numbers are taken as the exact
    rationals they hold (so 1.0 and 1.0000001 are not equal, and their mean
    is exactly 1), and 0 is decided exactly. No float, and no sum of two,
    is a nonzero multiple of 2 pi, so there the check takes the intended
    one: an angle within ``_MULTIPLE_ATOL`` = 1e-9 (absolute) of 2 pi k,
    k != 0, counts as 2 pi k (the distance computed exactly, with 2 pi to
    2^-1200). Anything farther is decided as the number it is: 2e13 is
    0.586 from the nearest multiple, so (1e13, 0.3) does not break the
    law. Strings, booleans and complex numbers are not accepted. A pair
    that misses only by digits (one of the four within ``_NEAR_ATOL`` =
    0.01 of a nonzero multiple, as with 3.1416 for pi) raises NearMiss."""
    first, second = _two_reals(answer)
    resonances = (2 * first, 2 * second, first - second, first + second)
    if any(_is_multiple_of_two_pi(value) for value in resonances):
        return True
    if any(_is_multiple_of_two_pi(value, _NEAR_ATOL) for value in resonances):
        raise NearMiss(
            "close: one of 2θ₀, 2θ₁, θ₀ − θ₁, θ₀ + θ₁ is near a nonzero "
            "multiple of 2π, but not within 1e-9. Give more digits "
            "(np.pi, not 3.14)."
        )
    return False


# ------------------------------------------------------------ the tasks


# ------------------------------------------------------------ code tasks


def _real(result: object) -> float | None:
    """A number (or a 0-d array) the student's function returned, or None."""
    raw = np.asarray(result) if not isinstance(result, (str, bytes)) else None
    if raw is None or raw.shape != () or raw.dtype.kind not in "iuf":
        return None
    value = float(raw)
    return value if math.isfinite(value) else None


def _distance_between(m: float, n: float, d: int, base: float = 1e4) -> float:
    table = encoding(np.array([m, n], dtype=float), d, base)
    return float(np.linalg.norm(table[0] - table[1]))


def _distance_at(pairs, d: int = 64, base: float | None = None):
    """Whether ``distance(m - n, d[, base])`` is ||p_m - p_n|| at ``pairs``."""

    def holds(distance) -> bool:
        for m, n in pairs:
            args = (m - n, d) if base is None else (m - n, d, base)
            got = _real(call(distance, *args))
            want = _distance_between(m, n, d, 1e4 if base is None else base)
            if got is None or abs(got - want) > 1e-9:
                return False
        return True

    return holds


def _distance_shapes(distance) -> bool:
    offsets = np.arange(12.0).reshape(3, 4)
    return _real(call(distance, 3, 64)) is not None and shaped(
        call(distance, offsets, 64), (3, 4)
    )


_DISTANCE = [
    Property(
        "distance(delta, d) returns a number for one offset and an array of "
        "delta's shape for an array of offsets",
        _distance_shapes,
    ),
    Property(
        "the distance at offset 0 is 0",
        lambda f: (value := _real(call(f, 0, 64))) is not None and abs(value) < 1e-9,
    ),
    Property(
        "distance(m − n, 64) equals ‖p_m − p_n‖ of posenc.encoding at hidden "
        "positions with m > n",
        _distance_at([(7, 2), (530, 11), (10_000, 9_871), (40_000, 3)]),
    ),
    Property(
        "the same with m < n (negative offsets)",
        _distance_at([(2, 7), (11, 530), (0, 65_536)]),
    ),
    Property(
        "the same at other widths and bases, called as distance(delta, d, base)",
        lambda f: (
            _distance_at([(9, 1), (300, 0)], 8, 100.0)(f)
            and _distance_at([(5, 77), (1_000, 1)], 128, 1e5)(f)
        ),
    ),
    Property(
        "the same at offsets that are not whole numbers",
        _distance_at([(2.5, 0.0), (0.0, 13.25)]),
    ),
]


def _swaps(result: object) -> set[tuple[int, int]] | None:
    """The student's swaps as a set of (i, j), i < j, or None if it is not
    a collection of such pairs."""
    if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
        return None
    found = set()
    for pair in list(result)[:10_000]:
        try:
            i, j = pair
        except (TypeError, ValueError):
            return None
        if not all(isinstance(x, numbers.Integral) for x in (i, j)) or not i < j:
            return None
        found.add((int(i), int(j)))
    return found


def _swaps_of(table: np.ndarray, expected: set[tuple[int, int]]):
    return lambda f: _swaps(call(f, table.copy())) == expected


_TABLE = encoding(np.arange(6), 8)


def _with_rows(sources: dict[int, int], noise: float = 0.0) -> np.ndarray:
    """The table of six positions with row ``i`` replaced by row
    ``sources[i]`` (plus ``noise`` in its first entry)."""
    table = _TABLE.copy()
    for row, source in sources.items():
        table[row] = _TABLE[source]
        table[row, 0] += noise
    return table


_INVISIBLE_SWAPS = [
    Property(
        "invisible_swaps(table) returns a set (or a list) of pairs (i, j) "
        "of positions, i < j, as ints",
        lambda f: _swaps(call(f, _with_rows({2: 1}))) is not None,
    ),
    Property(
        "a table whose rows all differ has no invisible swap",
        _swaps_of(_TABLE, set()),
    ),
    Property(
        "the chapter's faulty table (three positions, p_1 = p_2)",
        _swaps_of(_with_rows({2: 1})[:3], {(1, 2)}),
    ),
    Property(
        "a table with three equal rows (positions 0, 3 and 5)",
        _swaps_of(_with_rows({3: 0, 5: 0}), {(0, 3), (0, 5), (3, 5)}),
    ),
    Property(
        "a table with two separate pairs of equal rows",
        _swaps_of(_with_rows({4: 1, 5: 2}), {(1, 4), (2, 5)}),
    ),
    Property(
        "rows equal to within 1e-12, though not bit for bit, count as equal",
        _swaps_of(_with_rows({4: 0}, noise=3e-13), {(0, 4)}),
    ),
    Property(
        "rows that differ by 1e-9 count as different",
        _swaps_of(_with_rows({4: 0}, noise=1e-9), set()),
    ),
    Property("a table of one position has no swap", _swaps_of(_TABLE[:1], set())),
]

#: (g(0), g(1), phi0) of the hidden tests: a step under and over a quarter
#: turn, radii other than 1.
_CIRCLES = [(1.0, 0.6, 0.0), (4.0, -1.5, 1.2), (2.5, 2.4, -2.0)]


def _points(f, sign: int | None = None, count: int = 9) -> list[np.ndarray | None]:
    """The student's points for each hidden circle (None: not an array of
    shape (count, 2))."""
    found = []
    for g0, g1, phi0 in _CIRCLES:
        args = (g0, g1, phi0, count) if sign is None else (g0, g1, phi0, count, sign)
        result = call(f, *args)
        try:
            points = np.asarray(result, dtype=float)
        except (TypeError, ValueError):
            points = None
        ok = points is not None and points.shape == (count, 2)
        found.append(points if ok and np.all(np.isfinite(points)) else None)
    return found


def _on_every_circle(test, sign: int | None = None):
    def holds(f) -> bool:
        return all(
            p is not None and test(p, *circle)
            for p, circle in zip(_points(f, sign), _CIRCLES, strict=True)
        )

    return holds


def _gram(points: np.ndarray) -> np.ndarray:
    return points @ points.T


def _turns(points: np.ndarray) -> np.ndarray:
    """The sine of the angle from each point to the next, times lengths."""
    return points[:-1, 0] * points[1:, 1] - points[:-1, 1] * points[1:, 0]


_FROM_G = [
    Property(
        "points(g0, g1, phi0, count) returns an array of shape (count, 2) "
        "of finite numbers",
        _on_every_circle(lambda p, *_: True),
    ),
    Property(
        "p_0 has squared length g(0) and lies at the angle phi0",
        _on_every_circle(
            lambda p, g0, g1, phi0: np.allclose(
                p[0], np.sqrt(g0) * np.array([np.cos(phi0), np.sin(phi0)]), atol=1e-9
            )
        ),
    ),
    Property(
        "every point has squared length g(0)",
        _on_every_circle(
            lambda p, g0, *_: np.allclose((p**2).sum(axis=1), g0, rtol=0, atol=1e-9)
        ),
    ),
    Property(
        "neighbours p_m, p_(m+1) have inner product g(1)",
        _on_every_circle(
            lambda p, g0, g1, _: np.allclose(
                (p[:-1] * p[1:]).sum(axis=1), g1, rtol=0, atol=1e-9
            )
        ),
    ),
    Property(
        "⟨p_m, p_n⟩ depends only on m − n",
        _on_every_circle(
            lambda p, *_: np.allclose(
                _gram(p)[1:, 1:], _gram(p)[:-1, :-1], rtol=0, atol=1e-9
            )
        ),
    ),
    Property(
        "with sign=1, the default, each step turns counter-clockwise",
        _on_every_circle(lambda p, *_: bool(np.all(_turns(p) > 0))),
    ),
    Property(
        "with sign=-1 each step turns clockwise, and the rest holds as well",
        _on_every_circle(
            lambda p, g0, g1, phi0: (
                bool(np.all(_turns(p) < 0))
                and np.allclose((p[:-1] * p[1:]).sum(axis=1), g1, rtol=0, atol=1e-9)
                and np.allclose((p**2).sum(axis=1), g0, rtol=0, atol=1e-9)
            ),
            sign=-1,
        ),
    ),
]


def _realigns(d: int, base: float | None):
    def holds(f) -> bool:
        value = _real(call(f, d) if base is None else call(f, d, base))
        theta = frequencies(d, 1e4 if base is None else base)
        if value is None or value <= 0:
            return False
        return abs(value * (theta[0] - theta[1]) / (2 * np.pi) - 1) < 1e-10

    return holds


def _one_pair_raises(f) -> bool:
    try:
        f(2)
    except ValueError:
        return True
    except Exception:  # any other error is not the one the task asks for
        return False
    return False


_REALIGNMENT = [
    Property(
        "realignment(512) returns one positive finite number",
        lambda f: (value := _real(call(f, 512))) is not None and value > 0,
    ),
    Property(
        "at realignment(512) the angles of the two fastest pairs differ by "
        "exactly one full turn (base 10⁴)",
        _realigns(512, None),
    ),
    Property(
        "the same at other widths and bases, called as realignment(d, base)",
        lambda f: all(
            _realigns(d, base)(f)
            for d, base in [(4, 1e4), (64, 100.0), (1000, 5e5), (10**6, 1e4)]
        ),
    ),
    Property(
        "realignment(2) raises a ValueError: with d = 2 there is no second pair",
        _one_pair_raises,
    ),
]

CODE_TASKS = [
    code_task(
        name="encoding-distance",
        chapter="the_encoding",
        exercise="ex-encoding-distance",
        prompt=(
            "Write `distance(delta, d, base=1e4)`: the Euclidean distance "
            "$\\lVert p_m - p_n\\rVert$ between two encodings whose offset is "
            "`delta` $= m - n$, computed from the offset alone (no table of "
            "encodings). `delta` may be one number or an array of offsets; "
            "then return an array of its shape. Hidden tests compare it "
            "with the table at positions you do not see."
        ),
        starter=(
            "def distance(delta, d, base=1e4):\n"
            "    return ...  # your code\n\n\n"
            "answer = distance"
        ),
        hint=(
            "Expand the squared distance into squared lengths and an inner "
            "product, and use what the chapter shows about each."
        ),
        properties=_DISTANCE,
        usage="answer = distance",
    ),
    code_task(
        name="symmetry-invisible-swaps",
        chapter="attention_is_blind_to_order",
        exercise="ex-symmetry-repeated",
        prompt=(
            "Generalise the exercise: write `invisible_swaps(table)`, which "
            "takes a table of position vectors (row $t$ is $p_t$, shape "
            "$(n, d)$) and returns the set of swaps $(i, j)$, $i < j$, of two "
            "words that the model of the chapter cannot see, whatever the "
            "words are. Count two rows as equal when every entry agrees to "
            "within $10^{-12}$. Hidden tests run it on tables you do not see."
        ),
        starter=(
            "def invisible_swaps(table):\n"
            "    return ...  # your code\n\n\n"
            "answer = invisible_swaps"
        ),
        hint=(
            "A swap is invisible when the input after it is a reordering of "
            "the rows before it: compare what the two swapped words carry "
            "besides the words themselves."
        ),
        properties=_INVISIBLE_SWAPS,
        usage="answer = invisible_swaps",
    ),
    code_task(
        name="complex-from-g",
        chapter="complex_solution",
        exercise="ex-complex-uniqueness",
        prompt=(
            "Write `points(g0, g1, phi0, count, sign=1)`: the points $p_0, "
            "\\dots, p_{\\text{count}-1}$ (an array of shape `(count, 2)`) of "
            "the solution with $g(0) = $ `g0`, $g(1) = $ `g1`, $p_0$ at the "
            "angle `phi0`, every step turning counter-clockwise for "
            "`sign=1` and clockwise for `sign=-1`. Hidden tests check its "
            "points for values of $g(0)$, $g(1)$ and $\\varphi_0$ you do not "
            "see (with $g(1)^2 < g(0)^2$)."
        ),
        starter=(
            "def points(g0, g1, phi0, count, sign=1):\n"
            "    return ...  # your code\n\n\n"
            "answer = points"
        ),
        hint=(
            "Read the radius off g(0) and the angle of one step off the "
            "ratio g(1)/g(0), as in the exercise's argument; then place the "
            "points by their angles."
        ),
        properties=_FROM_G,
        usage="answer = points",
    ),
    code_task(
        name="decay-realignment",
        chapter="decay_finite_d",
        exercise="ex-decay-threshold",
        prompt=(
            "Write `realignment(d, base=1e4)`: the offset $2\\Delta^*$ at "
            "which the angles of the two fastest pairs, $\\Delta\\theta_0$ "
            "and $\\Delta\\theta_1$, differ by exactly $2\\pi$, for any even "
            "$d$ and base. With $d = 2$ there is no second pair: raise a "
            "`ValueError`. Hidden tests try widths and bases you do not see."
        ),
        starter=(
            "def realignment(d, base=1e4):\n"
            "    return ...  # your code\n\n\n"
            "answer = realignment"
        ),
        hint=(
            "Write the difference of the two angles as the offset times a "
            "difference of frequencies, and ask when it is one full turn."
        ),
        properties=_REALIGNMENT,
        usage="answer = realignment",
    ),
]
