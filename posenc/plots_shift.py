"""The figure of the chapter "A shift is a rotation".

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_shift.shift_attention_figure``; :mod:`posenc.plots` does not
re-export it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from posenc.figure_style import PALETTE, _figure_function, new_figure

__all__ = ["shift_attention_figure"]


@_figure_function
def shift_attention_figure(scores, shift: int, delta, curves: dict) -> Figure:
    """Figure: the position scores of a layer whose H is the shift T(l).

    Above, ``scores`` as a heat map: the matrix of p_m^T T(l) p_n / (d/2)
    for query positions m (rows) and key positions n (columns), 0 ... L-1,
    NaN where n > m (keys after the query, masked); a dashed line follows
    n = m - ``shift``. Below, one line per entry of ``curves``, which maps
    a query position m to its scores at the offsets ``delta`` = m - n (keys
    ``delta`` positions back); a dotted line marks ``shift``. Used in the
    chapter "A shift is a rotation", figure fig-shift-attention.
    """
    scores = np.asarray(scores, dtype=float)
    delta = np.asarray(delta, dtype=float)
    count = len(scores)
    figure, (top, bottom) = new_figure(
        height=5.4, nrows=2, gridspec_kw={"height_ratios": [3.1, 2.0]}
    )
    image = top.imshow(
        scores,
        cmap="viridis",
        vmin=float(np.nanmin(scores)),
        vmax=1.0,
        interpolation="nearest",
        extent=(-0.5, count - 0.5, count - 0.5, -0.5),
    )
    figure.colorbar(image, ax=top, label="score / (d/2)")
    top.plot(
        [0, count - 1 - shift], [shift, count - 1], "--", color=PALETTE["black"], lw=1.0
    )
    top.annotate(
        f"dashed: n = m − {shift}",
        (count - 1, 1),
        ha="right",
        va="top",
        color=PALETTE["black"],
    )
    top.set_xlabel("key position n")
    top.set_ylabel("query position m")
    top.grid(False)
    styles = [("-", PALETTE["blue"], None), ("", PALETTE["vermillion"], "o")]
    for (query, values), (line, colour, marker) in zip(
        curves.items(), styles, strict=False
    ):
        bottom.plot(
            delta,
            np.asarray(values, dtype=float),
            linestyle=line,
            marker=marker,
            ms=3.5,
            color=colour,
            label=f"query at m = {query:,}",
        )
    bottom.axvline(shift, color="#555555", lw=1.0, ls=":")
    bottom.set_xlim(float(delta.min()) - 0.5, float(delta.max()) + 0.5)
    bottom.set_xlabel("keys back, m − n")
    bottom.set_ylabel("score / (d/2)")
    figure.legend(loc="outside lower center", ncol=2)
    return figure
