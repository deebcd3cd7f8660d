"""Players drawn for a slide: the explorers of four decks, at projector size.

A deck (``_ext/slides.py``) shows a figure at 1.8 times its design width,
so that its smallest text (10 pt, 13.9 px at the design width) is 24 px on
a 1024 x 768 screen. A page's player is drawn 4.8 inches wide and 3.9 to
4.35 inches tall; with its sliders in a row under it and a caption of two
lines, it fits a slide at 1.36 to 1.52 times at most, its text at 18.5 to
20.7 px: too small from the back of a hall. The explorers here draw the
same data for a slide: a figure 4.8 inches wide and :data:`SLIDE_HEIGHT`
tall, so that it fits at 1.8 times with its sliders in a row under it,
with fewer ticks and shorter texts.
Each subclasses the page's explorer, keeps its sliders and its data, and
only lays the figure out anew (:func:`lay_out_for_slide`,
:func:`legend_below`); the deck plays its frames in place of the page's
(:data:`SLIDE_FORMS`, read by ``_ext/slide_forms.py``).

``posenc.widgets`` imports this module and lists every form of
:data:`SLIDE_FORMS` in its ``EXPLORERS``, so the build renders their
frames. No cycle: this module imports the chapters' explorer modules
(``widgets_encoding``, ``widgets_complex``, ``widgets_decay``,
``widgets_rope``), which import only :mod:`posenc.explorer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .figure_style import FIGURE_WIDTH
from .widgets_complex import OffsetClocksExplorer, offset_clocks_data
from .widgets_decay import DecayExplorer
from .widgets_encoding import EncodingExplorer
from .widgets_rope import RopePlanesExplorer, rope_planes_data

__all__ = [
    "EncodingSlide",
    "OffsetClocksSlide",
    "DecaySlide",
    "RopePlanesSlide",
    "SLIDE_FORMS",
    "SLIDE_HEIGHT",
    "lay_out_for_slide",
    "legend_below",
]

#: The height of a slide's player, in inches at the design resolution: at
#: 1.8 times, 1.8 x 320 = 576 deck px, which leaves the title (58 px), the
#: sliders' row (60 px) and a caption of two lines (2 x 28 px) their room
#: on a slide 768 px tall (``_ext/slides.py``: FIGURE_ROOM,
#: CONTROLS_HEIGHT).
SLIDE_HEIGHT = 3.2
#: The positions labelled on the two-hands players' lower panel (the page
#: labels every second one; a slide, every fourth).
SLIDE_TICKS = (4, 8, 12, 16, 20)
#: The x label of the two-hands players' lower panel, shorter than the
#: page's "position m (and n = m − Δ)".
POSITION_LABEL = "position m (n = m − Δ)"


def lay_out_for_slide(
    figure: Figure,
    ax: Axes,
    *,
    ratios: Sequence[float] | None = None,
    xticks: Sequence[float] | None = None,
    yticks: Sequence[float] | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    height: float = SLIDE_HEIGHT,
) -> None:
    """The layout steps every slide form takes: the slide's size
    (:data:`~posenc.figure_style.FIGURE_WIDTH` x ``height``, at most
    :data:`SLIDE_HEIGHT`), the panels' height ratios (``ratios``, of the
    grid of the figure's first axes), fixed ticks on ``ax`` and shorter
    axis labels. What is left ``None`` stays as the page draws it."""
    if height > SLIDE_HEIGHT:
        raise ValueError(f"{height} in is taller than a slide's player")
    figure.set_size_inches(FIGURE_WIDTH, height)
    if ratios is not None:
        figure.axes[0].get_subplotspec().get_gridspec().set_height_ratios(ratios)
    if xticks is not None:
        ax.set_xticks(xticks)
    if yticks is not None:
        ax.set_yticks(yticks)
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)


def legend_below(figure: Figure, labels: Sequence[str], ncol: int) -> None:
    """The figure's legend again under its panels, with shorter ``labels``
    (one an entry, in the page's order) in ``ncol`` columns: fewer rows
    leave the panels more of the slide's height."""
    (legend,) = figure.legends
    # the old legend's handles, as it drew them (its markerscale applied)
    handles = legend.legend_handles
    if len(labels) != len(handles):
        raise ValueError(f"{len(handles)} entries, {len(labels)} labels")
    legend.remove()
    figure.legend(handles, labels, loc="outside lower center", ncol=ncol)


def _lay_out_two_hands(figure: Figure, ratios, yticks) -> Axes:
    """:func:`lay_out_for_slide` for a two-hands player (the hands above,
    the sweep over the positions under them, :class:`posenc.explorer.Sweep`):
    five position ticks and a shorter label on the sweep. Returns the
    hands' axes."""
    hands, sweep = figure.axes
    lay_out_for_slide(
        figure,
        sweep,
        ratios=ratios,
        xticks=SLIDE_TICKS,
        yticks=yticks,
        xlabel=POSITION_LABEL,
    )
    return hands


def _minus(value: float, sign: str = "") -> str:
    """``value`` to three decimals with a true minus sign (``sign="+"``:
    a plus sign on a positive value too)."""
    return f"{value:{sign}.3f}".replace("-", "−")


class EncodingSlide(EncodingExplorer):
    """:class:`~posenc.widgets_encoding.EncodingExplorer` drawn for a
    slide: the same heat map, 4.8 x 3.05 inches, four ticks down and three
    on the colour bar. Shorter than :data:`SLIDE_HEIGHT`: its "layout"
    buttons make the sliders' row 62 deck px tall and the maths in its
    caption makes two lines 75 px; at 3.2 inches the deck shrank it to
    1.74 times (text 23.7 px on a 1024 x 768 screen)."""

    height: ClassVar[float] = 3.05

    def build(self) -> Figure:
        figure = super().build()
        lay_out_for_slide(figure, self.ax, yticks=(0, 25, 50, 75), height=self.height)
        colorbar = self.image.colorbar
        colorbar.set_ticks((-1, 0, 1))
        colorbar.set_label("value")
        return figure


class OffsetClocksSlide(OffsetClocksExplorer):
    """:class:`~posenc.widgets_complex.OffsetClocksExplorer` drawn for a
    slide: the dial and its readout over the products, 4.8 x 3.2 inches,
    five ticks on the position axis."""

    def build(self) -> Figure:
        figure = super().build()
        dial = _lay_out_two_hands(figure, (1.9, 1), (-1, 0, 1))
        dial.set_xlim(-1.25, 3.1)
        legend_below(figure, ("pair ⟨pₘ, pₙ⟩", "sines alone"), ncol=2)
        return figure

    def draw(self, m: int, delta: int, theta: float) -> None:
        super().draw(m, delta, theta)
        data = offset_clocks_data(m, delta, theta)
        self.readout.set_text(
            f"mθ = {data['angle_m']:.2f}\n"
            f"nθ = {data['angle_n']:.2f}\n"
            f"Δθ = {data['between']:.2f}\n"
            f"⟨pₘ, pₙ⟩ = {_minus(data['inner'])}"
        )


class DecaySlide(DecayExplorer):
    """:class:`~posenc.widgets_decay.DecayExplorer` drawn for a slide: the
    same dots, lines, threshold and band, 4.8 x 3.2 inches, four ticks up
    the side and the legend's five entries in two rows."""

    def build(self) -> Figure:
        figure = super().build()
        lay_out_for_slide(
            figure,
            self.ax,
            yticks=(-0.5, 0, 0.5, 1),
            ylabel="normalised\ninner product",
        )
        labels = (
            "exact sum",
            "integral I(Δ)",
            "I(Δ) ± rms law",
            "alias threshold Δ₁",
            "±1/√d",
        )
        legend_below(figure, labels, ncol=3)
        return figure


class RopePlanesSlide(RopePlanesExplorer):
    """:class:`~posenc.widgets_rope.RopePlanesExplorer` drawn for a slide:
    the two planes over the scores, 4.8 x 3.2 inches, each plane's part of
    the score beside its circle, five ticks on the position axis."""

    def build(self) -> Figure:
        figure = super().build()
        planes = _lay_out_two_hands(figure, (1.5, 1), (0, 2, 4))
        planes.set_ylim(-1.3, 1.45)
        for text in planes.texts:
            if text.get_text().startswith("pair "):
                text.set_text(text.get_text().split(": ", 1)[1])
        legend_below(figure, ("RoPE", "added encoding"), ncol=2)
        return figure

    def draw(self, m: int, delta: int) -> None:
        super().draw(m, delta)
        data = rope_planes_data(m, delta)
        for note, part in zip(self.plane_notes, data["products"], strict=True):
            note.set_text(_minus(part, "+"))
        self.title.set_text(f"m = {m}, n = {data['n']}: score {_minus(data['score'])}")


#: The slide's form of each page explorer a deck plays, by the page
#: explorer's class name (``_ext/slide_forms.py`` swaps the player's
#: frames): encoding slide 4, complex slide 10, finite-d slide 10 and RoPE
#: slide 5.
SLIDE_FORMS: dict[str, type] = {
    "EncodingExplorer": EncodingSlide,
    "OffsetClocksExplorer": OffsetClocksSlide,
    "DecayExplorer": DecaySlide,
    "RopePlanesExplorer": RopePlanesSlide,
}
