"""posenc.scaling: scaled frequencies against the reference formulas, the
smallest base against a brute-force scan, bfloat16 against exact rounding.

The reference formulas below restate Hugging Face transformers'
``src/transformers/modeling_rope_utils.py`` as of version 5.23.0 (read in
that release's source): ``_compute_linear_scaling_rope_parameters``,
``_compute_dynamic_ntk_parameters``, ``_compute_yarn_parameters`` (with its
inner ``get_mscale``, ``find_correction_dim``, ``find_correction_range`` and
``linear_ramp_factor``) and ``_compute_llama3_parameters``. They are written
out pair by pair with ``math``, in float64, independently of
``posenc.scaling``. That the library itself agrees with posenc (to its
float32 rounding) was checked once, outside the test suite:
``docs/research/issue11/compare_transformers.py`` and its output.
"""

from __future__ import annotations

import math
import warnings
from decimal import Decimal

import mpmath
import numpy as np
import pytest

import posenc
from posenc import scaling

# --------------------------------------------- the reference, restated


def reference_default(d, base):
    # inv_freq = 1 / base ** (arange(0, dim, 2) / dim)
    return [1.0 / base ** (j / d) for j in range(0, d, 2)]


def reference_linear(d, base, factor):
    # inv_freq /= factor; attention_factor = 1.0
    return [f / factor for f in reference_default(d, base)], 1.0


def reference_dynamic(d, base, factor, max_position_embeddings, seq_len):
    # seq_len = max(seq_len, max_position_embeddings)
    # base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
    seq_len = max(seq_len, max_position_embeddings)
    growth = factor * seq_len / max_position_embeddings - (factor - 1)
    return reference_default(d, base * growth ** (d / (d - 2))), 1.0


def reference_yarn(d, base, factor, original, beta_fast=32, beta_slow=1):
    def get_mscale(scale, mscale=1):
        if scale <= 1:
            return 1.0
        return 0.1 * mscale * math.log(scale) + 1.0

    def find_correction_dim(num_rotations):
        return (d * math.log(original / (num_rotations * 2 * math.pi))) / (
            2 * math.log(base)
        )

    # truncate defaults to True: floor the low end, ceil the high end
    low = max(math.floor(find_correction_dim(beta_fast)), 0)
    high = min(math.ceil(find_correction_dim(beta_slow)), d - 1)
    if low == high:
        high += 0.001
    inv_freq = []
    for j, pos_freq in enumerate(base ** (k / d) for k in range(0, d, 2)):
        ramp = min(max((j - low) / (high - low), 0.0), 1.0)
        extrapolation_factor = 1 - ramp
        interpolation = 1.0 / (factor * pos_freq)
        extrapolation = 1.0 / pos_freq
        inv_freq.append(
            interpolation * (1 - extrapolation_factor)
            + extrapolation * extrapolation_factor
        )
    return inv_freq, get_mscale(factor)


def reference_llama3(d, base, factor, original, low_freq_factor, high_freq_factor):
    low_freq_wavelen = original / low_freq_factor
    high_freq_wavelen = original / high_freq_factor
    out = []
    for inv_freq in reference_default(d, base):
        wavelen = 2 * math.pi / inv_freq
        if wavelen < high_freq_wavelen:
            out.append(inv_freq)
        elif wavelen > low_freq_wavelen:
            out.append(inv_freq / factor)
        else:
            smooth = (original / wavelen - low_freq_factor) / (
                high_freq_factor - low_freq_factor
            )
            out.append((1 - smooth) * inv_freq / factor + smooth * inv_freq)
    return out, 1.0


def assert_matches(result, reference):
    theta, attention = result
    expected, expected_attention = reference
    assert theta.dtype == np.float64 and theta.shape == (len(expected),)
    # the same float64 formulas in another order: a few ulps apart
    np.testing.assert_allclose(theta, expected, rtol=1e-13, atol=0)
    assert attention == pytest.approx(expected_attention, rel=1e-15, abs=0)


CONFIGS = [(64, 1e4), (128, 1e4), (128, 5e5), (128, 1e6), (256, 1e4)]


@pytest.mark.parametrize("d, base", CONFIGS)
def test_none_is_the_paper(d, base):
    assert_matches(
        posenc.scaled_frequencies(d, base), (reference_default(d, base), 1.0)
    )


@pytest.mark.parametrize("d, base", CONFIGS)
@pytest.mark.parametrize("factor", [1.0, 2.0, 8.0, 40.0])
def test_linear_matches_the_reference(d, base, factor):
    assert_matches(
        posenc.scaled_frequencies(d, base, "linear", factor),
        reference_linear(d, base, factor),
    )


@pytest.mark.parametrize("d, base", CONFIGS)
@pytest.mark.parametrize("factor", [1.0, 2.0, 8.0])
@pytest.mark.parametrize("context", [100, 4096, 5000, 32768])
def test_dynamic_matches_the_reference(d, base, factor, context):
    result = posenc.scaled_frequencies(
        d, base, "dynamic", factor, original_context=4096, context=context
    )
    assert_matches(result, reference_dynamic(d, base, factor, 4096, context))
    if context <= 4096:  # unchanged up to the original length
        np.testing.assert_array_equal(result[0], posenc.frequencies(d, base))


@pytest.mark.parametrize("d, base", CONFIGS)
@pytest.mark.parametrize("factor", [1.0, 2.0, 8.0, 32.0])
def test_ntk_is_dynamic_at_factor_one_and_length_s_l(d, base, factor):
    # The reference has no static NTK method; its dynamic method with factor
    # 1 at the length factor * L raises the base by factor^(d/(d-2)).
    length = int(factor * 4096)
    assert_matches(
        posenc.scaled_frequencies(d, base, "ntk", factor),
        reference_dynamic(d, base, 1.0, 4096, length),
    )


@pytest.mark.parametrize("d, base", CONFIGS)
@pytest.mark.parametrize("factor", [2.0, 8.0, 40.0])
def test_ntk_keeps_the_fastest_pair_and_divides_the_slowest(d, base, factor):
    theta, _ = posenc.scaled_frequencies(d, base, "ntk", factor)
    plain = posenc.frequencies(d, base)
    assert theta[0] == 1.0
    assert theta[-1] == pytest.approx(plain[-1] / factor, rel=1e-12, abs=0)
    assert np.all(np.diff(plain / theta) > 0)  # more scaling for slower pairs


@pytest.mark.parametrize("d, base", CONFIGS)
@pytest.mark.parametrize("factor", [1.0, 4.0, 16.0, 40.0])
@pytest.mark.parametrize("original", [2048, 4096, 8192])
@pytest.mark.parametrize("betas", [(32, 1), (16, 2), (64, 0.5)])
def test_yarn_matches_the_reference(d, base, factor, original, betas):
    result = posenc.scaled_frequencies(
        d,
        base,
        "yarn",
        factor,
        original_context=original,
        beta_fast=betas[0],
        beta_slow=betas[1],
    )
    assert_matches(result, reference_yarn(d, base, factor, original, *betas))


def test_yarn_widens_a_ramp_of_zero_width():
    # d = 4, base 1e4, L = 4096: both ends of the range truncate to pair 1
    # (and beyond), so low == high and the reference adds 0.001.
    d, base, original = 4, 1e4, 4096
    assert_matches(
        posenc.scaled_frequencies(d, base, "yarn", 4.0, original_context=original),
        reference_yarn(d, base, 4.0, original),
    )


def test_yarn_attention_factor_is_point_one_log_s_plus_one():
    for factor in [1.0, 2.0, 16.0, 40.0]:
        _, attention = posenc.scaled_frequencies(
            128, 1e4, "yarn", factor, original_context=4096
        )
        expected = 0.1 * np.log(factor) + 1
        assert attention == pytest.approx(expected, rel=1e-15, abs=0)


def test_yarn_keeps_fast_pairs_and_interpolates_slow_ones():
    d, base, factor, original = 128, 1e4, 16.0, 4096
    theta, _ = posenc.scaled_frequencies(
        d, base, "yarn", factor, original_context=original
    )
    plain = posenc.frequencies(d, base)
    turns = original * plain / (2 * np.pi)  # turns in the original length
    np.testing.assert_array_equal(
        theta[turns > 32 * base ** (2 / d)], plain[turns > 32 * base ** (2 / d)]
    )
    slow = turns < 1 / base ** (2 / d)
    np.testing.assert_allclose(theta[slow], plain[slow] / factor, rtol=1e-15)


@pytest.mark.parametrize("d, base", CONFIGS)
@pytest.mark.parametrize("factor", [1.0, 8.0, 32.0])
@pytest.mark.parametrize("original", [2048, 8192])
@pytest.mark.parametrize("low_high", [(1.0, 4.0), (2.0, 8.0), (0.5, 1.5)])
def test_llama3_matches_the_reference(d, base, factor, original, low_high):
    result = posenc.scaled_frequencies(
        d,
        base,
        "llama3",
        factor,
        original_context=original,
        low_freq_factor=low_high[0],
        high_freq_factor=low_high[1],
    )
    assert_matches(result, reference_llama3(d, base, factor, original, *low_high))


def test_llama31_setting_keeps_fast_and_divides_slow_pairs():
    theta, attention = posenc.scaled_frequencies(
        128, 5e5, "llama3", 8.0, original_context=8192
    )
    plain = posenc.frequencies(128, 5e5)
    wavelength = 2 * np.pi / plain
    kept, divided = wavelength < 8192 / 4, wavelength > 8192
    np.testing.assert_array_equal(theta[kept], plain[kept])
    np.testing.assert_allclose(theta[divided], plain[divided] / 8, rtol=1e-15)
    middle = ~kept & ~divided
    assert middle.sum() > 0 and attention == 1.0
    assert np.all((theta[middle] < plain[middle]) & (theta[middle] > plain[middle] / 8))


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"method": "ntk-by-parts"}, "method must be one of"),
        (
            {"method": "linear", "factor": 0.5},
            "factor must be a finite real number >= 1",
        ),
        ({"method": "linear", "factor": float("nan")}, "factor must be"),
        ({"method": "yarn", "factor": 2.0}, "original_context must be given"),
        ({"method": "llama3", "factor": 8.0}, "original_context must be given"),
        (
            {"method": "dynamic", "factor": 2.0, "original_context": 4096},
            "context must be given",
        ),
        (
            {"method": "dynamic", "factor": 2.0, "context": 9000},
            "original_context must",
        ),
        (
            {"method": "dynamic", "original_context": 4096, "context": 0},
            "context must be an integer >= 1",
        ),
        (
            {"method": "yarn", "original_context": -5},
            "original_context must be an integer",
        ),
        (
            {"method": "yarn", "original_context": 4096, "beta_fast": 1.0},
            "beta_fast must be",
        ),
        (
            {"method": "yarn", "original_context": 4096, "beta_slow": 0.0},
            "beta_slow must be",
        ),
        (
            {"method": "llama3", "original_context": 8192, "high_freq_factor": 1.0},
            r"high_freq_factor must be a finite real number > low_freq_factor \(1\)",
        ),
        (
            {
                "method": "llama3",
                "original_context": 8192,
                "low_freq_factor": 4.0,
                "high_freq_factor": 1.0,
            },
            r"high_freq_factor must be a finite real number > low_freq_factor "
            r"\(4\), got 1.0",
        ),
        (
            {"method": "yarn", "original_context": 4096, "beta_fast": 0.5},
            r"beta_fast must be a finite real number > beta_slow \(1\), got 0.5",
        ),
        # parameters the method does not use are checked all the same
        (
            {"method": "linear", "factor": 2.0, "original_context": "junk"},
            "original_context must be an integer >= 1",
        ),
        ({"method": "linear", "context": -1}, "context must be an integer >= 1"),
        (
            {"method": "ntk", "factor": 2.0, "beta_fast": -3.0},
            "beta_fast must be a finite real number > beta_slow",
        ),
        ({"method": "none", "low_freq_factor": 0.0}, "low_freq_factor must be"),
        ({"method": "none", "factor": 0.5}, "factor must be a finite real number >= 1"),
        # float64 limits: ValueError, not OverflowError, naming the parameter
        (
            {"d": 128, "method": "ntk", "factor": 1e300},
            "factor must keep the scaled base finite",
        ),
        (
            {"d": 4, "method": "ntk", "factor": 1e200},  # ** overflows
            "factor must keep the scaled base finite",
        ),
        (
            {
                "method": "dynamic",
                "factor": 1e300,
                "original_context": 1,
                "context": 2**53,
            },
            "factor and context must keep the scaled base finite",
        ),
        (
            {"method": "dynamic", "original_context": 4096, "context": 10**400},
            r"context must be an integer from 1 to 2\*\*53, got 1000",
        ),
        (
            {"method": "dynamic", "original_context": 10**400, "context": 9000},
            r"original_context must be an integer from 1 to 2\*\*53",
        ),
        (
            {"method": "yarn", "original_context": 10**400},
            r"original_context must be an integer from 1 to 2\*\*53",
        ),
        (
            {"method": "llama3", "original_context": 2**53 + 1},
            r"original_context must be an integer from 1 to 2\*\*53",
        ),
        (
            {"method": "yarn", "original_context": 4096, "beta_slow": 1e-320},
            r"beta_slow must make original_context / \(2 pi beta_slow\) a "
            "positive finite",
        ),
        (
            {"method": "yarn", "original_context": 4096, "beta_fast": 1e308},
            r"beta_fast must make original_context / \(2 pi beta_fast\)",
        ),
        (
            {"method": "llama3", "original_context": 8192, "low_freq_factor": -1.0},
            "low_freq_factor must be",
        ),
        ({"d": 7}, "d must be a positive even integer"),
        ({"d": 0}, "d must be a positive even integer"),
        ({"d": -4}, "d must be a positive even integer"),
        (
            {"d": 2, "method": "ntk", "factor": 2.0},
            "d must be an even integer of at least 4",
        ),
        ({"base": 1.0}, "base must be a finite real number greater than 1"),
        ({"base": 0.5, "method": "linear"}, "base must be"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, message):
    kwargs = {"d": 64, **kwargs}
    with pytest.raises(ValueError, match=message):
        posenc.scaled_frequencies(**kwargs)


def test_parameters_a_method_does_not_use_are_ignored():
    plain = posenc.frequencies(64, 1e4)
    theta, attention = posenc.scaled_frequencies(
        64, 1e4, "none", 5.0, original_context=4096, context=9000, beta_fast=64.0
    )
    np.testing.assert_array_equal(theta, plain)
    assert attention == 1.0
    linear, _ = posenc.scaled_frequencies(
        64, 1e4, "linear", 4.0, original_context=4096, low_freq_factor=2.0
    )
    np.testing.assert_array_equal(linear, plain / 4.0)
    ntk, _ = posenc.scaled_frequencies(64, 1e4, "ntk", 4.0, context=2**53)
    np.testing.assert_array_equal(
        ntk, posenc.scaled_frequencies(64, 1e4, "ntk", 4.0)[0]
    )


def test_betas_are_range_checked_only_for_yarn():
    # every method checks beta_slow > 0; only "yarn", which uses the
    # betas, also rejects one that makes L0 / (2 pi beta) infinite
    for method in ("ntk", "llama3"):
        theta, _ = posenc.scaled_frequencies(
            64, 1e4, method, 2.0, original_context=4096, beta_slow=1e-320
        )
        assert np.all(np.isfinite(theta))


def test_llama3_extreme_frequency_factors_keep_every_pair_quietly():
    # L0 / factor is infinite for both factors: every pair is "fast" and
    # kept, and the unused blend must not overflow (warnings are errors)
    theta, _ = posenc.scaled_frequencies(
        64,
        1e4,
        "llama3",
        2.0,
        original_context=4096,
        low_freq_factor=1e-320,
        high_freq_factor=2e-320,
    )
    np.testing.assert_array_equal(theta, posenc.frequencies(64, 1e4))


def test_largest_context_is_accepted():
    theta, _ = posenc.scaled_frequencies(
        128, 5e5, "llama3", 8.0, original_context=2**53
    )
    assert np.all(np.isfinite(theta)) and np.all(theta > 0)


@pytest.mark.parametrize(
    "context, d, message",
    [
        (0, 128, "context must be an integer >= 1"),
        (-10, 128, "context must be an integer >= 1"),
        (2.5, 128, "context must be an integer"),
        (100, 7, "d must be a positive even integer"),
        (100, 0, "d must be a positive even integer"),
    ],
)
def test_min_base_bad_input(context, d, message):
    with pytest.raises(ValueError, match=message):
        posenc.min_base(context, d)


def test_sums_split_into_products_of_2025_offsets(monkeypatch):
    # the chapter "How far the encoding reaches": at d = 128 the sums come
    # from matrix products of at most 2,025 offsets, 9 for L = 16,384
    offsets = []
    real = np.matmul

    def counting(left, right):
        offsets.append(left.shape[1] * right.shape[2])
        return real(left, right)

    monkeypatch.setattr(scaling.np, "matmul", counting)
    scaling.cosine_sums(posenc.frequencies(128, 5e5), 16384)
    assert len(offsets) == 9 and max(offsets) == 2025 and sum(offsets) >= 16385


def test_min_base_says_no_base_passes_for_d_2():
    # one pair, theta_0 = base^0 = 1 for every base: g(2) = cos 2 < 0
    assert np.cos(posenc.frequencies(2, 1e300) * 2).item() < 0
    for context in (2, 3, 4096):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and no warnings before it
            with pytest.raises(ValueError, match="no base passes for d = 2"):
                posenc.min_base(context, 2)
    assert posenc.min_base(1, 2) == 1.0  # cos 1 > 0: every base passes


def test_sum_helpers_reject_bad_input():
    with pytest.raises(ValueError, match="count must be an integer >= 0"):
        scaling.cosine_sums([1.0, 0.1], -1)
    with pytest.raises(ValueError, match="theta must be a non-empty 1-D array"):
        scaling.cosine_sums([], 10)
    with pytest.raises(ValueError, match="theta must be a non-empty 1-D array"):
        scaling.first_negative(np.ones((2, 2)), 10)
    with pytest.raises(ValueError, match="limit must be an integer >= 0"):
        scaling.first_negative([1.0], -3)
    with pytest.raises(ValueError, match="theta must not be all equal"):
        scaling.phase_step_threshold([0.5, 0.5])


# ---------------------------------------------------- sums over offsets


@pytest.mark.parametrize("d, base", [(2, 1e4), (16, 100.0), (128, 5e5), (512, 1e4)])
@pytest.mark.parametrize("count", [0, 1, 7, 4096, 70_001])
def test_cosine_sums_match_the_direct_sum(d, base, count):
    theta = posenc.frequencies(d, base)
    offsets = np.arange(count + 1, dtype=float)
    direct = posenc.inner_product(offsets, d, base)
    sums = scaling.cosine_sums(theta, count)
    assert sums.shape == (count + 1,)
    # Both round the angle m theta_i (by up to m theta_i 2^-53 each) and then
    # a few times more per term: four angle roundings plus 1e-14 per pair.
    tolerance = 4 * count * theta.sum() * 2.0**-53 + 1e-14 * d / 2
    np.testing.assert_allclose(sums, direct, rtol=0, atol=tolerance)


def test_first_negative_is_the_first_offset_below_zero():
    theta, _ = posenc.scaled_frequencies(128, 1e4, "linear", 4.0)
    direct = np.cos(np.multiply.outer(np.arange(40_001.0), theta)).sum(axis=1)
    first = scaling.first_negative(theta, 40_000)
    assert direct[first] < 0 and np.all(direct[:first] >= 0)
    assert scaling.first_negative(theta, first - 1) is None


@pytest.mark.parametrize("d, base", [(16, 100.0), (128, 1e4), (512, 1e6)])
def test_phase_step_threshold_is_twice_the_aliasing_offset(d, base):
    threshold = scaling.phase_step_threshold(posenc.frequencies(d, base))
    expected = 2 * posenc.aliasing_offset(d, base)
    assert threshold == pytest.approx(expected, rel=1e-12, abs=0)


# ------------------------------------------------------ the smallest base


def passes(bases, context, d):
    """Men et al.'s criterion for each base, summed directly (in chunks)."""
    bases = np.atleast_1d(np.asarray(bases, dtype=float))
    offsets = np.arange(context + 1, dtype=float)
    verdicts = []
    for chunk in np.array_split(bases, max(1, len(bases) * len(offsets) // 200_000)):
        theta = chunk[:, None] ** -(np.arange(d // 2) * 2.0 / d)
        angles = offsets[None, :, None] * theta[:, None, :]
        verdicts.append(np.cos(angles).sum(axis=2).min(axis=1) >= 0)
    return np.concatenate(verdicts)


@pytest.mark.parametrize("d", [4, 16, 64, 128])
@pytest.mark.parametrize("context", [2, 3, 9, 64])
def test_min_base_passes_and_every_base_below_fails(d, context):
    base = posenc.min_base(context, d)
    low, high = scaling._min_base_bracket(context, d)
    assert base == math.exp(high) and passes(base, context, d).all()
    # every base below exp(low) is proved to fail; just below, one does
    assert not passes(math.exp(low - 1e-8), context, d)
    # the answer lies at most a factor exp(MIN_BASE_RTOL) above exp(low)
    assert 0 < math.log(base) - low <= scaling.MIN_BASE_RTOL
    # brute force: a geometric grid of ratio 1 + 1e-4 from 1 up to it
    below = np.exp(np.arange(0, low, 1e-4))
    assert not passes(below, context, d).any()


@pytest.mark.parametrize("context, d", [(64, 128), (300, 128), (150, 64)])
def test_no_island_of_good_bases_within_a_fine_grid_below(context, d):
    # 5,000 points, a relative 1e-6 apart, over the 0.5% below the answer
    base = posenc.min_base(context, d)
    finer = base * np.exp(-np.arange(1, 5_001) * 1e-6)
    assert not passes(finer, context, d).any()


def lipschitz_bound_holds(offsets, u, weights, later):
    """|dg/du| at each later u' (analytic) is at most K(m, u)."""
    bound = scaling._lipschitz(offsets, np.exp(-weights * u), weights)
    for v in later:
        x = offsets[:, None] * np.exp(-weights * v)
        slope = (weights * x * np.sin(x)).sum(axis=1)
        if np.any(np.abs(slope) > bound * (1 + 1e-12)):
            return False
    return True


@pytest.mark.parametrize("d", [4, 64, 128])
def test_the_step_bound_holds_at_every_larger_base(d):
    weights = np.arange(d // 2) * (2.0 / d)
    offsets = np.arange(0.0, 20_001.0, 7.0)
    rng = np.random.default_rng(5)
    for u in rng.uniform(0.0, 14.0, 20):
        later = u + np.concatenate([[0.0], rng.exponential(0.5, 30)])
        assert lipschitz_bound_holds(offsets, u, weights, later)
    # and it is a bound on the slope of the computed sums (finite differences)
    u, h = math.log(2e5), 1e-7
    sums = [scaling.cosine_sums(np.exp(-weights * v), 20_000) for v in (u, u + h)]
    slope = (sums[1] - sums[0]) / h
    bound = scaling._lipschitz(np.arange(20_001.0), np.exp(-weights * u), weights)
    assert np.all(np.abs(slope) <= bound + 1e-5)


def test_min_base_finds_the_island_the_grid_missed():
    # L = 16,384: the grid 1.001^k returned 234,173.9, yet base 231,658.6
    # passes while the grid points on either side of it fail
    context, d = 16384, 128
    k = math.log(231658.6) / math.log(1.001)
    neighbours = 1.001 ** np.array([math.floor(k), math.ceil(k)])
    assert passes(231658.6, context, d) and not passes(neighbours, context, d).any()
    base = posenc.min_base(context, d)
    assert base == pytest.approx(231643.6466, rel=0, abs=1e-3)
    assert passes(base, context, d) and not passes(base * (1 - 2e-9), context, d)


def smallest_base_d4(context):
    """The smallest base for d = 4, in 40-digit arithmetic (mpmath).

    g(m) = cos m + cos(m / sqrt(base)); while m / sqrt(base) <= pi, which
    holds for every m <= context once base >= (context / pi)^2, each g(m)
    grows with the base, so it is >= 0 exactly from base (m / arccos(-cos
    m))^2 on where cos m < 0. Above (context / pi)^2 the good bases are
    then the interval from the largest of these; the scan proves that no
    base below passes."""
    with mpmath.workdps(40):
        bounds = [
            (m / mpmath.acos(-mpmath.cos(m))) ** 2
            for m in range(1, context + 1)
            if mpmath.cos(m) < 0
        ]
        smallest = max(bounds)
        assert smallest > (context / mpmath.pi) ** 2
        return smallest


@pytest.mark.parametrize("context", [64, 600])
def test_min_base_is_within_its_accuracy_where_the_sums_are_tiny(context):
    # d = 4, L = 600: the smallest base is 1.3869e14, set by offset 355
    # (355 - 113 pi = 3e-5): the sums there are a few 1e-12 just above it,
    # below the float64 allowance; min_base once returned 1.7409e14
    smallest = smallest_base_d4(context)
    base = posenc.min_base(context, 4)
    low, high = scaling._min_base_bracket(context, 4)
    assert smallest <= base <= smallest * math.exp(scaling.MIN_BASE_RTOL)
    assert 0 < math.log(base) - low <= scaling.MIN_BASE_RTOL
    with mpmath.workdps(40):  # the returned float base passes exactly
        theta = [mpmath.mpf(base) ** (-mpmath.mpf(2 * i) / 4) for i in range(2)]
        sums = [sum(mpmath.cos(m * t) for t in theta) for m in range(context + 1)]
        assert min(sums) > 0


def test_precise_sums_match_mpmath():
    assert abs(mpmath.mpf(str(scaling._PI)) - mpmath.pi) < mpmath.mpf(10) ** -68
    cases = [(355, 4, 1.3869e14), (4079, 128, 27000.0), (2**40 + 7, 16, 1e4)]
    with mpmath.workdps(80):
        for offset, d, base in cases:
            log_base = Decimal(base).ln(scaling._PRECISE)
            value = scaling._precise_sum(offset, d, log_base)
            theta = [
                mpmath.mpf(base) ** (-mpmath.mpf(2 * i) / d) for i in range(d // 2)
            ]
            exact = mpmath.fsum(mpmath.cos(offset * t) for t in theta)
            gap = abs(mpmath.mpf(str(value)) - exact)
            assert gap < scaling._PRECISE_ERROR, (offset, d, gap)


def test_min_base_lies_at_or_below_bases_known_to_pass():
    # the lowest good bases of an independent search (issue 18, item 4)
    known = {1024: 4293.5, 2048: 11587.3, 4096: 26952.7, 8192: 83764.3}
    for context, good in known.items():
        assert passes(good, context, 128)
        base = posenc.min_base(context, 128)
        assert good * (1 - 1e-4) < base <= good


def test_the_good_bases_are_not_an_interval():
    # above the smallest good base some bases fail again: no bisection
    context, d = 1024, 128
    base = posenc.min_base(context, d)
    above = base * 1.001 ** np.arange(1, 200)
    verdicts = passes(above, context, d)
    assert not verdicts.all() and verdicts.any()


def test_min_base_grows_with_context_and_every_base_passes_at_one():
    assert posenc.min_base(1, 64) == 1.0
    assert passes([1.0, 1.5, 1e4], 1, 64).all()
    values = [posenc.min_base(n, 128) for n in (2, 10, 100, 1000, 4096)]
    assert values == sorted(values)
    assert posenc.min_base(1024, 128) == pytest.approx(4293.4376, rel=0, abs=1e-4)
