"""The figure of the chapter "Finite d" draws exactly the arrays it is handed."""

from __future__ import annotations

import numpy as np
from test_plots import assert_drawn

import posenc
from posenc import plots, plots_finite


def threshold_data(d: int = 64, base: float = 1e4) -> dict:
    delta = np.arange(0, 4 * posenc.alias_threshold(d, base) + 1)
    return {
        "delta": delta,
        "normalised": posenc.inner_product(delta, d, base) / (d / 2),
        "integral": posenc.decay_integral(delta, base),
        "threshold": posenc.alias_threshold(d, base),
        "spread": posenc.rms_law(delta, d, base),
        "band": 1.75 * 2 / d,
        "band_label": "± 1.75·2/d",
        "d": d,
        "base": base,
    }


def test_threshold_figure_draws_its_data():
    data = threshold_data()
    figure = plots_finite.threshold_figure(**data)
    past = np.where(data["spread"] > 0, data["spread"], np.nan)
    assert_drawn(
        figure,
        data["normalised"],
        data["integral"],
        data["normalised"] - data["integral"],
        past,
        -past,
    )
    top, bottom = figure.axes
    # the threshold, dashed, in both panels; the band, shaded, below
    for ax in (top, bottom):
        marks = [
            line.get_xdata()[0] for line in ax.get_lines() if line.get_ls() == "--"
        ]
        assert marks == [data["threshold"]]
    [band] = bottom.patches
    assert np.isclose(band.get_y(), -data["band"])
    assert np.isclose(band.get_height(), 2 * data["band"])
    assert top.get_title() == "d = 64, base = 10⁴"
    assert "Δ₁ = πd/ln base ≈ 22" in [text.get_text() for text in top.texts]
    labels = [text.get_text() for text in figure.legends[0].get_texts()]
    assert labels == ["sum − integral", "± typical scatter", "± 1.75·2/d"]


def test_threshold_figure_names_a_base_that_is_no_power_of_ten():
    figure = plots_finite.threshold_figure(**threshold_data(32, 5e5))
    assert figure.axes[0].get_title() == "d = 32, base = 500000"
    assert plots_finite._base_text(1e-2) == "10⁻²"


def test_threshold_figure_is_drawn_in_the_book_style():
    figure = plots_finite.threshold_figure(**threshold_data())
    assert figure.get_figwidth() == plots.FIGURE_WIDTH
    assert figure.get_figheight() <= plots.MAX_HEIGHT
