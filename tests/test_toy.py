"""The toy model and the numerical derivatives of posenc.toy."""

from __future__ import annotations

import numpy as np
import pytest

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
