"""The figure of the shift chapter (posenc.plots_shift) draws its data."""

from __future__ import annotations

import numpy as np
from test_plots import assert_drawn

import posenc
from posenc import plots_shift


def test_shift_attention_figure_draws_the_scores_and_the_curves():
    d, shift, count = 16, 3, 12
    rows = posenc.encoding(np.arange(count), d)
    scores = rows @ posenc.shift_matrix(shift, d) @ rows.T / (d / 2)
    causal = np.where(np.tri(count, dtype=bool), scores, np.nan)
    back = np.arange(count)
    curves = {11: scores[11, 11 - back], 500: np.linspace(0, 1, count)}
    figure = plots_shift.shift_attention_figure(causal, shift, back, curves)
    top, bottom = figure.axes[:2]
    # the heat map is the matrix handed in, masked where it was masked
    [image] = top.get_images()
    np.testing.assert_array_equal(np.ma.filled(image.get_array(), np.nan), causal)
    # the dashed line follows n = m - shift
    [dashed] = [line for line in top.get_lines() if line.get_linestyle() == "--"]
    np.testing.assert_array_equal(dashed.get_xdata(), [0, count - 1 - shift])
    np.testing.assert_array_equal(dashed.get_ydata(), [shift, count - 1])
    # one line per query, over the offsets handed in, labelled by it
    assert_drawn(figure, *curves.values())
    drawn = [line for line in bottom.get_lines() if line.get_label()[0] != "_"]
    assert [line.get_label() for line in drawn] == [
        "query at m = 11",
        "query at m = 500",
    ]
    for line in drawn:
        np.testing.assert_array_equal(line.get_xdata(), back)
    # the dotted marker stands at the shift
    [marker] = [line for line in bottom.get_lines() if line.get_linestyle() == ":"]
    assert list(marker.get_xdata()) == [shift, shift]
