"""Long context: the frequencies after RoPE scaling, and the smallest base.

Derived in the chapter "How far the encoding reaches: base, context length
and RoPE scaling".

* :func:`scaled_frequencies` -- the frequencies :math:`\\theta_i` after each
  scaling method in use (position interpolation, NTK-aware, dynamic NTK,
  YaRN, Llama 3.1), with the factor YaRN puts on the attention logits. The
  formulas are those of Hugging Face transformers'
  ``modeling_rope_utils`` (version 5.x), defaults included, in float64.
* :func:`cosine_sums` -- :math:`\\sum_i\\cos(\\Delta\\theta_i)` at every
  integer offset up to a length, for any frequencies, fast.
* :func:`min_base` -- the smallest base for which that sum stays
  non-negative up to a context length (Men et al., 2024), by an upward scan
  that steps only over bases proved to fail.
* :func:`hf_rope_frequencies` -- the float32 frequencies of Hugging Face's
  Llama rotary code, as PyTorch computes them.
* :func:`to_bfloat16` -- rounding to bfloat16, the 16-bit format in which
  models are often run.

The rotation convention does not matter here: every function depends on the
frequencies only (pairs :math:`(x_{2i}, x_{2i+1})` or :math:`(x_i, x_{i+d/2})`
turned by :math:`t\\theta_i` give the same sums). Nothing happens on import.
"""

from __future__ import annotations

import functools
import math
from decimal import Context, Decimal, localcontext

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import core
from .validate import (
    check_base,
    check_choice,
    check_count,
    check_dimension,
    check_finite,
    check_given,
    check_minimum,
)

__all__ = [
    "SCALING_METHODS",
    "MIN_BASE_RTOL",
    "scaled_frequencies",
    "cosine_sums",
    "first_negative",
    "phase_step_threshold",
    "min_base",
    "hf_rope_frequencies",
    "to_bfloat16",
]

#: The scaling methods of :func:`scaled_frequencies`, in the order of the
#: chapter: none, position interpolation, static NTK-aware, dynamic NTK,
#: YaRN, Llama 3.1.
SCALING_METHODS = ("none", "linear", "ntk", "dynamic", "yarn", "llama3")

#: Relative accuracy of :func:`min_base`: the base it returns passes, and
#: every base more than a factor exp(MIN_BASE_RTOL) below it fails (or it
#: raises ``ArithmeticError``: a sum within 1e-30 of zero, or a scan that
#: stalls).
MIN_BASE_RTOL = 1e-9


def scaled_frequencies(
    d: int,
    base: float = 10000.0,
    method: str = "none",
    factor: float = 1.0,
    original_context: int | None = None,
    context: int | None = None,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
) -> tuple[NDArray[np.float64], float]:
    r"""The frequencies after a RoPE scaling method, and its attention factor.

    Returns ``(theta, attention_factor)``: the :math:`d/2` angular
    frequencies :math:`\theta'_i` (float64) that replace
    :math:`\theta_i = \mathrm{base}^{-2i/d}`, and the factor on the cos and
    sin tables (so on the attention logits; 1.0 except for YaRN). With
    :math:`\kappa` = ``factor``, :math:`L_0` = ``original_context`` and
    :math:`L` = ``context`` (the notation of the chapter):

    * ``"none"``: :math:`\theta'_i = \theta_i`;
    * ``"linear"`` (position interpolation, Chen et al. 2023):
      :math:`\theta_i/\kappa`;
    * ``"ntk"`` (NTK-aware, bloc97 2023): the base becomes
      :math:`\mathrm{base}\cdot \kappa^{d/(d-2)}`, so that the slowest pair
      is divided by exactly :math:`\kappa` and the fastest is unchanged;
    * ``"dynamic"`` (dynamic NTK): the base becomes
      :math:`\mathrm{base}\,(\kappa L/L_0 - \kappa + 1)^{d/(d-2)}` with
      :math:`L` raised to :math:`L_0` if smaller: unchanged up to :math:`L_0`;
    * ``"yarn"`` (Peng et al. 2023): with the fractional pair index
      :math:`j(\rho) = d\ln(L_0/(2\pi\rho))/(2\ln\mathrm{base})` at which a
      pair turns :math:`\rho` times in :math:`L_0` positions, ``low`` =
      :math:`\max(\lfloor j(\beta_\text{fast})\rfloor, 0)` and ``high`` =
      :math:`\min(\lceil j(\beta_\text{slow})\rceil, d-1)`, the ramp
      :math:`\mathrm{ramp}_i = \mathrm{clip}((i - \text{low})/(\text{high} -
      \text{low}), 0, 1)` gives :math:`\theta'_i = (1-\mathrm{ramp}_i)\theta_i
      + \mathrm{ramp}_i\theta_i/\kappa`: fast pairs kept, slow pairs
      interpolated. The attention factor is :math:`0.1\ln\kappa + 1` (1 for
      :math:`\kappa = 1`);
    * ``"llama3"`` (Llama 3.1): with the wavelengths :math:`2\pi/\theta_i`,
      pairs longer than :math:`L_0/\text{low\_freq\_factor}` are divided by
      :math:`\kappa`, pairs shorter than :math:`L_0/\text{high\_freq\_factor}`
      are kept, and in between :math:`\theta'_i = (1-w_i)\theta_i/\kappa +
      w_i\theta_i` with :math:`w_i = (L_0\theta_i/(2\pi) -
      \text{low\_freq\_factor}) / (\text{high\_freq\_factor} -
      \text{low\_freq\_factor})`.

    These are the formulas of Hugging Face transformers' ``modeling_rope_utils``
    (5.x: ``_compute_linear_scaling_rope_parameters``,
    ``_compute_dynamic_ntk_parameters``, ``_compute_yarn_parameters``,
    ``_compute_llama3_parameters``), with its defaults (YaRN's correction
    range truncated by floor and ceil; a ramp of zero width widened by
    0.001), computed in float64 where the library uses float32.
    transformers 5.23.0 (the version compared in docs/research/issue11/)
    has no static NTK method (other versions may register one):
    ``"ntk"`` is its dynamic method at the length
    :math:`\kappa L_0` (``factor`` times ``original_context``) with factor 1.

    Every parameter is checked, whether or not the method uses it; one the
    method does not use (``factor`` for ``"none"``, the contexts for
    ``"linear"`` and ``"ntk"``, ``context`` for ``"yarn"`` and
    ``"llama3"``, the betas outside ``"yarn"``, the two frequency factors
    outside ``"llama3"``) is then ignored, so that one call can run
    through :data:`SCALING_METHODS`. Raises ``ValueError``, naming the
    parameter and its rule, for an unknown method, ``factor < 1``, a
    method without the context it needs (``"dynamic"``: ``context`` and
    ``original_context``; ``"yarn"`` and ``"llama3"``:
    ``original_context``), a context that is not an integer from 1 to
    :math:`2^{53}`, ``d`` odd or below 2 (below 4 for the NTK methods),
    ``base <= 1``, ``beta_slow <= 0``, ``beta_fast <= beta_slow``, for
    ``"yarn"`` alone (the only method that uses them) betas so extreme
    that :math:`L_0/(2\pi\beta)` is 0 or infinite in float64,
    ``low_freq_factor <= 0``, ``high_freq_factor <= low_freq_factor``, and
    a factor (with ``"dynamic"``: a factor and context) that makes the
    scaled base of the NTK methods overflow. Derived in the chapter "How
    far the encoding reaches".
    """
    method = check_choice(method, "method", SCALING_METHODS)
    d = check_dimension(d, at_least=4 if method in ("ntk", "dynamic") else 2)
    base = check_base(base)
    factor = check_minimum(factor, "factor", 1.0)
    reason = f"method {method!r}"
    if method in ("dynamic", "yarn", "llama3"):
        check_given(original_context, "original_context", reason)
    if method == "dynamic":
        check_given(context, "context", reason)
    if original_context is not None:
        original_context = _check_length(original_context, "original_context")
    if context is not None:
        context = _check_length(context, "context")
    beta_slow = check_minimum(beta_slow, "beta_slow", 0.0, strict=True)
    beta_fast = check_minimum(
        beta_fast, "beta_fast", beta_slow, strict=True, minimum_name="beta_slow"
    )
    low_freq_factor = check_minimum(
        low_freq_factor, "low_freq_factor", 0.0, strict=True
    )
    high_freq_factor = check_minimum(
        high_freq_factor,
        "high_freq_factor",
        low_freq_factor,
        strict=True,
        minimum_name="low_freq_factor",
    )
    theta = core.frequencies(d, base)
    if method == "none":
        return theta, 1.0
    if method == "linear":
        return theta / factor, 1.0
    if method in ("ntk", "dynamic"):
        return _ntk(d, base, factor, original_context, context, method), 1.0
    if method == "yarn":
        return _yarn(theta, d, base, factor, original_context, beta_fast, beta_slow)
    return _llama3(theta, factor, original_context, low_freq_factor, high_freq_factor)


#: Largest context :func:`scaled_frequencies` accepts: every integer up to
#: it is exact in float64, in which the formulas are computed.
_MAX_LENGTH = 2**53


def _check_length(value: object, name: str) -> int:
    """A context length: an integer from 1 to ``_MAX_LENGTH``."""
    value = check_count(value, name)
    if value > _MAX_LENGTH:
        raise ValueError(f"{name} must be an integer from 1 to 2**53, got {value}")
    return value


def _ntk(d, base, factor, original_context, context, method):
    """The frequencies of the NTK methods (see :func:`scaled_frequencies`)."""
    growth = factor
    blame, given = "factor", f"factor={factor:g}"
    if method == "dynamic":
        length = max(context, original_context)
        growth = factor * length / original_context - (factor - 1)
        blame = "factor and context"
        given += f", context={context}, original_context={original_context}"
    try:
        scaled_base = base * growth ** (d / (d - 2))
    except OverflowError:
        scaled_base = math.inf
    if not math.isfinite(scaled_base):
        raise ValueError(
            f"{blame} must keep the scaled base finite in float64, but base "
            f"{base:g} times {growth:g}**(d/(d-2)) overflows for d={d} ({given})"
        )
    return core.frequencies(d, scaled_base)


def _yarn(theta, d, base, factor, original_context, beta_fast, beta_slow):
    """YaRN's frequencies and attention factor (see :func:`scaled_frequencies`)."""

    def pair_turning(rotations: float, name: str) -> float:
        # the (fractional) pair index that turns `rotations` times in L
        turns = original_context / (rotations * 2 * math.pi)
        if not 0 < turns < math.inf:
            raise ValueError(
                f"{name} must make original_context / (2 pi {name}) a positive "
                f"finite float64, got {name}={rotations:g} "
                f"(original_context={original_context})"
            )
        return d * math.log(turns) / (2 * math.log(base))

    low = max(math.floor(pair_turning(beta_fast, "beta_fast")), 0)
    high = min(math.ceil(pair_turning(beta_slow, "beta_slow")), d - 1)
    if low == high:
        high += 0.001  # as the reference does, against a zero width
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0.0, 1.0)
    scaled = (1 - ramp) * theta + ramp * theta / factor
    attention = 0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0
    return scaled, attention


def _llama3(theta, factor, original_context, low_freq_factor, high_freq_factor):
    """Llama 3.1's frequencies (see :func:`scaled_frequencies`)."""
    wavelength = 2 * math.pi / theta
    slow = wavelength > original_context / low_freq_factor
    fast = wavelength < original_context / high_freq_factor
    scaled = np.where(slow, theta / factor, theta)
    # the blend only where it is used: elsewhere, with extreme frequency
    # factors, its weights can overflow
    middle = ~slow & ~fast
    smooth = (original_context / wavelength[middle] - low_freq_factor) / (
        high_freq_factor - low_freq_factor
    )
    blended = (1 - smooth) * theta[middle] / factor + smooth * theta[middle]
    scaled[middle] = blended
    return scaled, 1.0


# ------------------------------------------------------ sums over offsets


#: Most multiply-adds in one matrix product of :func:`_sums`: OpenBLAS runs
#: products up to 4 * 65536 of them on one thread; larger ones start threads,
#: which on a busy machine made a 0.002 s product take seconds.
_PRODUCT_SIZE = 4 * 65536


def _sums(theta: NDArray, start: int, count: int) -> NDArray[np.float64]:
    """Rows of sum_i cos(m theta_i) for m = start ... start + count - 1.

    ``theta`` has shape (J, N): J sets of frequencies at once. Writing m =
    s + aK + k, cos(m theta) = cos(A)cos(k theta) - sin(A)sin(k theta) with
    A = (s + aK) theta, so a (rows, K) table of sums is one matrix product:
    about (count/K + K) N sines and cosines instead of count N. Pieces of at
    most _PRODUCT_SIZE / (2N) offsets keep each product on one thread.
    """
    piece = max(1, _PRODUCT_SIZE // (2 * theta.shape[1]))
    block = max(1, math.isqrt(piece))
    inner = np.arange(block)[None, :, None] * theta[:, None, :]
    right = np.concatenate([np.cos(inner), np.sin(inner)], axis=2)
    right = right.transpose(0, 2, 1)
    parts = []
    for first in range(start, start + count, block * block):
        rows = -(-min(block * block, start + count - first) // block)
        outer = (first + np.arange(rows) * block)[None, :, None] * theta[:, None, :]
        left = np.concatenate([np.cos(outer), -np.sin(outer)], axis=2)
        parts.append(np.matmul(left, right).reshape(len(theta), rows * block))
    return np.concatenate(parts, axis=1)[:, :count]


def _check_theta(theta: ArrayLike) -> NDArray[np.float64]:
    """``theta`` as a float64 array if it is a non-empty 1-D array of reals."""
    theta = check_finite(theta, "theta")
    if theta.ndim != 1 or theta.size == 0:
        raise ValueError(f"theta must be a non-empty 1-D array, got {theta.shape}")
    return theta


def cosine_sums(theta: ArrayLike, count: int) -> NDArray[np.float64]:
    r""":math:`g(\Delta) = \sum_i \cos(\Delta\theta_i)` for :math:`\Delta = 0,
    1, \dots,` ``count``, for any frequencies ``theta``.

    With the paper's frequencies this is :func:`posenc.inner_product` at
    those offsets (Men et al.'s :math:`B(m)` up to a factor); any scaled
    frequencies may be passed. The angle-addition formula turns the work
    into matrix products, of at most 2,025 offsets each for :math:`d` = 128
    (:data:`_PRODUCT_SIZE` / :math:`d` rounded down to a square), which
    makes a million offsets cost milliseconds. Its error is that of the
    direct sum: a few roundings of each angle :math:`\Delta\theta_i`, in
    all at most about :math:`4\,\Delta\sum_i\theta_i\,2^{-53}` plus :math:`10^{-14}N`
    (tested). Returns an array of ``count + 1`` values.
    """
    theta = _check_theta(theta)
    count = check_count(count, "count", at_least=0)
    return _sums(theta[None, :], 0, count + 1)[0]


def first_negative(theta: ArrayLike, limit: int) -> int | None:
    r"""The first integer offset :math:`0 \le \Delta \le` ``limit`` at which
    :math:`\sum_i\cos(\Delta\theta_i) < 0`, or ``None`` if there is none.

    The first zero crossing of the inner product of the chapter "Why
    base^(-2i/d)" for the exact sum over pairs (not its integral), for any
    frequencies (from :func:`scaled_frequencies`).
    """
    theta = _check_theta(theta)
    limit = check_count(limit, "limit", at_least=0)
    chunk = 1 << 14  # stop at the first chunk with a negative sum
    for start in range(0, limit + 1, chunk):
        sums = _sums(theta[None, :], start, min(chunk, limit + 1 - start))[0]
        negative = np.flatnonzero(sums < 0)
        if negative.size:
            return start + int(negative[0])
    return None


def phase_step_threshold(theta: ArrayLike) -> float:
    r"""The offset :math:`2\pi/\max_i|\theta_i - \theta_{i+1}|` at which two
    neighbouring pairs first differ by a full turn.

    Beyond it the sum over pairs leaves its integral (chapter "Finite d");
    for the paper's frequencies it is :math:`2\Delta^* = 2\pi/(1 -
    \mathrm{base}^{-2/d})`, within about :math:`\pi` of
    :math:`\Delta_1 = \pi d/\ln\mathrm{base}`. Needs at least two
    frequencies, not all equal.
    """
    theta = check_finite(theta, "theta")
    if theta.ndim != 1 or theta.size < 2:
        raise ValueError(f"theta must be a 1-D array of at least 2, got {theta.shape}")
    step = np.abs(np.diff(theta)).max()
    if step == 0:
        raise ValueError("theta must not be all equal: no phase step")
    return float(2 * math.pi / step)


def hf_rope_frequencies(d: int, base: float = 10000.0) -> NDArray[np.float32]:
    r"""The float32 frequencies of Hugging Face's Llama rotary code, restated.

    transformers 5.x computes them in ``compute_default_rope_parameters`` as
    ``1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).to(
    dtype=torch.float) / d))``, all in float32: the exponent :math:`2i/d` is
    rounded (exact when ``d`` is a power of two), the power
    :math:`\mathrm{base}^{2i/d}` is rounded, and so is its reciprocal. So
    :math:`\theta_i` is rounded more than once and may be off by more than
    float32's :math:`2^{-24}`. Here the power is computed in float64 and
    rounded to float32 (``base`` too is rounded to float32 first; 10^4 and
    5 10^5 are exact); the exponent and the reciprocal are float32
    operations, as in PyTorch. PyTorch's own float32 power is not always
    correctly rounded, so this agrees with it only where it is. Of the
    widths and bases recorded in ``tests/data/hf_rope_float32.json``
    (PyTorch 2.13 on an x86-64 CPU), it agrees bit for bit for :math:`d` =
    128 with bases :math:`5\cdot10^5` and :math:`10^4`, 64 with
    :math:`10^4` and 256 with :math:`5\cdot10^5`, and differs by one ulp
    in one frequency for 128 with :math:`10^6`, 512 with :math:`10^4` and
    96 with :math:`10^4`; the tests check both. Used in the chapter "How
    far the encoding reaches".
    """
    d = check_dimension(d)
    base = check_base(base)
    exponents = np.arange(0, d, 2, dtype=np.float32) / np.float32(d)
    power = np.float64(np.float32(base)) ** exponents.astype(np.float64)
    return np.float32(1.0) / power.astype(np.float32)


# ------------------------------------------------------ the smallest base


def min_base(context: int, d: int) -> float:
    r"""The smallest base with :math:`\sum_i\cos(m\theta_i) \ge 0` for every
    integer :math:`0 \le m \le` ``context`` (relative accuracy
    :data:`MIN_BASE_RTOL`).

    The criterion is Men et al.'s (2024) :math:`B(m) \ge 0` for
    :math:`\theta_i = \mathrm{base}^{-2i/d}`. The set of good bases is not an
    interval (a base can pass while a larger one fails, and it has islands
    narrower than a relative 1e-3), so neither bisection nor a grid is safe.
    The search moves *upward* in :math:`u = \ln\mathrm{base}` from a proved
    lower bound and only ever steps over bases that it has proved to fail:

    * with :math:`x_i = m\,e^{-w_i u}` and :math:`w_i = 2i/d`, the sum
      :math:`g(m; u) = \sum_i \cos x_i` has :math:`\partial g/\partial u =
      \sum_i w_i x_i \sin x_i`; as :math:`u` grows every :math:`x_i`
      shrinks, and :math:`|x\sin x| \le x\min(1, x)` grows with :math:`x`,
      so :math:`|\partial g/\partial u| \le K(m, u) = \sum_i w_i x_i
      \min(1, x_i)` at every :math:`u' \ge u`. Hence :math:`g(m; u) < 0`
      proves :math:`g(m; u') < 0`, so failure, for all :math:`u'` from
      :math:`u` up to :math:`u - g(m; u)/K(m, u)`; the step is the largest
      such length over the offsets :math:`m` tried (the computed sums are
      given an error :math:`\varepsilon`, below);
    * when the step falls below :data:`MIN_BASE_RTOL` the base
      :math:`b` = ``math.exp(u + 0.999999 MIN_BASE_RTOL)`` is tried; if every
      sum at :math:`b` is at least its error (below), so proved
      non-negative, it is returned, else the steps go on;
    * every base in :math:`[1, e^u)` then fails, so every base more than a
      factor :math:`e^{\text{MIN\_BASE\_RTOL}}` below the answer fails, and
      the answer passes. The bracket is never wider: where it cannot be
      decided, ``ArithmeticError`` is raised (a sum within :math:`10^{-30}`
      of zero; a step that no longer moves :math:`u` in float64; nothing
      proved to fail at :math:`u` while :math:`b` fails); none has occurred
      in the tests or the chapters;
    * the start: for ``context >= 2`` the scan starts at base 1 (all
      :math:`\theta_i = 1`, :math:`B(2) = (d/2)\cos 2 < 0`); a base that
      fails for a length :math:`L'` fails for every :math:`L > L'`, so for
      ``context >= 4`` it starts where the scan for ``context // 2`` proved
      every lower base to fail (answers are cached). For ``context = 1``
      every base :math:`\ge 1` passes (all :math:`\theta_i \le 1 < \pi/2`)
      and 1.0 is returned. For ``d = 2`` and ``context >= 2`` there is no
      answer: the one pair turns at :math:`\theta_0 = \mathrm{base}^0 = 1`
      whatever the base, so :math:`g(2) = \cos 2 < 0`, and ``ValueError``
      is raised.

    The sums are those of :func:`cosine_sums` at all offsets when a base is
    to pass, and at the best offsets of the last such evaluation (redone
    when they give less than half its step) while the scan steps; both are
    given the error :math:`\varepsilon = 2^{-45} L\sum_i\theta_i +
    10^{-12}\,d/2`, which covers :func:`cosine_sums`' tested bound and the
    rounding of :math:`\theta_i = e^{-w_i u}` (a relative few
    :math:`2^{-53}(1 + w_i u)`). A sum within :math:`\varepsilon` of zero,
    whose sign float64 leaves unsure, is recomputed in 60-digit decimals
    (error below :math:`10^{-30}`), for :math:`e^u` itself or for the float
    :math:`b` that would be returned. That matters where the sums near the
    answer are tiny: for :math:`d = 4`, :math:`L = 600` the smallest base is
    :math:`1.3869\times10^{14}`, set by the offset 355 (:math:`355 - 113\pi
    = 3\times10^{-5}`), where :math:`g` is a few :math:`10^{-12}` at 1.01
    times it, below :math:`\varepsilon`; deciding by :math:`\varepsilon`
    alone returned :math:`1.74\times10^{14}`, 25.5% too high. Derived in the
    chapter "How far the encoding reaches".
    """
    context = check_count(context, "context", at_least=1)
    d = check_dimension(d)
    if d == 2 and context >= 2:
        raise ValueError(
            f"min_base: no base passes for d = 2 and context = {context}: "
            "the one pair turns at theta_0 = 1 whatever the base, and "
            "g(2) = cos 2 < 0 fails the rule g(m) >= 0"
        )
    return math.exp(_min_base_bracket(context, d)[1])


def _sum_error(context: int, theta: NDArray) -> float:
    """A bound on the rounding error of the sums up to ``context``."""
    return 2.0**-45 * context * float(theta.sum()) + 1e-12 * theta.size


def _lipschitz(offsets: NDArray, theta: NDArray, weights: NDArray) -> NDArray:
    """K(m, u) of :func:`min_base`: bounds |dg/du| at every u' >= u."""
    x = offsets[:, None] * theta
    return (weights * x * np.minimum(1.0, x)).sum(axis=1)


@functools.lru_cache(maxsize=256)
def _min_base_bracket(context: int, d: int) -> tuple[float, float]:
    """``(low, high)`` in u = ln(base): every base below e^low fails (proved),
    the float base math.exp(high) passes, and its logarithm is at most
    low + MIN_BASE_RTOL (see :func:`min_base`)."""
    if context == 1:
        return 0.0, 0.0
    u = _min_base_bracket(context // 2, d)[0] if context >= 4 else 0.0
    weights = np.arange(d // 2) * (2.0 / d)
    offsets = np.arange(context + 1.0)
    witnesses = offsets[:0]
    full_step = math.inf  # the step of the last evaluation at all offsets

    def steps(sums, at, theta, error):
        """Proved steps from the offsets ``at`` with a negative sum."""
        sums, errors = _settle(sums, at, error, d, lambda: Decimal(u))
        negative = sums < -errors
        gap = -sums[negative] - errors[negative]
        return at[negative], gap / _lipschitz(at[negative], theta, weights)

    while True:
        theta = np.exp(-weights * u)
        error = _sum_error(context, theta)
        step = 0.0
        if witnesses.size:
            sums = np.cos(witnesses[:, None] * theta).sum(axis=1)
            found = steps(sums, witnesses, theta, error)[1]
            step = found.max(initial=0.0)
        if step < full_step / 2:
            sums = _sums(theta[None, :], 0, context + 1)[0]
            found, lengths = steps(sums, offsets, theta, error)
            best = np.argsort(lengths)[::-1][:16]
            witnesses = found[best]
            full_step = step = max(step, lengths.max(initial=0.0))
        if step < MIN_BASE_RTOL:  # try the base just above the proved part
            trial = u + _TRIAL_STEP
            base = math.exp(trial)
            theta = np.exp(-weights * trial)
            sums = _sums(theta[None, :], 0, context + 1)[0]
            sums, errors = _settle(
                sums,
                offsets,
                _sum_error(context, theta),
                d,
                lambda base=base: Decimal(base).ln(_PRECISE),
            )
            if np.all(sums >= errors):
                return u, trial
            if np.any(np.abs(sums) < errors):  # within 1e-30 of zero
                raise ArithmeticError(f"min_base: undecided at base {base!r}")
            if step == 0:  # nothing proved to fail at u: cannot step
                raise ArithmeticError(f"min_base: stuck at base {math.exp(u)!r}")
        if u + step * (1 - 1e-9) == u:  # steps below float64's spacing of u
            raise ArithmeticError(f"min_base: stalled at base {math.exp(u)!r}")
        u += step * (1 - 1e-9)  # stay inside the interval proved to fail


#: Where the trial base of :func:`min_base` lies above the proved part, in
#: u = ln(base): so that ln(math.exp(trial)), rounded by at most a few
#: 2^-53, stays below u + MIN_BASE_RTOL.
_TRIAL_STEP = MIN_BASE_RTOL * (1 - 1e-6)

#: The decimal context of the sums :func:`_settle` recomputes: 60 digits.
_PRECISE = Context(prec=60)

#: pi to 70 digits (checked against mpmath in the tests).
_PI = Decimal("3.141592653589793238462643383279502884197169399375105820974944592307816")

#: A bound on the error of a sum that :func:`_settle` recomputes (derived
#: in :func:`_precise_sum`).
_PRECISE_ERROR = 1e-30


def _settle(sums, at, error, d, log_base):
    """The sums and their errors: a sum within ``error`` of zero (its float64
    sign unsure) is recomputed in 60-digit decimals, with error
    _PRECISE_ERROR. ``log_base()`` gives ln(base) as a Decimal."""
    errors = np.full(sums.shape, error)
    unsure = np.flatnonzero(np.abs(sums) <= error)
    if unsure.size:
        sums = sums.copy()
        exponent = log_base()
        for j in unsure:
            sums[j] = float(_precise_sum(int(at[j]), d, exponent))
        errors[unsure] = _PRECISE_ERROR
    return sums, errors


def _precise_sum(offset: int, d: int, log_base: Decimal) -> Decimal:
    """sum_i cos(offset theta_i), theta_i = exp(-(2i/d) log_base), in 60-digit
    decimals.

    Each theta_i <= 1 carries a relative error of a few 1e-60 (exp, a
    product and a quotient, each correctly rounded), so the angle x =
    offset theta_i one of a few offset 1e-60; reducing it by a multiple k of
    2 pi (pi to 70 digits; k 2 pi and x - k 2 pi rounded to 60 digits) adds
    a few x 1e-60, and the Taylor series on [0, pi/2] (terms below 3,
    stopped below 1e-60) a few 1e-60 more. For offsets up to 2^53, so
    angles below 1e16, each term is off by less than 1e-43, and d/2 terms
    by far less than _PRECISE_ERROR = 1e-30 for any d below 1e12.
    """
    total = Decimal(0)
    with localcontext(_PRECISE):
        two_pi, half_pi = 2 * _PI, _PI / 2
        for i in range(d // 2):
            theta = (-Decimal(2 * i) / d * log_base).exp()
            x = offset * theta
            x = abs(x - (x / two_pi).to_integral_value() * two_pi)  # [0, pi]
            sign = 1
            if x > half_pi:  # cos x = -cos(pi - x)
                x, sign = _PI - x, -1
            term = power = Decimal(1)
            square, n = x * x, 0
            while abs(power) > Decimal("1e-62"):
                n += 2
                power = -power * square / (n * (n - 1))
                term += power
            total += sign * term
    return total


# ------------------------------------------------------------- bfloat16


def to_bfloat16(values: ArrayLike) -> NDArray[np.float64]:
    r"""``values`` rounded to bfloat16 (to nearest, ties to even), as float64.

    bfloat16 keeps float32's exponent and 8 significant bits, so its unit
    roundoff is :math:`2^{-8}`: integers are exact up to 256, and from
    :math:`2^e` to :math:`2^{e+1}` the spacing is :math:`2^{e-7}` (128 from
    16384, 256 from 32768). Each value is rounded once, from float64, to
    the nearest multiple of its spacing (:math:`2^{-133}` below
    :math:`2^{-126}`, bfloat16's subnormals); magnitudes that round to
    :math:`2^{128}` or more become infinite, as in bfloat16. (Rounding to
    float32 first and then to bfloat16 would round twice, and could land
    one bfloat16 unit off: :math:`1 + 2^{-8} + 2^{-30}` would become 1.)
    """
    array = check_finite(values, "values")
    _, exponent = np.frexp(array)  # |x| = f 2^exponent with 0.5 <= f < 1
    spacing = np.ldexp(1.0, np.maximum(exponent - 1, -126) - 7)
    # x / spacing and the product are exact (powers of two); rint is exact
    # and rounds ties to even
    rounded = np.rint(array / spacing) * spacing
    return np.where(np.abs(rounded) >= 2.0**128, np.copysign(np.inf, array), rounded)
