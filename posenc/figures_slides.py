"""Static figures drawn for a slide: four figures of two decks, at projector size.

A deck (``_ext/slides.py``) shows a figure at 1.8 times its design width,
so that its smallest text (10 pt, 13.9 px at the design width) is 24 px on
a 1024 x 768 screen. Four of the chapters' figures are too tall for that
(two or three panels stacked, or a legend of two rows of formulas): a deck
shrank them to 1.25 times, their text to 17 px. The functions here draw
the same data for a slide, 4.8 inches wide and at most
:data:`~posenc.widgets_slides.SLIDE_HEIGHT` tall: panels side by side
instead of stacked, fewer ticks, shorter labels, the legend in one row.
Each computes its data with posenc, as the chapter does, calls the page's
figure function and lays its figure out anew (as the players drawn for a
slide do, :mod:`posenc.widgets_slides`).

:data:`SLIDE_FIGURES` maps a figure's name (``fig-...``, as a slide's
``show`` names it) to its function; ``_ext/slide_forms.py`` draws each
once per build into the site's ``_static/slide-figures`` and shows it on
the slide in place of the page's picture, with the page's caption.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.figure import Figure
from matplotlib.gridspec import GridSpec
from scipy import optimize

from .core import decay_integral, inner_product
from .experiments import decay_regimes
from .figures_decay import decay_comparison_figure, decay_law_figure
from .plots_decay import scale_free_clocks_figure
from .plots_taylor import sines_pairs_gram_figure
from .widgets_slides import SLIDE_HEIGHT, lay_out_for_slide, legend_below

__all__ = [
    "SLIDE_FIGURES",
    "sines_pairs_slide",
    "decay_clocks_slide",
    "decay_law_slide",
    "decay_su_slide",
]

#: The base of the decay chapter's figures.
BASE = 1e4


def _side_by_side(figure: Figure, height: float = SLIDE_HEIGHT) -> None:
    """Put the figure's panels (its axes but colour bars) in one row, at
    the slide's size."""
    panels = [ax for ax in figure.axes if ax.get_label() != "<colorbar>"]
    grid = GridSpec(1, len(panels), figure=figure)
    for column, ax in enumerate(panels):
        ax.set_subplotspec(grid[0, column])
    lay_out_for_slide(figure, panels[0], height=height)


def sines_pairs_slide() -> Figure:
    """fig-sines-pairs (taylor slide 10): the Gram matrices of one
    frequency, θ = 0.5, positions 0 to 23, side by side (the page stacks
    them), the colour bar on the right with three ticks."""
    t = np.arange(24)
    sines = np.sin(0.5 * t)[:, None]
    pairs = np.stack([np.sin(0.5 * t), np.cos(0.5 * t)], axis=1)
    figure = sines_pairs_gram_figure(
        sines @ sines.T, pairs @ pairs.T, r"$\langle p_m, p_n\rangle$"
    )
    (colorbar,) = [ax for ax in figure.axes if ax.get_label() == "<colorbar>"]
    colorbar.set_yticks((-1, 0, 1))
    _side_by_side(figure, height=2.9)
    left, right = [ax for ax in figure.axes if ax.get_label() != "<colorbar>"]
    right.set_ylabel("")
    right.tick_params(labelleft=False)
    for ax in (left, right):
        ax.tick_params(labelbottom=True)
        ax.set_xlabel("position n")
    return figure


def decay_clocks_slide() -> Figure:
    """fig-decay-clocks (decay slide 9): each clock's contribution against
    its place, base 10000, at offsets 10, 100 and 1000 (dots: the pairs of
    d = 128), the three panels side by side, each named by its offset."""
    places = np.linspace(0, 1, 8001)
    pairs = np.arange(64) / 64
    panels = []
    for delta in (10.0, 100.0, 1000.0):
        panels.append(
            {
                "delta": delta,
                "weights": np.cos(delta * BASE**-places),
                "pair_weights": np.cos(delta * BASE**-pairs),
                "cut": (np.log(delta) + np.euler_gamma) / np.log(BASE),
                "integral": decay_integral(delta, BASE),
            }
        )
    figure = scale_free_clocks_figure(places, pairs, panels)
    _side_by_side(figure)
    axes = figure.axes
    for ax, panel in zip(axes, panels, strict=True):
        # The signed shaded area, I(offset), named as on the page's figure;
        # above the panel: inside it, "area" would cross the curve.
        ax.set_title(
            rf"$\Delta = {panel['delta']:g}$" + f"\narea {panel['integral']:.3f}"
        )
        ax.set_ylabel("")
        ax.set_xlabel("")
        ax.set_xticks((0, 0.5, 1), ("0", "0.5", "1"))
        ax.texts[0].remove()
        ax.tick_params(labelbottom=True)
    for ax in axes[1:]:
        ax.tick_params(labelleft=False)
    axes[0].set_ylabel(r"$\cos(\Delta\theta)$")
    axes[1].set_xlabel(r"place $\tau$ of the clock: frequency $\mathrm{base}^{-\tau}$")
    legend_below(figure, ("each clock", "pairs, d = 128", "slow clocks only"), 3)
    return figure


def decay_law_slide() -> Figure:
    """fig-decay-law (decay slide 11): the integral at base 10000 on a log
    axis of offsets, its log law, its first zero and its envelope; the
    legend in two columns under the panel, with the log law's formula
    only."""
    first_zero = optimize.brentq(decay_integral, 6166, 6167, args=(BASE,), xtol=1e-9)
    figure = decay_law_figure(decay_regimes(base=BASE), BASE, first_zero)
    (ax,) = figure.axes
    ax.set_title("")
    (note,) = ax.texts
    note.set_text(f"first zero\n{first_zero:,.2f}")
    lay_out_for_slide(figure, ax, yticks=(0, 0.5, 1), xlabel=r"offset $\Delta$")
    # the log law's formula stays: the speaker notes point at its γ
    law = r"log law $1 - (\ln\Delta + \gamma)/\ln \mathrm{base}$"
    legend_below(figure, ("exact I(Δ)", law, "envelope"), 2)
    return figure


def decay_su_slide() -> Figure:
    """fig-decay-su (decay slide 14): the integral for base 10000 and the
    exact normalised sum for d = 128 at the integer offsets up to 128, the
    legend in one row under the panel, the figure short (two text entries
    share its slide)."""
    fine, whole = np.linspace(-128, 128, 2001), np.arange(-128, 129)
    sums = inner_product(whole, 128, BASE) / 64
    figure = decay_comparison_figure(fine, decay_integral(fine, BASE), whole, sums, 128)
    (ax,) = figure.axes
    lay_out_for_slide(
        figure,
        ax,
        xticks=(-128, -64, 0, 64, 128),
        yticks=(0.5, 1),
        ylabel="normalised",
        height=2.3,
    )
    legend_below(figure, ("integral I(Δ)", "sum, d = 128"), 2)
    return figure


#: The figures drawn for a slide, by the figure's name in the chapter.
SLIDE_FIGURES: dict[str, Callable[[], Figure]] = {
    "fig-sines-pairs": sines_pairs_slide,
    "fig-decay-clocks": decay_clocks_slide,
    "fig-decay-law": decay_law_slide,
    "fig-decay-su": decay_su_slide,
}
