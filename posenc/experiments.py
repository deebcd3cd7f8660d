"""Numerical experiments behind the figures: sweeps and seeded samples.

Each function returns the numbers one figure of the book draws, so that a
chapter can assert on exactly what it plots: it calls the function, checks
the result, and hands the same arrays to :mod:`posenc.plots`. Random draws
come from ``np.random.default_rng(seed)``; the same seed gives the same
numbers.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.linalg import block_diag

from .core import (
    alias_count,
    alias_error,
    alias_threshold,
    cross_terms,
    decay_integral,
    encoding,
    frequencies,
    integral_envelope,
    log_law,
    offset_leakage,
    rms_law,
    rope_bound,
    rotate,
    schedule_integral,
)
from .toy import cross_leakage
from .validate import check_choice, check_count, check_dimension, check_scalar

__all__ = [
    "PERTURBATIONS",
    "perturbation",
    "leakage_curves",
    "leakage_baselines",
    "decay_regimes",
    "SCHEDULE_CASES",
    "schedule_integrals",
    "alias_rms",
    "aliasing_error",
    "rope_scores",
    "score_scaling",
    "pairing_scores",
]

# ------------------------------------------------- chapter "general H"

#: Kinds of perturbation E of H = I + strength * E (see :func:`perturbation`).
PERTURBATIONS = ("full", "diagonal", "rotation blocks")


def perturbation(
    kind: str, strength: float, d: int, seed: int = 0
) -> NDArray[np.float64]:
    """A matrix H = I + strength * G, as studied in "When H is not the identity".

    ``kind``: "full" (G dense Gaussian), "diagonal" (G diagonal, each entry on
    its own), or "rotation blocks" (G block diagonal with 2x2 blocks a I + b J,
    which keep the cross term a function of the offset). G is scaled to the
    Frobenius norm of the identity, sqrt(d).
    """
    kind = check_choice(kind, "kind", PERTURBATIONS)
    strength = check_scalar(strength, "strength")
    d = check_dimension(d)
    rng = np.random.default_rng(seed)
    if kind == "full":
        e = rng.normal(size=(d, d))
    elif kind == "diagonal":
        e = np.diag(rng.normal(size=d))
    else:
        turn = np.array([[0.0, -1.0], [1.0, 0.0]])
        e = block_diag(
            *[a * np.eye(2) + b * turn for a, b in rng.normal(size=(d // 2, 2))]
        )
    return np.eye(d) + strength * e * np.sqrt(d) / np.linalg.norm(e)


def leakage_curves(
    strengths: ArrayLike, d: int = 64, length: int = 64, seeds: int = 5
) -> dict[str, NDArray[np.float64]]:
    """Mean :func:`posenc.offset_leakage` of p_m^T H p_n over positions 0 to
    ``length - 1``, for H = :func:`perturbation` of every kind at every
    strength, averaged over the seeds 0 to ``seeds - 1``. Maps each kind of
    :data:`PERTURBATIONS` to an array of ``strengths``' length.
    """
    seeds = check_count(seeds, "seeds", at_least=1)
    positions = np.arange(check_count(length, "length", at_least=1))
    curves = {}
    for kind in PERTURBATIONS:
        values = [
            [
                offset_leakage(cross_terms(perturbation(kind, s, d, seed), positions))
                for s in np.asarray(strengths, dtype=float)
            ]
            for seed in range(seeds)
        ]
        curves[kind] = np.mean(values, axis=0)
    return curves


# ------------------------------------------- chapter "the assumptions, revisited"


def leakage_baselines(
    positions: ArrayLike,
    d: int,
    base: float = 1e4,
    samples: int = 2000,
    seed: int = 0,
) -> dict[str, NDArray[np.float64]]:
    r"""Cross leakages of matrices that have no reason to depend on the offset.

    For the L ``positions``, ``samples`` values of :func:`posenc.cross_leakage`
    each for ``"noise"``, symmetric L x L
    matrices whose entries above the diagonal are independent standard
    normal, and ``"random H"``, the cross terms :math:`p_m^\top B p_n` with
    :math:`B = (Y + Y^\top)/\sqrt 2`, Y a d x d matrix of independent standard
    normal entries. One seeded generator. Used in the chapter "The
    assumptions, revisited".
    """
    d = check_dimension(d)
    samples = check_count(samples, "samples")
    rng = np.random.default_rng(seed)
    codes = encoding(positions, d, base)
    length = codes.shape[0]

    def symmetric(size: int) -> NDArray[np.float64]:
        entries = rng.normal(size=(size, size))
        return (entries + entries.T) / np.sqrt(2)

    noise = [cross_leakage(symmetric(length)) for _ in range(samples)]
    random_h = [cross_leakage(codes @ symmetric(d) @ codes.T) for _ in range(samples)]
    return {"noise": np.array(noise), "random H": np.array(random_h)}


# ----------------------------------------- chapters "Why base^(-2i/d)", "Finite d"


def decay_regimes(base: float = 1e4, delta: ArrayLike | None = None) -> dict:
    """The decay integral and its two regimes, on offsets ``delta`` (default:
    4000 log-spaced from 1 to 1e7).

    ``"integral"``: :func:`posenc.decay_integral` at ``delta``; ``"log_law"``:
    :func:`posenc.log_law` at the offsets ``"near"`` (up to ``base``);
    ``"envelope"``: :func:`posenc.integral_envelope` at the offsets ``"far"``
    (from ``base / 3``). The first zero is not here: ``CI_FIRST_ZERO * base``
    only comes within 1.23 of it (from base 1e3), and the chapter "Why
    base^(-2i/d)" computes it.
    """
    delta = np.logspace(0, 7, 4000) if delta is None else np.asarray(delta, float)
    near = delta[delta <= base]
    far = delta[delta >= base / 3]
    return {
        "delta": delta,
        "integral": decay_integral(delta, base),
        "near": near,
        "log_law": log_law(near, base),
        "far": far,
        "envelope": integral_envelope(far, base),
    }


#: The schedules theta(tau), and the bases of the exponential one, that the
#: chapter "Why base^(-2i/d)" compares (the power schedules need no base).
SCHEDULE_CASES = (
    ("exponential", 1e2),
    ("exponential", 1e3),
    ("exponential", 1e4),
    ("exponential", 1e5),
    ("linear", None),
    ("square", None),
    ("sqrt", None),
)


def schedule_integrals(
    delta: ArrayLike, cases: tuple = SCHEDULE_CASES
) -> dict[tuple, NDArray[np.float64]]:
    """:func:`posenc.schedule_integral` at ``delta`` for every ``(schedule,
    base)`` of ``cases`` (a base of None: the default), keyed by the case."""
    return {
        (schedule, base): schedule_integral(delta, schedule, base or 1e4)
        for schedule, base in cases
    }


def alias_rms(
    dims: tuple[int, ...] = (64, 512),
    base: float = 1e4,
    edges: ArrayLike | None = None,
    samples: int = 400,
    seed: int = 0,
) -> dict:
    """The sums' fluctuation about the integral, as root mean squares over bins.

    For each bin of ``edges`` (default: 40 bins log-spaced from 1 to 1e8),
    ``samples`` random integer offsets drawn uniformly in the bin; at them,
    for each d of ``dims``, the root mean square of
    :func:`posenc.alias_error` (``"error"``) and its prediction, the root of
    the mean of :func:`posenc.rms_law` squared (``"law"``); and the root mean
    square of the decay integral (``"integral"``). Returns ``{"centres":
    geometric centres of the bins, "error": {d: rms}, "law": {d: rms},
    "integral": rms}``. The errors rise to 1/sqrt(d), the long-run level,
    while the integral keeps falling.
    """
    edges = np.logspace(0, 8, 41) if edges is None else np.asarray(edges, float)
    samples = check_count(samples, "samples", at_least=1)
    rng = np.random.default_rng(seed)
    bins = zip(edges[:-1], edges[1:], strict=True)
    offsets = [np.round(rng.uniform(low, high, samples)) for low, high in bins]

    def rms(values_of) -> NDArray[np.float64]:
        return np.array([np.sqrt(np.mean(values_of(x) ** 2)) for x in offsets])

    return {
        "centres": np.sqrt(edges[:-1] * edges[1:]),
        "error": {d: rms(lambda x, d=d: alias_error(x, d, base)) for d in dims},
        "law": {d: rms(lambda x, d=d: rms_law(x, d, base)) for d in dims},
        "integral": rms(lambda x: decay_integral(x, base)),
    }


def aliasing_error(
    d: int, base: float = 1e4, reach: float = 30.0, bins: int = 35
) -> dict[str, NDArray[np.float64]]:
    r"""The sum's error after the endpoint term, binned, against
    :math:`\Delta/\Delta_1`, with the rms law in the same units.

    At every integer offset :math:`1 \le \Delta \le` ``reach``
    :math:`\Delta_1` (:math:`\Delta_1` = :func:`posenc.alias_threshold`), the
    error :func:`posenc.alias_error`, and its root mean square over ``bins``
    log-spaced bins of offsets. Returns ``{"ratio": each bin's geometric
    centre divided by Delta_1, "scaled": the bin's rms times sqrt(d ln
    base), "law": the root of the bin's mean of}`` :func:`posenc.alias_count`
    (NaN for an empty bin). In these units the rms law of
    :func:`posenc.rms_law` reads ``scaled = law``, whatever d and the base.
    """
    threshold = alias_threshold(d, base)
    offsets = np.arange(1, int(reach * threshold) + 1)
    error = alias_error(offsets, d, base)
    count = alias_count(offsets, d, base)
    edges = np.logspace(0.0, np.log10(offsets[-1] + 1), bins + 1)
    index = np.digitize(offsets, edges)

    def binned(values):
        return np.array(
            [
                np.sqrt(np.mean(values[index == k])) if np.any(index == k) else np.nan
                for k in range(1, len(edges))
            ]
        )

    return {
        "ratio": np.sqrt(edges[:-1] * edges[1:]) / threshold,
        "scaled": binned(error**2) * np.sqrt(d * np.log(base)),
        "law": binned(count),
    }


# ------------------------------------------------------------ chapter "RoPE"


def rope_scores(
    delta: ArrayLike, d: int = 128, base: float = 1e4, samples: int = 200, seed: int = 0
) -> dict[str, NDArray[np.float64]]:
    r"""RoFormer's bound against actual RoPE scores, as functions of m - n.

    Returns, for the offsets ``delta``:

    * ``"bound"``: the relative bound :func:`posenc.rope_bound`;
    * ``"expected"``: :math:`g(\Delta)/(d/2)`, the expectation of the
      normalised score :math:`\langle R_m q, R_n q\rangle / d` of a random q
      with standard normal entries (:math:`\mathbb{E}|q^{(i)}|^2 = 2` per pair);
    * ``"aligned"``: the mean of that score over ``samples`` random q (q = k);
    * ``"independent"``: the scores :math:`\langle R_m q, R_n k\rangle / d` of
      ``samples`` independent random q, k, shape ``(samples, len(delta))``.
    """
    delta = np.asarray(delta, dtype=float)
    rng = np.random.default_rng(seed)
    theta = frequencies(d, base)
    waves = np.cos(np.multiply.outer(delta, theta))  # (Delta, d/2)
    same = rng.normal(size=(samples, d))
    weights = (same[:, 0::2] ** 2 + same[:, 1::2] ** 2) / d  # |q_i|^2, q = k
    q, k = rng.normal(size=(2, samples, d))
    h = (q[:, 0::2] + 1j * q[:, 1::2]) * np.conj(k[:, 0::2] + 1j * k[:, 1::2])
    phases = np.exp(1j * np.multiply.outer(delta, theta))
    return {
        "bound": rope_bound(delta, d, base),
        "expected": 2 * waves.sum(axis=1) / d,
        "aligned": (weights @ waves.T).mean(axis=0),
        "independent": np.real(h @ phases.T) / d,
    }


# ------------------------------------------------- appendix "why sqrt(d)"


def _largest_softmax_weight(logits: NDArray) -> float:
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return float(weights.max(axis=1).mean())


def score_scaling(
    dims: ArrayLike = (4, 16, 64, 256, 1024),
    keys: int = 64,
    samples: int = 400,
    seed: int = 0,
) -> dict[str, NDArray[np.float64]]:
    """Attention scores q.k of random vectors, unscaled and divided by sqrt(d).

    For each d of ``dims``, ``samples`` queries against ``keys`` keys each,
    every entry independent standard normal. Returns ``"variance"`` and
    ``"scaled_variance"`` (of q.k and of q.k / sqrt(d)), and
    ``"largest_weight"`` and ``"scaled_largest_weight"``: the mean over
    queries of the largest softmax weight among the keys.
    """
    rng = np.random.default_rng(seed)
    results: dict[str, list[float]] = {
        "variance": [],
        "scaled_variance": [],
        "largest_weight": [],
        "scaled_largest_weight": [],
    }
    for d in np.asarray(dims):
        q = rng.normal(size=(samples, d))
        k = rng.normal(size=(samples, keys, d))
        logits = np.einsum("sd,skd->sk", q, k)
        results["variance"].append(logits.var())
        results["scaled_variance"].append((logits / np.sqrt(d)).var())
        results["largest_weight"].append(_largest_softmax_weight(logits))
        results["scaled_largest_weight"].append(
            _largest_softmax_weight(logits / np.sqrt(d))
        )
    return {name: np.array(values) for name, values in results.items()}


# --------------------------------------------- chapter "the encoding in real code"


def pairing_scores(
    d: int = 64, base: float = 1e4, offset: int = 3, seed: int = 0
) -> dict:
    """Attention scores of one random (seeded) query and key when the two
    rotary pairings are mixed up.

    ``"positions"``: q at positions m = ``offset`` ... 300, k at m - ``offset``;
    ``"fixed"`` maps ``"interleaved"`` (the intended scores), ``"half-split"``
    (the same vectors in half-split code) and ``"mixed"`` (q interleaved, k
    half-split) to the scores at those positions. ``"offsets"``: 0 ... 100;
    ``"at_500"`` maps the first two cases to the scores with q at position
    500 and k at 500 - offset.
    """
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))

    def turn(pairing):
        return lambda x, t: rotate(x, t, base, pairing=pairing)

    cases = {
        "interleaved": (turn("interleaved"), turn("interleaved")),
        "half-split": (turn("half-split"), turn("half-split")),
        "mixed": (turn("interleaved"), turn("half-split")),
    }
    positions = np.arange(offset, 301)
    queries = np.broadcast_to(q, (positions.size, d))
    keys = np.broadcast_to(k, (positions.size, d))
    fixed = {
        name: np.sum(
            rotate_q(queries, positions) * rotate_k(keys, positions - offset), axis=-1
        )
        for name, (rotate_q, rotate_k) in cases.items()
    }
    offsets = np.arange(0, 101)
    keys = np.broadcast_to(k, (offsets.size, d))
    at_500 = {
        name: cases[name][0](keys, 500 - offsets) @ cases[name][0](q, 500)
        for name in ("interleaved", "half-split")
    }
    return {
        "positions": positions,
        "fixed": fixed,
        "offsets": offsets,
        "at_500": at_500,
    }
