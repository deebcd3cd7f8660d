"""The figure of the chapter "Why base^(-2i/d): the inner product decays".

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_decay.scale_free_clocks_figure`` or ``plots_decay.hands_at_offset_figure``;
:mod:`posenc.plots` does not re-export them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator

from posenc.figure_style import PALETTE, _figure_function, new_figure

__all__ = ["hands_at_offset_figure", "scale_free_clocks_figure"]


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


@_figure_function
def hands_at_offset_figure(delta: float, theta) -> Figure:
    """Figure: a row of clocks, each hand turned by ``delta`` times its speed.

    Clock ``i`` turns ``theta[i]`` radians per position (handed in fastest
    first, as the encoding's pairs). Between two positions ``delta`` apart
    its hand turns by delta * theta[i] from the grey tick at angle 0: above
    each clock that angle, under it its cosine, the clock's share of the
    inner product. Hands of clocks slower than 1/delta are blue, the others
    vermillion, with a dashed line between the two kinds and a label under
    each kind; the title gives the mean of the cosines, g(delta)/(d/2), and
    the share of slow clocks. Small, for a slide: 4.8 x 1.95 inches. Used
    in the chapter "Why base^(-2i/d): the inner product decays", figure
    fig-decay-hands.
    """
    theta = np.asarray(theta, dtype=float)
    angles = delta * theta
    cosines = np.cos(angles)
    slow = theta < 1 / abs(delta)
    spacing = 2.6
    figure, ax = new_figure(height=1.95)
    ax.set_aspect("equal")
    ax.axis("off")
    count = len(theta)
    ax.set_xlim(-1.25 - 1.75, (count - 1) * spacing + 1.25)
    ax.set_ylim(-3.0, 2.0)
    circle = np.linspace(0, 2 * np.pi, 121)
    ink = {True: PALETTE["blue"], False: PALETTE["vermillion"]}
    for i in range(count):
        x = i * spacing
        ax.plot(x + np.cos(circle), np.sin(circle), color="#bbbbbb", lw=1.0)
        ax.plot([x + 0.82, x + 1.15], [0, 0], color="#888888", lw=1.2)
        ax.plot(
            [x, x + 0.92 * np.cos(angles[i])],
            [0, 0.92 * np.sin(angles[i])],
            color=ink[bool(slow[i])],
            lw=2.6,
            solid_capstyle="round",
        )
        ax.text(x, 1.2, f"{angles[i]:.2g}", ha="center", va="bottom")
        shown = f"{cosines[i]:+.2f}".replace("-", "−")
        ax.text(x, -1.25, shown, ha="center", va="top")
    ax.text(-1.5, 1.2, "Δθᵢ", ha="right", va="bottom")
    ax.text(-1.5, -1.25, "cos", ha="right", va="top")
    fast = int(np.sum(~slow))
    if 0 < fast < count:
        cut = (fast - 0.5) * spacing
        ax.plot([cut, cut], [-2.95, 1.95], "--", color="#666666", lw=1.0)
        middle = (fast - 1) * spacing / 2, (fast + count - 1) * spacing / 2
        ax.text(middle[0], -2.3, "fast: they cancel", ha="center", va="top")
        ax.text(middle[1], -2.3, "slow: near 1 each", ha="center", va="top")
    ax.set_title(
        f"Δ = {delta:g}: mean of the cosines {cosines.mean():.2f}, "
        f"share of slow clocks {slow.mean():.2f}",
        pad=2,
    )
    return figure
