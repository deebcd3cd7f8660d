"""The figure of the chapter "Why base^(-2i/d): the inner product decays".

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_decay.scale_free_clocks_figure``; :mod:`posenc.plots` does not
re-export it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator

from posenc.figure_style import PALETTE, _figure_function, new_figure

__all__ = ["scale_free_clocks_figure"]


@_figure_function
def scale_free_clocks_figure(places, pairs, panels) -> Figure:
    """Figure: what each clock contributes, at offsets a factor 10 apart.

    One panel per entry of ``panels``, stacked, over a shared axis of the
    clocks' places ``tau`` (the frequency is base^(-tau): equal steps of
    ``tau`` are equal factors of frequency, slower to the right). Each entry
    is a dict with ``delta`` (the offset), ``weights`` (cos(delta theta) at
    ``places``: a line over a shaded area), ``pair_weights`` (the same at
    the pairs' places ``pairs``: dots), ``cut`` (the place of the step that
    stands for the slow clocks: a dashed step from 0 to 1 there) and
    ``integral`` (the average, written in the panel). Used in the chapter
    "Why base^(-2i/d): the inner product decays", figure fig-decay-clocks.
    """
    places, pairs = np.asarray(places, dtype=float), np.asarray(pairs, dtype=float)
    figure, axes = new_figure(height=4.25, nrows=len(panels), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, panel in zip(axes, panels, strict=True):
        weights = np.asarray(panel["weights"], dtype=float)
        cut = float(panel["cut"])
        ax.fill_between(places, 0, weights, color=PALETTE["sky"], alpha=0.35, lw=0)
        ax.plot(places, weights, color=PALETTE["black"], lw=1.0, label="each clock")
        ax.plot(
            pairs,
            np.asarray(panel["pair_weights"], dtype=float),
            ".",
            ms=3.5,
            color=PALETTE["vermillion"],
            label=f"pairs of d = {2 * len(pairs)}",
        )
        ax.plot(
            [0, cut, cut, 1],
            [0, 0, 1, 1],
            "--",
            color=PALETTE["orange"],
            lw=1.8,
            label="slow clocks only",
        )
        ax.axhline(0, color="#888888", lw=0.6)
        ax.set_ylim(-1.15, 1.15)
        ax.yaxis.set_major_locator(MultipleLocator(1))
        ax.set_ylabel(rf"$\cos({panel['delta']:g}\,\theta)$")
        # Lower right, inside the panel: there every clock is slow
        # (cos ≈ 1), so nothing is drawn below the axis line.
        ax.text(
            0.98,
            0.06,
            f"area {panel['integral']:.3f}",
            transform=ax.transAxes,
            ha="right",
            va="bottom",
        )
    axes[0].set_xlim(0, 1)
    axes[0].xaxis.set_major_locator(MultipleLocator(0.25))
    axes[-1].set_xlabel(r"place $\tau$ of the clock: frequency $\mathrm{base}^{-\tau}$")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(
        handles,
        labels,
        loc="outside upper center",
        ncol=3,
        columnspacing=0.8,
        handlelength=1.2,
        handletextpad=0.4,
    )
    return figure
