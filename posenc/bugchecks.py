"""Checks for the slips that shipped in real code, to run on any table or
rotary function.

:func:`check_encoding_table` (and :func:`encoding_table_problems`) test a
table of numbers against the properties of the paper's encoding;
:func:`rope_pairing` and :func:`check_rope_pairing` find which coordinates a
rotary function turns together; :func:`check_relative_scores` tests that
attention scores depend on the offset only. Each raises a ``ValueError``
that names the property that failed. Derived in the chapter "The encoding in
real code".
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .core import PAIRINGS, frequencies, pair_columns
from .validate import (
    check_base,
    check_choice,
    check_count,
    check_dimension,
    check_scalar,
    check_table,
    check_tolerance,
)

__all__ = [
    "encoding_table_problems",
    "check_encoding_table",
    "rope_pairing",
    "check_rope_pairing",
    "check_relative_scores",
]

NORM = "constant norm"
OFFSET = "offset-only inner products"
PAIRS = "pairs share a frequency"
FREQUENCIES = "frequencies"
START = "start position"
# The names above are the keys of encoding_table_problems, in its order (a
# chapter compares with the strings themselves, so they are not re-exported).


def _pair_motion(table: NDArray, layout: str) -> tuple[NDArray, ...]:
    """Each pair as a point cos + i sin, its steps, and how far it is from a
    unit-circle point turning by equal steps (largest deviation per pair)."""
    first_of_pair, second_of_pair = pair_columns(table.shape[1], layout)
    turn = table[:, second_of_pair] + 1j * table[:, first_of_pair]
    steps = turn[1:] * np.conj(turn[:-1])
    off_circle = np.abs(np.abs(turn) - 1).max(axis=0)
    uneven = np.abs(steps - steps[0]).max(axis=0)
    return turn, steps, off_circle, uneven


def encoding_table_problems(
    table: ArrayLike,
    d: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    start: float = 0.0,
    atol: float = 1e-9,
) -> dict[str, str]:
    r"""Which properties of the paper's encoding a table breaks, and how.

    ``table`` holds the encodings of consecutive positions ``start``,
    ``start + 1``, ...; ``layout`` says where each pair's sine and cosine sit
    (sine first). Returns a dict from property name to a message, empty if
    the table passes. The properties, with the chapters that derive them:

    * :data:`NORM`: :math:`\lVert p_t\rVert^2 = d/2` at every position;
    * :data:`OFFSET`: :math:`\langle p_m, p_n\rangle` depends on
      :math:`m - n` only (the complex-number chapter);
    * :data:`PAIRS`: each pair is a point of the unit circle that turns by the
      same angle at every step, i.e. its sine and cosine share a frequency;
    * :data:`FREQUENCIES`: pair :math:`i` turns by
      :math:`\theta_i = \mathrm{base}^{-2i/d}` per position, counter-clockwise
      (sine first); checked only when the pairs pass;
    * :data:`START`: the first row is the encoding of position ``start``.

    Sums of :math:`d` terms are compared to ``atol * d``, angles to ``atol``.
    For a float32 table pass ``atol = 2.5e-7 * t_max`` (``t_max`` the largest
    position): the step check compares the angles of two positions, each off
    by up to :math:`(2u + u^2)\,t\,\theta_1`, :math:`u = 2^{-24}`. The offset
    check forms the Gram matrix of all rows, :math:`n^2` numbers for
    :math:`n` rows: keep tables to a few thousand rows.
    """
    d = check_dimension(d)
    base = check_base(base)
    table = check_table(table, d)
    start = check_scalar(start, "start")
    atol = check_tolerance(atol)
    first_of_pair, second_of_pair = pair_columns(d, layout)
    rows = table.shape[0]
    problems: dict[str, str] = {}

    squares = np.sum(table * table, axis=1)
    worst = int(np.argmax(np.abs(squares - d / 2)))
    if abs(squares[worst] - d / 2) > atol * d:
        problems[NORM] = (
            f"|p_t|^2 should be d/2 = {d / 2:g} at every position; at position "
            f"{start + worst:g} it is {squares[worst]:.6g}"
        )

    gram = table @ table.T
    drift = gram[1:, 1:] - gram[:-1, :-1]
    m, n = np.unravel_index(np.argmax(np.abs(drift)), drift.shape)
    if abs(drift[m, n]) > atol * d:
        problems[OFFSET] = (
            "<p_m, p_n> should depend on m - n only; "
            f"<p_{start + m:g}, p_{start + n:g}> = {gram[m, n]:.6g} but "
            f"<p_{start + m + 1:g}, p_{start + n + 1:g}> = "
            f"{gram[m + 1, n + 1]:.6g}"
        )

    _, steps, off_circle, uneven = _pair_motion(table, layout)
    badness = np.maximum(off_circle, uneven)
    i = int(np.argmax(badness))
    if badness[i] > atol:
        other = "halves" if layout == "interleaved" else "interleaved"
        hint = ""
        if max(x.max() for x in _pair_motion(table, other)[2:]) <= atol:
            hint = f" (the pairs of the {other} layout pass: layout={other!r}?)"
        problems[PAIRS] = (
            f"pair {i} (columns {first_of_pair[i]}, {second_of_pair[i]}) should "
            "be a sine and a cosine of one angle; its points "
            + (
                f"leave the unit circle by {off_circle[i]:.3g}"
                if off_circle[i] > atol
                else f"turn by uneven steps (spread {uneven[i]:.3g})"
            )
            + f" over {rows} positions{hint}"
        )
    else:
        measured = np.angle(steps[0])
        expected = frequencies(d, base)
        error = np.abs(measured - expected)
        i = int(np.argmax(error))
        if error[i] > atol:
            hint = ""
            if np.allclose(measured, -expected, atol=atol):
                hint = " (every pair turns backwards: sine and cosine swapped?)"
            problems[FREQUENCIES] = (
                f"pair i should turn by base^(-2i/d) per position, from 1 down to "
                f"{expected[-1]:.4g}; pair {i} turns by {measured[i]:.6g} "
                f"instead of {expected[i]:.6g} (measured from "
                f"{np.abs(measured).max():.4g} down to "
                f"{np.abs(measured).min():.4g}){hint}"
            )

    angles = start * frequencies(d, base)
    expected_row = np.empty(d)
    expected_row[first_of_pair] = np.sin(angles)
    expected_row[second_of_pair] = np.cos(angles)
    miss = np.abs(table[0] - expected_row).max()
    if miss > atol * max(1.0, abs(start)):
        problems[START] = (
            f"the first row should be the encoding of position {start:g}; "
            f"it differs from it by up to {miss:.3g}"
        )
    return problems


def check_encoding_table(
    table: ArrayLike,
    d: int,
    base: float = 10000.0,
    *,
    layout: str = "interleaved",
    start: float = 0.0,
    atol: float = 1e-9,
) -> None:
    """Raise a ``ValueError`` naming every property the table breaks.

    See :func:`encoding_table_problems` for the properties and tolerances.
    Returns None when the table is the paper's encoding (in ``layout``, for
    positions ``start, start + 1, ...``).
    """
    problems = encoding_table_problems(
        table, d, base, layout=layout, start=start, atol=atol
    )
    if problems:
        listed = "; ".join(f"[{name}] {why}" for name, why in problems.items())
        raise ValueError(f"the table is not the paper's encoding: {listed}")


def rope_pairing(
    rotate_fn: Callable[..., ArrayLike], d: int, base: float = 10000.0
) -> str:
    """Which coordinates a rotary function turns together, found by probing.

    Rotates each unit vector ``e_c`` to position 1 with ``rotate_fn(x,
    positions, base)`` and looks where it lands: on ``c`` and ``c ^ 1`` for
    ``"interleaved"`` pairs, on ``c`` and ``c +- d/2`` for ``"half-split"``
    pairs. Raises a ``ValueError`` for anything else. Needs ``d >= 4`` (for
    ``d = 2`` the two pairings are the same).
    """
    d = check_dimension(d, at_least=4)
    base = check_base(base)
    landed = np.abs(np.asarray(rotate_fn(np.eye(d), 1.0, base), dtype=float)) > 1e-12
    columns = np.arange(d)
    expected = {
        "interleaved": columns ^ 1,
        "half-split": (columns + d // 2) % d,
    }
    for pairing, partner in expected.items():
        pattern = np.zeros((d, d), dtype=bool)
        pattern[columns, columns] = True
        pattern[columns, partner] = True
        if np.array_equal(landed, pattern):
            return pairing
    raise ValueError(
        "rotate_fn pairs coordinates neither as (2i, 2i+1) nor as (i, i + d/2): "
        f"e_0 lands on coordinates {np.flatnonzero(landed[0]).tolist()}"
    )


def check_rope_pairing(
    rotate_fn: Callable[..., ArrayLike],
    d: int,
    expected: str,
    base: float = 10000.0,
) -> None:
    """Raise a ``ValueError`` unless ``rotate_fn`` uses the ``expected`` pairing.

    ``expected`` is the pairing the weights were trained with, one of
    :data:`posenc.PAIRINGS`. Weights of one pairing work with code of the
    other once the rows of W_q and W_k of every head are permuted by
    :func:`posenc.interleaved_to_halves` (or its inverse).
    """
    expected = check_choice(expected, "expected", PAIRINGS)
    found = rope_pairing(rotate_fn, d, base)
    if found != expected:
        raise ValueError(
            f"rotary pairing: the code rotates {found} pairs but the weights "
            f"were trained with {expected} pairs; permute the rows of W_q and "
            "W_k of every head by interleaved_to_halves(head_dim) (or its "
            "inverse), or use the other rotation"
        )


def check_relative_scores(
    rotate_q: Callable[..., ArrayLike],
    rotate_k: Callable[..., ArrayLike],
    d: int,
    base: float = 10000.0,
    *,
    trials: int = 20,
    seed: int = 0,
    atol: float = 1e-9,
) -> None:
    r"""Raise a ``ValueError`` unless attention scores depend on ``m - n`` only.

    The relative property of rotary embeddings: with ``q`` rotated to
    position ``m`` and ``k`` to position ``n``, the score
    :math:`\langle R_m q, R_n k\rangle` must not change when both positions
    move by the same shift. Tested on ``trials`` random (seeded) vectors,
    positions from 0 to 999 and shifts from 1 to 1000; differences are
    compared to ``atol * |q| |k|``.
    """
    d = check_dimension(d)
    base = check_base(base)
    trials = check_count(trials, "trials", at_least=1)
    atol = check_tolerance(atol)
    rng = np.random.default_rng(seed)
    for _ in range(trials):
        q, k = rng.standard_normal((2, d))
        m, n, shift = rng.integers(0, 1000, size=3) + np.array([0, 0, 1])
        before = float(np.dot(rotate_q(q, m, base), rotate_k(k, n, base)))
        after = float(
            np.dot(rotate_q(q, m + shift, base), rotate_k(k, n + shift, base))
        )
        if abs(before - after) > atol * np.linalg.norm(q) * np.linalg.norm(k):
            raise ValueError(
                "relative property: the score of q at position "
                f"{m} and k at {n} is {before:.6g}, but with both moved by "
                f"{shift} it is {after:.6g}; q and k must be rotated with the "
                "same pairing and the same angles"
            )
