"""The figure of the chapter "The assumptions, revisited"
(posenc.plots_assumptions) draws exactly the values it is handed."""

from __future__ import annotations

import numpy as np
from scipy import stats
from test_plots import assert_drawn

from posenc import plots_assumptions


def chance_data():
    grid = np.linspace(0, 0.45, 91)
    models = np.random.default_rng(0).beta(4, 28, size=40)
    return grid, stats.beta(4, 28).pdf(grid), 0.1, models


def test_against_chance_figure_draws_chance_the_toy_and_the_models():
    grid, chance, toy, models = chance_data()
    figure = plots_assumptions.against_chance_figure(
        grid,
        chance,
        toy,
        models,
        xlabel="share on the diagonal",
        chance_label="random matrices",
        noise=0.03,
        note="identity: 100% →",
    )
    (ax,) = figure.axes
    assert_drawn(figure, chance)
    lines = {line.get_label(): line for line in ax.get_lines()}
    # chance over the grid, the forty models as ticks at their values
    np.testing.assert_array_equal(lines["random matrices"].get_xdata(), grid)
    ticks = lines["40 models"]
    np.testing.assert_array_equal(ticks.get_xdata(), models)
    assert ticks.get_marker() == "|"
    # the toy dashed and the noise dotted, each at its value
    assert list(lines["the toy"].get_xdata()) == [toy, toy]
    assert lines["the toy"].get_linestyle() == "--"
    assert list(lines["pure noise (mean)"].get_xdata()) == [0.03, 0.03]
    assert lines["pure noise (mean)"].get_linestyle() == ":"
    assert [text.get_text() for text in ax.texts] == ["identity: 100% →"]
    assert ax.get_xlim() == (0.0, 0.45)
    assert ax.get_ylim()[0] == 0
    assert ax.get_xlabel() == "share on the diagonal"


def test_against_chance_figure_leaves_out_what_it_is_not_given():
    grid, chance, toy, models = chance_data()
    figure = plots_assumptions.against_chance_figure(
        grid, chance, toy, models, xlabel="x", chance_label="chance"
    )
    (ax,) = figure.axes
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["chance", "40 models", "the toy"]
    assert not ax.texts
