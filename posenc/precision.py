"""Floating-point precision, and how many positions the encoding tells apart.

Derived in the chapter "Precision and how many positions can be told apart".

Two questions, one module:

* **How wrong is a float32 table?** :func:`encoding_float32` computes the
  encoding in float32 throughout (positions, frequencies, the angle
  ``t * theta_i`` and its sine and cosine), with each frequency rounded
  once: the plainest float32 table (real code rounds the frequencies
  differently; chapter "Precision"). Its error grows linearly with the position. Two
  remedies keep it at float32 rounding level:
  :func:`encoding_cast` (compute in float64, then cast the table) and
  :func:`encoding_reduced` (reduce each angle modulo ``2 pi`` in float64, then
  take sine and cosine in float32). :func:`entry_error_bound` and
  :func:`row_error_bound` give a priori bounds on the error of each method.
* **How close do the encodings of two positions come?** By the chapter
  "Complex numbers solve <p_m, p_n> = g(m - n)",
  ``||p_m - p_n||^2 = d - 2 g(m - n)`` depends on the offset only, so the
  closest pair among ``L`` positions is found by scanning offsets
  (:func:`distance_records`, :func:`minimum_distance`). :func:`dirichlet_bound`
  is a proven upper bound, and :func:`certified_length` combines distances and
  error bounds into the number of positions a table can be trusted to keep
  apart.

Every function validates its parameters and raises a ``ValueError`` that
names the parameter; nothing happens on import.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import core
from .validate import (
    check_base,
    check_choice,
    check_count,
    check_dimension,
    check_finite,
    check_integers,
)

__all__ = [
    "UNIT_ROUNDOFF",
    "SINE_ROUNDING",
    "METHODS",
    "encoding_float32",
    "encoding_cast",
    "reduced_angles",
    "encoding_reduced",
    "encoding_error",
    "frequency_error",
    "entry_error_bound",
    "row_error_bound",
    "squared_distance",
    "distance_records",
    "minimum_distance",
    "dirichlet_bound",
    "certified_length",
    "certification_curves",
]

#: Unit roundoff u: rounding to nearest changes a number x by at most u |x|.
#: The spacing of floating-point numbers near x is between u |x| and 2 u |x|.
UNIT_ROUNDOFF = {"float32": 2.0**-24, "float64": 2.0**-53}
U32, U64 = UNIT_ROUNDOFF["float32"], UNIT_ROUNDOFF["float64"]

#: Largest error of a sine or cosine of an exact argument, as computed by
#: numpy: float32 errs by up to about 1.2 u (measured: numpy does not document
#: it, so the tests check it), float64 (the C library) by under one unit in
#: the last place. Both are covered by 2 u.
SINE_ROUNDING = {"float32": 2 * U32, "float64": 2 * U64}

#: Ways of computing a table, in the order of the chapter: the frameworks'
#: float32, the two remedies, and the float64 reference.
METHODS = ("float32", "cast", "reduced", "float64")

#: Largest magnitude up to which every integer is a float32 (resp. float64).
INTEGER_LIMIT = {"float32": 2**24, "float64": 2**53}

# ------------------------------------------------------ the tables, three ways


def encoding_float32(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float32]:
    r"""The encoding computed in float32 throughout, frequencies rounded once.

    Positions and frequencies are rounded to float32, the angle
    :math:`t\,\theta_i` is a float32 product (rounded), and its sine and
    cosine are float32. The frequencies are the correctly rounded
    :math:`\theta_i = \mathrm{base}^{-2i/d}`, so :math:`\theta_0 = 1` exactly.
    (Code that computes them in log space, as an exponential in float32,
    rounds them by up to about :math:`10u` and errs more than
    :func:`entry_error_bound` allows.)
    Layout: the paper's (interleaved). Returns float32 of shape
    ``positions.shape + (d,)``.

    Its error grows like :math:`|t|\,\theta_i\,2^{-23}` (see
    :func:`entry_error_bound`).
    """
    theta = core.frequencies(d, base).astype(np.float32)
    t = check_finite(positions, "positions").astype(np.float32)
    angles = t[..., None] * theta  # a float32 product, rounded
    return core.interleave(np.sin(angles), np.cos(angles))


def encoding_cast(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float32]:
    r"""Remedy (a): compute the encoding in float64, then round it to float32.

    Each entry is within half a float32 spacing (at most :math:`2^{-25}` for
    values in :math:`[-1, 1]`) of the float64 value.
    """
    return core.encoding(positions, d, base).astype(np.float32)


def reduced_angles(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The angles :math:`t\,\theta_i` reduced to :math:`[-\pi, \pi]`, in float64.

    .. math:: \varphi_i = t\,\theta_i
        - 2\pi\,\mathrm{round}\big(t\,\theta_i / 2\pi\big).

    The reduction costs a few float64 roundings, of order
    :math:`2^{-51}(|t|\theta_i + 1)`: the period :math:`2\pi/\theta_i` is
    irrational, so reducing the *position* exactly is impossible, but the
    angle can be reduced to far better than float32 accuracy. Shape
    ``positions.shape + (d/2,)``.
    """
    theta = core.frequencies(d, base)
    t = check_finite(positions, "positions")
    angles = t[..., None] * theta
    turns = np.rint(angles / (2 * np.pi))
    return angles - turns * (2 * np.pi)


def encoding_reduced(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float32]:
    r"""Remedy (b): reduce each angle modulo :math:`2\pi` first, then use float32.

    The reduced angle :math:`\varphi_i \in [-\pi, \pi]` (:func:`reduced_angles`) is
    rounded to float32, where its spacing is at most :math:`2^{-22}`, and its
    sine and cosine are taken in float32. Only the reduction needs float64.
    """
    reduced = reduced_angles(positions, d, base).astype(np.float32)
    return core.interleave(np.sin(reduced), np.cos(reduced))


def encoding_error(
    table: ArrayLike, positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""Absolute error of each entry of ``table`` against the float64 encoding.

    ``|table - p_t|`` with :math:`p_t` from :func:`posenc.encoding` (float64,
    itself accurate to :func:`entry_error_bound` with ``method="float64"``).
    ``table`` must have shape ``positions.shape + (d,)``.
    """
    reference = core.encoding(positions, d, base)
    values = np.asarray(table)
    if values.shape != reference.shape:
        raise ValueError(
            f"table must have shape {reference.shape} (positions.shape + (d,)), "
            f"got {values.shape}"
        )
    return np.abs(values.astype(np.float64) - reference)


# ------------------------------------------------------------- error bounds


@lru_cache(maxsize=256)
def _frequency_error(d: int, base: float, dtype: str) -> tuple[float, ...]:
    theta = core.frequencies(d, base).astype(dtype)
    with localcontext() as context:
        context.prec = 40
        log_base = Decimal(base).ln()
        errors = []
        for i, value in enumerate(theta):
            exact = (-Decimal(2 * i) / d * log_base).exp()
            errors.append(float(Decimal(float(value)) / exact - 1))
    return tuple(errors)


def frequency_error(
    d: int, base: float = 10000.0, dtype: str = "float64"
) -> NDArray[np.float64]:
    r"""Each frequency's relative error :math:`\delta_i = \hat\theta_i/\theta_i - 1`.

    :math:`\hat\theta_i` is :func:`posenc.frequencies` (``"float64"``) or that
    value rounded to float32 (``"float32"``, as :func:`encoding_float32`
    uses it); :math:`\theta_i = \mathrm{base}^{-2i/d}` is computed to 40
    significant digits (the ``decimal`` module), so :math:`\delta_i` is exact
    to far more digits than a float64 holds. Correctly rounded frequencies
    have :math:`|\delta_i| \le u`. numpy's float64 power need not be, and
    its accuracy depends on the machine: with its AVX-512 code it misses
    :math:`\theta_{154}` by :math:`1.064u_{64}` (:math:`d = 512`, base
    :math:`10^4`, :math:`u_{64} = 2^{-53}`), without it no pair there by more
    than :math:`u_{64}`. For :math:`d` not a power of two the exponent
    :math:`i\cdot(2/d)` is rounded too, on any machine (at :math:`d = 768`,
    :math:`6.14u_{64}` from the exponent alone, about :math:`7u_{64}` in
    all). The error is measured on the machine at hand. Shape ``(d // 2,)``.
    """
    d = check_dimension(d)
    base = check_base(base)
    dtype = check_choice(dtype, "dtype", ("float32", "float64"))
    return np.array(_frequency_error(d, base, dtype))


def _angle_bound(t, d, base, dtype):
    """A bound on the error of the angle t * theta_i computed in ``dtype``
    from the frequencies of :func:`frequency_error`."""
    u = UNIT_ROUNDOFF[dtype]
    # theta_i is off by delta_i and the product t * theta_i is rounded once:
    # relative error at most (1 + e)(1 + u) - 1 with e >= |delta_i|.
    # e = max(u, |delta_i|): one rounding's worst case u (then this is
    # 2u + u^2, the chapter's bound), or the actual error where it is larger.
    allowance = np.maximum(u, np.abs(frequency_error(d, base, dtype)))
    angle = (allowance + u + allowance * u) * t * core.frequencies(d, base)
    # theta_0 = 1 and integer t are exact, so pair 0's angle is exact.
    angle[..., 0] = 0.0
    return angle


def _angle_and_rounding_bounds(positions, d, base, method):
    """Per pair: a bound on the error of the computed angle, and on the
    rounding of a sine or cosine. Shapes ``positions.shape + (d/2,)`` and ()."""
    method = check_choice(method, "method", METHODS)
    theta = core.frequencies(d, base)
    limit = INTEGER_LIMIT["float32" if method == "float32" else "float64"]
    t = np.abs(check_integers(positions, "positions", limit))[..., None]
    if method in ("float32", "float64"):
        return _angle_bound(t, d, base, method), SINE_ROUNDING[method]
    float64_angle = _angle_bound(t, d, base, "float64")
    if method == "cast":
        # float64 sine, then one rounding to float32 (half a spacing, at
        # most u32 / 2 for a value in [-1, 1]).
        return float64_angle, U32 / 2 + SINE_ROUNDING["float64"]
    # reduced: storing r in [-pi, pi] as float32 costs half a spacing, at
    # most 2 u32 (spacing 2**-22 below 4); the float64 reduction adds a few
    # roundings of the angle (4 u64 covers them).
    reduction = 2 * U32 + float64_angle + 4 * U64 * (t * theta + 1)
    return reduction, SINE_ROUNDING["float32"]


def entry_error_bound(
    positions: ArrayLike, d: int, base: float = 10000.0, method: str = "float32"
) -> NDArray[np.float64]:
    r"""A bound on the error of each entry of a table computed by ``method``.

    For pair :math:`i` both entries err by at most :math:`\alpha_i + \eta`,
    where :math:`\alpha_i` bounds the error of the computed angle (the sine
    and cosine are 1-Lipschitz) and :math:`\eta` the rounding of the sine or
    cosine itself. With unit roundoff :math:`u` (:data:`UNIT_ROUNDOFF`):

    * ``"float32"``, ``"float64"``: :math:`\alpha_i = (\bar\delta_i + u +
      \bar\delta_i u)|t|\theta_i` with :math:`\bar\delta_i = \max(u,
      |\delta_i|)` (the frequency errs by :math:`\delta_i`,
      :func:`frequency_error`, and the product is rounded once), which is
      :math:`(2u + u^2)|t|\theta_i` where the frequency is correctly rounded
      (every float32 frequency in the chapter; numpy's float64 power may
      leave a few pairs above :math:`u`, depending on the machine, and for
      :math:`d` not a power of two the rounded exponent adds more),
      :math:`\alpha_0 = 0` (:math:`\theta_0 = 1` times an integer is exact),
      :math:`\eta = 2u`;
    * ``"cast"``: the float64 :math:`\alpha_i`, and
      :math:`\eta = u_{32}/2 + 2u_{64}`;
    * ``"reduced"``: :math:`\alpha_i = 2u_{32} + (\text{float64 terms of order }
      2^{-51}(|t|\theta_i + 1))`, :math:`\eta = 2u_{32}`.

    Positions must be integers of magnitude at most :math:`2^{24}` for
    ``"float32"`` (the largest range in which float32 holds every integer)
    and :math:`2^{53}` for the others, so that they are exact. The bound
    on numpy's sine and cosine (:math:`2u`) is measured, not documented; the
    tests check it. Returns shape ``positions.shape + (d,)``.
    """
    angle, rounding = _angle_and_rounding_bounds(positions, d, base, method)
    per_pair = angle + rounding
    return core.interleave(per_pair, per_pair)


def row_error_bound(
    positions: ArrayLike, d: int, base: float = 10000.0, method: str = "float32"
) -> NDArray[np.float64]:
    r"""A bound :math:`\mathcal E(t) \ge \|\hat p_t - p_t\|`, the error of a whole row.

    .. math:: \mathcal E(t) = \Big(\sum_i \alpha_i^2\Big)^{1/2} + \sqrt d\,\eta

    with :math:`\alpha_i, \eta` as in :func:`entry_error_bound`: an error
    :math:`\alpha` in the angle moves the pair :math:`(\sin, \cos)` along the
    unit circle by a chord of length at most :math:`\alpha`, and rounding
    adds at most :math:`\eta` to each of the :math:`d` entries (Minkowski's
    inequality). For ``"float32"``, with every float32 frequency correctly
    rounded, this is :math:`2^{-23}(|t|\,\|\theta_{\ge 1}\| + \sqrt d)` up to a relative
    :math:`2^{-25}`, where :math:`\|\theta_{\ge1}\|^2 = \sum_{i\ge1}\theta_i^2`.
    Returns an array of ``positions``' shape.
    """
    angle, rounding = _angle_and_rounding_bounds(positions, d, base, method)
    return np.sqrt(np.sum(angle**2, axis=-1)) + math.sqrt(d) * rounding


# ----------------------------------------------------- distances and offsets


def squared_distance(
    delta: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The squared distance between encodings whose positions differ by ``delta``.

    .. math:: \|p_m - p_n\|^2 = d - 2g(\Delta)
        = \sum_{i=0}^{d/2-1} 4\sin^2\!\big(\Delta\,\theta_i / 2\big),
        \qquad \Delta = m - n.

    The sum of squared sines has no cancellation, so it stays accurate
    relative to the distance when the distance is tiny; :math:`d - 2g` errs
    by about :math:`d\,2^{-53}` absolutely, which is a large fraction of a
    squared distance near :math:`10^{-14}`. Returns an array of ``delta``'s
    shape.
    """
    theta = core.frequencies(d, base)
    delta = check_finite(delta, "delta")
    half_angles = delta[..., None] * (theta / 2)
    return np.sum(4 * np.sin(half_angles) ** 2, axis=-1)


def _records_of(offsets, values, best):
    """The entries of ``values`` (in order) below ``best`` and all earlier ones."""
    before = np.minimum.accumulate(np.concatenate([[best], values]))[:-1]
    new = values < before
    return offsets[new], values[new]


def distance_records(
    max_offset: int,
    d: int,
    base: float = 10000.0,
    *,
    block: int = 2048,
    screen_pairs: int = 16,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    r"""Every offset that brings two encodings closer than any smaller offset.

    Returns ``(offsets, distances)``: the offsets :math:`1 = \Delta^{(1)} <
    \Delta^{(2)} < \dots \le` ``max_offset`` at which
    :math:`\|p_{m+\Delta} - p_m\|` (from :func:`squared_distance`) is smaller
    than for every smaller positive offset, and those distances. They
    determine :func:`minimum_distance` for every :math:`L \le`
    ``max_offset + 1``.

    The scan is exact but fast. The first ``screen_pairs`` pairs alone give a
    lower bound on the squared distance, their terms
    :math:`4\sin^2(\Delta\theta_i/2) = 2 - 2\cos\Delta\theta_i` summed. For
    offsets :math:`\Delta = \Delta_0 + \Delta'` (:math:`0 \le \Delta' <`
    ``block``) the angle-addition formula turns that sum into a matrix
    product, :math:`\cos(\Delta_0\theta + \Delta'\theta) = \cos
    \Delta_0\theta\cos \Delta'\theta - \sin \Delta_0\theta\sin \Delta'\theta`,
    computed for many block starts :math:`\Delta_0` at once. Only offsets
    whose lower bound beats the best distance so far (with a margin for
    float64 rounding) are evaluated in full.
    """
    max_offset = check_count(max_offset, "max_offset", 1)
    block = check_count(block, "block", 1)
    screen_pairs = check_count(screen_pairs, "screen_pairs", 1)
    theta = core.frequencies(d, base)
    screen = theta[:screen_pairs]
    k = len(screen)

    first = np.arange(1, min(block, max_offset + 1), dtype=np.float64)
    offsets, values = _records_of(first, squared_distance(first, d, base), np.inf)
    found_offsets, found_values = [offsets], [values]
    best = values[-1] if values.size else np.inf

    within = np.arange(block, dtype=np.float64)
    # [cos j theta, -sin j theta]: one product gives sum_i cos((s + j) theta_i)
    rotations = np.hstack(
        [np.cos(np.outer(within, screen)), -np.sin(np.outer(within, screen))]
    )
    # The screen and the full evaluation each err by a few roundings of the
    # angles (at most ~ max_offset * theta * 2**-52 per pair): this margin
    # keeps every offset that could beat `best` on the candidate list.
    margin = 16 * k * 2.0**-52 * (max_offset + 16)
    # Products of at most 2**18 multiply-adds: OpenBLAS computes those on
    # one thread, which on a busy machine is several times faster than
    # waking more threads for a product this thin.
    batch = max(1, 2**18 // (block * 2 * k))
    for start in range(block, max_offset + 1, block * batch):
        stop = min(start + block * batch, max_offset + 1)
        starts = np.arange(start, stop, block, dtype=np.float64)
        phases = np.outer(starts, screen)
        cosines = np.hstack([np.cos(phases), np.sin(phases)]) @ rotations.T
        # lower bound 2k - 2 * cosines < best + margin, without temporaries
        hits = np.flatnonzero(cosines.ravel() > k - (best + margin) / 2)
        if hits.size == 0:
            continue
        delta = starts[hits // block] + within[hits % block]
        delta = delta[delta <= max_offset]
        offsets, values = _records_of(delta, squared_distance(delta, d, base), best)
        if values.size:
            found_offsets.append(offsets)
            found_values.append(values)
            best = values[-1]
    return (
        np.concatenate(found_offsets),
        np.sqrt(np.concatenate(found_values)),
    )


def minimum_distance(
    lengths: ArrayLike, offsets: ArrayLike, distances: ArrayLike
) -> NDArray[np.float64]:
    r"""The smallest distance between the encodings of two of the positions
    :math:`0, \dots, L-1`, for each ``L`` in ``lengths``:

    .. math:: D(L) = \min_{1 \le \Delta \le L-1} \|p_\Delta - p_0\|.

    ``offsets, distances`` are the records of :func:`distance_records`; every
    ``L`` must be at least 2 and at most the scanned ``max_offset + 1`` (not
    checked: the records do not remember how far the scan went).
    """
    offsets = check_finite(offsets, "offsets")
    distances = check_finite(distances, "distances")
    if offsets.ndim != 1 or offsets.shape != distances.shape or offsets[0] != 1:
        raise ValueError(
            "offsets and distances must be the records of distance_records: "
            "two 1-d arrays of equal length, starting at offset 1"
        )
    lengths = check_finite(lengths, "lengths")
    if np.any(lengths < 2):
        raise ValueError(f"lengths must be at least 2, got {lengths.min()}")
    last = np.searchsorted(offsets, lengths - 1, side="right") - 1
    return distances[last]


def dirichlet_bound(lengths: ArrayLike, d: int) -> NDArray[np.float64]:
    r"""Dirichlet's upper bound on the smallest distance among ``L`` positions.

    .. math:: D(L) < \frac{2\pi\sqrt{N}}{M}, \qquad N = d/2,\quad
        M = \big\lfloor (L-1)^{1/N} \big\rfloor,

    valid for every base. (Pigeonhole: among the offsets :math:`0, \dots,
    M^N` two have all :math:`N` angles within :math:`2\pi/M` of each other
    modulo :math:`2\pi`.) Returns an array of ``lengths``' shape.
    """
    n = check_dimension(d) // 2
    lengths = check_integers(lengths, "lengths", 2**62)
    if np.any(lengths < 2):
        raise ValueError(f"lengths must be at least 2, got {lengths.min()}")
    bounds = np.empty(lengths.shape)
    for index, length in np.ndenumerate(lengths):
        top = int(length) - 1
        root = max(1, int(round(top ** (1.0 / n))))
        while root**n > top:  # exact integer n-th root, floor
            root -= 1
        while (root + 1) ** n <= top:
            root += 1
        bounds[index] = 2 * math.pi * math.sqrt(n) / root
    return bounds


def certified_length(
    offsets: ArrayLike,
    distances: ArrayLike,
    max_length: int,
    d: int,
    base: float = 10000.0,
    method: str = "float32",
) -> int:
    r"""The largest :math:`L \le` ``max_length`` with :math:`2\mathcal E(L-1) < D(L)`.

    :math:`\mathcal E` is :func:`row_error_bound` for ``method`` and :math:`D`
    :func:`minimum_distance` from the records ``offsets, distances`` of a
    scan up to ``max_length - 1``. Up to that :math:`L` every stored row is
    nearer its own exact encoding than any other position's, so all
    positions :math:`0, \dots, L-1` are told apart. Returns ``max_length``
    if the condition never fails in the scanned range, and 1 if it fails
    already for :math:`L = 2`.
    """
    max_length = check_count(max_length, "max_length", 2)
    minimum_distance(2, offsets, distances)  # validates the records
    offsets = np.asarray(offsets, dtype=np.float64)
    distances = np.asarray(distances, dtype=np.float64)

    def holds(length: int) -> bool:
        error = row_error_bound(length - 1, d, base, method)
        return bool(2 * error < minimum_distance(length, offsets, distances))

    # D(L) only falls and the row bound at L - 1 only grows, so the
    # condition holds for an initial range of L: find its end by bisection.
    if holds(max_length):
        return max_length
    if not holds(2):
        return 1
    good, bad = 2, max_length
    while bad - good > 1:
        middle = (good + bad) // 2
        good, bad = (middle, bad) if holds(middle) else (good, middle)
    return good


def certification_curves(
    lengths: ArrayLike,
    offsets: ArrayLike,
    distances: ArrayLike,
    max_length: int,
    d: int,
    base: float = 10000.0,
    methods: tuple[str, ...] = ("float32", "cast", "float64"),
) -> dict:
    r"""Both sides of the rule :math:`2\mathcal E(L-1) < D(L)`, for several methods.

    At each ``L`` of ``lengths``: ``"distance"``, :math:`D(L)` from
    :func:`minimum_distance` with the records ``offsets, distances`` (scanned
    up to ``max_length - 1``); ``"twice_error"``, a map from each of
    ``methods`` to :math:`2\mathcal E(L-1)` (:func:`row_error_bound`); and
    ``"certified"``, a map from each method to its
    :func:`certified_length` up to ``max_length``.
    """
    lengths = check_integers(lengths, "lengths", 2**62)
    return {
        "distance": minimum_distance(lengths, offsets, distances),
        "twice_error": {
            method: 2 * row_error_bound(lengths - 1, d, base, method)
            for method in methods
        },
        "certified": {
            method: certified_length(offsets, distances, max_length, d, base, method)
            for method in methods
        },
    }
