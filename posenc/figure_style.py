"""The book's figure style: colours, sizes, text, and the figure every
figure function starts from.

The base of every figure module: the topic modules
:mod:`posenc.figures_encoding`, :mod:`posenc.figures_decay`,
:mod:`posenc.figures_code` and the per-chapter ``posenc/plots_<chapter>.py``
import their style from here; :mod:`posenc.plots` re-exports it (a chapter
writes ``plots.PALETTE``, an explorer imports it from there). It imports no
other module of posenc, so no figure module can import in a cycle.

Nothing here touches matplotlib's global state: figures are created as
``Figure`` objects (not through pyplot), so importing this module changes no
rcParams and leaves no figure open.
"""

from __future__ import annotations

import base64
import functools
import io
from collections.abc import Callable

import matplotlib as mpl
from matplotlib.figure import Figure

__all__ = [
    "PALETTE",
    "INK",
    "DIVERGING",
    "SEQUENTIAL",
    "DESIGN_DPI",
    "PIXEL_DENSITY",
    "FIGURE_WIDTH",
    "MAX_HEIGHT",
    "TEXT",
    "SMALLEST_TEXT_PT",
    "BookFigure",
    "book_style",
    "new_figure",
]

#: Okabe & Ito's colour-blind-safe palette (Color Universal Design), in the
#: order lines are drawn. Black first: the "exact" curve of a figure.
PALETTE = {
    "black": "#000000",
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
}
#: The same hues, darkened until text in them has a contrast of at least
#: 5:1 on white (WCAG AA asks 4.5:1 for normal text; the margin covers
#: anti-aliasing): lines and markers take PALETTE, a text label of a line
#: takes INK of its colour. Black and blue pass as they are.
INK = {
    **PALETTE,
    "orange": "#946700",
    "green": "#007F5D",
    "vermillion": "#B65000",
    "sky": "#1674A9",
    "purple": "#B64584",
    "yellow": "#78710A",
}

#: Colour map for values in [-1, 1] (sines and cosines): blue–white–red reads
#: under the common colour-vision deficiencies and in greyscale by lightness.
DIVERGING = "RdBu_r"
#: Colour map for magnitudes: perceptually uniform and colour-blind-safe.
SEQUENTIAL = "cividis"

# ------------------------------------------------------------ sizes: here only

#: The resolution a figure is designed at: one pixel of a figure drawn at
#: DESIGN_DPI is one CSS pixel of the page, so a font of s points is
#: s * DESIGN_DPI / 72 CSS pixels when the figure is shown at its design
#: width. A PNG records its dpi (its pHYs chunk), so its design width is its
#: pixel width * DESIGN_DPI / its dpi: a sharper PNG counts at its design
#: width, and the browser tests read it so.
DESIGN_DPI = 100
#: Static figures are rendered at this multiple of DESIGN_DPI and shown at
#: their design width: sharp on high-density screens and projectors, and a
#: click on one opens it at twice the size (the page links each figure to
#: its PNG). Explorers' frames are rendered at DESIGN_DPI (there are
#: hundreds of them).
PIXEL_DENSITY = 2
#: The width every figure is designed for, in inches at DESIGN_DPI: 480 CSS
#: px. Shown at that width on a desktop (the column is 672 px at 1280) and
#: on a projector, and across the whole screen of a phone: at 390 px that
#: is 0.81 of it, 0.75 on the narrowest common phones (360 px), so the
#: text keeps at least three quarters of its size. Panels are stacked, not
#: put side by side.
FIGURE_WIDTH = 4.8
#: The tallest a figure may be, in inches at DESIGN_DPI: 550 CSS px, so that
#: a whole figure fits a projector's screen (1024 x 768 at 125 % leaves 614
#: CSS px, 558 under the page's header bar).
MAX_HEIGHT = 5.5
#: Font sizes in points, at the design width (x 100/72 for CSS px: 10 pt is
#: 13.9 px). Every figure takes its sizes from here, through book_style().
TEXT = {
    "tick": 10.0,
    "legend": 10.0,
    "note": 10.0,  # annotations, figure notes, clock labels
    "label": 11.0,
    "title": 11.0,
}
#: The smallest text of any figure, in points: 10 pt is 13.9 CSS pixels at
#: the design width, so at least 12 px on a desktop (where figures are shown
#: at their design width) and 17 px on a projector at 125 % (16 px wanted).
#: tests/test_plots.py checks every figure against it.
SMALLEST_TEXT_PT = min(TEXT.values())

_STYLE = {
    "font.size": TEXT["note"],
    "axes.labelsize": TEXT["label"],
    "axes.titlesize": TEXT["title"],
    "figure.titlesize": TEXT["title"],
    "figure.labelsize": TEXT["label"],
    "xtick.labelsize": TEXT["tick"],
    "ytick.labelsize": TEXT["tick"],
    "legend.fontsize": TEXT["legend"],
    "legend.title_fontsize": TEXT["legend"],
    "legend.frameon": False,
}


def book_style():
    """Context manager: the book's text sizes for the artists made inside it.

    Matplotlib reads its defaults when an artist is created, so figures are
    drawn inside this block (every figure function, and
    :class:`posenc.widgets.Explorer` around ``build``); outside it nothing
    changes: no global state is touched. Tick labels made later, when the
    figure is drawn, copy the first tick of their axis, made here (by
    ``new_figure``'s grid, or a colour bar's locator).
    """
    return mpl.rc_context(_STYLE)


def _figure_function(draw: Callable[..., Figure]) -> Callable[..., Figure]:
    """A figure function drawn in the book's style."""

    @functools.wraps(draw)
    def styled(*args, **kwargs) -> Figure:
        with book_style():
            return draw(*args, **kwargs)

    return styled


class BookFigure(Figure):
    """A figure of the book. Shown in a notebook (and so on the website) as a
    PNG at ``PIXEL_DENSITY`` times the design resolution, displayed at its
    design width: the PNG records its dpi, the output its width.

    Its dpi is that resolution, because IPython prefers the PNG of
    matplotlib's inline backend (``%matplotlib inline``) to this bundle's,
    and that backend renders at the figure's dpi, trimmed to the drawing
    ("tight"). The bundle's PNG is rendered the same way, so its width is
    that of the PNG the page gets, whichever of the two it is.
    """

    def _repr_mimebundle_(self, include=None, exclude=None):
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=self.dpi, bbox_inches="tight")
        png = buffer.getvalue()
        width = int.from_bytes(png[16:20], "big")  # the PNG header's width
        data = {"image/png": base64.b64encode(png).decode("ascii")}
        return data, {"image/png": {"width": round(width * DESIGN_DPI / self.dpi)}}


def new_figure(
    width: float = FIGURE_WIDTH,
    height: float = 3.0,
    ncols: int = 1,
    nrows: int = 1,
    **kw,
):
    """A white-backed figure with ``nrows x ncols`` axes, sized for a book page.

    ``width`` and ``height`` are in inches at :data:`DESIGN_DPI`; the width
    is the page's figure width unless a figure is narrower (a square plot).
    White background on purpose: the figure stays readable when the site is
    shown in its dark theme. Returns ``(figure, axes)`` like ``plt.subplots``.
    """
    figure = BookFigure(
        figsize=(width, height),
        dpi=DESIGN_DPI * PIXEL_DENSITY,
        facecolor="white",
        layout="constrained",
    )
    axes = figure.subplots(nrows, ncols, squeeze=True, **kw)
    for ax in figure.axes:
        ax.set_facecolor("white")
        ax.grid(True, color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    return figure, axes
