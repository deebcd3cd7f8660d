"""The figure of the decay chapter (posenc.plots_decay) draws its data."""

from __future__ import annotations

import numpy as np
from scipy import integrate
from test_plots import assert_drawn

from posenc import plots_decay


def signed_area(vertices: np.ndarray) -> float:
    """The signed area of a closed polygon (the shoelace formula): for a
    region between 0 and a curve, the integral of the curve."""
    x, y = vertices[:, 0], vertices[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def clock_panels(places, pairs):
    return [
        {
            "delta": delta,
            "weights": np.cos(delta * 1e4**-places),
            "pair_weights": np.cos(delta * 1e4**-pairs),
            "cut": cut,
            "integral": area,
        }
        for delta, cut, area in [(10.0, 0.31, 0.682), (100.0, 0.56, 0.437)]
    ]


def test_scale_free_clocks_figure_draws_each_panel_in_its_own_axes():
    places, pairs = np.linspace(0, 1, 41), np.arange(8) / 8
    panels = clock_panels(places, pairs)
    figure = plots_decay.scale_free_clocks_figure(places, pairs, panels)
    assert_drawn(figure, *[p[k] for p in panels for k in ("weights", "pair_weights")])
    assert len(figure.axes) == 2
    for ax, panel in zip(figure.axes, panels, strict=True):
        # this panel's curve and dots, in this panel (not only somewhere)
        (curve,) = [li for li in ax.get_lines() if li.get_label() == "each clock"]
        assert np.array_equal(curve.get_xdata(), places)
        assert np.array_equal(curve.get_ydata(), panel["weights"])
        dots = [line for line in ax.get_lines() if line.get_marker() == "."]
        assert len(dots) == 1
        assert np.array_equal(dots[0].get_xdata(), pairs)
        assert np.array_equal(dots[0].get_ydata(), panel["pair_weights"])
        # the shaded region lies between 0 and this panel's curve, so its
        # signed area is the integral of the weights (the caption's I)
        (fill,) = ax.collections
        (path,) = fill.get_paths()
        vertices = path.vertices
        drawn = {tuple(v) for v in vertices}
        assert all(
            (x, y) in drawn for x, y in zip(places, panel["weights"], strict=True)
        )
        assert all((x, 0.0) in drawn for x in places)
        integral = integrate.trapezoid(panel["weights"], places)
        assert abs(signed_area(vertices) - integral) < 1e-12
        # the step stands at the cut handed in, and the area is written
        steps = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert [list(line.get_xdata()) for line in steps] == [
            [0, panel["cut"], panel["cut"], 1]
        ]
        assert [list(line.get_ydata()) for line in steps] == [[0, 0, 1, 1]]
        assert [text.get_text() for text in ax.texts] == [
            f"area {panel['integral']:.3f}"
        ]
        assert f"{panel['delta']:g}" in ax.get_ylabel()
