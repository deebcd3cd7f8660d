"""Titles with maths as plain text (``_ext/plain_titles.py``): the browser
tab, the print heading and the text of a ``{ref}`` to a chapter."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "_ext"))

from plain_titles import plain  # noqa: E402


@pytest.mark.parametrize(
    ("title", "text"),
    [
        (
            r"Complex numbers solve $\langle p_m, p_n\rangle = g(m-n)$",
            "Complex numbers solve ⟨pₘ, pₙ⟩ = g(m-n)",
        ),
        # a link's underline hid "_": "Σ_i" read as "Σ i"
        (r"the sum $\sum_i \cos(\Delta\theta_i)$", "the sum Σᵢ cos(Δθᵢ)"),
        (r"Why attention divides by $\sqrt{d_k}$", "Why attention divides by √dₖ"),
        (r"$1/\sqrt d$ is the long-run rms", "1/√d is the long-run rms"),
        (r"$\theta_{10}$, $q_{2i+1}$", "θ₁₀, q₂ᵢ₊₁"),
        # no subscript form for ℓ or b: the underscore stays
        (r"$p_{t+\ell} = T(\ell)p_t$", "p_(t+ℓ) = T(ℓ)pₜ"),
        (r"$x_{ab}$", "x_(ab)"),
        (r"Why $\mathrm{base}^{-2i/d}$", "Why base^(-2i/d)"),
    ],
)
def test_plain(title, text):
    assert plain(title) == text
