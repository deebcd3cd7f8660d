"""The figure of the chapter "A Taylor expansion isolates relative position"
(posenc.plots_taylor) draws exactly the matrices it is handed."""

from __future__ import annotations

import numpy as np
from test_plots import assert_readable

import posenc
from posenc import plots_taylor

#: The width of a phone's page column, in CSS px: 358 px on a 390 px
#: phone (the article's padding; _ext/static/posenc-widths.css).
PHONE_COLUMN = 358


def gram_matrices(count: int = 12, theta: float = 0.5):
    """<p_m, p_n> for sines alone and for sine–cosine pairs, one frequency."""
    angles = theta * np.arange(count)
    sines = np.sin(angles)[:, None]
    pairs = np.stack([np.sin(angles), np.cos(angles)], axis=1)
    return sines @ sines.T, pairs @ pairs.T


def test_sines_pairs_gram_figure_draws_the_two_matrices_it_is_handed():
    sines, pairs = gram_matrices()
    figure = plots_taylor.sines_pairs_gram_figure(sines, pairs, "inner product")
    panels = [ax for ax in figure.axes if ax.get_images()]
    assert [ax.get_title() for ax in panels] == ["sines alone", "sine–cosine pairs"]
    for ax, gram in zip(panels, (sines, pairs), strict=True):
        (image,) = ax.get_images()
        np.testing.assert_array_equal(image.get_array(), gram)
        assert image.get_clim() == (-1.0, 1.0)  # one colour scale for both
        assert image.get_interpolation() == "nearest"  # cells do not blend
        assert ax.get_ylabel() == "position m"
    assert panels[1].get_xlabel() == "position n"
    assert panels[0].get_position().y0 > panels[1].get_position().y1  # stacked
    assert_readable(figure)


def test_sines_pairs_gram_figure_is_not_shrunk_on_a_phone():
    """Shown at its design size in a phone's 390 px column, so its smallest
    text (10 pt) stays 13.9 px there, not 0.8 of it."""
    figure = plots_taylor.sines_pairs_gram_figure(*gram_matrices(), "inner product")
    _, metadata = figure._repr_mimebundle_()
    assert metadata["image/png"]["width"] <= PHONE_COLUMN


def test_the_chapter_s_pairs_are_the_paper_s_encoding_for_one_frequency():
    """The pair (sin tθ, cos tθ) of the figure is the encoding's own pair: at
    d = 2 the encoding has the one frequency θ_0 = 1."""
    _, pairs = gram_matrices(theta=1.0)
    table = posenc.encoding(np.arange(12), 2)
    np.testing.assert_allclose(table @ table.T, pairs, rtol=0, atol=1e-15)
