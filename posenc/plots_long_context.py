"""The figure of the chapter "How far the encoding reaches".

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_long_context.criterion_figure``; :mod:`posenc.plots` does not
re-export it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from posenc.figure_style import INK, PALETTE, _figure_function, new_figure

__all__ = ["criterion_figure"]


@_figure_function
def criterion_figure(delta, panels: list[dict], context: int) -> Figure:
    """Figure: the criterion g(Δ) ≥ 0 up to ``context``, at two bases.

    One panel per entry of ``panels`` (stacked), each a dict with ``title``,
    ``normalised`` = g(Δ)/(d/2) (dots), ``integral`` = I(Δ) (a line),
    ``spread`` (the rms law, :func:`posenc.rms_law`, shaded as
    I ± spread where it is positive) and ``first_negative`` (the first
    offset with g < 0, marked by a vermillion line, or ``None``), all at
    the offsets ``delta``, which run from 0 to the context ``context``
    (named on the x axis). Used in the chapter "How far the encoding
    reaches".
    """
    delta = np.asarray(delta, dtype=float)
    figure, axes = new_figure(height=5.0, nrows=len(panels), sharex=True)
    axes = np.atleast_1d(axes)
    for ax, panel in zip(axes, panels, strict=True):
        normalised = np.asarray(panel["normalised"], dtype=float)
        integral = np.asarray(panel["integral"], dtype=float)
        spread = np.asarray(panel["spread"], dtype=float)
        past = spread > 0
        ax.fill_between(
            delta[past],
            (integral - spread)[past],
            (integral + spread)[past],
            color=PALETTE["sky"],
            alpha=0.35,
            lw=0,
            label="integral ± rms of the scatter",
        )
        ax.plot(
            delta,
            normalised,
            ls="none",
            marker=".",
            ms=1.5,
            color=PALETTE["vermillion"],
            label="sum g(Δ)/(d/2)",
        )
        ax.plot(delta, integral, color=PALETTE["black"], lw=1.3, label="integral I(Δ)")
        ax.axhline(0, color=PALETTE["black"], lw=0.6)
        first = panel["first_negative"]
        if first is not None:
            ax.axvline(first, color=PALETTE["vermillion"], ls="--", lw=1.2)
            ax.annotate(
                f"first g < 0 at {first:,}",
                (first, 0.95),
                xycoords=("data", "axes fraction"),
                xytext=(4, 0),
                textcoords="offset points",
                color=INK["vermillion"],
                va="top",
            )
        ax.set_title(panel["title"])
        ax.set_ylim(-0.3, 0.6)
        ax.set_ylabel("normalised\ninner product")
    axes[-1].set_xlim(0, delta.max())
    axes[-1].set_xlabel(f"offset Δ, up to the context L = {context:,}")
    handles, labels = axes[0].get_legend_handles_labels()
    order = [labels.index(name) for name in labels[1:] + labels[:1]]
    figure.legend(
        [handles[k] for k in order],
        [labels[k] for k in order],
        loc="outside lower center",
        ncol=2,
        markerscale=5,
    )
    return figure
