"""The mathematics of the sinusoidal position encoding.

Every function here is pure, works in float64, is vectorised with numpy, and
validates its parameters before any arithmetic: bad input raises a
``ValueError`` that names the parameter and the rule it broke.

Conventions used throughout the book (see the introduction):

* ``d`` is the (even) dimension of an encoding vector, ``base`` the constant
  10000 of the paper, and the frequencies are ``theta_i = base**(-2 i / d)``
  for ``i = 0, ..., d/2 - 1``.
* The *interleaved* layout is the paper's: column ``2i`` holds
  ``sin(t theta_i)`` and column ``2i + 1`` holds ``cos(t theta_i)``.
* The *halves* layout puts the ``d/2`` sines first, then the ``d/2`` cosines.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from .validate import (
    check_base,
    check_choice,
    check_dimension,
    check_finite,
    check_scalar,
    check_square_matrix,
)

__all__ = [
    "LAYOUTS",
    "PAIRINGS",
    "frequencies",
    "interleave",
    "pair_columns",
    "interleaved_to_halves",
    "encoding",
    "inner_product",
    "decay_integral",
    "cin",
    "CI_FIRST_ZERO",
    "log_law",
    "integral_envelope",
    "aliasing_offset",
    "alias_threshold",
    "alias_error",
    "alias_error_below",
    "harmonic",
    "alias_count",
    "rms_law",
    "DECAY_SCHEDULES",
    "schedule_frequencies",
    "schedule_integral",
    "shift_matrix",
    "rotate",
    "cross_terms",
    "diagonal_means",
    "offset_leakage",
    "column_fit",
    "rope_partial_sums",
    "rope_bound",
]

#: Where each pair's sine and cosine sit in an encoding table: columns 2i and
#: 2i + 1 (the paper's), or columns i and d/2 + i.
LAYOUTS = ("interleaved", "halves")
#: Which coordinates a rotary embedding turns together: (2i, 2i + 1), or
#: (i, i + d/2).
PAIRINGS = ("interleaved", "half-split")

# ------------------------------------------------------------------ the maths


def frequencies(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The angular frequencies of the encoding.

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \qquad i = 0, \dots, d/2 - 1.

    They fall geometrically from :math:`\theta_0 = 1` (period :math:`2\pi`) to
    :math:`\theta_{d/2-1} = \mathrm{base}^{-(1 - 2/d)}`; the lowest frequency
    is *not* exactly ``1/base``. Derived in the chapter "Why base^(-2i/d)".

    Returns an array of shape ``(d // 2,)``.
    """
    d = check_dimension(d)
    base = check_base(base)
    exponents = np.arange(d // 2, dtype=np.float64) * (2.0 / d)
    return base**-exponents


def interleave(first: NDArray, second: NDArray) -> NDArray:
    """Pairs side by side: column ``2i`` holds ``first[..., i]`` and column
    ``2i + 1`` holds ``second[..., i]`` (the paper's layout). Keeps the dtype.
    """
    shape = first.shape[:-1] + (2 * first.shape[-1],)
    return np.stack([first, second], axis=-1).reshape(shape)


def pair_columns(d: int, layout: str) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """The columns ``(a_i, b_i)`` of pair ``i`` in ``layout``: ``a`` holds the
    sine, ``b`` the cosine. Each is an array of ``d // 2`` column indices."""
    d = check_dimension(d)
    layout = check_choice(layout, "layout", LAYOUTS)
    if layout == "interleaved":
        return np.arange(0, d, 2), np.arange(1, d, 2)
    return np.arange(d // 2), np.arange(d // 2, d)


def interleaved_to_halves(d: int) -> NDArray[np.intp]:
    """The column permutation from the interleaved to the halves layout.

    ``halves_table = interleaved_table[..., perm]`` with ``perm = (0, 2, ...,
    d-2, 1, 3, ..., d-1)``: first the sine columns, then the cosine columns.
    The same ``perm`` turns interleaved rotary pairs into half-split ones:
    ``rotate(x[..., perm], t, pairing="half-split") == rotate(x, t)[..., perm]``.
    Derived in the chapter "The encoding in real code".
    """
    return np.concatenate(pair_columns(d, "interleaved"))


def encoding(
    positions: ArrayLike,
    d: int,
    base: float = 10000.0,
    layout: str = "interleaved",
) -> NDArray[np.float64]:
    r"""The sinusoidal position encoding :math:`p_t` of Vaswani et al. (2017).

    .. math::
        p_{t,2i} = \sin(t\,\theta_i), \qquad p_{t,2i+1} = \cos(t\,\theta_i)
        \qquad (\text{layout} = \texttt{"interleaved"})

    With ``layout="halves"`` column ``i`` holds :math:`\sin(t\theta_i)` and
    column ``d/2 + i`` holds :math:`\cos(t\theta_i)`. Positions may be any
    finite reals, not only integers.

    Returns shape ``positions.shape + (d,)``: ``(d,)`` for a scalar position,
    ``(n, d)`` for ``n`` positions. Derived in the chapter "Complex numbers
    solve <p_m, p_n> = g(m - n)".
    """
    theta = frequencies(d, base)
    layout = check_choice(layout, "layout", LAYOUTS)
    t = check_finite(positions, "positions")
    angles = t[..., None] * theta
    sines, cosines = np.sin(angles), np.cos(angles)
    if layout == "halves":
        return np.concatenate([sines, cosines], axis=-1)
    return interleave(sines, cosines)


def inner_product(
    delta: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The inner product :math:`\langle p_m, p_n\rangle` as a function of ``m - n``.

    .. math:: \langle p_m, p_n\rangle = \sum_{i=0}^{d/2-1}\cos(\Delta\,\theta_i),
        \qquad \Delta = m - n.

    It is the same in either layout (they differ by a permutation of
    columns). Returns an array of ``delta``'s shape. Derived in the chapter
    "Complex numbers solve <p_m, p_n> = g(m - n)".
    """
    theta = frequencies(d, base)
    delta = check_finite(delta, "delta")
    return np.cos(delta[..., None] * theta).sum(axis=-1)


def cin(z: ArrayLike) -> NDArray[np.float64]:
    r"""The entire cosine integral, :math:`\mathrm{Cin}(z) = \int_0^z (1-\cos y)/y\,dy`.

    Related to the cosine integral by
    :math:`\mathrm{Ci}(z) = \gamma + \ln z - \mathrm{Cin}(z)` for :math:`z > 0`.
    Unlike Ci it is finite at 0, which is what makes :func:`decay_integral`
    exact near :math:`\Delta = 0`. Even in ``z``.

    Near zero it is summed from its power series (no cancellation); elsewhere
    it uses ``scipy.special.sici``.
    """
    z = np.abs(check_finite(z, "z"))
    result = np.empty_like(z)
    small = z < 1.0
    # Power series: sum_{k>=1} (-1)^(k+1) z^(2k) / (2k (2k)!); 12 terms give
    # full double precision for z < 1 (the 13th term, below 1/(26 * 26!) =
    # 9.5e-29, is under 1e-27 of the sum, which is about z^2/4).
    zs = z[small]
    series = np.zeros_like(zs)
    term_power = np.ones_like(zs)
    factorial = 1.0
    for k in range(1, 13):
        term_power = term_power * zs * zs
        factorial *= (2 * k - 1) * (2 * k)
        series += (-1) ** (k + 1) * term_power / (2 * k * factorial)
    result[small] = series
    zl = z[~small]
    result[~small] = np.euler_gamma + np.log(zl) - special.sici(zl)[1]
    return result


def decay_integral(x: ArrayLike, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The continuous limit of the inner product, exactly.

    .. math::
        I(\Delta) = \mathrm{Re}\int_0^1
                 e^{\,\mathrm{i}\Delta\,\mathrm{base}^{-\tau}}\,d\tau
             = \frac{\mathrm{Ci}(|\Delta|) - \mathrm{Ci}(|\Delta|/\mathrm{base})}
                    {\ln \mathrm{base}}
             = 1 - \frac{\mathrm{Cin}(|\Delta|) - \mathrm{Cin}(|\Delta|/\mathrm{base})}
                        {\ln \mathrm{base}}

    at the offset :math:`\Delta` = ``x`` (substitute
    :math:`y = |\Delta|\,\mathrm{base}^{-\tau}`). The sum
    :func:`inner_product` divided by :math:`d/2` is a left Riemann sum of this
    integral. The second form, with :func:`cin`, has no singularity at
    :math:`\Delta = 0`, where :math:`I = 1`. Even in ``x``; accurate to about
    ``1e-14`` absolute for :math:`|x|` up to ``1e7`` and beyond. Derived in the
    chapter "Why base^(-2i/d): the inner product decays".
    """
    base = check_base(base)
    x = np.abs(check_finite(x, "x"))
    return 1.0 - (cin(x) - cin(x / base)) / math.log(base)


#: The first positive zero of the cosine integral Ci (DLMF 6.13). The decay
#: integral first crosses zero within 1.23 positions of CI_FIRST_ZERO * base
#: for every base from 1e3 on, within 1.26 from 1e2 on (1.232 at base 101.4;
#: not for small bases: 4.91, not 6.17, at base 10).
CI_FIRST_ZERO = 0.6165054856207163


def log_law(delta: ArrayLike, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The logarithmic decay law, valid for :math:`1 \ll |\Delta| \ll \mathrm{base}`.

    .. math:: I(\Delta) \approx 1 - \frac{\ln|\Delta| + \gamma}{\ln \mathrm{base}}

    with Euler's constant :math:`\gamma`: the fraction of the frequencies
    below :math:`e^{-\gamma}/|\Delta|`. Its error is at most
    :math:`(1/|\Delta| + (\Delta/\mathrm{base})^2/4)/\ln\mathrm{base}`. Derived
    in the chapter "Why base^(-2i/d): the inner product decays".
    """
    base = check_base(base)
    delta = np.abs(check_finite(delta, "delta"))
    if np.any(delta == 0):
        raise ValueError("delta must be non-zero: the log law diverges at 0")
    return 1.0 - (np.log(delta) + np.euler_gamma) / math.log(base)


def integral_envelope(delta: ArrayLike, base: float = 10000.0) -> NDArray[np.float64]:
    r"""A bound on the decay integral that holds for every :math:`\Delta \ne 0`.

    .. math:: |I(\Delta)| \le \frac{1 + \mathrm{base}}{|\Delta| \ln \mathrm{base}},

    from :math:`|\mathrm{Ci}(z)| < 1/z` for :math:`z > 0`: never attained,
    only approached for :math:`|\Delta| \gg \mathrm{base}`, and above 1 (so
    empty) for :math:`|\Delta| < (1 + \mathrm{base})/\ln\mathrm{base}`.
    Derived in the chapter "Why base^(-2i/d): the inner product decays".
    """
    base = check_base(base)
    delta = np.abs(check_finite(delta, "delta"))
    if np.any(delta == 0):
        raise ValueError("delta must be non-zero: the envelope diverges at 0")
    return (1.0 + base) / (delta * math.log(base))


def aliasing_offset(d: int, base: float = 10000.0) -> float:
    r"""The Nyquist offset :math:`\Delta^*`: half the sum's alias threshold.

    .. math::
        \Delta^* = \frac{\pi}{1 - \mathrm{base}^{-2/d}}
        \approx \frac{\pi d}{2\ln\mathrm{base}}

    is where the angles :math:`\Delta\theta_0, \Delta\theta_1` of the two
    fastest pairs differ by :math:`\pi` (the sampling theorem's Nyquist
    limit). The sum :func:`inner_product` / (d/2) does *not* leave
    :func:`decay_integral` there: it leaves near :math:`2\Delta^*`, where
    that difference reaches :math:`2\pi` (:func:`alias_threshold`). Derived
    in the chapter "Finite d".
    """
    d = check_dimension(d)
    base = check_base(base)
    return math.pi / (1.0 - base ** (-2.0 / d))


def alias_threshold(d: int, base: float = 10000.0) -> float:
    r"""The offset :math:`\Delta_1` at which the sum starts to leave the integral.

    .. math:: \Delta_1 = \frac{\pi d}{\ln\mathrm{base}}

    By Poisson summation, :func:`inner_product` / (d/2) minus
    :func:`decay_integral` is an endpoint term plus alias integrals; alias
    :math:`\nu` has a stationary point exactly for
    :math:`\nu\Delta_1 \le |\Delta| \le \nu\,\mathrm{base}\,\Delta_1`. Equals
    :math:`2\Delta^*` (:func:`aliasing_offset`) up to about :math:`\pi`, which
    is less than the width :math:`\sqrt{\Delta_1}` of the transition once
    :math:`\Delta_1 > 11.7` (every ``d >= 64`` with a base up to ``1e6``; not
    ``d = 32`` at base ``1e4``). Derived in the chapter "Finite d".
    """
    d = check_dimension(d)
    base = check_base(base)
    return math.pi * d / math.log(base)


def alias_error(delta: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""What the aliases add to the normalised sum: the error after the endpoint term.

    .. math:: E(\Delta) = \frac{g(\Delta)}{d/2} - I(\Delta)
        - \frac{\cos\Delta - \cos(\Delta/\mathrm{base})}{d}

    with :math:`g` = :func:`inner_product` and :math:`I` =
    :func:`decay_integral`. The last term is the exact endpoint term
    :math:`(F(0) - F(1))/(2N)` of the left Riemann sum of the integrand
    :math:`F(\tau) = \cos(\Delta\,\mathrm{base}^{-\tau})`, :math:`N = d/2`.
    Derived in the chapter "Finite d".
    """
    delta = check_finite(delta, "delta")
    base = check_base(base)
    return (
        inner_product(delta, d, base) / (d / 2)
        - decay_integral(delta, base)
        - (np.cos(delta) - np.cos(delta / base)) / d
    )


def alias_error_below(
    delta: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The leading term of :func:`alias_error` below the alias threshold.

    .. math:: E(\Delta) \approx \frac{\sin|\Delta|}{d}
        \Big(\cot \pi r - \frac{1}{\pi r}\Big)
        - \frac{\sin(|\Delta|/\mathrm{base})}{d}
        \Big(\cot \frac{\pi r}{\mathrm{base}} - \frac{\mathrm{base}}{\pi r}\Big),
        \qquad r = \frac{|\Delta|}{\Delta_1} < 1,

    with :math:`\Delta_1` = :func:`alias_threshold`: the non-stationary alias
    integrals summed at the fast end :math:`\tau = 0` and at the slow end
    :math:`\tau = 1`, where the clocks turn base times more slowly. Even in
    ``delta``, as :math:`E` is. The rest is :math:`O(\ln(\mathrm{base})/d^2)`
    at each fixed :math:`r < 1`, but not uniformly: to leading order it is
    :math:`\cos\Delta\,\omega(r)\ln(\mathrm{base})/d^2` with
    :math:`\omega(r) = (r/\pi^2)\sum_{\nu\ge1}[(\nu-r)^{-3} - (\nu+r)^{-3}]`,
    which is :math:`4/\pi^2 = 0.405` at :math:`r = 1/2` and grows like
    :math:`r/(\pi^2(1-r)^3)` as :math:`r \to 1`. The power series in
    :math:`r` is the Euler-Maclaurin series, which diverges at :math:`r = 1`.
    Raises ``ValueError`` for :math:`|\Delta| \ge \Delta_1`. Derived in the
    chapter "Finite d".
    """
    delta = check_finite(delta, "delta")
    base = check_base(base)
    size = np.abs(delta)  # E is even: sin|Delta|, not sin(Delta)
    r = size / alias_threshold(d, base)
    if np.any(r >= 1):
        raise ValueError("delta must be below the alias threshold pi d / ln base")
    fast = np.sin(size) * _cot_minus_inverse(np.pi * r)
    slow = np.sin(size / base) * _cot_minus_inverse(np.pi * r / base)
    return (fast - slow) / d


def _cot_minus_inverse(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """cot x - 1/x for 0 <= x < pi, without the cancellation near 0."""
    safe = np.where(x < 1e-3, 1.0, x)
    # cot x - 1/x cancels for small x; its series -x/3 - x^3/45 - 2x^5/945
    # has relative error below 1e-13 for x < 1e-3.
    return np.where(
        x < 1e-3, -x / 3 - x**3 / 45 - 2 * x**5 / 945, 1 / np.tan(safe) - 1 / safe
    )


def harmonic(k: ArrayLike) -> NDArray[np.float64]:
    r"""The harmonic numbers :math:`\mathcal H_k = 1 + 1/2 + \dots + 1/k`.

    :math:`\mathcal H_0 = 0`. For integers ``k >= 0``, as
    :math:`\operatorname{digamma}(k + 1) + \gamma`.
    """
    k = check_finite(k, "k")
    if np.any((k < 0) | (k != np.round(k))):
        raise ValueError("k must be integers >= 0")
    return special.digamma(k + 1) + np.euler_gamma


def alias_count(delta: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The sum of :math:`1/\nu` over the aliases :math:`\nu` stationary at ``delta``.

    .. math:: A(\Delta) = \sum_{\nu\,:\;\nu\Delta_1 \le |\Delta| \le
        \nu\,\mathrm{base}\,\Delta_1} \frac1\nu
        = \mathcal H_{\lfloor r\rfloor} - \mathcal H_{\lceil r/\mathrm{base}\rceil - 1},
        \qquad r = |\Delta|/\Delta_1.

    It is :math:`\mathcal H_{\lfloor r\rfloor}` while :math:`r \le \mathrm{base}`, and
    tends to :math:`\ln\mathrm{base}` as :math:`r \to \infty`. Derived in the
    chapter "Finite d".
    """
    delta = check_finite(delta, "delta")
    base = check_base(base)
    r = np.abs(delta) / alias_threshold(d, base)
    return harmonic(np.floor(r)) - harmonic(np.maximum(np.ceil(r / base) - 1, 0))


def rms_law(delta: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The predicted root mean square of :func:`alias_error` near ``delta``.

    .. math:: \mathrm{rms}\,E \approx
        \sqrt{\frac{A(\Delta)}{d\,\ln\mathrm{base}}}

    with :math:`A` = :func:`alias_count`: each stationary alias :math:`\nu`
    adds a term of amplitude :math:`(\nu N\ln\mathrm{base})^{-1/2}` whose phase
    drifts at its own rate, so their squares add (mean square of a cosine:
    1/2). Zero below the threshold; :math:`\sqrt{\mathcal H_{\lfloor r\rfloor}
    /(d\ln\mathrm{base})}`, :math:`r = |\Delta|/\Delta_1`, while :math:`r \le
    \mathrm{base}`; :math:`1/\sqrt d` far out. A mean square over a window of
    offsets is compared with the window mean of the square of this. Derived
    in the chapter "Finite d".
    """
    count = alias_count(delta, d, base)
    return np.sqrt(count / (d * math.log(base)))


#: Frequency schedules theta(tau) on tau in [0, 1] whose decay integrals the
#: chapter "Why base^(-2i/d)" compares (after Su, 2021). "exponential" is the
#: paper's base^(-tau). (The schedules of real code bases, by code base, are
#: :data:`posenc.codebases.CODEBASE_SCHEDULES`.)
DECAY_SCHEDULES = ("exponential", "linear", "square", "sqrt")


def schedule_frequencies(
    d: int, schedule: str = "exponential", base: float = 10000.0
) -> NDArray[np.float64]:
    r"""Frequencies :math:`\theta(\tau_i)` at :math:`\tau_i = 2i/d` for a schedule.

    ``"exponential"``: :math:`\mathrm{base}^{-\tau}` (the paper's, identical
    to :func:`frequencies`); ``"linear"``: :math:`\tau`; ``"square"``:
    :math:`\tau^2`; ``"sqrt"``: :math:`\sqrt\tau`. ``base`` is used by the
    exponential schedule only. Derived in the chapter "Why base^(-2i/d): the
    inner product decays".
    """
    d = check_dimension(d)
    schedule = check_choice(schedule, "schedule", DECAY_SCHEDULES)
    if schedule == "exponential":
        return frequencies(d, base)
    t = np.arange(d // 2, dtype=np.float64) * (2.0 / d)
    return {"linear": t, "square": t * t, "sqrt": np.sqrt(t)}[schedule]


def schedule_integral(
    x: ArrayLike, schedule: str = "exponential", base: float = 10000.0
) -> NDArray[np.float64]:
    r"""Exactly :math:`\int_0^1 \cos(\Delta\,\theta(\tau))\,d\tau` for a schedule.

    At the offset :math:`\Delta` = ``x``:

    * ``"exponential"``, :math:`\theta = \mathrm{base}^{-\tau}`: :func:`decay_integral`;
    * ``"linear"``, :math:`\theta = \tau`: :math:`\sin \Delta / \Delta`;
    * ``"square"``, :math:`\theta = \tau^2`: the Fresnel integral
      :math:`\sqrt{\pi/(2\Delta)}\int_0^{\sqrt{2\Delta/\pi}} \cos(\pi y^2/2)\,dy`;
    * ``"sqrt"``, :math:`\theta = \sqrt\tau`:
      :math:`2\big(\sin \Delta/\Delta + (\cos \Delta - 1)/\Delta^2\big)`.

    All are even in ``x`` and equal 1 at ``x = 0``. Derived in the chapter
    "Why base^(-2i/d): the inner product decays".
    """
    schedule = check_choice(schedule, "schedule", DECAY_SCHEDULES)
    if schedule == "exponential":
        return decay_integral(x, base)
    x = np.abs(check_finite(x, "x"))
    safe = np.where(x == 0, 1.0, x)  # the limits at 0 are filled in below
    if schedule == "linear":
        value = np.sin(safe) / safe
    elif schedule == "square":
        fresnel_c = special.fresnel(np.sqrt(2 * safe / np.pi))[1]
        value = np.sqrt(np.pi / (2 * safe)) * fresnel_c
    else:
        # 2 * integral_0^1 u cos(x u) du; its closed form cancels badly for
        # small x, where the series 1 - x^2/4 + x^4/72 - x^6/2880 is exact
        # to double precision (next term x^8/201600 < 1e-20 for x < 0.01).
        # The closed form is evaluated at x >= 0.01 only (at x below 1e-154
        # x**2 underflows to 0, and 0/0 would warn).
        big = np.where(x < 0.01, 1.0, x)
        closed = 2 * (np.sin(big) / big + (np.cos(big) - 1) / big**2)
        series = 1 - x**2 / 4 + x**4 / 72 - x**6 / 2880
        value = np.where(x < 0.01, series, closed)
    return np.where(x == 0, 1.0, value)


def shift_matrix(k: float, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The matrix :math:`T(\ell)` with ``encoding(t + k) = T(k) @ encoding(t)``.

    ``k`` is the shift :math:`\ell` of the book (which keeps :math:`k` for
    keys). For the interleaved layout, with pairs
    :math:`(\sin t\theta_i, \cos t\theta_i)`, :math:`T(\ell)` is block
    diagonal with blocks

    .. math::
        \begin{pmatrix}\cos \ell\theta_i & \sin \ell\theta_i\\
                       -\sin \ell\theta_i & \cos \ell\theta_i\end{pmatrix},

    the *transpose* of the usual counter-clockwise rotation, because sine comes
    first in each pair. It does not depend on ``t``, it is orthogonal, and
    :math:`T(\ell)\,T(\ell') = T(\ell + \ell')`. Derived in the chapter
    "a shift is a rotation".
    """
    theta = frequencies(d, base)
    k = check_scalar(k, "k")
    cos, sin = np.cos(k * theta), np.sin(k * theta)
    matrix = np.zeros((d, d))
    even = np.arange(0, d, 2)
    matrix[even, even] = cos
    matrix[even, even + 1] = sin
    matrix[even + 1, even] = -sin
    matrix[even + 1, even + 1] = cos
    return matrix


def rotate(
    x: ArrayLike,
    positions: ArrayLike,
    base: float = 10000.0,
    pairing: str = "interleaved",
) -> NDArray[np.float64]:
    r"""Rotary position embedding (RoPE) of vectors ``x`` at ``positions``.

    Pair :math:`i` of the coordinates of a vector :math:`v` (a row of ``x``),
    :math:`(v', v'')`, is rotated counter-clockwise by the angle
    :math:`t\,\theta_i`, i.e. the complex number :math:`v' + \mathrm{i}\,v''`
    is multiplied by :math:`e^{\mathrm{i} t\theta_i}`:

    .. math::
        v' \mapsto v'\cos t\theta_i - v''\sin t\theta_i, \qquad
        v'' \mapsto v'\sin t\theta_i + v''\cos t\theta_i.

    ``pairing="interleaved"`` pairs :math:`(v_{2i}, v_{2i+1})`, as RoFormer,
    Meta's LLaMA code and GPT-J do; ``pairing="half-split"`` pairs
    :math:`(v_i, v_{i+d/2})`, as the ``rotate_half`` of Hugging Face's LLaMA
    code does. The two agree after the coordinate
    permutation :func:`interleaved_to_halves`. ``x`` has shape ``(..., d)``
    with ``d`` even; ``positions`` broadcasts against ``x.shape[:-1]``.
    Derived in the chapter "From adding to rotating"; the half-split pairing in
    "The encoding in real code".
    """
    pairing = check_choice(pairing, "pairing", PAIRINGS)
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
    if pairing == "interleaved":
        first, second = x[..., 0::2], x[..., 1::2]
    else:
        first, second = x[..., : d // 2], x[..., d // 2 :]
    turned = first * cos - second * sin
    partner = first * sin + second * cos
    if pairing == "interleaved":
        return interleave(turned, partner)
    return np.concatenate([turned, partner], axis=-1)


# ------------------------------------------------------------ general H


def cross_terms(
    h: ArrayLike, positions: ArrayLike, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The matrix of cross terms :math:`C_{mn} = p_m^\top H\, p_n`.

    ``h`` is the (d, d) matrix :math:`H` (paper layout, interleaved);
    ``positions`` a 1-D array of positions. With :math:`H = I` this is the
    Gram matrix :math:`g(m - n)`. Derived in the chapter "When H is not the
    identity".
    """
    h = check_square_matrix(h, "h")
    table = encoding(positions, h.shape[0], base)
    if table.ndim != 2:
        raise ValueError("positions must be a 1-D array of positions")
    return table @ h @ table.T


def diagonal_means(c: ArrayLike) -> NDArray[np.float64]:
    r"""The part of a square matrix that is a function of the offset alone.

    Entry :math:`(m, n)` of the result is :math:`\bar C(m - n)`, the mean of
    :math:`C` along its diagonal :math:`m - n`: the Toeplitz matrix nearest to
    :math:`C` in the least-squares sense. Derived in the chapter "When H is not
    the identity".
    """
    c = check_square_matrix(c, "c")
    size = c.shape[0]
    offsets = np.subtract.outer(np.arange(size), np.arange(size)) + size - 1
    sums = np.bincount(offsets.ravel(), weights=c.ravel(), minlength=2 * size - 1)
    counts = np.bincount(offsets.ravel(), minlength=2 * size - 1)
    return (sums / counts)[offsets]


def offset_leakage(c: ArrayLike) -> float:
    r"""The share of a cross-term matrix that is *not* a function of the offset.

    For a square matrix :math:`C_{mn}` over positions :math:`0, \dots, L-1`,
    let :math:`\bar C(\Delta)` be the mean of :math:`C` along the diagonal
    :math:`m - n = \Delta`. The leakage is

    .. math:: \frac{\sum_{m,n} (C_{mn} - \bar C(m - n))^2}
                    {\sum_{m,n} (C_{mn} - \bar C)^2}

    (:math:`\bar C`: the mean of all entries): 0 when :math:`C` depends on
    :math:`m - n` alone (a Toeplitz matrix), 1 when the offset explains
    nothing. Derived in the chapter "When H is not the identity".
    """
    c = check_square_matrix(c, "c")
    along_offset = diagonal_means(c)
    total = np.sum((c - c.mean()) ** 2)
    if total == 0:
        return 0.0
    return float(np.sum((c - along_offset) ** 2) / total)


# ------------------------------------------------------------ shifts


def column_fit(
    k: float, d: int, base: float = 10000.0, positions: ArrayLike | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    r"""Fit each column of :math:`p_{t+\ell}` on the same column of :math:`p_t`.

    For the shift :math:`\ell` = ``k`` and every column :math:`c`, fits
    :math:`p_{t+\ell,c} \approx \alpha_c p_{t,c} + \beta_c` over ``positions``
    (default :math:`0, \dots, 19999`) and returns ``(alpha, beta, r_squared)``,
    each of shape ``(d,)``. This is the misconception that a shift acts on
    each coordinate separately; over many full periods
    :math:`R^2_c \to \cos^2(\ell\theta_i)` for both columns of pair
    :math:`i`. Derived in the chapter "A shift is a rotation".
    """
    if positions is None:
        positions = np.arange(20000)
    k = check_scalar(k, "k")
    now = encoding(positions, d, base)
    later = encoding(check_finite(positions, "positions") + k, d, base)
    now_c, later_c = now - now.mean(axis=0), later - later.mean(axis=0)
    covariance = np.sum(now_c * later_c, axis=0)
    variance_now = np.sum(now_c**2, axis=0)
    variance_later = np.sum(later_c**2, axis=0)
    alpha = covariance / variance_now
    beta = later.mean(axis=0) - alpha * now.mean(axis=0)
    r_squared = covariance**2 / (variance_now * variance_later)
    return alpha, beta, r_squared


# ------------------------------------------------------------------ RoPE


def rope_partial_sums(delta: ArrayLike, d: int, base: float = 10000.0) -> NDArray:
    r"""The partial sums :math:`Z_j(\Delta) = \sum_{i<j} e^{\mathrm{i}\Delta\theta_i}`.

    Returns a complex array of shape ``delta.shape + (d/2 + 1,)`` holding
    :math:`Z_0 = 0, Z_1, \dots, Z_{d/2}` (RoFormer's :math:`S_j`). They
    enter RoFormer's bound on the attention score through Abel summation.
    Derived in the chapter "From adding to rotating: RoPE".
    """
    theta = frequencies(d, base)
    delta = check_finite(delta, "delta")
    terms = np.exp(1j * delta[..., None] * theta)
    zeros = np.zeros(delta.shape + (1,), dtype=complex)
    return np.concatenate([zeros, np.cumsum(terms, axis=-1)], axis=-1)


def rope_bound(delta: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""RoFormer's relative bound, :math:`\frac{1}{d/2}\sum_{j=1}^{d/2}|Z_j(\Delta)|`.

    For a RoPE attention score :math:`\mathrm{Re}\sum_i \zeta_i
    e^{\mathrm{i}\Delta\theta_i}` (with :math:`\zeta_i` the complex products
    of the query's and key's pairs, RoFormer's :math:`h_i`, and
    :math:`\zeta_{d/2} = 0`), Abel summation gives :math:`|\text{score}|
    \le \max_i |\zeta_{i+1} - \zeta_i| \sum_{j=1}^{d/2}|Z_j|`.
    This function returns the sum divided by :math:`d/2`, the quantity
    Su et al. (2021, RoFormer) plot. Derived in the chapter "From adding to
    rotating: RoPE".
    """
    sums = rope_partial_sums(delta, d, base)
    return np.abs(sums[..., 1:]).mean(axis=-1)
