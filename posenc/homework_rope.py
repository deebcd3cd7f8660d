"""Homework of the rotary-embedding chapter (``book/rope.md``): hidden
tests for the functions its tasks ask for, and its one number.

The conventions are the chapter's: ``posenc.rotate`` turns pair ``i`` (the
coordinates ``2i``, ``2i + 1``, the interleaved pairing; ``i`` and ``i +
d/2`` in the half-split one) counter-clockwise by ``t θ_i``, θ_i =
base^(−2i/d); the cosine-first encoding p̃_t has pairs (cos tθ_i, sin tθ_i).
The two rotation tasks ask for the student's own element-wise code:
while their hidden tests run, ``posenc.rotate`` is switched off (it
raises), so a function that calls it is told so.
"""

from __future__ import annotations

import contextlib
import sys

import numpy as np

from . import core
from .core import encoding
from .homework_judge import (
    Property,
    Task,
    call,
    close,
    code_task,
    digests,
    shaped,
)

_rotate = core.rotate  # the reference, kept while the public name is off


@contextlib.contextmanager
def _own_rotation():
    """``posenc.rotate`` raises while the student's rotation is tested."""

    def switched_off(*args, **kwargs):
        raise RuntimeError(
            "this task asks for your own element-wise rotation: "
            "posenc.rotate is switched off while check tests it"
        )

    package = sys.modules[__package__]
    saved = package.rotate, core.rotate
    package.rotate = core.rotate = switched_off
    try:
        yield
    finally:
        package.rotate, core.rotate = saved


def _vectors(d: int, count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(count, d))


def _rotates_like(pairing: str, d: int, positions, base: float | None = None):
    """Whether the student's rotation equals ``posenc.rotate`` (``pairing``)
    on hidden vectors at ``positions``."""

    def holds(f) -> bool:
        for x, t in zip(_vectors(d, len(positions), d + 1), positions, strict=True):
            args = (x.copy(), t) if base is None else (x.copy(), t, base)
            want = _rotate(x, t, 1e4 if base is None else base, pairing=pairing)
            if not close(call(f, *args), want):
                return False
        return True

    return holds


def _keeps_argument(f) -> bool:
    x = _vectors(8, 1, 5)[0]
    kept = x.copy()
    call(f, x, 3.0)
    return bool(np.array_equal(x, kept))


def _stays_in_pair(first: int, second: int, d: int = 8):
    """A vector nonzero only at ``first`` and ``second`` stays there."""

    def holds(f) -> bool:
        x = np.zeros(d)
        x[first], x[second] = 0.6, -0.8
        result = call(f, x, 2.0)
        if not shaped(result, (d,)):
            return False
        rest = np.delete(np.asarray(result, dtype=float), [first, second])
        return bool(np.all(np.abs(rest) < 1e-12))

    return holds


def _counter_clockwise(first: int, second: int, d: int = 8):
    """Pair 0 (theta_0 = 1) turned a quarter turn at t = pi/2."""

    def holds(f) -> bool:
        x = np.zeros(d)
        x[first] = 1.0
        want = np.zeros(d)
        want[second] = 1.0
        return close(call(f, x, np.pi / 2), want, atol=1e-12)

    return holds


def _undoes(f) -> bool:
    x = _vectors(16, 1, 6)[0]
    there = call(f, x.copy(), 37.5)
    return close(call(f, np.asarray(there, dtype=float), -37.5), x)


def _composes(f) -> bool:
    x = _vectors(16, 1, 7)[0]
    twice = call(f, np.asarray(call(f, x.copy(), 11.0), dtype=float), 5.0)
    return close(twice, call(f, x.copy(), 16.0))


def _rotation_properties(pairing: str, name: str, pair_one, partner: int):
    """The hidden tests of a rotation in ``pairing``, at d = 8: pair 1 is
    the coordinates ``pair_one``, pair 0 is coordinates 0 and ``partner``."""
    first, second = pair_one
    return [
        Property(
            f"{name}(x, t) returns an array of x's shape (d,)",
            lambda f: shaped(call(f, np.ones(8), 3.0), (8,)),
        ),
        Property(f"{name}(x, t) leaves its argument x unchanged", _keeps_argument),
        Property(
            "t = 0 leaves x as it is",
            lambda f: close(call(f, _vectors(8, 1, 2)[0], 0.0), _vectors(8, 1, 2)[0]),
        ),
        Property(
            f"rotations compose: {name}({name}(x, s), t) = {name}(x, s + t)",
            _composes,
        ),
        Property(
            f"negative positions: {name}({name}(x, t), −t) gives x back",
            _undoes,
        ),
        Property(
            f"a vector that is nonzero only in one pair (coordinates {first} "
            f"and {second} at d = 8) stays in that pair",
            _stays_in_pair(first, second),
        ),
        Property(
            f"pair 0 (coordinates 0 and {partner} at d = 8, θ₀ = 1) turns "
            "counter-clockwise by the angle t",
            _counter_clockwise(0, partner),
        ),
        Property(
            f"{name}(x, t) turns each pair by tθ_i, at hidden x and t "
            "(d = 64, base 10⁴)",
            _rotates_like(pairing, 64, [1.0, 7.0, 250.0, 3.5]),
        ),
        Property(
            f"other widths and bases, called as {name}(x, t, base)",
            lambda f: all(
                _rotates_like(pairing, d, [5.0, -2.0], base)(f)
                for d, base in [(2, 1e4), (6, 500.0), (128, 5e5)]
            ),
        ),
        Property(
            "large positions (t up to 10⁵)",
            _rotates_like(pairing, 64, [9_999.0, 100_000.0]),
        ),
    ]


_ROPE = _rotation_properties("interleaved", "rope", (2, 3), 1)
_ROPE_HALF = _rotation_properties("half-split", "rope_half", (1, 5), 4)


def _score_is(d: int, positions, seed: int):
    """Whether score(q, k, m - n) = <R_m q, R_n k> at ``positions``."""

    def holds(f) -> bool:
        q, k = _vectors(d, 2, seed)
        for m, n in positions:
            result = call(f, q.copy(), k.copy(), m - n)
            want = _rotate(q, m) @ _rotate(k, n)
            if not close(result, want):
                return False
        return True

    return holds


_SCORE = [
    Property(
        "score(q, k, delta) returns one number",
        lambda f: shaped(call(f, np.ones(4), np.ones(4), 1.0), ()),
    ),
    Property(
        "score(q, k, 0) = ⟨q, k⟩: at the same position", _score_is(16, [(0, 0)], 3)
    ),
    Property(
        "score(q, k, m − n) = ⟨R_m q, R_n k⟩ at hidden q, k and positions "
        "with m > n (d = 16)",
        _score_is(16, [(5, 2), (40, 15), (1_000, 3)], 4),
    ),
    Property(
        "the same with m < n (negative offsets)",
        _score_is(16, [(2, 5), (15, 40), (0, 777)], 5),
    ),
    Property(
        "the same at other widths (d = 2 and 64)",
        lambda f: (
            _score_is(2, [(9, 4), (4, 9)], 6)(f)
            and _score_is(64, [(30, 1), (1, 30)], 7)(f)
        ),
    ),
    Property(
        "the same at positions that are not whole numbers",
        _score_is(16, [(2.5, 0.25), (0.5, 7.75)], 8),
    ),
]


def _orbit(f, d: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The student's (v, order) for width ``d``, or None if not of that
    form."""
    result = call(f, d)
    try:
        v, order = result
        v, order = np.asarray(v), np.asarray(order)
    except (TypeError, ValueError):
        return None
    if v.shape != (d,) or v.dtype.kind not in "iuf" or order.dtype.kind not in "iu":
        return None
    if sorted(order.tolist()) != list(range(d)):
        return None
    return v.astype(float), order


def _orbit_at(d: int, positions):
    def holds(f) -> bool:
        found = _orbit(f, d)
        if found is None:
            return False
        v, order = found
        for t in positions:
            table = encoding(np.array([t], dtype=float), d)[0]
            if not close(_rotate(v, t), table[order]):
                return False
        return True

    return holds


_ORBIT = [
    Property(
        "orbit(d) returns a pair (v, order): v an array of shape (d,), order "
        "a permutation of 0, …, d − 1 (ints)",
        lambda f: _orbit(f, 8) is not None,
    ),
    Property(
        "at t = 0: v is the encoding of position 0, its columns taken in the "
        "order `order`",
        _orbit_at(8, [0.0]),
    ),
    Property(
        "posenc.rotate(v, t) = posenc.encoding(t, d)[order] at hidden "
        "positions t, negative and fractional ones included (d = 8)",
        _orbit_at(8, [1.0, 2.0, 17.0, 400.0, -3.0, 0.5, -12.25]),
    ),
    Property(
        "the same at other widths (d = 2, 64, 130)",
        lambda f: all(_orbit_at(d, [1.0, 33.0, -5.5])(f) for d in (2, 64, 130)),
    ),
]


ROPE_TASKS = [
    code_task(
        name="rope-rotate",
        chapter="rope",
        exercise="ex-rope-norm",
        prompt=(
            "Write `rope(x, t, base=1e4)`: the rotation $R_t x$ of one vector "
            "`x` (a 1-D array of even length $d$) at position `t`, element-wise "
            "as in the chapter's equation `eq-rope-elementwise` (interleaved "
            "pairs), without building a $d \\times d$ matrix. Write it "
            "yourself: while the hidden tests run, `posenc.rotate` is "
            "switched off. Then use it for the exercise's numerical checks."
        ),
        starter=(
            "def rope(x, t, base=1e4):\n    return ...  # your code\n\n\nanswer = rope"
        ),
        hint=(
            "Each pair is turned on its own: write its turn with one vector of "
            "cosines, one of sines, and a copy of x whose pairs are each "
            "turned a quarter turn."
        ),
        properties=_ROPE,
        usage="answer = rope",
        guard=_own_rotation,
    ),
    code_task(
        name="rope-relative",
        chapter="rope",
        exercise="ex-rope-norm",
        prompt=(
            "Write `score(q, k, delta)`: the RoPE score $\\langle R_m q, R_n "
            "k\\rangle$ of a query at $m$ and a key at $n$, from the offset "
            "`delta` $= m - n$ alone, with a single rotation of one of the "
            "two vectors (`posenc.rotate` is allowed here). Hidden tests "
            "compare it with the two rotations at positions you do not see."
        ),
        starter=(
            "def score(q, k, delta):\n    return ...  # your code\n\n\nanswer = score"
        ),
        hint=(
            "Move both rotations onto one vector: the transpose of a "
            "rotation turns back, and two turns of the same pair add their "
            "angles. Mind the sign of the angle that is left."
        ),
        properties=_SCORE,
        usage="answer = score",
    ),
    code_task(
        name="rope-orbit",
        chapter="rope",
        exercise="ex-rope-direction",
        prompt=(
            "The exercise uses the cosine-first encoding $\\tilde p_t$. Show "
            "that it is one orbit of RoPE in code: write `orbit(d)`, which "
            "returns a vector `v` and a column order `order` (a permutation "
            "of `range(d)`) such that `posenc.rotate(v, t)` equals "
            "`posenc.encoding(t, d)[order]` at every position $t$. Hidden "
            "tests try positions and widths you do not see."
        ),
        starter=(
            "def orbit(d):\n"
            "    return ...  # your code: return v, order\n\n\n"
            "answer = orbit"
        ),
        hint=(
            "At t = 0 the rotation does nothing, so v is the encoding of "
            "position 0 in the new column order. Which order makes each "
            "pair of the table turn counter-clockwise, as the rotation does?"
        ),
        properties=_ORBIT,
        usage="answer = orbit",
    ),
    code_task(
        name="rope-rotate-half",
        chapter="rope",
        exercise="ex-rope-mix",
        prompt=(
            "Write `rope_half(x, t, base=1e4)`: the rotation in the "
            "half-split pairing (pair $i$ is coordinates $i$ and $i + d/2$, "
            '"rotate half"), element-wise, for one vector `x`. As for '
            "`rope-rotate`, `posenc.rotate` is switched off while the "
            "hidden tests run."
        ),
        starter=(
            "def rope_half(x, t, base=1e4):\n"
            "    return ...  # your code\n\n\n"
            "answer = rope_half"
        ),
        hint=(
            "The same turn as the interleaved one, with the pairs taken from "
            "the two halves of x: build the quarter-turned copy from the "
            "halves, and repeat the angles to match."
        ),
        properties=_ROPE_HALF,
        usage="answer = rope_half",
        guard=_own_rotation,
    ),
    Task(
        name="rope-mix-leakage",
        chapter="rope",
        exercise="ex-rope-mix",
        prompt=(
            "Diagnose the pairing bug in numbers. With `q, k = "
            "np.random.default_rng(2024).normal(size=(2, 64))`, rotate the "
            "query in the interleaved pairing and the key in the half-split "
            "one: the leakage (`posenc.offset_leakage`) of the $64 \\times 64$ "
            "matrix of scores $\\langle R_m q, R'_n k\\rangle$, $m, n = 0, "
            "\\dots, 63$, with $R'_n$ the half-split rotation (rows $m$; a "
            "float, within about 0.0001)."
        ),
        starter=(
            "q, k = np.random.default_rng(2024).normal(size=(2, 64))\nanswer = ..."
        ),
        kind="number",
        hint=(
            "Build the whole score matrix with the query and the key rotated "
            "in different pairings (your two functions, or posenc.rotate "
            "with its pairing argument), then measure it."
        ),
        tolerance=1e-4,
        digests=digests(
            """
            225e54da7185211e6071514df82ca3bb391502dd00ef19a1e0132141db035c55
            9a96581c8b7a6b8f7046016061fe916327c1f62583700b200e91b679a1d824b1
            d4750b103ca3f98243a27792349cd3ac636bb534652e1f576da3d960fb53194d
            """
        ),
        near=digests(
            """
            6bf9016d236b0a39e0e535c275beae7dcb2c58ff4a0efe8989da153a10dadf2f
            ba1099b6a954f1f122fafc1ae40b4a7bec09154849a18675f64c0eda2c273192
            e798c03563697ab8f0f1848794ae259c15f9e93d7b48a02f0df9892a88fba6e6
            """
        ),
        slips={
            **dict.fromkeys(
                digests(
                    """
                    3d48ad024afa915973098a9914773dbd58b6b0c0106657d170b28b2046baf643
                    79d3c8eb5b6eb3006259bd83d57af152f41768cdf9c95c464958b073c7d4ffcd
                    ceb966bc08e9edd0759e09581256b813368b645e69bc126c2787231c801bd650
                    """
                ),
                "That is the leakage of a consistent model, both rotations in "
                "the same pairing: the bug needs the key in the other one.",
            ),
            **dict.fromkeys(
                digests(
                    """
                    065bb2154246db0c00956efeb47994adb6e3dd0dbcc71346def19c7760cc3806
                    1f7d101a07fc0eba347dc18e7581a17feef589a1c73db73d5ab71c60e6623a1c
                    2c118f11247626c9cb4d602ab7239b19ddef99c7a8952b2c75bffea4e48cb213
                    3d2e0d8602668b76f48928ef2a7a87df0ec245eddae1db2819a2bd8b791a5f06
                    460228d5544e707384d4d8a4c7bb7e2d55cc181a6bde867fec41f64ec26c4471
                    607efa21905d6100df3132291b64f687f63d18f33508689ccb5d496e212cc36a
                    9c330f26351bf97d5e642a812c08994064f729a8c74cb7c63fe434dc9304b33a
                    bb36577e2fd4c2d2fbbba9bdc7ddc36fe7f04f42f9d993e6eef8caeab0702df6
                    cc532b607bbc639a9b4d139bc712f349f381af0e31712edd510f1797c4dbc64b
                    d5efc13f0a8909104aec294db9d49133138ac2926fa9f4e098727172709b4ab0
                    e79ebacf12d1e301ef5c806d79149dd99deb845a84ce06fa44c3c8e8530362ae
                    """
                ),
                "That is the leakage with the pairings the other way round "
                "(query half-split, key interleaved); the task rotates the "
                "query in the interleaved pairing.",
            ),
        },
    ),
]
