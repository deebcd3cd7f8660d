"""The figure of the decay chapter (posenc.plots_decay) draws its data."""

from __future__ import annotations

import numpy as np
from test_plots import assert_drawn

from posenc import plots_decay


def test_scale_free_clocks_figure_draws_every_panel():
    places, pairs = np.linspace(0, 1, 41), np.arange(8) / 8
    panels = [
        {
            "delta": delta,
            "weights": np.cos(delta * 1e4**-places),
            "pair_weights": np.cos(delta * 1e4**-pairs),
            "cut": cut,
            "integral": area,
        }
        for delta, cut, area in [(10.0, 0.31, 0.682), (100.0, 0.56, 0.437)]
    ]
    figure = plots_decay.scale_free_clocks_figure(places, pairs, panels)
    assert len(figure.axes) == 2
    for ax, panel in zip(figure.axes, panels, strict=True):
        assert_drawn(figure, panel["weights"], panel["pair_weights"])
        # the step stands at the cut handed in, and the area is written
        steps = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert [list(line.get_xdata()) for line in steps] == [
            [0, panel["cut"], panel["cut"], 1]
        ]
        assert [text.get_text() for text in ax.texts] == [
            f"area {panel['integral']:.3f}"
        ]
        assert f"{panel['delta']:g}" in ax.get_ylabel()
