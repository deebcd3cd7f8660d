"""Players drawn for a slide: the explorers of two decks, at projector size.

A deck (``_ext/slides.py``) shows a figure at 1.8 times its design width,
so that its smallest text (10 pt, 13.9 px at the design width) is 24 px on
a 1024 x 768 screen. A page's player is drawn 4.8 inches wide and about 4.3
inches tall; with its sliders beside or under it, it fits a slide only at
1.25 times, its text at 17 px: too small from the back of a hall. The
explorers here draw the same data for a slide: a figure 4.8 inches wide and
:data:`SLIDE_HEIGHT` tall, so that it fits at 1.8 times with its sliders in
a row under it, with fewer ticks and shorter texts. Each subclasses the
page's explorer, keeps its sliders and its data, and only lays the figure
out anew; the deck plays its frames in place of the page's
(:data:`SLIDE_FORMS`, read by ``_ext/slides.py``).

Reached as ``posenc.widgets.RopePlanesSlide`` and
``posenc.widgets.OffsetClocksSlide``: ``posenc.widgets`` imports this
module and lists both in its ``EXPLORERS``, so the build renders their
frames. No cycle: this module imports the chapters' explorer modules, which
import only :mod:`posenc.explorer`.
"""

from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator

from .widgets_complex import OffsetClocksExplorer, offset_clocks_data
from .widgets_rope import RopePlanesExplorer, rope_planes_data

__all__ = ["RopePlanesSlide", "OffsetClocksSlide", "SLIDE_FORMS", "SLIDE_HEIGHT"]

#: The height of a slide's player, in inches at the design resolution: at
#: 1.8 times, 1.8 x 320 = 576 deck px, which leaves the title (58 px), the
#: sliders' row (60 px) and a caption of two lines (2 x 28 px) their room
#: on a slide 768 px tall (``_ext/slides.py``: FIGURE_ROOM,
#: CONTROLS_HEIGHT).
SLIDE_HEIGHT = 3.2
#: The positions labelled on the lower panel's axis (the page labels every
#: second one; a slide, every fourth).
SLIDE_TICKS = (4, 8, 12, 16, 20)


def _minus(value: float, sign: str = "") -> str:
    """``value`` to three decimals with a true minus sign (``sign="+"``:
    a plus sign on a positive value too)."""
    return f"{value:{sign}.3f}".replace("-", "−")


class RopePlanesSlide(RopePlanesExplorer):
    """:class:`~posenc.widgets_rope.RopePlanesExplorer` drawn for a slide:
    the two planes over the scores, 4.8 x 3.2 inches, each plane's part of
    the score beside its circle, five ticks on the position axis."""

    def build(self) -> Figure:
        figure = super().build()
        figure.set_size_inches(4.8, SLIDE_HEIGHT)
        planes, lines = figure.axes
        planes.get_subplotspec().get_gridspec().set_height_ratios((1.5, 1))
        planes.set_ylim(-1.3, 1.45)
        lines.xaxis.set_major_locator(FixedLocator(SLIDE_TICKS))
        lines.yaxis.set_major_locator(FixedLocator((0, 2, 4)))
        lines.set_xlabel("position m (n = m − Δ)")
        for text in planes.texts:
            if text.get_text().startswith("pair "):
                text.set_text(text.get_text().split(": ", 1)[1])
        legend = figure.legends[0]
        legend.texts[0].set_text("RoPE")
        legend.texts[1].set_text("added encoding")
        return figure

    def draw(self, m: int, delta: int) -> None:
        super().draw(m, delta)
        data = rope_planes_data(m, delta)
        for note, part in zip(self.plane_notes, data["products"], strict=True):
            note.set_text(_minus(part, "+"))
        self.title.set_text(f"m = {m}, n = {data['n']}: score {_minus(data['score'])}")


class OffsetClocksSlide(OffsetClocksExplorer):
    """:class:`~posenc.widgets_complex.OffsetClocksExplorer` drawn for a
    slide: the dial and its readout over the products, 4.8 x 3.2 inches,
    five ticks on the position axis."""

    def build(self) -> Figure:
        figure = super().build()
        figure.set_size_inches(4.8, SLIDE_HEIGHT)
        dial, lines = figure.axes
        dial.get_subplotspec().get_gridspec().set_height_ratios((1.9, 1))
        dial.set_xlim(-1.25, 3.1)
        lines.xaxis.set_major_locator(FixedLocator(SLIDE_TICKS))
        lines.yaxis.set_major_locator(FixedLocator((-1, 0, 1)))
        lines.set_xlabel("position m (n = m − Δ)")
        legend = figure.legends[0]
        legend.remove()
        self.pair_line.set_label("pair ⟨pₘ, pₙ⟩")
        self.sine_line.set_label("sines alone")
        figure.legend(loc="outside lower center", ncol=2)
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


#: The slide's form of each page explorer a deck plays, by the page
#: explorer's class name (``_ext/slides.py`` swaps the player's frames).
SLIDE_FORMS: dict[str, type] = {
    "RopePlanesExplorer": RopePlanesSlide,
    "OffsetClocksExplorer": OffsetClocksSlide,
}
