"""The explorer of the chapter "Decay at finite d": the exact sum against
its integral, the alias threshold and the rms law.

:class:`DecayExplorer`, and :class:`OffsetExplorer`, the axes it shares
with ``posenc.widgets.ScheduleExplorer`` (a normalised inner product
against the offset, the range of offsets as a slider). Reached, like every
explorer, as ``posenc.widgets.DecayExplorer`` (``posenc.widgets`` imports
this module and lists the class in its ``EXPLORERS``); in a module of its
own so that its slide form (``posenc.widgets_slides``) can subclass it
without importing ``posenc.widgets``, which imports the slide forms (no
cycle).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from . import core
from .explorer import Choice, Explorer, _power_of_ten, base_choice, d_choice
from .figure_style import PALETTE, new_figure

__all__ = ["DecayExplorer", "OffsetExplorer", "decay_data", "range_choice"]


def decay_data(d: int, base: float, delta_max: int) -> dict[str, np.ndarray]:
    """Data of :class:`DecayExplorer`, at about 2000 integer offsets.

    ``sum``: the exact inner product divided by d/2; ``integral``: its
    continuous limit; ``spread``: the predicted rms of their difference,
    :func:`posenc.rms_law`; ``threshold``: :func:`posenc.alias_threshold`;
    ``level``: the long-run rms 1/sqrt(d).
    """
    delta = np.unique(np.round(np.linspace(0, delta_max, 2001)))
    return {
        "delta": delta,
        "sum": core.inner_product(delta, d, base) / (d / 2),
        "integral": core.decay_integral(delta, base),
        "spread": core.rms_law(delta, d, base),
        "threshold": core.alias_threshold(d, base),
        "level": 1 / np.sqrt(d),
    }


class OffsetExplorer(Explorer):
    """Shared axes of the explorers that plot a normalised inner product
    against the offset, with the range of offsets as a slider."""

    def _finish_offset_axes(self, ax, bottom: float) -> None:
        zero = ax.axhline(0, color="#888888", lw=0.6)
        ax.set_ylim(bottom, 1.05)
        ax.set_xlabel("offset Δ = m − n")
        ax.set_ylabel("normalised inner product")
        # The legend sits below the axes, where no data can cover it, so it
        # stays in the static background: text is the costliest thing to draw.
        ax.figure.legend(loc="outside lower center", ncol=2, markerscale=3)
        # drawn over the data (and the ticks) in a full redraw, so here too
        self.dynamic(zero, *ax.spines.values())
        self.title = ax.set_title(" ")
        self.ax = ax
        self.dynamic(ax.xaxis, self.title)


def range_choice(options: tuple[int, ...], default: int) -> Choice:
    return Choice("delta_max", "largest Δ", options, default, format=lambda v: f"{v:,}")


class DecayExplorer(OffsetExplorer):
    """The exact normalised sum against its integral, the threshold and the rms law."""

    description = (
        "The normalised inner product of two encodings against their offset, as "
        "dots, over the decay integral as a line; a dashed vertical line marks "
        "the alias threshold beyond which the dots spread about the line, thin "
        "lines the predicted spread, and a shaded band the long-run rms level."
    )
    choices = (
        d_choice(128, (16, 32, 64, 128, 256, 512, 1024)),
        base_choice(1e4),
        range_choice((128, 1024, 8192, 65536), 1024),
    )

    def build(self) -> Figure:
        figure, ax = new_figure(height=4.3)
        (self.sum_line,) = ax.plot(
            [],
            [],
            ".",
            ms=2.5,
            color=PALETTE["vermillion"],
            label="exact sum g(Δ)/(d/2)",
        )
        (self.integral_line,) = ax.plot(
            [], [], color=PALETTE["black"], lw=1.5, label="integral I(Δ)"
        )
        (self.upper,) = ax.plot(
            [], [], color=PALETTE["blue"], lw=1.2, label="I(Δ) ± rms law"
        )
        (self.lower,) = ax.plot([], [], color=PALETTE["blue"], lw=1.2)
        self.threshold = ax.axvline(
            0,
            color=PALETTE["green"],
            ls="--",
            lw=1.2,
            label="alias threshold Δ₁ = πd/ln base",
        )
        self.level = ax.axhspan(
            -0.1,
            0.1,
            color=PALETTE["sky"],
            alpha=0.25,
            lw=0,
            label="rms level ±1/√d",
        )
        self.dynamic(self.level)
        self._finish_offset_axes(ax, -0.6)
        self.dynamic(
            self.sum_line, self.integral_line, self.upper, self.lower, self.threshold
        )
        return figure

    def draw(self, d: int, base: float, delta_max: int) -> None:
        data = decay_data(d, base, delta_max)
        self.sum_line.set_data(data["delta"], data["sum"])
        self.integral_line.set_data(data["delta"], data["integral"])
        self.upper.set_data(data["delta"], data["integral"] + data["spread"])
        self.lower.set_data(data["delta"], data["integral"] - data["spread"])
        level = data["level"]
        self.level.set_y(-level)
        self.level.set_height(2 * level)
        threshold = data["threshold"]
        self.threshold.set_xdata([threshold, threshold])
        self.threshold.set_visible(threshold < delta_max)
        self.ax.set_xlim(0, delta_max)
        self.title.set_text(
            f"d = {d}, base = {_power_of_ten(base)}:  Δ₁ = {threshold:,.0f}"
        )
