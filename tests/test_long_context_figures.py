"""The figure of the long-context chapter (posenc.plots_long_context) draws
its data."""

from __future__ import annotations

import numpy as np
from test_plots import assert_drawn

import posenc
from posenc import plots_long_context


def _panel(offsets, d, base, title):
    theta = posenc.frequencies(d, base)
    context = int(offsets[-1])
    past = offsets > posenc.alias_threshold(d, base)
    return {
        "title": title,
        "normalised": posenc.cosine_sums(theta, context) / (d / 2),
        "integral": posenc.decay_integral(offsets, base),
        "spread": np.where(past, posenc.rms_law(offsets, d, base), 0),
        "first_negative": posenc.first_negative(theta, context),
    }


def test_criterion_figure_draws_the_sums_the_integrals_and_the_first_dip():
    d, context = 32, 600
    offsets = np.arange(context + 1.0)
    panels = [
        _panel(offsets, d, 400.0, "a base that fails"),
        _panel(offsets, d, 1e6, "a base that passes"),
    ]
    assert panels[0]["first_negative"] is not None
    assert panels[1]["first_negative"] is None
    figure = plots_long_context.criterion_figure(offsets, panels, context)
    assert len(figure.axes) == 2
    for ax, panel in zip(figure.axes, panels, strict=True):
        assert_drawn(figure, panel["normalised"], panel["integral"])
        assert ax.get_title() == panel["title"]
        # the dots and the curve are drawn over the offsets handed in
        for line in ax.get_lines()[:2]:
            np.testing.assert_array_equal(line.get_xdata(), offsets)
        # the shaded band is integral ± spread where the spread is positive
        [band] = ax.collections
        past = panel["spread"] > 0
        low = (panel["integral"] - panel["spread"])[past]
        high = (panel["integral"] + panel["spread"])[past]
        vertices = band.get_paths()[0].vertices[:, 1]
        assert np.isclose(vertices.min(), low.min())
        assert np.isclose(vertices.max(), high.max())
        # the first negative offset is marked (and named) only where it exists
        dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        first = panel["first_negative"]
        if first is None:
            assert dashed == [] and list(ax.texts) == []
        else:
            assert [list(line.get_xdata()) for line in dashed] == [[first, first]]
            assert [text.get_text() for text in ax.texts] == [
                f"first g < 0 at {first:,}"
            ]
    assert f"{context:,}" in figure.axes[-1].get_xlabel()
