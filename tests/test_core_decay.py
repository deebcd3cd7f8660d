"""Unit and property tests of posenc.core's decay: the integral of the
cosines (against mpmath and quadrature), its laws and bounds, and the
aliases of a finite d (split from tests/test_core.py; the same tolerances,
stated where they are used).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, special

import posenc
from posenc import core

# ------------------------------------------------------------------ strategies

dims = st.integers(1, 128).map(lambda half: 2 * half)
bases = st.floats(1.5, 1e6)
positions = st.floats(-1e4, 1e4, allow_nan=False)
SETTINGS = settings(max_examples=60, deadline=None)

# -------------------------------------------------------------- decay integral


def reference_integral(x: float, base: float) -> float:
    """(Ci(|x|) - Ci(|x|/base)) / ln(base) with mpmath at 40 digits."""
    with mpmath.workdps(40):
        if x == 0:
            return 1.0
        a, b = mpmath.mpf(abs(x)), mpmath.mpf(base)
        return float((mpmath.ci(a) - mpmath.ci(a / b)) / mpmath.log(b))


X_VALUES = [0.0, 1e-300, 1e-9, 1e-3, 0.5, 0.999, 1.0, 1.001, 3.0, 10.0, 128.0, 1e3,
            12345.6, 1e5, 1e6, 9.99e6, 1e7]  # fmt: skip


@pytest.mark.parametrize("base", [1.5, 10.0, 1e4, 1e6])
def test_decay_integral_is_exact_against_mpmath(base):
    # The specification asks for 1e-10 absolute up to |x| = 1e7; it holds to 1e-13.
    for x in X_VALUES:
        assert posenc.decay_integral(x, base) == pytest.approx(
            reference_integral(x, base), abs=1e-13
        )


@pytest.mark.parametrize("x", [0.1, 1.0, 5.0, 20.0, 128.0, 500.0])
def test_decay_integral_agrees_with_adaptive_quadrature(x):
    # Quadrature of cos(x * base^-t) over [0, 1] converges here; tolerance 1e-10.
    value, error = integrate.quad(
        lambda t: math.cos(x * 1e4**-t), 0, 1, limit=500, epsabs=1e-13, epsrel=1e-12
    )
    assert error < 1e-11
    assert posenc.decay_integral(x) == pytest.approx(value, abs=1e-10)


def ci_asymptotic(z: float) -> float:
    """Ci(z) for large z from its asymptotic series, three terms of each part."""
    f = (1 - 2 / z**2 + 24 / z**4) / z
    g = (1 - 6 / z**2 + 120 / z**4) / z**2
    return math.sin(z) * f - math.cos(z) * g


@pytest.mark.parametrize("x", [1e5, 3.3e5, 1e6, 5e6, 1e7])
def test_decay_integral_follows_the_large_x_asymptotics(x):
    # Both arguments x and x/base are >= 10, where the truncated series for Ci
    # is accurate to its first omitted term, 720/z^7 <= 1e-4 ... at z = x/base = 10
    # that is 7e-5, so compare to 1e-4 / ln(base).
    base = 1e4
    expected = (ci_asymptotic(x) - ci_asymptotic(x / base)) / math.log(base)
    assert posenc.decay_integral(x, base) == pytest.approx(
        expected, abs=1e-4 / math.log(base)
    )


@given(x=st.floats(-1e7, 1e7), base=bases)
@SETTINGS
def test_decay_integral_is_even_and_bounded(x, base):
    value = posenc.decay_integral(x, base)
    assert value == posenc.decay_integral(-x, base)
    assert -1.0 <= value <= 1.0


def test_decay_integral_is_vectorised_and_one_at_zero():
    x = np.array([[0.0, 1.0], [-1.0, 1e7]])
    values = posenc.decay_integral(x)
    assert values.shape == (2, 2)
    assert values[0, 0] == 1.0
    assert values[0, 1] == values[1, 0]


@pytest.mark.parametrize("delta", [1.0, 10.0, 100.0])
def test_inner_product_is_a_left_riemann_sum_of_the_integral(delta):
    # sum_{i<N} f(i/N) / N with f(t) = cos(delta * base^-t), N = d/2. A left
    # Riemann sum errs by at most sup|f'| / (2N), and sup|f'| <= |delta| ln base.
    base = 1e4
    for d in [64, 512, 4096]:
        half = d // 2
        error = abs(
            posenc.inner_product(delta, d, base) / half
            - posenc.decay_integral(delta, base)
        )
        assert error <= abs(delta) * math.log(base) / (2 * half)


def reference_cin(z: float) -> float:
    """Cin(z) at 40 digits: its defining integral for z < 1 (no oscillation to
    resolve there), gamma + ln z - Ci(z) beyond."""
    with mpmath.workdps(40):
        if z < 1:
            return float(mpmath.quad(lambda u: (1 - mpmath.cos(u)) / u, [0, z]))
        return float(mpmath.euler + mpmath.log(z) - mpmath.ci(z))


def test_cin_matches_mpmath_on_both_sides_of_the_series_switch():
    # posenc switches from the power series to scipy's Ci at z = 1.
    for z in [0.0, 1e-8, 0.3, 0.999999, 1.0, 1.000001, 4.0, 50.0, 1e6]:
        assert core.cin(z) == pytest.approx(
            reference_cin(z), abs=1e-14 * max(1.0, math.log(1 + z))
        )
    assert core.cin(-2.0) == core.cin(2.0)


# ------------------------------------------------------- decay: laws and bounds


def test_ci_first_zero_is_a_zero_of_ci():
    assert abs(special.sici(core.CI_FIRST_ZERO)[1]) < 1e-15
    assert special.sici(core.CI_FIRST_ZERO - 1e-6)[1] < 0 < special.sici(0.7)[1]


@pytest.mark.parametrize("base", [10.0, 1e4, 1e6])
def test_envelope_bounds_the_integral_everywhere(base):
    delta = np.concatenate([np.logspace(-3, 7, 20001), -np.logspace(-3, 7, 101)])
    assert np.all(
        np.abs(posenc.decay_integral(delta, base))
        <= core.integral_envelope(delta, base)
    )


@pytest.mark.parametrize("base", [1e3, 1e4, 1e5])
def test_log_law_error_is_within_its_bound(base):
    delta = np.logspace(0, math.log10(base), 2001)
    error = np.abs(posenc.decay_integral(delta, base) - core.log_law(delta, base))
    bound = (1 / delta + (delta / base) ** 2 / 4) / math.log(base)
    assert np.all(error <= bound)
    expected = 1 - (math.log(50.0) + np.euler_gamma) / math.log(base)
    assert core.log_law(50.0, base) == pytest.approx(expected, rel=1e-15)


def test_aliasing_offset():
    assert core.aliasing_offset(512, 1e4) == pytest.approx(
        math.pi / (1 - 1e4 ** (-2 / 512))
    )
    for d in [64, 512, 4096]:
        approximation = math.pi * d / (2 * math.log(1e4))
        assert core.aliasing_offset(d, 1e4) == pytest.approx(approximation, rel=10 / d)


def test_laws_reject_zero_offset():
    with pytest.raises(ValueError, match="^delta must be non-zero"):
        core.log_law([1.0, 0.0])
    with pytest.raises(ValueError, match="^delta must be non-zero"):
        core.integral_envelope(0.0)


def test_envelope_is_approached_far_beyond_base():
    # For |delta| >> base, I * delta * ln(base) = sin(delta) - base sin(delta/base)
    # + O(base^2/delta), which comes within 1e-5 of 1 + base over one period
    # 2 pi base of integers beyond 1e7 (and never reaches it: |Ci(z)| < 1/z).
    delta = np.arange(1e7, 1e7 + 2 * np.pi * 1e4 + 1)
    ratio = np.abs(posenc.decay_integral(delta, 1e4)) / core.integral_envelope(
        delta, 1e4
    )
    assert 1 - 1e-5 < ratio.max() < 1


# ------------------------------------------------------- finite d: the aliases


def test_alias_threshold_is_pi_d_over_ln_base_and_twice_the_nyquist_offset():
    assert core.alias_threshold(512, 1e4) == pytest.approx(
        math.pi * 512 / math.log(1e4), rel=1e-15
    )
    # 2 Delta* = Delta_1 + pi + pi ln(base)/(3d) + O(1/d^2): x/(1 - e^-x) series
    for d in [64, 512, 4096]:
        for base in [1e2, 1e4]:
            gap = 2 * core.aliasing_offset(d, base) - core.alias_threshold(d, base)
            first = math.pi + math.pi * math.log(base) / (3 * d)
            assert abs(gap - first) < 2 * math.log(base) ** 3 / d**2


def test_nyquist_gap_is_below_the_transition_width_once_the_threshold_passes_11_7():
    # 2 Delta* - Delta_1 against sqrt(Delta_1): both depend on Delta_1 alone,
    # the gap falls and the root rises, and they meet at Delta_1 = 11.71.
    def gap(d, base):
        return 2 * core.aliasing_offset(d, base) - core.alias_threshold(d, base)

    for d in [64, 96, 128, 512, 4096]:
        for base in np.geomspace(1.5, 1e6, 41):
            assert gap(d, base) < math.sqrt(core.alias_threshold(d, base))
    assert core.alias_threshold(64, 1e6) > 11.71 > core.alias_threshold(32, 1e4)
    for d, base in [(32, 1e4), (32, 1e6), (16, 1e4)]:
        assert gap(d, base) > math.sqrt(core.alias_threshold(d, base))


def reference_sum_error(delta: float, d: int, base: float) -> float:
    """g/(d/2) - I - (cos delta - cos(delta/base))/d, the sum written out and
    the integral from mpmath at 40 digits."""
    total = sum(math.cos(delta * base ** (-2 * i / d)) for i in range(d // 2))
    endpoint = (math.cos(delta) - math.cos(delta / base)) / d
    return total / (d / 2) - reference_integral(delta, base) - endpoint


def test_alias_error_is_the_sum_less_the_integral_and_the_endpoint_term():
    for d, base in [(8, 10.0), (64, 1e4)]:
        for delta in [0.0, 0.5, 3.0, -20.0, 1000.0]:
            assert core.alias_error(delta, d, base) == pytest.approx(
                reference_sum_error(delta, d, base), abs=1e-12
            )


def test_alias_error_below_the_threshold_follows_its_leading_term():
    # the fast end and the slow end: the rest is O(ln(base)/d^2) for r <= 1/2,
    # measured up to 0.40 ln(base)/d^2 (bases 1e2 to 1e6, d = 64 to 8192).
    # Without the slow end it is 23/d^2 at base 100, d = 4096.
    for base in [1e2, 1e4, 1e6]:
        for d in [64, 1024, 4096]:
            half = core.alias_threshold(d, base) / 2
            edge = math.floor(half)  # negative offsets too: E is even
            delta = np.arange(-edge, edge + 1, dtype=float)
            error = core.alias_error(delta, d, base)
            rest = error - core.alias_error_below(delta, d, base)
            assert np.abs(rest).max() <= 0.41 * math.log(base) / d**2, (base, d)


def test_alias_error_below_series_and_closed_form_meet():
    # The series replaces cot x - 1/x for x = pi r < 1e-3: against mpmath, the
    # series is exact to 1e-13 there; the closed form just above loses about
    # 1e-16 / x^2 relative to cancellation. The slow end (x / base) is always
    # in the series' range here.
    d, base = 512, 1e4
    for x, rel in [(0.999e-3, 1e-13), (1.001e-3, 1e-9), (1e-5, 1e-13)]:
        delta = x * core.alias_threshold(d, base) / math.pi
        with mpmath.workdps(30):
            xm, b = mpmath.mpf(x), mpmath.mpf(base)
            fast = mpmath.sin(delta) * (mpmath.cot(xm) - 1 / xm)
            slow = mpmath.sin(delta / b) * (mpmath.cot(xm / b) - b / xm)
            exact = float((fast - slow) / d)
        value = core.alias_error_below(delta, d, base)
        assert value == pytest.approx(exact, rel=rel, abs=0)
    assert core.alias_error_below(0.0, d) == 0.0


def test_alias_error_below_includes_the_slow_end():
    # sin(delta) (cot x - 1/x) - sin(delta/base) (cot(x/base) - base/x), over
    # d, with x = pi r, against mpmath at 30 digits; base 100 and d = 8192
    # put delta/base up to 28, where the slow end is far from negligible.
    d, base = 8192, 100.0
    for r in [0.01, 0.3, 0.5, 0.9]:
        delta = r * core.alias_threshold(d, base)
        with mpmath.workdps(30):
            x, b = mpmath.pi * mpmath.mpf(r), mpmath.mpf(base)
            fast = mpmath.sin(delta) * (mpmath.cot(x) - 1 / x)
            slow = mpmath.sin(delta / b) * (mpmath.cot(x / b) - b / x)
            exact = float((fast - slow) / d)
        value = core.alias_error_below(delta, d, base)
        assert value == pytest.approx(exact, rel=1e-9, abs=0)


def alias_errors_by_base(d: int, bases: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """E(Delta) at Delta = 0, 1, ..., ends[k] for bases[k] (NaN beyond).

    ``ends`` must not rise from one base to the next. The sums of cosines
    run by the recurrence cos((D + 1) t) = 2 cos(t) cos(D t) - cos((D - 1) t)
    for all bases at once, which is cheaper than a cosine for every term;
    its rounding grows like D^2 * 2**-53, and three rows are checked
    against core.alias_error to 1e-9 (they agree to about 1e-12).
    """
    theta = np.array([core.frequencies(d, base) for base in bases])
    last = int(ends.max())
    sums = np.full((len(bases), last + 1), np.nan)
    twice_cos = 2 * np.cos(theta)
    before, now = np.cos(theta), np.ones_like(theta)  # Delta = -1, 0
    scratch = np.empty_like(theta)
    for delta in range(last + 1):
        rows = int(np.searchsorted(-ends, -delta, side="right"))  # ends >= delta
        sums[:rows, delta] = now[:rows].sum(axis=1)
        np.multiply(twice_cos[:rows], now[:rows], out=scratch[:rows])
        np.subtract(scratch[:rows], before[:rows], out=before[:rows])
        before, now = now, before
    offsets = np.arange(last + 1.0)
    integral = np.array([core.decay_integral(offsets, base) for base in bases])
    endpoint = (np.cos(offsets) - np.cos(offsets / bases[:, None])) / d
    errors = sums / (d / 2) - integral - endpoint
    for k in [0, len(bases) // 2, len(bases) - 1]:
        shown = offsets[: int(ends[k]) + 1]
        exact = core.alias_error(shown, d, bases[k])
        np.testing.assert_allclose(errors[k, : len(shown)], exact, rtol=0, atol=1e-9)
    return errors


# The chapter "Finite d" states these for every base from 1e2 to 1e6 and the
# powers of two d = 64 to 1024 (its rule of thumb and summary; it checks
# them itself at the five bases 1e2, ..., 1e6). Here: 2001 log-spaced bases
# (steps of 0.46% in the base), integer offsets up to 1.5 Delta_1. Its
# worst cases (below) lie within 0.001 of those of 20,001 log-spaced bases
# (0.7131, 1.391, 0.2381, 0.2640, 0.3215), and each bound keeps a margin of
# 5% or more over them.
SCAN_BASES = np.geomspace(1e2, 1e6, 2001)


@pytest.mark.parametrize("d", [64, 128, 256, 512, 1024])
def test_alias_error_threshold_claims_hold_for_every_base_from_1e2_to_1e6(d):
    thresholds = np.array([core.alias_threshold(d, base) for base in SCAN_BASES])
    errors = alias_errors_by_base(d, SCAN_BASES, np.floor(1.5 * thresholds))
    offsets = np.arange(errors.shape[1], dtype=float)
    r = offsets / thresholds[:, None]
    size = np.abs(errors)
    endpoint = (np.cos(offsets) - np.cos(offsets / SCAN_BASES[:, None])) / d
    raw = np.abs(errors + endpoint)  # |g/(d/2) - I|

    def worst(values, inside):
        return np.where(inside & ~np.isnan(values), values, 0).max(axis=1)

    visible = 0.3 / math.sqrt(d)
    # up to 0.75 Delta_1: |E| within 0.75 * 2/d (worst 0.713 * 2/d, d = 1024),
    # the raw sum within 1.75 * 2/d (worst 1.39 * 2/d)
    assert worst(size, r <= 0.75).max() <= 0.75 * 2 / d
    assert worst(raw, r <= 0.75).max() <= 1.75 * 2 / d
    # below 0.3/sqrt(d) up to 0.9 Delta_1 (worst 0.238/sqrt(d), d = 64) ...
    assert worst(size, r <= 0.9).max() < visible
    # ... and up to 0.95 Delta_1 from d = 128 on (worst 0.264/sqrt(d));
    # at d = 64 bases near 118 reach it there (0.303/sqrt(d) at base 118.5)
    reach = worst(size, r <= 0.95) >= visible
    if d == 64:
        broken = SCAN_BASES[reach]
        assert broken.size > 0 and 116 < broken.min() and broken.max() < 119
    else:
        assert not reach.any()
    # reaches 0.3/sqrt(d) somewhere in [Delta_1, 1.5 Delta_1] (smallest
    # peak 0.32/sqrt(d), d = 64)
    assert np.all(worst(size, (r >= 1) & (r <= 1.5)) >= visible)
    # |E| first passes 0.75 * 2/d between 0.76 and 1.09 Delta_1 (earliest
    # 0.7628 Delta_1, d = 1024; latest 1.0896 Delta_1, d = 64): below
    # Delta_1, where no alias is stationary, the sum already leaves I
    passed = np.where(np.isnan(size), False, size > 0.75 * 2 / d)
    assert passed.any(axis=1).all()
    first = r[np.arange(len(SCAN_BASES)), np.argmax(passed, axis=1)]
    assert 0.76 <= first.min() and first.max() < 1.09


def test_alias_error_below_rejects_offsets_at_the_threshold():
    threshold = core.alias_threshold(64)
    with pytest.raises(ValueError, match="^delta must be below the alias threshold"):
        core.alias_error_below([1.0, threshold], 64)


# Every function of an offset in posenc.core that the decay chapters use,
# as f(delta, d, base). Each is even in the offset: a formula written for
# delta > 0 (sin(delta) where sin|delta| is meant) is wrong for every
# delta < 0, and only a test at negative offsets sees it.
OFFSET_FUNCTIONS = {
    "inner_product": core.inner_product,
    "cin": lambda delta, d, base: core.cin(delta),
    "decay_integral": lambda delta, d, base: core.decay_integral(delta, base),
    "log_law": lambda delta, d, base: core.log_law(delta, base),
    "integral_envelope": lambda delta, d, base: core.integral_envelope(delta, base),
    "alias_error": core.alias_error,
    "alias_count": core.alias_count,
    "rms_law": core.rms_law,
    **{
        f"schedule_integral {name}": (
            lambda delta, d, base, name=name: core.schedule_integral(delta, name, base)
        )
        for name in core.DECAY_SCHEDULES
    },
}


@pytest.mark.parametrize("name", OFFSET_FUNCTIONS)
@given(d=dims, base=bases, delta=positions.filter(lambda x: abs(x) > 1e-300))
@SETTINGS
def test_functions_of_an_offset_are_even(name, d, base, delta):
    # log_law and the envelope reject 0, and the envelope, 1/|delta| in
    # size, overflows (and warns) at subnormal offsets
    f = OFFSET_FUNCTIONS[name]
    assert f(-delta, d, base) == f(delta, d, base)


@given(d=dims, base=bases, fraction=st.floats(-0.999, 0.999))
@SETTINGS
def test_alias_error_below_is_even(d, base, fraction):
    delta = fraction * core.alias_threshold(d, base)
    assert core.alias_error_below(-delta, d, base) == core.alias_error_below(
        delta, d, base
    )


def test_alias_error_below_has_the_sign_of_the_error_at_negative_offsets():
    # The erratum's case: at d = 512, base 1e4, E(-100) = +8.0e-4 and the
    # leading term must be +7.8e-4 (it was -7.8e-4), as at +100.
    exact = core.alias_error(-100.0, 512)
    assert exact == pytest.approx(reference_sum_error(-100.0, 512, 1e4), abs=1e-12)
    assert exact > 0
    # r = 0.57, beyond the r <= 1/2 of the 0.41 ln(base)/d^2 bound: the rest
    # is 2.7% of E here, so 5% tells +7.8e-4 from -7.8e-4
    leading = core.alias_error_below(-100.0, 512)
    assert leading == pytest.approx(exact, rel=0.05, abs=0)


def test_harmonic_numbers():
    np.testing.assert_allclose(
        core.harmonic([0, 1, 2, 4, 100]),
        [0, 1, 1.5, 25 / 12, sum(1 / k for k in range(1, 101))],
        rtol=1e-14,
    )
    with pytest.raises(ValueError, match="^k must be integers >= 0"):
        core.harmonic([1.5])
    with pytest.raises(ValueError, match="^k must be integers >= 0"):
        core.harmonic([-1])


def test_alias_count_sums_one_over_k_over_the_stationary_aliases():
    # Alias k is stationary for k Delta_1 <= |delta| <= k base Delta_1.
    d, base = 16, 10.0
    threshold = core.alias_threshold(d, base)
    for delta in [0.5, threshold, 2.5 * threshold, 37 * threshold, 1e3, -4e4]:
        expected = sum(
            1 / k
            for k in range(1, 100_000)
            if k * threshold <= abs(delta) <= k * base * threshold
        )
        assert core.alias_count(delta, d, base) == pytest.approx(expected, rel=1e-12)


def test_rms_law_rises_from_zero_to_one_over_root_d():
    d, base = 512, 1e4
    threshold = core.alias_threshold(d, base)
    assert core.rms_law(0.99 * threshold, d, base) == 0.0
    assert core.rms_law(1.5 * threshold, d, base) == pytest.approx(
        math.sqrt(1 / (d * math.log(base))), rel=1e-14
    )
    assert core.rms_law(1e12, d, base) * math.sqrt(d) == pytest.approx(1, abs=1e-3)
