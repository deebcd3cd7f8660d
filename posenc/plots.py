"""Figure style shared by every chapter: colours, sizes, and a figure factory.

Nothing here touches matplotlib's global state: figures are created as
``matplotlib.figure.Figure`` objects (not through pyplot), so importing this
module changes no rcParams and leaves no figure open.
"""

from __future__ import annotations

import io

from matplotlib.figure import Figure

__all__ = ["PALETTE", "DIVERGING", "SEQUENTIAL", "new_figure", "png_bytes"]

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

#: Colour map for values in [-1, 1] (sines and cosines): blue–white–red reads
#: under the common colour-vision deficiencies and in greyscale by lightness.
DIVERGING = "RdBu_r"
#: Colour map for magnitudes: perceptually uniform and colour-blind-safe.
SEQUENTIAL = "cividis"

_FONT_SIZE = 11


def new_figure(
    width: float = 7.0, height: float = 3.6, ncols: int = 1, nrows: int = 1, **kw
):
    """A white-backed figure with ``nrows x ncols`` axes, sized for a book page.

    White background on purpose: the figure stays readable when the site is
    shown in its dark theme. Returns ``(figure, axes)`` like ``plt.subplots``.
    """
    figure = Figure(
        figsize=(width, height), dpi=100, facecolor="white", layout="constrained"
    )
    axes = figure.subplots(nrows, ncols, squeeze=True, **kw)
    for ax in figure.axes:
        ax.set_facecolor("white")
        ax.tick_params(labelsize=_FONT_SIZE - 1)
        ax.xaxis.label.set_size(_FONT_SIZE)
        ax.yaxis.label.set_size(_FONT_SIZE)
        ax.title.set_size(_FONT_SIZE + 1)
        ax.grid(True, color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    return figure, axes


def png_bytes(figure: Figure, dpi: float = 100, compress_level: int = 6) -> bytes:
    """Render ``figure`` to PNG bytes (lower ``compress_level`` renders faster)."""
    buffer = io.BytesIO()
    figure.savefig(
        buffer,
        format="png",
        dpi=dpi,
        facecolor=figure.get_facecolor(),
        pil_kwargs={"compress_level": compress_level},
        metadata={"Software": None},
    )
    return buffer.getvalue()


# ------------------------------------------------------------ chapter figures


def inner_product_figure(d: int = 64, base: float = 1e4, delta_max: int = 200):
    """Figure: the normalised inner product <p_m, p_n> / (d/2) against the offset.

    Used in the chapter "The encoding we are going to explain".
    """
    import numpy as np

    from . import core

    delta = np.arange(-delta_max, delta_max + 1)
    figure, ax = new_figure(7.0, 3.2)
    ax.plot(
        delta,
        core.inner_product(delta, d, base) / (d / 2),
        color=PALETTE["blue"],
        lw=1.4,
    )
    ax.axhline(0, color=PALETTE["black"], lw=0.8)
    ax.set_xlabel(r"offset $\Delta = m - n$ (positions)")
    ax.set_ylabel(r"$\langle p_m, p_n\rangle \,/\, (d/2)$")
    ax.set_xlim(-delta_max, delta_max)
    ax.set_title(f"Inner product of two encodings, d = {d}, base = {base:g}")
    return figure


def orderings_figure(orderings, plain, encoded):
    """Figure: a pooled model's output for every ordering of a sentence.

    ``orderings`` are labels (one per ordering); ``plain`` and ``encoded`` are
    the outputs without and with position encodings added. Used in the
    chapter "Attention cannot see order".
    """
    import numpy as np

    positions = np.arange(len(orderings))
    figure, ax = new_figure(7.0, 3.4)
    width = 0.38
    ax.bar(positions - width / 2, plain, width, color=PALETTE["sky"], label="tokens only")
    ax.bar(
        positions + width / 2,
        encoded,
        width,
        color=PALETTE["vermillion"],
        hatch="//",
        edgecolor="white",
        label="tokens + position encodings",
    )
    ax.set_xticks(positions, orderings, rotation=15)
    ax.set_ylabel("pooled output f")
    ax.axhline(0, color=PALETTE["black"], lw=0.8)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)
    ax.grid(axis="x", visible=False)
    return figure


def remainder_figure(scales, first_order, second_order):
    """Figure: Taylor remainders against the size of the perturbation, log-log.

    Reference lines of slope 2 and 3 pass through the first data point of
    each curve. Used in the chapter "A Taylor expansion isolates relative
    position".
    """
    import numpy as np

    scales = np.asarray(scales)
    figure, ax = new_figure(6.4, 3.8)
    curves = [
        (first_order, 2, PALETTE["orange"], "s", "after the first-order terms"),
        (second_order, 3, PALETTE["blue"], "o", "after the second-order terms"),
    ]
    for values, slope, colour, marker, label in curves:
        values = np.abs(np.asarray(values))
        ax.loglog(scales, values, marker, color=colour, ms=5, label=label)
        reference = values[0] * (scales / scales[0]) ** slope
        ax.loglog(scales, reference, "--", color=colour, lw=1, label=f"slope {slope}")
    ax.set_xlabel(r"size $s$ of the position vectors ($p = s\,\hat p$)")
    ax.set_ylabel("|remainder|")
    ax.legend(frameon=False, fontsize=9)
    return figure
