"""A small, seeded attention model and numerical derivatives, for measuring
the derivation's assumptions on a model instead of assuming them.

Used in the chapter "The assumptions, revisited". The model is a smooth
variant of the pooled two-layer attention of the chapter "Attention cannot
see order": the same structure (attention, residual, layer norm,
feed-forward, mean pooling, projection), but with tanh in place of ReLU in
the feed-forward network, so that second derivatives exist everywhere, and
with its own random weights, not trained.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from .validate import check_dimension, check_square_matrix

__all__ = [
    "pooled_attention_model",
    "gradient",
    "hessian",
    "cross_block",
    "mixed_block",
    "cross_leakage",
]


def pooled_attention_model(d: int, seed: int = 0) -> Callable[[NDArray], float]:
    """A scalar model f(X) for inputs X of shape (tokens, d): two attention layers
    (each with a tanh feed-forward network), mean pooling and a projection,
    with seeded random weights."""
    d = check_dimension(d)
    rng = np.random.default_rng(seed)
    w_q, w_k, w_v, w_1, w_2 = rng.normal(size=(5, d, d)) / np.sqrt(d)
    readout = rng.normal(size=d)

    def softmax(scores):
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return weights / weights.sum(axis=-1, keepdims=True)

    def layer_norm(x):
        centred = x - x.mean(axis=1, keepdims=True)
        return centred / np.sqrt((centred**2).mean(axis=1, keepdims=True) + 1e-6)

    def layer(x):
        q, k, v = x @ w_q, x @ w_k, x @ w_v
        x = layer_norm(x + softmax(q @ k.T / np.sqrt(d)) @ v)
        return layer_norm(x + np.tanh(x @ w_1) @ w_2)  # smooth, unlike ReLU

    def model(x: NDArray) -> float:
        return float(readout @ layer(layer(np.asarray(x, dtype=float))).mean(axis=0))

    return model


def gradient(f: Callable[[NDArray], float], x: NDArray, step: float = 1e-5) -> NDArray:
    """Central-difference gradient of a scalar function of an array, same shape."""
    x = np.asarray(x, dtype=float)
    flat = x.ravel()
    grad = np.empty_like(flat)
    for index in range(flat.size):
        bump = np.zeros_like(flat)
        bump[index] = step
        grad[index] = (
            f((flat + bump).reshape(x.shape)) - f((flat - bump).reshape(x.shape))
        ) / (2 * step)
    return grad.reshape(x.shape)


def hessian(f: Callable[[NDArray], float], x: NDArray, step: float = 1e-4) -> NDArray:
    """Central-difference Hessian of a scalar function, shape (x.size, x.size).

    Error O(step^2) in the derivatives plus O(eps / step^2) from rounding:
    about 1e-7 relative for step 1e-4 on functions of order 1.
    """
    x = np.asarray(x, dtype=float)
    flat = x.ravel()
    size = flat.size
    result = np.empty((size, size))
    evaluate = lambda v: f(v.reshape(x.shape))  # noqa: E731
    for i in range(size):
        for j in range(i, size):
            e_i = np.zeros(size)
            e_j = np.zeros(size)
            e_i[i] = step
            e_j[j] = step
            value = (
                evaluate(flat + e_i + e_j)
                - evaluate(flat + e_i - e_j)
                - evaluate(flat - e_i + e_j)
                + evaluate(flat - e_i - e_j)
            ) / (4 * step * step)
            result[i, j] = result[j, i] = value
    return result


def cross_block(full_hessian: NDArray, m: int, n: int, d: int) -> NDArray:
    """The d x d block H = d^2 f / dx_m dx_n of a Hessian over (tokens x d) inputs."""
    return full_hessian[m * d : (m + 1) * d, n * d : (n + 1) * d]


def mixed_block(
    f: Callable[[NDArray], float], x: NDArray, m: int, n: int, step: float = 1e-3
) -> NDArray:
    r"""The d x d block :math:`\partial^2 f / \partial x_m \partial x_n` at ``x``.

    ``x`` has shape (tokens, d). Entry (c, c') is the central difference

    .. math:: \frac{f(x + \kappa e_{mc} + \kappa e_{nc'})
              - f(x + \kappa e_{mc} - \kappa e_{nc'})
              - f(x - \kappa e_{mc} + \kappa e_{nc'})
              + f(x - \kappa e_{mc} - \kappa e_{nc'})}{4\kappa^2}

    with the step :math:`\kappa` = ``step`` and :math:`e_{mc}` the unit input
    that moves coordinate :math:`c` of token :math:`m`: :math:`4d^2`
    evaluations of ``f``, instead of the whole Hessian of :func:`hessian`.
    For ``m != n`` its error is O(step^2) plus rounding O(eps / step^2).
    Used in the chapter "The assumptions, revisited".
    """
    x = np.asarray(x, dtype=float)
    d = x.shape[1]
    block = np.empty((d, d))
    for a in range(d):
        for b in range(d):

            def moved(sign_a: float, sign_b: float, a: int = a, b: int = b) -> float:
                y = x.copy()
                y[m, a] += sign_a * step
                y[n, b] += sign_b * step
                return f(y)

            block[a, b] = (
                moved(1, 1) - moved(1, -1) - moved(-1, 1) + moved(-1, -1)
            ) / (4 * step * step)
    return block


def cross_leakage(c: NDArray) -> float:
    r"""The offset leakage of a square matrix over its entries with m != n.

    Like :func:`posenc.offset_leakage`, with the main diagonal left out of
    both sums: with :math:`\bar C(\Delta)` the mean of :math:`C` along the
    diagonal :math:`m - n = \Delta \ne 0` and :math:`\bar C` the mean of all
    entries off the main diagonal,

    .. math:: \frac{\sum_{m \ne n} (C_{mn} - \bar C(m - n))^2}
                    {\sum_{m \ne n} (C_{mn} - \bar C)^2}.

    The main diagonal holds the terms :math:`p_m^\top H_{mm} p_m` of one
    position, not cross terms. Used in the chapter "The assumptions,
    revisited".
    """
    c = check_square_matrix(c, "c")
    size = c.shape[0]
    if size < 2:
        raise ValueError("c must have at least two rows for entries with m != n")
    offsets = np.subtract.outer(np.arange(size), np.arange(size))
    cross = offsets != 0
    values, classes = c[cross], offsets[cross] + size - 1
    sums = np.bincount(classes, weights=values, minlength=2 * size - 1)
    counts = np.bincount(classes, minlength=2 * size - 1)
    along_offset = sums[classes] / counts[classes]
    total = np.sum((values - values.mean()) ** 2)
    if total == 0:
        return 0.0
    return float(np.sum((values - along_offset) ** 2) / total)
