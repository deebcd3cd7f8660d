"""Unit and property tests of posenc.core.

Tolerances are stated where they are used. Rounding in an angle t*theta is
about |t| * 2**-53, so identities that compare encodings at positions up to
1e4 are held to 1e-9 absolute (a thousand times that error, summed over up
to 256 pairs); identities between small numbers are held near 1e-14.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

import posenc
from posenc import core, validate

# ------------------------------------------------------------------ strategies

dims = st.integers(1, 128).map(lambda half: 2 * half)
bases = st.floats(1.5, 1e6)
positions = st.floats(-1e4, 1e4, allow_nan=False)
SETTINGS = settings(max_examples=60, deadline=None)

# ----------------------------------------------------------------- frequencies


def test_frequencies_follow_the_schedule():
    theta = posenc.frequencies(8, 10000.0)
    expected = [10000.0 ** (-2 * i / 8) for i in range(4)]
    np.testing.assert_allclose(theta, expected, rtol=1e-15)
    assert theta.dtype == np.float64


@given(d=dims, base=bases)
@SETTINGS
def test_frequencies_fall_geometrically_from_one(d, base):
    theta = posenc.frequencies(d, base)
    assert theta.shape == (d // 2,)
    assert theta[0] == 1.0
    np.testing.assert_allclose(theta[1:] / theta[:-1], base ** (-2 / d), rtol=1e-12)
    np.testing.assert_allclose(theta[-1], base ** -(1 - 2 / d), rtol=1e-12)


# -------------------------------------------------------------------- encoding


def test_encoding_matches_the_papers_formula_entry_by_entry():
    d, base = 6, 100.0
    table = posenc.encoding([0, 1, 2.5, 17], d, base)
    for row, t in enumerate([0, 1, 2.5, 17]):
        for i in range(d // 2):
            assert table[row, 2 * i] == pytest.approx(
                math.sin(t / base ** (2 * i / d)), abs=1e-15
            )
            assert table[row, 2 * i + 1] == pytest.approx(
                math.cos(t / base ** (2 * i / d)), abs=1e-15
            )


def test_encoding_shapes():
    assert posenc.encoding(3, 8).shape == (8,)
    assert posenc.encoding([1, 2, 3], 8).shape == (3, 8)
    assert posenc.encoding(np.zeros((2, 5)), 4).shape == (2, 5, 4)
    assert posenc.encoding([], 4).shape == (0, 4)
    assert posenc.encoding(3, 8).dtype == np.float64


def test_encoding_at_zero_is_zero_sines_and_unit_cosines():
    np.testing.assert_array_equal(posenc.encoding(0, 6), [0, 1, 0, 1, 0, 1])
    np.testing.assert_array_equal(
        posenc.encoding(0, 6, layout="halves"), [0, 0, 0, 1, 1, 1]
    )


@given(d=dims, base=bases, t=positions)
@SETTINGS
def test_halves_layout_is_a_permutation_of_interleaved(d, base, t):
    interleaved = posenc.encoding(t, d, base)
    halves = posenc.encoding(t, d, base, layout="halves")
    np.testing.assert_array_equal(
        halves, np.concatenate([interleaved[0::2], interleaved[1::2]])
    )


@given(d=dims, base=bases, t=positions)
@SETTINGS
def test_every_encoding_has_norm_sqrt_half_d(d, base, t):
    assert np.linalg.norm(posenc.encoding(t, d, base)) == pytest.approx(
        math.sqrt(d / 2), rel=1e-14
    )


@given(d=dims, base=bases, m=positions, n=positions)
@SETTINGS
def test_inner_product_of_encodings_depends_only_on_the_offset(d, base, m, n):
    lhs = posenc.encoding(m, d, base) @ posenc.encoding(n, d, base)
    assert lhs == pytest.approx(float(posenc.inner_product(m - n, d, base)), abs=1e-9)


# --------------------------------------------------------------- inner product


def test_inner_product_at_zero_is_half_d_and_keeps_shape():
    assert posenc.inner_product(0, 10) == 5.0
    assert posenc.inner_product(np.zeros((3, 2)), 10).shape == (3, 2)


@given(d=dims, base=bases, delta=positions)
@SETTINGS
def test_inner_product_is_even(d, base, delta):
    assert posenc.inner_product(delta, d, base) == posenc.inner_product(-delta, d, base)


def test_inner_product_is_a_sum_of_cosines():
    delta = 7.0
    expected = sum(math.cos(delta * 10.0 ** (-2 * i / 4)) for i in range(2))
    assert posenc.inner_product(delta, 4, 10.0) == pytest.approx(expected, abs=1e-15)


# ---------------------------------------------------------------- shift matrix


@given(d=dims, base=bases, t=positions, k=st.floats(-1e3, 1e3))
@SETTINGS
def test_shift_matrix_moves_every_encoding_by_k(d, base, t, k):
    shifted = posenc.shift_matrix(k, d, base) @ posenc.encoding(t, d, base)
    np.testing.assert_allclose(
        shifted, posenc.encoding(t + k, d, base), rtol=0, atol=1e-9
    )


def test_shift_matrix_blocks_are_transposed_rotations():
    k, theta = 0.7, 1.0  # pair 0 has theta = 1
    block = posenc.shift_matrix(k, 4)[:2, :2]
    expected = np.array([[math.cos(k * theta), math.sin(k * theta)],
                         [-math.sin(k * theta), math.cos(k * theta)]])  # fmt: skip
    np.testing.assert_allclose(block, expected, atol=1e-15)
    assert np.all(posenc.shift_matrix(k, 4)[:2, 2:] == 0)


@given(d=dims, base=bases, a=st.floats(-1e3, 1e3), b=st.floats(-1e3, 1e3))
@SETTINGS
def test_shift_matrices_are_orthogonal_and_compose(d, base, a, b):
    ta, tb = posenc.shift_matrix(a, d, base), posenc.shift_matrix(b, d, base)
    np.testing.assert_allclose(ta @ ta.T, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(ta @ tb, posenc.shift_matrix(a + b, d, base), atol=1e-9)
    np.testing.assert_array_equal(posenc.shift_matrix(0, d, base), np.eye(d))


# ----------------------------------------------------------------------- RoPE


@given(d=dims, base=bases, t=positions, seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_rotate_is_multiplication_by_a_unit_complex_number(d, base, t, seed):
    x = np.random.default_rng(seed).normal(size=d)
    as_complex = (x[0::2] + 1j * x[1::2]) * np.exp(1j * t * posenc.frequencies(d, base))
    rotated = posenc.rotate(x, t, base)
    np.testing.assert_allclose(rotated[0::2], as_complex.real, atol=1e-9)
    np.testing.assert_allclose(rotated[1::2], as_complex.imag, atol=1e-9)
    assert np.linalg.norm(rotated) == pytest.approx(np.linalg.norm(x), rel=1e-12)


@given(d=dims, base=bases, m=positions, n=positions, seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_rotated_scores_depend_only_on_the_offset(d, base, m, n, seed):
    q, k = np.random.default_rng(seed).normal(size=(2, d))
    score = posenc.rotate(q, m, base) @ posenc.rotate(k, n, base)
    assert score == pytest.approx(q @ posenc.rotate(k, n - m, base), abs=1e-8 * d)


def test_rotate_broadcasts_positions_over_leading_axes():
    x = np.random.default_rng(0).normal(size=(2, 5, 8))
    rotated = posenc.rotate(x, np.arange(5), 100.0)
    assert rotated.shape == (2, 5, 8)
    np.testing.assert_allclose(
        rotated[1, 3], posenc.rotate(x[1, 3], 3, 100.0), atol=1e-15
    )
    np.testing.assert_array_equal(posenc.rotate(x, 0), x)


def half_split(x, positions, base=10000.0):
    return posenc.rotate(x, positions, base, pairing="half-split")


def half_split_reference(x, t, base):
    """Rotate pairs (i, i + d/2) with explicit 2x2 matrices, one by one."""
    d = x.size
    out = x.astype(float).copy()
    for i in range(d // 2):
        angle = t * base ** (-2 * i / d)
        rotation = np.array(
            [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
        )
        out[[i, i + d // 2]] = rotation @ x[[i, i + d // 2]]
    return out


@pytest.mark.parametrize("d", [2, 4, 10])
def test_half_split_rotation_matches_explicit_rotations(d):
    rng = np.random.default_rng(d)
    x = rng.standard_normal(d)
    for t in [0.0, 1.0, 7.5, -20.0]:
        np.testing.assert_allclose(
            half_split(x, t, 100.0),
            half_split_reference(x, t, 100.0),
            rtol=0,
            atol=1e-12,
        )


@given(d=dims, base=bases, t=st.floats(-1e3, 1e3))
@SETTINGS
def test_half_split_is_interleaved_after_the_permutation(d, base, t):
    x = np.random.default_rng(d).standard_normal((3, d))
    perm = posenc.interleaved_to_halves(d)
    np.testing.assert_allclose(
        half_split(x[:, perm], t, base),
        posenc.rotate(x, t, base)[:, perm],
        atol=1e-9,
    )
    np.testing.assert_allclose(
        np.linalg.norm(half_split(x, t, base), axis=-1),
        np.linalg.norm(x, axis=-1),
        rtol=1e-12,
    )


def test_half_split_broadcasts_positions_like_rotate():
    x = np.ones((5, 8))
    t = np.arange(5.0)
    np.testing.assert_array_equal(half_split(x, t)[3], half_split(x[3], 3.0))
    assert half_split(np.ones(8), np.arange(4.0)[:, None]).shape == (4, 1, 8)


def test_unknown_pairing_is_refused():
    with pytest.raises(ValueError, match="^pairing must be one of"):
        posenc.rotate(np.ones(4), 1.0, pairing="interleave")


# ------------------------------------------------------------------ layouts


@pytest.mark.parametrize("d", [4, 16, 64])
def test_interleaved_to_halves_is_the_documented_permutation(d):
    perm = posenc.interleaved_to_halves(d)
    assert sorted(perm) == list(range(d))
    np.testing.assert_array_equal(perm[: d // 2], np.arange(0, d, 2))
    np.testing.assert_array_equal(perm[d // 2 :], np.arange(1, d, 2))
    t = np.arange(50)
    np.testing.assert_array_equal(
        posenc.encoding(t, d)[:, perm], posenc.encoding(t, d, layout="halves")
    )


def test_pair_columns_name_the_sine_and_cosine_of_each_pair():
    t = np.arange(10)
    for layout in posenc.LAYOUTS:
        table = posenc.encoding(t, 8, layout=layout)
        sines, cosines = posenc.pair_columns(8, layout)
        angles = np.outer(t, posenc.frequencies(8))
        np.testing.assert_allclose(table[:, sines], np.sin(angles), atol=1e-15)
        np.testing.assert_allclose(table[:, cosines], np.cos(angles), atol=1e-15)
    with pytest.raises(ValueError, match="^layout must be one of"):
        posenc.pair_columns(8, "sin-first")


def test_interleave_puts_pairs_side_by_side_and_keeps_the_dtype():
    first = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    second = -first
    pairs = posenc.interleave(first, second)
    assert pairs.shape == (1, 2, 6) and pairs.dtype == np.float32
    np.testing.assert_array_equal(pairs[..., 0::2], first)
    np.testing.assert_array_equal(pairs[..., 1::2], second)


# ---------------------------------------------------------------- bad input

BAD_INPUT = [
    # (call, the start of the message that must name the parameter and rule)
    (lambda: posenc.frequencies(7), "d must be a positive even integer"),
    (lambda: posenc.frequencies(0), "d must be a positive even integer"),
    (lambda: posenc.frequencies(-4), "d must be a positive even integer"),
    (lambda: posenc.frequencies(8.0), "d must be a positive even integer"),
    (lambda: posenc.frequencies(True), "d must be a positive even integer"),
    (lambda: posenc.frequencies("8"), "d must be a positive even integer"),
    (
        lambda: posenc.frequencies(8, 1.0),
        "base must be a finite real number greater than 1",
    ),
    (
        lambda: posenc.frequencies(8, 0.5),
        "base must be a finite real number greater than 1",
    ),
    (
        lambda: posenc.frequencies(8, -10),
        "base must be a finite real number greater than 1",
    ),
    (
        lambda: posenc.frequencies(8, math.nan),
        "base must be a finite real number greater than 1",
    ),
    (
        lambda: posenc.frequencies(8, math.inf),
        "base must be a finite real number greater than 1",
    ),
    (
        lambda: posenc.frequencies(8, "1e4"),
        "base must be a finite real number greater than 1",
    ),
    (lambda: posenc.encoding([0, math.nan], 8), "positions must be finite"),
    (lambda: posenc.encoding(math.inf, 8), "positions must be finite"),
    (lambda: posenc.encoding("three", 8), "positions must be real numbers"),
    (lambda: posenc.encoding(1, 9), "d must be a positive even integer"),
    (
        lambda: posenc.encoding(1, 8, 1.0),
        "base must be a finite real number greater than 1",
    ),
    (lambda: posenc.encoding(1, 8, layout="sin-first"), "layout must be one of"),
    (lambda: posenc.inner_product(math.nan, 8), "delta must be finite"),
    (lambda: posenc.inner_product(1, 3), "d must be a positive even integer"),
    (lambda: posenc.decay_integral(math.nan), "x must be finite"),
    (
        lambda: posenc.decay_integral(1.0, 1.0),
        "base must be a finite real number greater than 1",
    ),
    (lambda: posenc.shift_matrix(1, 5), "d must be a positive even integer"),
    (lambda: posenc.shift_matrix(math.inf, 4), "k must be finite"),
    (lambda: posenc.shift_matrix([1, 2], 4), "k must be a single real number"),
    (
        lambda: posenc.shift_matrix(1, 4, 0.0),
        "base must be a finite real number greater than 1",
    ),
    (lambda: posenc.rotate(np.ones(5), 1), "x must have an even, non-zero last axis"),
    (
        lambda: posenc.rotate(np.ones((2, 0)), 1),
        "x must have an even, non-zero last axis",
    ),
    (lambda: posenc.rotate(1.0, 1), "x must have an even, non-zero last axis"),
    (lambda: posenc.rotate(np.ones(4), math.nan), "positions must be finite"),
    (lambda: posenc.rotate([1.0, math.inf], 0), "x must be finite"),
    (
        lambda: posenc.rotate(np.ones((3, 4)), [1, 2]),
        "positions of shape (2,) must broadcast",
    ),
    (
        lambda: posenc.rotate(np.ones(4), 1, 1.0),
        "base must be a finite real number greater than 1",
    ),
    (lambda: half_split(np.ones(5), 1), "x must have an even, non-zero last axis"),
    (lambda: half_split(1.0, 1), "x must have an even, non-zero last axis"),
    (
        lambda: half_split(np.ones((3, 4)), [1, 2]),
        "positions of shape (2,) must broadcast",
    ),
    (lambda: half_split([np.nan, 1.0], 1), "x must be finite"),
    (
        lambda: half_split(np.ones(4), 1, -2.0),
        "base must be a finite real number greater than 1",
    ),
]


@pytest.mark.parametrize("call, message", BAD_INPUT, ids=[m for _, m in BAD_INPUT])
def test_bad_input_raises_a_value_error_naming_the_rule(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value).startswith(message), str(raised.value)


# ------------------------------------------------------------ other schedules

THETA_T = {
    "exponential": lambda t: 1e4**-t,
    "linear": lambda t: t,
    "square": lambda t: t * t,
    "sqrt": math.sqrt,
}


def reference_schedule_integral(x: float, schedule: str) -> float:
    """Adaptive quadrature of cos(x theta_t) on [0, 1], to about 1e-13."""
    theta = THETA_T[schedule]
    value, error = integrate.quad(
        lambda t: math.cos(x * theta(t)), 0, 1, limit=2000, epsabs=1e-13, epsrel=1e-12
    )
    assert error < 1e-11
    return value


@pytest.mark.parametrize("schedule", core.DECAY_SCHEDULES)
def test_schedule_integrals_are_exact(schedule):
    # Closed forms against quadrature, 1e-11 absolute, on both sides of the
    # series switch of the sqrt schedule (x = 0.01).
    for x in [0.0, 1e-5, 0.0099, 0.0101, 0.5, 1.0, 10.0, 128.0, 1000.0, -3.0]:
        value = core.schedule_integral(x, schedule, 1e4)
        assert value == pytest.approx(
            reference_schedule_integral(x, schedule), abs=1e-11
        )


@pytest.mark.parametrize("schedule", core.DECAY_SCHEDULES)
def test_schedule_frequencies_sample_theta_at_2i_over_d(schedule):
    d = 8
    t = [2 * i / d for i in range(d // 2)]
    expected = [THETA_T[schedule](v) for v in t]
    np.testing.assert_allclose(
        core.schedule_frequencies(d, schedule, 1e4), expected, rtol=1e-14
    )


def test_exponential_schedule_is_the_papers():
    np.testing.assert_array_equal(
        core.schedule_frequencies(64, "exponential", 500.0),
        posenc.frequencies(64, 500.0),
    )


def test_unknown_schedule_is_rejected():
    with pytest.raises(ValueError, match="^schedule must be one of"):
        core.schedule_integral(1.0, "cubic")
    with pytest.raises(ValueError, match="^schedule must be one of"):
        core.schedule_frequencies(8, "cubic")


# ------------------------------------------------------------------ general H


def test_cross_terms_with_identity_are_the_inner_products():
    positions = np.arange(20)
    gram = posenc.inner_product(np.subtract.outer(positions, positions), 16, 100.0)
    np.testing.assert_allclose(
        core.cross_terms(np.eye(16), positions, 100.0), gram, atol=1e-12
    )


def test_offset_leakage_is_zero_exactly_for_offset_functions():
    rng = np.random.default_rng(0)
    values = rng.normal(size=39)  # one value per offset -19 ... 19
    toeplitz = values[np.subtract.outer(np.arange(20), np.arange(20)) + 19]
    assert core.offset_leakage(toeplitz) < 1e-28
    assert core.offset_leakage(rng.normal(size=(20, 20))) > 0.5
    assert core.offset_leakage(np.ones((5, 5))) == 0.0


def test_rotation_blocks_keep_the_cross_term_relative():
    rng = np.random.default_rng(1)
    blocks = np.zeros((8, 8))
    for i in range(4):
        a, b = rng.normal(size=2)
        blocks[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[a, -b], [b, a]]
    positions = np.arange(30)
    assert core.offset_leakage(core.cross_terms(blocks, positions)) < 1e-25
    unequal = np.diag([1.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    assert core.offset_leakage(core.cross_terms(unequal, positions)) > 1e-4


def test_general_h_rejects_bad_shapes():
    with pytest.raises(ValueError, match="^h must be a square matrix"):
        core.cross_terms(np.ones((4, 2)), [0, 1])
    with pytest.raises(ValueError, match="^c must be a square matrix"):
        core.offset_leakage(np.ones((3, 2)))
    with pytest.raises(ValueError, match="^positions must be a 1-D array"):
        core.cross_terms(np.eye(4), 3.0)


def test_cross_terms_entry_by_entry_for_a_non_symmetric_h():
    h = np.random.default_rng(2).normal(size=(6, 6))
    positions = [0.0, 3.0, 7.5]
    c = core.cross_terms(h, positions, 50.0)
    for row, m in enumerate(positions):
        for col, n in enumerate(positions):
            expected = posenc.encoding(m, 6, 50.0) @ h @ posenc.encoding(n, 6, 50.0)
            assert c[row, col] == pytest.approx(expected, abs=1e-12)


# --------------------------------------------------------------------- shifts


def test_column_fit_r_squared_is_cos_squared_of_the_shift_angle():
    # R^2 -> cos^2(k theta_i) over many full periods. In 20000 positions the
    # first four pairs (d = 16, base 1e4; periods up to 2 pi / 10^-1.5 ~ 200)
    # complete at least 100 periods, and match to 1e-3.
    theta = np.repeat(posenc.frequencies(16), 2)[:8]
    for k in [1, 3, 5, 50]:
        alpha, beta, r_squared = core.column_fit(k, 16)
        np.testing.assert_allclose(r_squared[:8], np.cos(k * theta) ** 2, atol=1e-3)
        # the slope is more sensitive to the unfinished last period: 2e-3
        np.testing.assert_allclose(alpha[:8], np.cos(k * theta), atol=2e-3)


def test_column_fit_is_the_least_squares_line():
    positions = np.arange(500)
    alpha, beta, r_squared = core.column_fit(7, 8, 100.0, positions)
    now, later = (
        posenc.encoding(positions, 8, 100.0),
        posenc.encoding(positions + 7, 8, 100.0),
    )
    for j in range(8):
        design = np.c_[now[:, j], np.ones(500)]
        (slope, intercept), *_ = np.linalg.lstsq(design, later[:, j], rcond=None)
        assert alpha[j] == pytest.approx(slope, abs=1e-10)
        assert beta[j] == pytest.approx(intercept, abs=1e-10)
        residual = later[:, j] - design @ [slope, intercept]
        total = later[:, j] - later[:, j].mean()
        assert r_squared[j] == pytest.approx(1 - residual @ residual / (total @ total))


def test_column_fit_rejects_an_array_offset():
    with pytest.raises(ValueError, match="^k must be a single real number"):
        core.column_fit([1, 2], 8)


# ----------------------------------------------------------------------- RoPE


def test_rope_partial_sums_start_at_zero_and_accumulate():
    sums = core.rope_partial_sums(3.0, 8, 100.0)
    assert sums.shape == (5,) and sums[0] == 0
    terms = np.exp(3j * posenc.frequencies(8, 100.0))
    np.testing.assert_allclose(np.diff(sums), terms, atol=1e-15)


@given(seed=st.integers(0, 2**32 - 1), delta=st.floats(-2000, 2000))
@SETTINGS
def test_abel_summation_and_roformer_bound(seed, delta):
    d = 64
    rng = np.random.default_rng(seed)
    h = rng.normal(size=d // 2) + 1j * rng.normal(size=d // 2)
    score = np.sum(h * np.exp(1j * delta * posenc.frequencies(d)))
    sums = core.rope_partial_sums(delta, d)
    padded = np.append(h, 0)  # h_{d/2} = 0
    abel = -np.sum(sums[1:] * np.diff(padded))
    assert abs(score - abel) < 1e-9
    largest_step = np.abs(np.diff(padded)).max()
    bound = largest_step * core.rope_bound(delta, d) * (d // 2)
    assert abs(score) <= bound * (1 + 1e-12)


def test_rope_bound_at_zero_is_the_mean_of_one_to_half_d():
    assert core.rope_bound(0.0, 128) == pytest.approx((64 + 1) / 2)


def test_diagonal_means_are_the_offset_part_of_a_matrix():
    rng = np.random.default_rng(5)
    c = rng.normal(size=(6, 6))
    means = core.diagonal_means(c)
    for m in range(6):
        for n in range(6):
            assert means[m, n] == pytest.approx(np.diagonal(c, n - m).mean(), abs=1e-15)
    toeplitz = core.diagonal_means(c)
    np.testing.assert_allclose(core.diagonal_means(toeplitz), toeplitz, atol=1e-15)


# ------------------------------------------------------------ argument checks


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: validate.check_dimension(2, at_least=4), "d must be an even integer"),
        (lambda: validate.check_dimension(5, "head_dim"), "head_dim must be"),
        (lambda: validate.check_count(0, "trials"), "trials must be an integer >= 1"),
        (lambda: validate.check_count(2.0, "trials"), "trials must be an integer"),
        (lambda: validate.check_count(True, "n", 0), "n must be an integer >= 0"),
        (lambda: validate.check_count(-1, "n", 0), "n must be an integer >= 0"),
        (lambda: validate.check_choice("x", "kind", ("a",)), "kind must be one of"),
        (lambda: validate.check_scalar([1.0], "k"), "k must be a single real"),
        (lambda: validate.check_tolerance(0.0), "atol must be a positive"),
        (lambda: validate.check_tolerance(-1e-9, zero=True), "atol must be a non-neg"),
        (lambda: validate.check_tolerance(math.nan), "atol must be a positive"),
        (lambda: validate.check_tolerance("1e-9"), "atol must be a positive"),
        (lambda: validate.check_integers([1.5], "t", 10), "t must be integers"),
        (lambda: validate.check_integers([11], "t", 10), "t must be integers"),
        (lambda: validate.check_square_matrix(np.ones(3), "h"), "h must be a square"),
        (lambda: validate.check_table(np.ones(8)), "table must be 2-D"),
        (lambda: validate.check_table(np.ones((2, 4))), "table must have at least 3"),
        (lambda: validate.check_table(np.ones((5, 5))), "table must have an even"),
        (lambda: validate.check_table(np.ones((5, 2))), "table must have an even"),
        (lambda: validate.check_table(np.ones((5, 4)), 8), "table has 4 columns"),
    ],
)
def test_each_check_names_the_parameter_and_the_rule(call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value).startswith(message), str(raised.value)


def test_checks_pass_good_values_through_in_the_form_the_maths_uses():
    assert validate.check_dimension(np.int64(6), at_least=4) == 6
    assert validate.check_count(0, "n", 0) == 0
    assert validate.check_tolerance(0.0, zero=True) == 0.0
    assert validate.check_scalar(np.float32(2.5), "k") == 2.5
    assert validate.check_choice("a", "kind", ("a", "b")) == "a"
    np.testing.assert_array_equal(validate.check_integers([3, -4], "t", 10), [3, -4])
    assert validate.check_table(np.ones((3, 4)), 4).shape == (3, 4)
