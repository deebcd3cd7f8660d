"""The figures of the chapter "The assumptions, revisited": one measurement
of the untrained toy model set against what chance gives.

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_assumptions.against_chance_figure``; :mod:`posenc.plots` does not
re-export it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator, PercentFormatter

from posenc.figure_style import PALETTE, _figure_function, new_figure

__all__ = ["against_chance_figure"]


@_figure_function
def against_chance_figure(
    grid,
    chance,
    toy: float,
    models,
    *,
    xlabel: str,
    chance_label: str,
    noise: float | None = None,
    note: str | None = None,
) -> Figure:
    """Figure: where a model's measurement lies in the distribution chance
    gives it.

    The measurement is a share, drawn as a percentage from 0. ``chance`` is the
    density of the measurement for random matrices at the
    points ``grid`` (a curve over a shaded area, labelled ``chance_label``);
    ``toy`` is the toy model's value (a dashed vertical line); ``models``
    are the values of more models, differently seeded (short ticks along the
    bottom). ``noise``, if given, is the mean for pure noise (a dotted
    vertical line); ``note``, if given, is written at the right edge (for
    a value that lies off the axis, such as the identity's). Used in the
    chapter "The assumptions, revisited", figures fig-diagonal-chance and
    fig-leakage-chance.
    """
    grid = np.asarray(grid, dtype=float)
    chance = np.asarray(chance, dtype=float)
    models = np.asarray(models, dtype=float)
    top = 1.15 * float(chance.max())
    figure, ax = new_figure(height=2.9)
    ax.fill_between(grid, 0, chance, color=PALETTE["sky"], alpha=0.35, lw=0)
    ax.plot(grid, chance, color=PALETTE["blue"], lw=1.5, label=chance_label)
    ax.plot(
        models,
        np.full(models.shape, 0.06 * top),
        "|",
        ms=11,
        mew=1.3,
        color=PALETTE["orange"],
        label=f"{models.size} models",
    )
    ax.axvline(toy, color=PALETTE["vermillion"], ls="--", lw=1.6, label="the toy")
    if noise is not None:
        ax.axvline(
            noise, color=PALETTE["black"], ls=":", lw=1.4, label="pure noise (mean)"
        )
    if note is not None:
        ax.text(0.98, 0.9, note, transform=ax.transAxes, ha="right", va="top")
    ax.xaxis.set_major_locator(MultipleLocator(0.1))
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlim(0, grid[-1])
    ax.set_ylim(0, top)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    figure.legend(loc="outside upper center", ncol=2)
    return figure
