"""The toy model and the numerical derivatives of posenc.toy."""

from __future__ import annotations

import numpy as np
import pytest

import posenc
from posenc import toy


def cubic(x):
    """f(x) = sum x_i^3 + x_0 x_1, with known gradient and Hessian."""
    flat = x.ravel()
    return float(np.sum(flat**3) + flat[0] * flat[1])


def test_gradient_and_hessian_match_the_analytic_ones():
    x = np.array([[0.5, -1.0], [2.0, 0.3]])
    flat = x.ravel()
    expected_grad = 3 * flat**2 + np.array([flat[1], flat[0], 0, 0])
    np.testing.assert_allclose(toy.gradient(cubic, x).ravel(), expected_grad, atol=1e-8)
    expected_hessian = np.diag(6 * flat)
    expected_hessian[0, 1] = expected_hessian[1, 0] = 1.0
    np.testing.assert_allclose(toy.hessian(cubic, x), expected_hessian, atol=1e-6)


def test_cross_block_picks_the_block_of_two_tokens():
    full = np.arange(36.0).reshape(6, 6)
    np.testing.assert_array_equal(toy.cross_block(full, 1, 2, 2), full[2:4, 4:6])


def test_model_is_blind_to_order_and_seeded():
    f = toy.pooled_attention_model(8, seed=3)
    x = np.random.default_rng(0).normal(size=(5, 8))
    assert f(x[::-1]) == pytest.approx(f(x), abs=1e-12)
    assert toy.pooled_attention_model(8, seed=3)(x) == f(x)
    assert toy.pooled_attention_model(8, seed=4)(x) != f(x)


def test_model_rejects_an_odd_dimension():
    with pytest.raises(ValueError, match="^d must be a positive even integer"):
        toy.pooled_attention_model(7)


def test_mixed_block_is_the_block_of_the_hessian():
    x = np.random.default_rng(1).normal(size=(3, 2))
    full = toy.hessian(cubic, x)
    for m, n in [(0, 1), (2, 0), (1, 1)]:
        np.testing.assert_allclose(
            toy.mixed_block(cubic, x, m, n), toy.cross_block(full, m, n, 2), atol=1e-5
        )


def test_mixed_blocks_of_identical_tokens_are_equal_and_symmetric():
    f = toy.pooled_attention_model(4, seed=1)
    same = np.tile(np.random.default_rng(2).normal(size=4), (5, 1))
    block = toy.mixed_block(f, same, 0, 1)
    scale = np.abs(block).max()
    assert np.abs(toy.mixed_block(f, same, 4, 2) - block).max() < 1e-4 * scale
    assert np.abs(block - block.T).max() < 1e-4 * scale
    assert np.abs(toy.mixed_block(f, same, 3, 3) - block).max() > 1e-2 * scale


def test_cross_leakage_ignores_the_main_diagonal():
    size = 7
    offsets = np.subtract.outer(np.arange(size), np.arange(size))
    toeplitz = np.cos(0.7 * offsets) + 0.1 * offsets
    spoiled = toeplitz + np.diag(np.arange(size) ** 2.0)
    assert toy.cross_leakage(spoiled) < 1e-25
    assert posenc.offset_leakage(spoiled) > 0.1
    absolute = np.add.outer(np.arange(size), np.arange(size)) ** 2.0
    assert toy.cross_leakage(absolute) > 0.5


def test_cross_leakage_is_the_share_left_by_the_offset_means():
    c = np.random.default_rng(3).normal(size=(5, 5))
    cross = ~np.eye(5, dtype=bool)
    offsets = np.subtract.outer(np.arange(5), np.arange(5))
    residual = [
        c[cross & (offsets == delta)] - c[cross & (offsets == delta)].mean()
        for delta in range(-4, 5)
        if delta != 0
    ]
    expected = np.sum(np.concatenate(residual) ** 2) / np.sum(
        (c[cross] - c[cross].mean()) ** 2
    )
    assert toy.cross_leakage(c) == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match="at least two rows"):
        toy.cross_leakage([[1.0]])
