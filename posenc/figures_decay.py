"""Figures of the decay of the inner product: the integral, its regimes and
other frequency schedules ("Why base^(-2i/d): the decay"), and where the
finite sum leaves the integral ("Finite d"). A chapter calls each as
``plots.<name>`` (:mod:`posenc.plots` re-exports them).
"""

from __future__ import annotations

import math

import numpy as np

from .figure_style import INK, PALETTE, _figure_function, new_figure

__all__ = [
    "decay_comparison_figure",
    "decay_law_figure",
    "schedule_integrals_figure",
    "aliasing_figure",
    "rms_law_figure",
]


# ----------------------------------------- chapter "Why base^(-2i/d): the decay"


@_figure_function
def decay_comparison_figure(fine, integral, whole, normalised, d: int):
    """Figure: the integral I(Delta) and the exact normalised sum, side by side.

    ``integral`` is I at the offsets ``fine`` (a line); ``normalised`` is
    g(Delta)/(d/2) at the integer offsets ``whole`` (dots).
    """
    delta_max = np.max(np.abs(fine))
    figure, ax = new_figure(height=3.3)
    ax.plot(
        fine,
        integral,
        color=PALETTE["black"],
        lw=1.6,
        label=r"integral $\int_0^1 \cos(\Delta\,\mathrm{base}^{-\tau})\,d\tau$",
    )
    ax.plot(
        whole,
        normalised,
        ".",
        ms=3,
        color=PALETTE["vermillion"],
        label=rf"sum $g(\Delta)/(d/2)$, $d = {d}$",
    )
    ax.set_xlabel(r"offset $\Delta = m - n$")
    ax.set_ylabel("normalised inner product")
    ax.set_xlim(-delta_max, delta_max)
    figure.legend(loc="outside upper center", markerscale=2)
    return figure


@_figure_function
def decay_law_figure(regimes: dict, base: float, first_zero: float):
    """Figure: the integral and its regimes on a logarithmic offset axis.

    ``regimes`` is :func:`posenc.decay_regimes` for ``base``; ``first_zero``
    is where the integral first vanishes, as the chapter computes it (a
    vertical line, labelled with that value).
    """
    figure, ax = new_figure(height=4.2)
    ax.semilogx(
        regimes["delta"],
        regimes["integral"],
        color=PALETTE["black"],
        lw=1.4,
        label=r"exact $I(\Delta)$",
    )
    ax.semilogx(
        regimes["near"],
        regimes["log_law"],
        "--",
        color=PALETTE["orange"],
        lw=2,
        label=r"log law $1 - (\ln\Delta + \gamma)/\ln \mathrm{base}$",
    )
    far, envelope = regimes["far"], regimes["envelope"]
    ax.semilogx(
        far,
        envelope,
        ":",
        color=PALETTE["blue"],
        lw=2,
        label=r"envelope $\pm(1+\mathrm{base})/(\Delta \ln \mathrm{base})$",
    )
    ax.semilogx(far, -envelope, ":", color=PALETTE["blue"], lw=2)
    ax.axvline(first_zero, color=PALETTE["purple"], lw=1)
    ax.annotate(
        f"first zero\n= {first_zero:,.2f}\n≈ 0.6165·base",
        (first_zero, 0.7),
        xytext=(8, 0),
        textcoords="offset points",
        color=INK["purple"],
    )
    ax.axhline(0, color="#888888", lw=0.6)
    ax.set_ylim(-0.25, 1.05)
    ax.set_xlabel(r"offset $\Delta$ (log scale)")
    ax.set_ylabel(r"$I(\Delta)$")
    ax.set_title(f"base = {base:g}")
    figure.legend(loc="outside lower center")
    return figure


_SCHEDULE_STYLES = {
    "exponential": (r"$\mathrm{base}^{-\tau}$", "-"),
    "linear": (r"$\tau$", "--"),
    "square": (r"$\tau^2$", "-."),
    "sqrt": (r"$\sqrt{\tau}$", ":"),
}
_SCHEDULE_COLOURS = {
    ("exponential", 1e2): "sky",
    ("exponential", 1e3): "blue",
    ("exponential", 1e4): "black",
    ("exponential", 1e5): "green",
    ("linear", None): "vermillion",
    ("square", None): "orange",
    ("sqrt", None): "purple",
}


@_figure_function
def schedule_integrals_figure(panels):
    """Figure: the integral for several schedules theta(tau), short and long range.

    ``panels`` is two pairs ``(delta, curves)``, short range then long range,
    with ``curves`` from :func:`posenc.schedule_integrals`: a map from
    ``(schedule, base)`` to the integral at ``delta``.
    """
    figure, axes = new_figure(height=5.4, nrows=2, sharey=True)
    for ax, (delta, curves), title in zip(
        axes, panels, ("(a) short range", "(b) long range"), strict=True
    ):
        for (schedule, base), values in curves.items():
            label, style = _SCHEDULE_STYLES[schedule]
            if base is not None:
                label = rf"$(10^{{{int(np.log10(base))}}})^{{-\tau}}$"
            colour = PALETTE[_SCHEDULE_COLOURS.get((schedule, base), "black")]
            ax.plot(delta, values, style, color=colour, lw=1.4, label=label)
        ax.axhline(0, color="#888888", lw=0.6)
        ax.set_xlim(0, np.max(delta))
        ax.set_xlabel(r"offset $\Delta$")
        ax.set_title(title)
    figure.supylabel(r"$\int_0^1 \cos(\Delta\,\theta(\tau))\,d\tau$")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(
        handles, labels, loc="outside lower center", ncol=4, title=r"$\theta(\tau)$"
    )
    return figure


# ------------------------------------------------------- chapter "Finite d"


@_figure_function
def aliasing_figure(curves: dict, staircase):
    """Figure: the sum's error after the endpoint term, against Delta / Delta_1.

    ``curves`` maps ``(d, base)`` to :func:`posenc.aliasing_error`: binned
    rms of the error, times sqrt(d ln base), against the offset over the
    alias threshold (up to five cases). ``staircase`` is a pair ``(ratio,
    sqrt(harmonic(floor(ratio))))``, the rms law in these units.
    """
    figure, ax = new_figure(height=4.6)
    colours = [PALETTE[c] for c in ("blue", "orange", "green", "vermillion", "purple")]
    markers = "osD^v"
    for ((d, base), binned), colour, marker in zip(
        curves.items(), colours, markers, strict=False
    ):
        ax.loglog(
            binned["ratio"],
            binned["scaled"],
            marker,
            ms=4,
            color=colour,
            label=f"d = {d}, base = {base:g}",
        )
    ax.loglog(
        *staircase,
        color=PALETTE["black"],
        lw=1.4,
        label=r"rms law $\sqrt{\mathcal{H}_{\lfloor r\rfloor}}$, "
        r"$r = \Delta/\Delta_1$",
    )
    ax.axvline(1, color=PALETTE["black"], lw=1, ls="--")
    ax.annotate(
        r"$\Delta_1 = \pi d/\ln\mathrm{base}$",
        (1, 2.2),
        xytext=(-4, 0),
        textcoords="offset points",
        ha="right",
    )
    ax.axvline(0.5, color="#888888", lw=1, ls=":")
    ax.annotate(
        r"$\Delta^* \approx \Delta_1/2$",
        (0.5, 0.7),
        xytext=(-4, 0),
        textcoords="offset points",
        ha="right",
        color="#555555",
    )
    ax.set_xlabel(r"offset over the alias threshold, $\Delta/\Delta_1$")
    ax.set_ylabel(r"rms error $\times \sqrt{d\,\ln\mathrm{base}}$")
    ax.set_xlim(0.05, 40)
    ax.set_ylim(8e-3, 4)
    figure.legend(loc="outside lower center", ncol=2)
    return figure


@_figure_function
def rms_law_figure(rms: dict, scaled_far, level_band: float = 0.1):
    """Figure: (a) the fluctuation's rms against the offset, (b) no floor.

    ``rms`` is :func:`posenc.alias_rms`. ``scaled_far`` is sqrt(d) g/(d/2)
    at offsets beyond about base times Delta_1 / 2 (where the rms has reached
    1/sqrt(d); decay_finite_d), drawn as a histogram against the
    standard normal density, with the band of values below ``level_band`` in
    size shaded.
    """
    figure, (left, right) = new_figure(height=5.5, nrows=2)
    centres = rms["centres"]
    colours = ["vermillion", "green"]
    for (d, error), name in zip(rms["error"].items(), colours, strict=True):
        colour = PALETTE[name]
        left.loglog(
            centres, error, "o", ms=3.5, color=colour, label=f"error E, d = {d}"
        )
        left.loglog(centres, rms["law"][d], "-", color=colour, lw=1.2)
        left.axhline(1 / np.sqrt(d), color=colour, ls="--", lw=1)
        left.annotate(
            rf"$1/\sqrt{{{d}}}$",
            (1.5, 1 / np.sqrt(d)),
            xytext=(0, 3),
            textcoords="offset points",
            color=INK[name],
        )
    left.loglog(
        centres, rms["integral"], color=PALETTE["black"], lw=1.4, label="integral"
    )
    left.plot([], [], "-", color="#666666", lw=1.2, label="rms law")
    left.set_ylim(1e-4, 1e2)  # the decade above 1 holds the legend
    left.set_xlabel(r"offset $\Delta$ (log scale)")
    left.set_ylabel(r"rms over offsets near $\Delta$")
    left.set_title("(a) fluctuation about the integral")
    left.legend(loc="upper right", ncol=2)

    right.axvspan(
        -level_band,
        level_band,
        color=PALETTE["sky"],
        alpha=0.5,
        lw=0,
        label=rf"below {level_band:g} in size",
    )
    right.hist(
        scaled_far,
        bins=np.linspace(-4, 4, 81),
        density=True,
        color=PALETTE["vermillion"],
        alpha=0.6,
        label="sum, far offsets",
    )
    x = np.linspace(-4, 4, 401)
    right.plot(
        x,
        np.exp(-(x**2) / 2) / math.sqrt(2 * math.pi),
        color=PALETTE["black"],
        lw=1.4,
        label="standard normal",
    )
    right.set_xlim(-4, 4)
    right.set_ylim(0, 0.56)  # room for the legend above the bell
    right.set_xlabel(r"$\sqrt{d}\; g(\Delta)/(d/2)$")
    right.set_ylabel("density")
    right.set_title(r"(b) far out, $\Delta \geq \mathrm{base}\,\Delta_1/2$: no floor")
    right.legend(loc="upper right")
    return figure
