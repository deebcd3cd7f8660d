"""The sinusoidal encoding as real code writes it, and checks for its bugs.

Each convention below restates, in our own numpy, how one public code base
builds its table of position encodings; the original is named in
:data:`CONVENTIONS`. Every table function has the signature
``(positions, d, base=10000.0) -> array`` and returns float64 of shape
``positions.shape + (d,)``. ``positions`` are token indices counted from 0
(the first token of a sequence is 0); a code base whose first token sits at
another position (fairseq) adds that offset itself.

The second half of the module holds checks a reader can run on any table or
rotary function: :func:`check_encoding_table`, :func:`check_relative_scores`
and :func:`check_rope_pairing`. They raise a ``ValueError`` that names the
property that failed.

Derived in the chapter "The encoding in real code". Like :mod:`posenc.core`,
every function validates its parameters first and names the one it rejects.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .core import check_base, check_dimension, check_finite, frequencies, rotate

__all__ = [
    "vaswani2017",
    "pytorch_tutorial",
    "distilbert",
    "marian",
    "gptj",
    "tensor2tensor",
    "fairseq",
    "whisper",
    "SCHEDULES",
    "paper_frequencies",
    "t2t_frequencies",
    "Convention",
    "CONVENTIONS",
    "interleaved_to_halves",
    "find_column_permutation",
    "column_frequencies",
    "Measured",
    "measure_table",
    "PROPERTIES",
    "encoding_table_problems",
    "check_encoding_table",
    "PAIRINGS",
    "rotate_half_split",
    "rope_pairing",
    "check_rope_pairing",
    "check_relative_scores",
]

# ---------------------------------------------------------------- validation


def _check_inputs(
    positions: ArrayLike, d: object, base: object, minimum_d: int = 2
) -> tuple[NDArray[np.float64], int, float]:
    d = check_dimension(d)
    if d < minimum_d:
        raise ValueError(
            f"d must be at least {minimum_d} for this convention "
            f"(it divides by d/2 - 1), got {d}"
        )
    base = check_base(base)
    t = check_finite(positions, "positions")
    return t, d, base


def _check_table(table: ArrayLike, d: int | None = None) -> NDArray[np.float64]:
    """``table`` as a float64 (n, d) array with n >= 3 rows and even d >= 4."""
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


def _interleave(sines: NDArray, cosines: NDArray) -> NDArray[np.float64]:
    table = np.empty(sines.shape[:-1] + (2 * sines.shape[-1],))
    table[..., 0::2] = sines
    table[..., 1::2] = cosines
    return table


# ------------------------------------------------------ frequency schedules


def paper_frequencies(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The paper's frequencies :math:`\theta_i = \mathrm{base}^{-2i/d}`.

    The same as :func:`posenc.core.frequencies`: from 1 down to
    :math:`\mathrm{base}^{-(1 - 2/d)}`, which is *not* ``1/base``.
    """
    return frequencies(d, base)


def t2t_frequencies(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The frequencies of tensor2tensor, fairseq and Whisper.

    .. math:: \theta_i = \mathrm{base}^{-i/(d/2 - 1)}, \qquad i = 0, \dots, d/2-1,

    from 1 down to exactly ``1/base``. It is a different set of numbers from
    :func:`paper_frequencies` (only :math:`\theta_0 = 1` is shared), so no
    permutation of columns turns one table into the other. Needs ``d >= 4``.
    """
    _, d, base = _check_inputs(0.0, d, base, minimum_d=4)
    return np.exp(-np.arange(d // 2) * (math.log(base) / (d // 2 - 1)))


#: Frequency schedules, by name: the paper's, and the one of tensor2tensor.
SCHEDULES: dict[str, Callable[..., NDArray[np.float64]]] = {
    "paper": paper_frequencies,
    "tensor2tensor": t2t_frequencies,
}

# -------------------------------------------------------------- conventions


def vaswani2017(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The paper's table (Vaswani et al. 2017, section 3.5).

    .. math:: p_{t,2i} = \sin(t/\mathrm{base}^{2i/d}), \qquad
              p_{t,2i+1} = \cos(t/\mathrm{base}^{2i/d}).

    Interleaved, sine first, first token at position 0.
    """
    t, d, base = _check_inputs(positions, d, base)
    angles = t[..., None] / base ** (np.arange(0, d, 2) / d)
    return _interleave(np.sin(angles), np.cos(angles))


def pytorch_tutorial(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The PyTorch tutorial's and the Annotated Transformer's table.

    The paper's table, with the frequencies computed in log space,
    :math:`\theta_i = \exp(-2i\ln(\mathrm{base})/d)`. Equal to
    :func:`vaswani2017` up to rounding. (The originals work in float32.)
    """
    t, d, base = _check_inputs(positions, d, base)
    theta = np.exp(np.arange(0, d, 2) * (-math.log(base) / d))
    angles = t[..., None] * theta
    return _interleave(np.sin(angles), np.cos(angles))


def _per_column_angles(t: NDArray, d: int, base: float) -> NDArray[np.float64]:
    """One angle per column j, with the exponent of its pair, 2 (j // 2) / d."""
    column = np.arange(d)
    return t[..., None] / base ** (2 * (column // 2) / d)


def distilbert(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""Hugging Face DistilBERT's table (``create_sinusoidal_embeddings``).

    An angle for every column :math:`j`, :math:`t/\mathrm{base}^{2\lfloor j/2
    \rfloor/d}`, then the sine of the even columns and the cosine of the odd
    ones: the paper's table. The original computes it in float64 numpy and
    rounds the finished table to float32.
    """
    t, d, base = _check_inputs(positions, d, base)
    angles = _per_column_angles(t, d, base)
    return np.where(np.arange(d) % 2 == 0, np.sin(angles), np.cos(angles))


def marian(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""Hugging Face Marian's table (``MarianSinusoidalPositionalEmbedding``).

    The paper's angles, but the layout is *halves*: column :math:`i` holds
    :math:`\sin t\theta_i` and column :math:`d/2 + i` holds
    :math:`\cos t\theta_i`. A permutation of the paper's columns
    (:func:`interleaved_to_halves`). Computed in float64, stored in float32.
    """
    t, d, base = _check_inputs(positions, d, base)
    angles = _per_column_angles(t, d, base)
    return np.concatenate([np.sin(angles[..., 0::2]), np.cos(angles[..., 1::2])], -1)


def gptj(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""Hugging Face GPT-J's table (``create_sinusoidal_positions``).

    Sines of all pairs, then cosines (halves), with the paper's frequencies
    computed as :math:`1/\mathrm{base}^{2i/d}`. GPT-J uses it for rotary
    embeddings: it splits the table into its sine and cosine halves and
    rotates *interleaved* pairs of q and k with them.
    """
    t, d, base = _check_inputs(positions, d, base)
    angles = t[..., None] * (1.0 / base ** (np.arange(0, d, 2) / d))
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


def _t2t_halves(t: NDArray, d: int, base: float) -> NDArray[np.float64]:
    angles = t[..., None] * t2t_frequencies(d, base)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


def tensor2tensor(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""tensor2tensor's timing signal (``get_timing_signal_1d``).

    Halves (sines, then cosines) with the frequencies of
    :func:`t2t_frequencies`, :math:`\mathrm{base}^{-i/(d/2-1)}`; first token
    at position 0 (the ``start_index`` default). Needs ``d >= 4``.
    """
    t, d, base = _check_inputs(positions, d, base, minimum_d=4)
    return _t2t_halves(t, d, base)


def fairseq(
    positions: ArrayLike, d: int, base: float = 10000.0, padding_idx: int = 1
) -> NDArray[np.float64]:
    r"""fairseq's ``SinusoidalPositionalEmbedding``.

    tensor2tensor's table, but the first real token reads the row of position
    ``padding_idx + 1`` (row ``padding_idx`` is zeroed for padding). With
    fairseq's default dictionary the padding index is 1, so the first token
    is at position 2. Needs ``d >= 4``.
    """
    t, d, base = _check_inputs(positions, d, base, minimum_d=4)
    if (
        isinstance(padding_idx, bool)
        or not isinstance(padding_idx, numbers.Integral)
        or padding_idx < 0
    ):
        raise ValueError(
            f"padding_idx must be a non-negative integer, got {padding_idx!r}"
        )
    return _t2t_halves(t + (int(padding_idx) + 1), d, base)


def whisper(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""Whisper's audio-encoder table (``sinusoids`` in ``whisper/model.py``).

    The same numbers as :func:`tensor2tensor`: halves, frequencies
    :math:`\mathrm{base}^{-i/(d/2-1)}`, first frame at position 0. (Whisper's
    text decoder learns its position embeddings instead.) Needs ``d >= 4``.
    """
    t, d, base = _check_inputs(positions, d, base, minimum_d=4)
    return _t2t_halves(t, d, base)


@dataclass(frozen=True)
class Convention:
    """What one code base does, as the chapter's Rosetta-stone table states it.

    ``layout`` is ``"interleaved"`` or ``"halves"``; ``first`` is the function
    that comes first in each pair or half (``"sin"`` everywhere we looked);
    ``schedule`` names an entry of :data:`SCHEDULES`; ``start`` is the
    position of the first token with default arguments; ``source`` says
    where the original is.
    """

    table: Callable[..., NDArray[np.float64]]
    layout: str
    first: str
    schedule: str
    start: int
    source: str


_HF = "huggingface/transformers, src/transformers/models/"

#: The conventions of the chapter's Rosetta stone, by name.
CONVENTIONS: dict[str, Convention] = {
    "paper": Convention(
        vaswani2017,
        "interleaved",
        "sin",
        "paper",
        0,
        "Vaswani et al. (2017), section 3.5",
    ),
    "PyTorch tutorial": Convention(
        pytorch_tutorial,
        "interleaved",
        "sin",
        "paper",
        0,
        "pytorch/tutorials, beginner_source/transformer_tutorial.py, "
        "PositionalEncoding",
    ),
    "Annotated Transformer": Convention(
        pytorch_tutorial,
        "interleaved",
        "sin",
        "paper",
        0,
        "harvardnlp/annotated-transformer, the_annotated_transformer.py, "
        "PositionalEncoding",
    ),
    "DistilBERT": Convention(
        distilbert,
        "interleaved",
        "sin",
        "paper",
        0,
        _HF + "distilbert/modeling_distilbert.py, create_sinusoidal_embeddings",
    ),
    "Marian": Convention(
        marian,
        "halves",
        "sin",
        "paper",
        0,
        _HF + "marian/modeling_marian.py, MarianSinusoidalPositionalEmbedding",
    ),
    "GPT-J": Convention(
        gptj,
        "halves",
        "sin",
        "paper",
        0,
        _HF + "gptj/modeling_gptj.py, create_sinusoidal_positions",
    ),
    "tensor2tensor": Convention(
        tensor2tensor,
        "halves",
        "sin",
        "tensor2tensor",
        0,
        "tensorflow/tensor2tensor, tensor2tensor/layers/common_attention.py, "
        "get_timing_signal_1d",
    ),
    "fairseq": Convention(
        fairseq,
        "halves",
        "sin",
        "tensor2tensor",
        2,
        "facebookresearch/fairseq, fairseq/modules/"
        "sinusoidal_positional_embedding.py, SinusoidalPositionalEmbedding",
    ),
    "Whisper": Convention(
        whisper,
        "halves",
        "sin",
        "tensor2tensor",
        0,
        "openai/whisper, whisper/model.py, sinusoids",
    ),
}

# ------------------------------------------------------------ permutations


def interleaved_to_halves(d: int) -> NDArray[np.intp]:
    """The column permutation from the interleaved to the halves layout.

    ``halves_table = interleaved_table[..., perm]`` with ``perm = (0, 2, ...,
    d-2, 1, 3, ..., d-1)``: first the sine columns, then the cosine columns.
    The same ``perm`` turns interleaved rotary pairs into half-split ones:
    ``rotate_half_split(x[..., perm], t) == rotate(x, t)[..., perm]``.
    """
    d = check_dimension(d)
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


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
    if not atol >= 0:
        raise ValueError(f"atol must be non-negative, got {atol!r}")
    perm = np.empty(b.shape[1], dtype=np.intp)
    for k in range(b.shape[1]):
        equal = np.flatnonzero(np.abs(a - b[:, [k]]).max(axis=0) <= atol)
        if equal.size != 1:
            return None
        perm[k] = equal[0]
    if np.unique(perm).size != perm.size:
        return None
    return perm


def column_frequencies(table: ArrayLike) -> NDArray[np.float64]:
    r"""The angular frequency of every column, measured from the column alone.

    A sinusoid :math:`c(t) = A\sin(\theta t + \varphi)` sampled at consecutive
    integers obeys :math:`c(t+1) + c(t-1) = 2\cos\theta\; c(t)`. The least
    squares solution of that recurrence over the rows gives
    :math:`\cos\theta`, hence :math:`\theta \in [0, \pi]`, without knowing the
    layout, the order or the start position. Permuting columns permutes these
    numbers, so two tables whose sorted column frequencies differ are not
    column permutations of each other. Rows must be consecutive positions.
    """
    table = _check_table(table)
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


def _pairs(d: int, layout: str) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Columns (a_i, b_i) of pair i: a holds the sine, b the cosine."""
    if layout == "interleaved":
        return np.arange(0, d, 2), np.arange(1, d, 2)
    if layout == "halves":
        return np.arange(d // 2), np.arange(d // 2, d)
    raise ValueError(f"layout must be 'interleaved' or 'halves', got {layout!r}")


def _pair_motion(table: NDArray, layout: str) -> tuple[NDArray, ...]:
    """Each pair as a point cos + i sin, its steps, and how far it is from a
    unit-circle point turning by equal steps (largest deviation per pair)."""
    first_of_pair, second_of_pair = _pairs(table.shape[1], layout)
    turn = table[:, second_of_pair] + 1j * table[:, first_of_pair]
    steps = turn[1:] * np.conj(turn[:-1])
    off_circle = np.abs(np.abs(turn) - 1).max(axis=0)
    uneven = np.abs(steps - steps[0]).max(axis=0)
    return turn, steps, off_circle, uneven


def measure_table(table: ArrayLike, base: float = 10000.0) -> Measured:
    """Layout, order, frequency schedule and start position of a table.

    ``table`` holds the encodings of consecutive token indices 0, 1, 2, ...
    Columns are paired by equal :func:`column_frequencies`; the pairing
    pattern gives the layout, the direction in which each pair turns gives
    the order (sine first turns counter-clockwise in (cos, sin)), the pair
    frequencies are compared with :data:`SCHEDULES`, and the angle of the
    first pair in the first row (whose frequency is 1 in every schedule here)
    gives the start position. Anything unrecognised is reported as
    ``"other"``; the start is then measured with the first pair's frequency.
    """
    table = _check_table(table)
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
    first_of_pair, second_of_pair = _pairs(d, layout)
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
    for name, schedule_of in SCHEDULES.items():
        if np.allclose(pair_theta, schedule_of(d, base), rtol=1e-6, atol=1e-12):
            schedule = name
    # The first pair of the first row is (cos s, sin s), or its mirror image
    # (sin s, cos s) = e^(i(pi/2 - s)) when the cosine comes first.
    angle = float(np.angle(turn[0, 0]))
    start = (angle if first == "sin" else math.pi / 2 - angle) / pair_theta[0]
    return Measured(layout, first, schedule, start)


# ------------------------------------------------------------------ checks

NORM = "constant norm"
OFFSET = "offset-only inner products"
PAIRS = "pairs share a frequency"
FREQUENCIES = "frequencies"
START = "start position"
#: The properties :func:`check_encoding_table` checks, in its order.
PROPERTIES = (NORM, OFFSET, PAIRS, FREQUENCIES, START)


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
    """
    d = check_dimension(d)
    base = check_base(base)
    table = _check_table(table, d)
    start = float(check_finite(start, "start"))
    if not atol > 0:
        raise ValueError(f"atol must be positive, got {atol!r}")
    first_of_pair, second_of_pair = _pairs(d, layout)
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


# -------------------------------------------------------------------- RoPE

#: The two ways code pairs coordinates for rotary embeddings.
PAIRINGS = ("interleaved", "half-split")


def rotate_half_split(
    x: ArrayLike, positions: ArrayLike, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""Rotary embedding with *half-split* pairs :math:`(x_i, x_{i+d/2})`.

    Pair :math:`i` is rotated counter-clockwise by :math:`t\,\theta_i`:

    .. math::
        x'_i = x_i\cos t\theta_i - x_{i+d/2}\sin t\theta_i, \qquad
        x'_{i+d/2} = x_i\sin t\theta_i + x_{i+d/2}\cos t\theta_i.

    :func:`posenc.core.rotate` rotates the interleaved pairs
    :math:`(x_{2i}, x_{2i+1})` instead; the two agree after the coordinate
    permutation :func:`interleaved_to_halves`. ``x`` has shape ``(..., d)``
    with ``d`` even; ``positions`` broadcasts against ``x.shape[:-1]``.
    """
    x = check_finite(x, "x")
    if x.ndim == 0 or x.shape[-1] == 0 or x.shape[-1] % 2:
        last = x.shape[-1] if x.ndim else "none (a scalar)"
        raise ValueError(f"x must have an even, non-zero last axis (d), got {last}")
    d = x.shape[-1]
    theta = frequencies(d, base)
    t = check_finite(positions, "positions")
    try:
        shape = np.broadcast_shapes(t.shape, x.shape[:-1])
    except ValueError as error:
        raise ValueError(
            f"positions of shape {t.shape} must broadcast against x.shape[:-1] "
            f"= {x.shape[:-1]}"
        ) from error
    angles = np.broadcast_to(t, shape)[..., None] * theta
    cos, sin = np.cos(angles), np.sin(angles)
    first, second = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([first * cos - second * sin, first * sin + second * cos], -1)


def rope_pairing(
    rotate_fn: Callable[..., ArrayLike], d: int, base: float = 10000.0
) -> str:
    """Which coordinates a rotary function turns together, found by probing.

    Rotates each unit vector ``e_j`` to position 1 with ``rotate_fn(x,
    positions, base)`` and looks where it lands: on ``j`` and ``j ^ 1`` for
    ``"interleaved"`` pairs, on ``j`` and ``j +- d/2`` for ``"half-split"``
    pairs. Raises a ``ValueError`` for anything else. Needs ``d >= 4`` (for
    ``d = 2`` the two pairings are the same).
    """
    d = check_dimension(d)
    if d < 4:
        raise ValueError(f"d must be at least 4 to tell pairings apart, got {d}")
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
    :data:`PAIRINGS`. Weights of one pairing work with code of the other once
    the rows of W_q and W_k of every head are permuted by
    :func:`interleaved_to_halves` (or its inverse).
    """
    if expected not in PAIRINGS:
        raise ValueError(f"expected must be one of {PAIRINGS}, got {expected!r}")
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
    positions below 1000 and shifts below 1000; differences are compared to
    ``atol * |q| |k|``.
    """
    d = check_dimension(d)
    base = check_base(base)
    if isinstance(trials, bool) or not isinstance(trials, numbers.Integral):
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    if trials < 1:
        raise ValueError(f"trials must be a positive integer, got {trials}")
    rng = np.random.default_rng(seed)
    for _ in range(int(trials)):
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


# ----------------------------------------------------------------- figures


def schedules_figure(dims: tuple[int, ...] = (64, 512), base: float = 1e4):
    """Figure: the paper's frequencies and tensor2tensor's, and their ratio.

    Panel (a): both schedules for the first of ``dims`` on a log axis, with
    their lowest frequencies marked. Panel (b): the ratio of tensor2tensor's
    frequency to the paper's for every pair, for each of ``dims``.
    """
    from .plots import PALETTE, new_figure

    figure, (left, right) = new_figure(8.0, 3.6, ncols=2)
    d = dims[0]
    pair = np.arange(d // 2)
    paper, t2t = paper_frequencies(d, base), t2t_frequencies(d, base)
    left.semilogy(pair, paper, "o", ms=3.5, color=PALETTE["blue"], label="paper")
    left.semilogy(
        pair,
        t2t,
        "s",
        ms=3.5,
        mfc="none",
        color=PALETTE["vermillion"],
        label="tensor2tensor, fairseq, Whisper",
    )
    lowest = [
        (paper[-1], PALETTE["blue"], r"$\mathrm{base}^{-(1-2/d)}$", 4),
        (t2t[-1], PALETTE["vermillion"], r"$1/\mathrm{base}$", -11),
    ]
    for value, colour, text, shift in lowest:
        left.axhline(value, color=colour, lw=0.8, ls="--")
        left.annotate(
            text,
            (0, value),
            xytext=(2, shift),
            textcoords="offset points",
            color=colour,
            fontsize=9,
        )
    left.set_xlabel(f"pair index $i$ ($d = {d}$)")
    left.set_ylabel(r"frequency $\theta_i$ (rad per position)")
    left.set_title("(a) two schedules")
    left.legend(frameon=False, fontsize=9, loc="upper right")
    styles = ["-", "--", ":", "-."]
    for index, d in enumerate(dims):
        pair = np.arange(d // 2)
        ratio = t2t_frequencies(d, base) / paper_frequencies(d, base)
        right.plot(
            pair / (d // 2 - 1),
            ratio,
            styles[index % len(styles)],
            color=PALETTE["black"],
            label=f"$d = {d}$",
        )
    right.set_xlabel(r"relative pair index $i/(d/2 - 1)$")
    right.set_ylabel("tensor2tensor / paper")
    right.set_title("(b) ratio of the frequencies")
    right.legend(frameon=False, fontsize=9)
    return figure


def column_match_figure(d: int = 16, base: float = 1e4, length: int = 256):
    """Figure: distances between the paper's columns and those of two others.

    Each panel shows the root-mean-square distance, over positions 0 to
    ``length - 1``, between every column of the paper's table (rows) and
    every column of another convention's table (columns): (a) Marian,
    (b) tensor2tensor. Exact matches are marked with white dots. The
    distances are drawn on a logarithmic scale with a floor at 1e-4, so that
    exact matches stand out from the low-frequency cosine columns, which are
    all close to 1 over a short stretch of positions.
    """
    from matplotlib.colors import LogNorm

    from .plots import SEQUENTIAL, new_figure

    positions = np.arange(length)
    paper = vaswani2017(positions, d, base)
    figure, axes = new_figure(8.0, 3.9, ncols=2)
    panels = [
        ("(a) Marian: a permutation", "Marian", marian),
        ("(b) tensor2tensor: none", "tensor2tensor", tensor2tensor),
    ]
    for ax, (title, name, table_of) in zip(axes, panels, strict=True):
        other = table_of(positions, d, base)
        gaps = paper[:, :, None] - other[:, None, :]
        distance = np.sqrt(np.mean(gaps**2, axis=0))
        floor = np.maximum(distance, 1e-4)  # exact matches sit at the floor
        image = ax.imshow(floor, cmap=SEQUENTIAL, norm=LogNorm(1e-4, 2.0))
        rows, cols = np.nonzero(distance < 1e-9)
        ax.plot(cols, rows, "o", ms=4, color="white", mec="black", mew=0.6)
        ax.set_xlabel(f"column of the {name} table")
        ax.set_ylabel("column of the paper's table")
        ax.set_title(title)
        ax.grid(False)
    figure.colorbar(image, ax=axes, label="RMS distance between columns", shrink=0.9)
    return figure


def offset_figure(
    tables: dict[str, ArrayLike],
    d: int,
    anchors: tuple[int, int] = (0, 300),
    span: int = 120,
):
    """Figure: <p_m, p_(m+Delta)> / (d/2) against Delta, for two anchors m.

    One panel per entry of ``tables`` (name -> table of positions 0, 1, ...,
    with at least ``anchors[1] + span + 1`` rows). For an encoding whose
    inner products depend on the offset only, the two curves coincide.
    """
    from .plots import PALETTE, new_figure

    names = list(tables)
    rows = (len(names) + 1) // 2
    figure, axes = new_figure(
        8.0, 2.3 * rows + 0.4, ncols=2, nrows=rows, sharex=True, sharey=True
    )
    axes = np.atleast_1d(axes).ravel()
    offsets = np.arange(span + 1)
    colours = [PALETTE["blue"], PALETTE["vermillion"]]
    for ax, name in zip(axes, names, strict=False):
        table = check_finite(tables[name], f"tables[{name!r}]")
        for anchor, colour, style in zip(anchors, colours, ["-", "--"], strict=True):
            products = table[anchor + offsets] @ table[anchor] / (d / 2)
            ax.plot(
                offsets, products, style, color=colour, lw=1.3, label=f"$m = {anchor}$"
            )
        ax.axhline(0, color=PALETTE["black"], lw=0.6)
        ax.set_title(name, fontsize=10)
    for ax in axes[len(names) :]:
        ax.set_visible(False)
    for ax in axes[-2:]:
        ax.set_xlabel(r"offset $\Delta$")
    for ax in axes[::2]:
        ax.set_ylabel(r"$\langle p_m, p_{m+\Delta}\rangle / (d/2)$", fontsize=9)
    axes[0].legend(frameon=False, fontsize=9, loc="upper right")
    return figure


def rope_pairing_figure(d: int = 64, base: float = 1e4, offset: int = 3, seed: int = 0):
    """Figure: attention scores when the two rotary pairings are mixed up.

    A random (seeded) query and key. (a) The score of q at position m and k
    at m - ``offset``, against m: intended (both interleaved), the same
    weights run by half-split code, and q and k rotated with different
    pairings. (b) The intended and the half-split scores against the offset,
    for q at position 500: equal at offset 0 only.
    """
    from .plots import PALETTE, new_figure

    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))
    figure, (left, right) = new_figure(8.0, 3.4, ncols=2)
    cases = [
        ("intended: interleaved", rotate, rotate, PALETTE["black"], "-"),
        (
            "half-split code",
            rotate_half_split,
            rotate_half_split,
            PALETTE["blue"],
            "--",
        ),
        (
            "q interleaved, k half-split",
            rotate,
            rotate_half_split,
            PALETTE["vermillion"],
            "-",
        ),
    ]
    anchor = np.arange(offset, 301)
    queries = np.broadcast_to(q, (anchor.size, d))
    keys = np.broadcast_to(k, (anchor.size, d))
    for label, rotate_q, rotate_k, colour, style in cases:
        rotated_q = rotate_q(queries, anchor, base)
        rotated_k = rotate_k(keys, anchor - offset, base)
        scores = np.sum(rotated_q * rotated_k, axis=-1)
        left.plot(anchor, scores, style, color=colour, lw=1.3, label=label)
    left.set_xlabel(f"position $m$ of q (k at $m - {offset}$)")
    left.set_ylabel(r"score $\langle R_m q,\ R_{m-\Delta} k\rangle$")
    left.set_title(f"(a) fixed offset $\\Delta = {offset}$")
    deltas = np.arange(0, 101)
    keys = np.broadcast_to(k, (deltas.size, d))
    for label, rotate_fn, _, colour, style in cases[:2]:
        scores = rotate_fn(keys, 500 - deltas, base) @ rotate_fn(q, 500, base)
        right.plot(deltas, scores, style, color=colour, lw=1.3, label=label)
    right.set_xlabel(r"offset $\Delta$")
    right.set_title("(b) q at position 500")
    figure.legend(
        *left.get_legend_handles_labels(),
        loc="outside upper center",
        ncol=3,
        frameon=False,
        fontsize=9,
    )
    return figure
