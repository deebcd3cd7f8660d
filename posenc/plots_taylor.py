"""The figure of the chapter "A Taylor expansion isolates relative position".

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_taylor.sines_pairs_gram_figure``; :mod:`posenc.plots` does not
re-export it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MultipleLocator

from posenc.figure_style import DIVERGING, _figure_function, new_figure

__all__ = ["sines_pairs_gram_figure"]

#: The figure's size in inches at DESIGN_DPI: 340 x 500 CSS px, narrow
#: enough for a phone's column (358 px at 390) to show it unshrunk.
WIDTH, HEIGHT = 3.4, 5.0


@_figure_function
def sines_pairs_gram_figure(sines, pairs, label: str) -> Figure:
    """Figure: two Gram matrices, stacked: sines alone over sine–cosine pairs.

    ``sines`` and ``pairs`` are square matrices of <p_m, p_n> for positions
    m, n = 0 … len − 1 (rows m, columns n), with values in [−1, 1]:
    ``sines`` for the encoding of sines alone, p_t = (sin tθ_i)_i, whose
    products carry a part in m + n; ``pairs`` for sine and cosine in pairs,
    constant along every diagonal m − n = const. ``label`` names the
    values on the shared colour bar. Each cell is one pair (m, n), drawn
    as a flat block (no smoothing between neighbours).

    The figure is narrower than the page's figure width, so that a phone
    (390 px) shows it at its design size: its text stays at 13.9 px there.
    Used in the chapter "A Taylor expansion isolates relative position".
    """
    sines, pairs = np.asarray(sines, dtype=float), np.asarray(pairs, dtype=float)
    count = len(sines)
    figure, axes = new_figure(width=WIDTH, height=HEIGHT, nrows=2, sharex=True)
    cells = {
        "cmap": DIVERGING,
        "vmin": -1.0,
        "vmax": 1.0,
        "interpolation": "nearest",
        "interpolation_stage": "data",
        "extent": (-0.5, count - 0.5, count - 0.5, -0.5),
    }
    for ax, gram, title in [
        (axes[0], sines, "sines alone"),
        (axes[1], pairs, "sine–cosine pairs"),
    ]:
        image = ax.imshow(gram, **cells)
        ax.set_title(title)
        ax.set_ylabel("position m")
        ax.xaxis.set_major_locator(MultipleLocator(10))
        ax.yaxis.set_major_locator(MultipleLocator(10))
        ax.grid(False)
    axes[1].set_xlabel("position n")
    colorbar = figure.colorbar(image, ax=axes, shrink=0.6, label=label)
    colorbar.set_ticks([-1.0, -0.5, 0.0, 0.5, 1.0])
    return figure
