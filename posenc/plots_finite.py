"""The figure of the chapter "Finite d": where the sum leaves its integral.

It draws the arrays it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_finite.threshold_figure``; :mod:`posenc.plots` does not re-export
it.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from posenc.figure_style import INK, PALETTE, _figure_function, new_figure

__all__ = ["threshold_figure"]


def _base_text(base: float) -> str:
    """``10⁴`` for a power of ten, else the number as it is."""
    power = np.log10(base)
    if abs(power - round(power)) < 1e-12:
        digits = str(round(power)).translate(
            str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
        )
        return "10" + digits
    return f"{base:g}"


@_figure_function
def threshold_figure(
    delta,
    normalised,
    integral,
    threshold: float,
    spread,
    band: float,
    band_label: str,
    d: int,
    base: float,
) -> Figure:
    """Figure: the finite sum against its integral, and where they part.

    (a) ``normalised`` = g(Δ)/(d/2) (dots) and ``integral`` = I(Δ) (a line)
    at the offsets ``delta``; (b) their difference g(Δ)/(d/2) − I(Δ), with
    ``±spread`` (the predicted rms of the scatter, :func:`posenc.rms_law`;
    drawn where it is positive, past the threshold) and a shaded band
    ``±band``, labelled ``band_label`` (how closely the sum follows the
    integral below the threshold).
    A dashed line marks ``threshold`` = Δ₁ = πd/ln base in both panels.
    Used in the chapter "Finite d".
    """
    delta = np.asarray(delta, dtype=float)
    normalised = np.asarray(normalised, dtype=float)
    integral = np.asarray(integral, dtype=float)
    spread = np.asarray(spread, dtype=float)
    figure, (top, bottom) = new_figure(height=5.4, nrows=2, sharex=True)
    sum_style = {"ls": "none", "marker": ".", "ms": 2.5, "color": PALETTE["vermillion"]}
    top.plot(delta, normalised, label="sum g(Δ)/(d/2)", **sum_style)
    top.plot(delta, integral, color=PALETTE["black"], lw=1.4, label="integral I(Δ)")
    top.set_ylabel("normalised\ninner product")
    top.set_title(f"d = {d}, base = {_base_text(base)}")
    top.legend(loc="upper right", markerscale=3)
    past = np.where(spread > 0, spread, np.nan)
    bottom.plot(delta, normalised - integral, label="sum − integral", **sum_style)
    bottom.plot(delta, past, color=PALETTE["blue"], lw=1.2, label="± typical scatter")
    bottom.plot(delta, -past, color=PALETTE["blue"], lw=1.2)
    bottom.axhspan(
        -band,
        band,
        color=PALETTE["sky"],
        alpha=0.3,
        lw=0,
        label=band_label,
    )
    bottom.set_ylabel("sum − integral")
    bottom.set_xlabel("offset Δ = m − n")
    for ax in (top, bottom):
        ax.axvline(threshold, color=PALETTE["green"], ls="--", lw=1.2)
    top.annotate(
        f"Δ₁ = πd/ln base ≈ {threshold:.0f}",
        (threshold, 0.6),
        xycoords=("data", "axes fraction"),
        xytext=(5, 0),
        textcoords="offset points",
        color=INK["green"],
        va="top",
    )
    bottom.set_xlim(delta.min(), delta.max())
    figure.legend(
        handles=bottom.get_legend_handles_labels()[0],
        loc="outside lower center",
        ncol=3,
        markerscale=3,
    )
    return figure
