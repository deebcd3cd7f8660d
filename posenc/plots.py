"""Every static figure of the book, and the style they share.

Each ``*_figure`` function draws data it is given and computes nothing that
a chapter could assert on: the chapter computes the numbers with a maths
function of :mod:`posenc`, checks them, and passes the same arrays here. The
function returns a ``matplotlib.figure.Figure``.

Nothing here touches matplotlib's global state: figures are created as
``Figure`` objects (not through pyplot), so importing this module changes no
rcParams and leaves no figure open.
"""

from __future__ import annotations

import base64
import functools
import io
import math
from collections.abc import Callable

import matplotlib as mpl
import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

__all__ = [
    "PALETTE",
    "DIVERGING",
    "SEQUENTIAL",
    "DESIGN_DPI",
    "PIXEL_DENSITY",
    "FIGURE_WIDTH",
    "MAX_HEIGHT",
    "TEXT",
    "SMALLEST_TEXT_PT",
    "INK",
    "BookFigure",
    "book_style",
    "new_figure",
    "similarity_figure",
    "inner_product_figure",
    "orderings_figure",
    "decay_comparison_figure",
    "decay_law_figure",
    "aliasing_figure",
    "rms_law_figure",
    "schedule_integrals_figure",
    "leakage_figure",
    "column_fit_figure",
    "rope_decay_figure",
    "codebase_schedules_figure",
    "column_match_figure",
    "offset_figure",
    "rope_pairing_figure",
    "error_growth_figure",
    "distance_figure",
    "rule_figure",
    "scaling_figure",
    "taylor_scale_figure",
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
    drawn inside this block (the figure functions below, and
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


# ------------------------------------------------ the introduction


@_figure_function
def similarity_figure(gram, d: int, base: float, offset: int = 32):
    """Figure: how alike the encodings of every two positions are, as a heat map.

    ``gram`` is the matrix of <p_m, p_n> / (d/2) for m, n = 0 ... len - 1
    (from :func:`posenc.encoding`); it is constant along each diagonal
    m - n = const, which is what the book derives. A dashed line follows the
    diagonal m - n = ``offset``. Used in the introduction.
    """
    count = len(gram)
    figure, ax = new_figure(height=4.1)
    image = ax.imshow(
        gram,
        cmap="viridis",
        vmin=float(np.min(gram)),
        vmax=1.0,
        interpolation="nearest",
        extent=(-0.5, count - 0.5, count - 0.5, -0.5),
    )
    figure.colorbar(image, ax=ax, label=r"$\langle p_m, p_n\rangle \,/\, (d/2)$")
    ax.plot([0, count - 1 - offset], [offset, count - 1], "--", color="white", lw=1.5)
    ax.annotate(
        f"dashed: m − n = {offset},\none value all along",
        (1, count - 2),
        ha="left",
        va="bottom",
        color="white",
    )
    ax.set_xlabel("position n")
    ax.set_ylabel("position m")
    ax.set_title(f"d = {d}, base = {base:g}")
    ax.grid(False)
    return figure


# ------------------------------------------------ chapter "the encoding"


@_figure_function
def inner_product_figure(delta, normalised, d: int, base: float):
    """Figure: the normalised inner product <p_m, p_n> / (d/2) against the offset.

    ``normalised`` is ``posenc.inner_product(delta, d, base) / (d / 2)`` at the
    offsets ``delta`` (symmetric about 0). Used in the chapter "The encoding
    we are going to explain".
    """
    delta_max = np.max(np.abs(delta))
    figure, ax = new_figure(height=3.0)
    ax.plot(delta, normalised, color=PALETTE["blue"], lw=1.4)
    ax.axhline(0, color=PALETTE["black"], lw=0.8)
    ax.set_xlabel(r"offset $\Delta = m - n$ (positions)")
    ax.set_ylabel(r"$\langle p_m, p_n\rangle \,/\, (d/2)$")
    ax.set_xlim(-delta_max, delta_max)
    ax.set_title(f"Inner product of two encodings, d = {d}, base = {base:g}")
    return figure


# -------------------------------------------- chapter "attention cannot see order"


@_figure_function
def orderings_figure(orderings, plain, encoded):
    """Figure: a pooled model's output for every ordering of a sentence.

    ``orderings`` are labels (one per ordering); ``plain`` and ``encoded`` are
    the outputs without and with position encodings added. Used in the
    chapter "Attention cannot see order".
    """
    positions = np.arange(len(orderings))
    # Horizontal bars: the orderings are read as text, along the axis.
    figure, ax = new_figure(height=0.42 * len(orderings) + 1.3)
    width = 0.38
    ax.barh(
        positions - width / 2, plain, width, color=PALETTE["sky"], label="tokens only"
    )
    ax.barh(
        positions + width / 2,
        encoded,
        width,
        color=PALETTE["vermillion"],
        hatch="//",
        edgecolor="white",
        label="tokens + position encodings",
    )
    ax.set_yticks(positions, orderings)
    ax.invert_yaxis()  # the first ordering on top
    ax.set_xlabel("pooled output f")
    ax.axvline(0, color=PALETTE["black"], lw=0.8)
    figure.legend(loc="outside upper center", ncol=2)
    ax.grid(axis="y", visible=False)
    return figure


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


# ------------------------------------------------- chapter "general H"


@_figure_function
def leakage_figure(strengths, curves: dict):
    """Figure: offset leakage of p_m^T H p_n against the perturbation strength.

    ``curves`` is :func:`posenc.leakage_curves` at ``strengths``: the mean
    leakage for each kind of perturbation. A leakage of 0 is drawn at 1e-12,
    below the axis.
    """
    figure, ax = new_figure(height=3.8)
    styles = [
        ("full", PALETTE["vermillion"], "o", "dense G"),
        ("diagonal", PALETTE["blue"], "s", "diagonal G (unequal pairs)"),
        ("rotation blocks", PALETTE["green"], "D", "2×2 blocks aI + bJ"),
    ]
    for kind, colour, marker, label in styles:
        ax.loglog(
            strengths,
            np.maximum(curves[kind], 1e-12),
            marker + "-",
            color=colour,
            ms=4,
            label=label,
        )
    ax.set_ylim(1e-6, 1.5)
    ax.set_xlabel(
        r"strength $\varepsilon$ of the perturbation, $H = I + \varepsilon G$"
    )
    ax.set_ylabel("offset leakage")
    ax.legend(loc="upper left")
    ax.annotate(
        "rotation blocks: 0 (drawn at 1e-12, off the axis)",
        (0.012, 2e-6),
        color=INK["green"],
    )
    return figure


# ------------------------------------------------- chapter "a shift is a rotation"


@_figure_function
def column_fit_figure(fits: dict):
    """Figure: R^2 of the per-column linear fit of p_{t+l} on p_t against l theta_i.

    ``fits`` maps each shift l (up to seven) to ``(phase, r_squared)``: every
    column's l theta_i reduced modulo pi, and its R^2 from
    :func:`posenc.column_fit`. The curve is cos^2. Used in the chapter "A
    shift is a rotation".
    """
    figure, ax = new_figure(height=4.0)
    markers = "os^Dv<>"
    colours = [
        PALETTE[c]
        for c in ("blue", "orange", "green", "vermillion", "sky", "purple", "black")
    ]
    for (k, (phase, r_squared)), marker, colour in zip(
        fits.items(), markers, colours, strict=False
    ):
        ax.plot(
            phase,
            r_squared,
            marker,
            color=colour,
            ms=4,
            alpha=0.8,
            label=f"ℓ = {k}",
        )
    phase = np.linspace(0, np.pi, 400)
    ax.plot(
        phase,
        np.cos(phase) ** 2,
        color="#555555",
        lw=1.2,
        label=r"$\cos^2(\ell\theta_i)$",
    )
    ax.set_xticks(
        [0, np.pi / 4, np.pi / 2, 3 * np.pi / 4, np.pi],
        ["0", "π/4", "π/2", "3π/4", "π"],
    )
    ax.set_xlabel(r"$\ell\,\theta_i$ modulo $\pi$")
    ax.set_ylabel(r"$R^2$ of the per-column fit")
    figure.legend(loc="outside lower center", ncol=4)
    return figure


# ------------------------------------------------- chapter "RoPE"


@_figure_function
def rope_decay_figure(delta, scores: dict):
    """Figure: RoFormer's bound against actual RoPE scores, as functions of m - n.

    ``scores`` is :func:`posenc.rope_scores` at the offsets ``delta``: (a) the
    relative bound; (b) the normalised scores, the mean over random q = k
    against its expectation g(m - n)/(d/2), and the 10th to 90th percentile
    of random independent q, k. Used in the chapter "From adding to rotating:
    RoPE".
    """
    samples = scores["independent"].shape[0]
    figure, (left, right) = new_figure(height=5.4, nrows=2)
    left.plot(delta, scores["bound"], color=PALETTE["black"], lw=1.4)
    left.set_xlabel(r"relative distance $m - n$")
    left.set_ylabel(r"$\sum_j |Z_j(m - n)|\,/\,(d/2)$")
    left.set_title("(a) RoFormer's relative upper bound")

    right.fill_between(
        delta,
        *np.percentile(scores["independent"], [10, 90], axis=0),
        color=PALETTE["sky"],
        alpha=0.4,
        label="independent random q, k (10–90%)",
    )
    right.plot(
        delta,
        scores["aligned"],
        color=PALETTE["black"],
        lw=1.6,
        label=f"q = k random, mean of {samples}",
    )
    right.plot(
        delta,
        scores["expected"],
        "--",
        color=PALETTE["orange"],
        lw=1.6,
        label=r"$g(m-n)/(d/2)$: the expectation",
    )
    right.axhline(0, color="#888888", lw=0.6)
    right.set_xlabel(r"relative distance $m - n$")
    right.set_ylabel(r"score $\langle R_m q, R_n k\rangle / d$")
    right.set_title("(b) actual scores")
    right.legend(loc="upper right")
    return figure


# ------------------------------------------- chapter "the encoding in real code"


@_figure_function
def codebase_schedules_figure(frequencies: dict, ratios: dict):
    """Figure: the paper's frequencies and tensor2tensor's, and their ratio.

    Panel (a): ``frequencies["paper"]`` and ``frequencies["tensor2tensor"]``
    (one d) on a log axis, with their lowest frequencies marked. Panel (b):
    ``ratios`` maps each d to tensor2tensor's frequency over the paper's, pair
    by pair (:func:`posenc.schedule_ratio`).
    """
    figure, (left, right) = new_figure(height=5.4, nrows=2)
    paper, t2t = frequencies["paper"], frequencies["tensor2tensor"]
    d = 2 * len(paper)
    pair = np.arange(d // 2)
    left.semilogy(pair, paper, "o", ms=3.5, color=PALETTE["blue"], label="paper")
    left.semilogy(
        pair,
        t2t,
        "s",
        ms=3.5,
        mfc="none",
        color=PALETTE["vermillion"],
        label="tensor2tensor, fairseq, Whisper",
    )
    lowest = [
        (paper[-1], "blue", r"$\mathrm{base}^{-(1-2/d)}$", 4),
        (t2t[-1], "vermillion", r"$1/\mathrm{base}$", -3),
    ]
    for value, colour, text, shift in lowest:
        left.axhline(value, color=PALETTE[colour], lw=0.8, ls="--")
        left.annotate(
            text,
            (0, value),
            xytext=(2, shift),
            textcoords="offset points",
            va="bottom" if shift > 0 else "top",
            color=INK[colour],
        )
    left.set_ylim(bottom=min(lowest)[0] / 8)  # room for the lower label
    left.set_xlabel(f"pair index $i$ ($d = {d}$)")
    left.set_ylabel(r"frequency $\theta_i$ (rad per position)")
    left.set_title("(a) two schedules")
    left.legend(loc="upper right")
    styles = ["-", "--", ":", "-."]
    for index, (d, ratio) in enumerate(ratios.items()):
        pair = np.arange(d // 2)
        right.plot(
            pair / (d // 2 - 1),
            ratio,
            styles[index % len(styles)],
            color=PALETTE["black"],
            label=f"$d = {d}$",
        )
    right.set_xlabel(r"relative pair index $i/(d/2 - 1)$")
    right.set_ylabel("tensor2tensor / paper")
    right.set_title("(b) ratio of the frequencies")
    right.legend()
    return figure


@_figure_function
def column_match_figure(
    distances: dict,
    matches: dict,
    titles: tuple[str, str] = ("(a) Marian: a permutation", "(b) tensor2tensor: none"),
):
    """Figure: distances between the paper's columns and those of two others.

    ``distances`` maps the name of a code base to :func:`posenc.column_distances`
    of the paper's table (rows) against that code base's table (columns);
    ``matches`` maps the same names to ``(rows, columns)`` of the exact
    matches, marked with white dots; ``titles`` head the panels. The
    distances are drawn on a logarithmic scale with a floor at 1e-4, so that
    exact matches stand out from the low-frequency cosine columns, which are
    all close to 1 over a short stretch of positions.
    """
    figure, axes = new_figure(height=3.7, ncols=2, sharey=True)
    for ax, (name, distance), title in zip(
        axes, distances.items(), titles, strict=True
    ):
        floor = np.maximum(distance, 1e-4)  # exact matches sit at the floor
        image = ax.imshow(floor, cmap=SEQUENTIAL, norm=LogNorm(1e-4, 2.0))
        rows, cols = matches[name]
        ax.plot(cols, rows, "o", ms=4, color="white", mec="black", mew=0.6)
        ax.set_xlabel(f"column, {name}")
        ax.set_title(title)
        ax.grid(False)
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(MaxNLocator(integer=True))  # whole columns
    axes[0].set_ylabel("column of the paper's table")
    figure.colorbar(
        image, ax=axes, label="RMS distance between columns", location="bottom"
    )
    return figure


@_figure_function
def offset_figure(profiles: dict, anchors: tuple[int, int] = (0, 300)):
    """Figure: <p_m, p_(m+Delta)> / (d/2) against Delta, for two anchors m.

    One panel per entry of ``profiles`` (name -> :func:`posenc.offset_profiles`
    of a table at ``anchors``: one row per anchor). For an encoding whose
    inner products depend on the offset only, the two curves coincide.
    """
    names = list(profiles)
    figure, axes = new_figure(
        height=1.1 * len(names) + 1.0, nrows=len(names), sharex=True, sharey=True
    )
    axes = np.atleast_1d(axes).ravel()
    colours = [PALETTE["blue"], PALETTE["vermillion"]]
    for ax, name in zip(axes, names, strict=False):
        curves = profiles[name]
        offsets = np.arange(curves.shape[-1])
        for anchor, products, colour, style in zip(
            anchors, curves, colours, ["-", "--"], strict=True
        ):
            ax.plot(
                offsets, products, style, color=colour, lw=1.3, label=f"$m = {anchor}$"
            )
        ax.axhline(0, color=PALETTE["black"], lw=0.6)
        ax.set_title(name, loc="left")
    axes[-1].set_xlabel(r"offset $\Delta$")
    figure.supylabel(r"$\langle p_m, p_{m+\Delta}\rangle / (d/2)$")
    figure.legend(
        *axes[0].get_legend_handles_labels(), loc="outside upper right", ncol=2
    )
    return figure


_PAIRING_STYLES = {
    "interleaved": ("intended: interleaved", PALETTE["black"], "-"),
    "half-split": ("half-split code", PALETTE["blue"], "--"),
    "mixed": ("q interleaved, k half-split", PALETTE["vermillion"], "-"),
}


@_figure_function
def rope_pairing_figure(scores: dict, offset: int = 3):
    """Figure: attention scores when the two rotary pairings are mixed up.

    ``scores`` is :func:`posenc.pairing_scores` (k ``offset`` positions behind
    q). (a) The scores against the position m of q: intended (both
    interleaved), the same weights run by half-split code, and q and k
    rotated with different pairings. (b) The intended and the half-split
    scores against the offset, for q at position 500: equal at offset 0 only.
    """
    figure, (left, right) = new_figure(height=5.4, nrows=2)
    for name, values in scores["fixed"].items():
        label, colour, style = _PAIRING_STYLES[name]
        left.plot(scores["positions"], values, style, color=colour, lw=1.3, label=label)
    left.set_xlabel(f"position $m$ of q (k at $m - {offset}$)")
    left.set_ylabel(r"score $\langle R_m q,\ R_{m-\Delta} k\rangle$")
    left.set_title(f"(a) fixed offset $\\Delta = {offset}$")
    for name, values in scores["at_500"].items():
        label, colour, style = _PAIRING_STYLES[name]
        right.plot(scores["offsets"], values, style, color=colour, lw=1.3, label=label)
    right.set_xlabel(r"offset $\Delta$")
    right.set_ylabel(r"score $\langle R_{500}\, q,\ R_{500-\Delta} k\rangle$")
    right.set_title("(b) q at position 500")
    figure.legend(
        *left.get_legend_handles_labels(),
        loc="outside upper center",
        ncol=2,
    )
    return figure


# ------------------------------------------------- chapter "precision"


@_figure_function
def error_growth_figure(
    positions, errors: dict, lines: dict, per_column, column_bound, column_range
):
    """Figure: (a) error of each table against the position, log-log;
    (b) the error of each float32 column near the largest positions.

    ``errors`` maps a method (``"float32"``, ``"cast"``, ``"reduced"``) to the
    largest entry error at each of ``positions``. ``lines`` holds, at the same
    positions, ``"predicted"`` (t theta_1 2^-24) and the bounds of
    :func:`posenc.entry_error_bound` on pair 1, ``"float32"`` and
    ``"float64"``. ``per_column`` is the largest error of each column of the
    float32 table over the positions ``column_range = (low, high)``, and
    ``column_bound`` the float32 bound of each column at ``high``.
    """
    positions = np.asarray(positions, dtype=np.float64)
    d = len(per_column)
    figure, (left, right) = new_figure(height=5.5, nrows=2)
    styles = {
        "float32": (PALETTE["vermillion"], r"float32, $\theta_i$ rounded once"),
        "cast": (PALETTE["blue"], "(a) float64, then cast"),
        "reduced": (PALETTE["green"], "(b) reduced angle, float32"),
    }
    for method, (colour, label) in styles.items():
        left.loglog(positions, errors[method], ".", ms=2, color=colour, label=label)
    guides = {
        "predicted": ("--", "black", 1.2, r"$t\,\theta_1\,2^{-24}$"),
        "float32": (":", "black", 1.5, r"bound $2^{-23}(t\,\theta_1 + 1)$"),
        "float64": ("-.", "purple", 1.2, "float64 reference, bound"),
    }
    for name, (style, colour, width, label) in guides.items():
        left.loglog(
            positions, lines[name], style, color=PALETTE[colour], lw=width, label=label
        )
    left.set_xlabel("position $t$ (log scale)")
    left.set_ylabel("largest |error| of an entry")
    left.set_title(f"(a) error against position, d = {d}")
    left.set_ylim(1e-17, 3)
    # below its panel: the curves fill the axes from corner to corner
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, markerscale=4)

    columns = np.arange(len(per_column))
    low, high = column_range
    right.semilogy(
        columns, per_column, ".", ms=3, color=PALETTE["vermillion"], label="measured"
    )
    # pair 0 (columns 0, 1) has its own, much smaller bound: draw it apart
    right.semilogy(columns[2:], column_bound[2:], ":", color=PALETTE["black"], lw=1.5)
    right.semilogy(
        columns[:2],
        column_bound[:2],
        ":",
        color=PALETTE["black"],
        lw=1.5,
        label="bound",
    )
    right.annotate(
        "pair 0",
        (columns[1], per_column[1]),
        xytext=(8, -3),
        textcoords="offset points",
    )
    right.set_xlabel(r"column ($2i$: $\sin$, $2i+1$: $\cos$)")
    right.set_ylabel("largest |error|")
    right.set_title(f"(b) float32, positions {low:,.0f} to {high:,.0f}")
    right.legend()
    return figure


@_figure_function
def distance_figure(
    records: dict, max_length: int, dirichlet: dict, base: float = 10000.0
):
    """Figure: the smallest distance D(L) among L positions, for several d.

    ``records`` maps d to the pair ``(offsets, distances)`` of
    :func:`posenc.distance_records` scanned up to ``max_length - 1``;
    ``dirichlet`` maps some d to ``(lengths, bound)`` of
    :func:`posenc.dirichlet_bound`, drawn dotted. A dashed line marks
    2 pi base.
    """
    figure, ax = new_figure(height=4.4)
    colours = [
        PALETTE[name]
        for name in ("vermillion", "orange", "green", "sky", "blue", "purple", "black")
    ]
    for (d, (offsets, distances)), colour in zip(
        records.items(), colours, strict=False
    ):
        lengths = np.append(offsets + 1, max_length)
        values = np.append(distances, distances[-1])
        ax.step(lengths, values, where="post", color=colour, lw=1.6, label=f"d = {d}")
    named = "Dirichlet bound, d = " + ", ".join(str(d) for d in dirichlet)
    for index, (lengths, bound) in enumerate(dirichlet.values()):
        label = named if index == 0 else None  # each lies by its own d's steps
        ax.loglog(lengths, bound, ":", color=PALETTE["black"], lw=1, label=label)
    folk = 2 * math.pi * base
    ax.axvline(folk, color="#888888", lw=1, ls="--")
    # above the axes, clear of the curves and of the legend in the lower left
    ax.annotate(
        rf"$2\pi\cdot{base:g}$",
        (folk, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(0, 3),
        textcoords="offset points",
        ha="center",
        va="bottom",
        color="#555555",
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(2, max_length)
    ax.set_ylim(1e-8, 30)
    ax.set_xlabel("number of positions $L$ (log scale)")
    ax.set_ylabel(r"smallest distance $D(L)$")
    ax.legend(ncol=2, loc="lower left")
    return figure


_RULE_STYLES = {
    "float32": (PALETTE["vermillion"], "--", r"float32, $\theta_i$ rounded once"),
    "cast": (PALETTE["blue"], "-.", "float32, remedy (a)"),
    "float64": (PALETTE["purple"], ":", "float64"),
}


@_figure_function
def rule_figure(lengths, curves: dict, max_length: int, base: float = 10000.0):
    """Figure: D(L) against twice the error bound of each table, one panel per d.

    ``curves`` maps d to :func:`posenc.certification_curves` at ``lengths``
    (up to ``max_length``): the smallest distance, twice the row error bound
    of each method, and each method's certified length, marked where it ends
    before ``max_length``.
    """
    figure, axes = new_figure(
        height=2.2 * len(curves) + 0.9, nrows=len(curves), sharex=True, sharey=True
    )
    axes = np.atleast_1d(axes)
    for ax, (d, curve) in zip(axes, curves.items(), strict=True):
        ax.loglog(
            lengths, curve["distance"], color=PALETTE["black"], lw=1.8, label="$D(L)$"
        )
        for method, twice in curve["twice_error"].items():
            colour, style, label = _RULE_STYLES[method]
            ax.loglog(lengths, twice, style, color=colour, lw=1.5, label=label)
            end = curve["certified"][method]
            if end < max_length:
                ax.axvline(end, color=colour, lw=0.8)
        ax.set_xlim(2, max_length)
        ax.set_ylim(1e-17, 30)
        ax.set_title(f"d = {d}, base = {base:g}")
    axes[-1].set_xlabel("number of positions $L$ (log scale)")
    figure.supylabel("distance (solid), 2E (broken)")
    figure.legend(
        *axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2
    )
    return figure


# ------------------------------------------------- appendix "why sqrt(d)"


@_figure_function
def scaling_figure(dims, scaling: dict, keys: int = 64):
    """Figure: (a) variance of q.k against d; (b) softmax saturation without 1/sqrt(d).

    ``scaling`` is :func:`posenc.score_scaling` at ``dims`` (``keys`` keys per
    query). Used in the appendix "Why attention divides by sqrt(d)".
    """
    dims = np.asarray(dims)
    figure, (left, right) = new_figure(height=5.4, nrows=2)
    left.loglog(
        dims,
        scaling["variance"],
        "o-",
        color=PALETTE["vermillion"],
        label=r"$q\cdot k$",
    )
    left.loglog(
        dims,
        scaling["scaled_variance"],
        "s-",
        color=PALETTE["blue"],
        label=r"$q\cdot k/\sqrt{d_k}$",
    )
    left.loglog(dims, dims, ":", color="#777777", label=r"slope 1 (variance $= d_k$)")
    left.set_xlabel(r"key dimension $d_k$")
    left.set_ylabel("variance of the score")
    left.set_title(r"(a) the variance grows like $d_k$")
    left.set_ylim(top=30 * max(np.max(scaling["variance"]), np.max(dims)))
    left.legend(loc="upper left")  # above the curves: the axis reaches higher
    right.semilogx(
        dims,
        scaling["largest_weight"],
        "o-",
        color=PALETTE["vermillion"],
        label="unscaled",
    )
    right.semilogx(
        dims,
        scaling["scaled_largest_weight"],
        "s-",
        color=PALETTE["blue"],
        label=r"scaled by $1/\sqrt{d_k}$",
    )
    right.axhline(1 / keys, color="#777777", ls=":", label=f"uniform, 1/{keys}")
    right.set_ylim(0, 1.02)
    right.set_xlabel(r"key dimension $d_k$")
    right.set_ylabel(f"mean largest weight of {keys}")
    right.set_title("(b) unscaled softmax saturates")
    right.legend(loc="center right")
    return figure


# ------------------------------------------------- chapter "assumptions"


@_figure_function
def taylor_scale_figure(scales, first_error, second_error, actual: float = 1.0):
    """Figure: relative error of the Taylor expansion in the position vectors,
    against their scale, for a model; a line marks the encoding's real scale.

    Used in the chapter "The assumptions, revisited".
    """
    figure, ax = new_figure(height=3.6)
    ax.loglog(
        scales,
        first_error,
        "s-",
        color=PALETTE["orange"],
        ms=4,
        label="first-order expansion",
    )
    ax.loglog(
        scales,
        second_error,
        "o-",
        color=PALETTE["blue"],
        ms=4,
        label="second-order expansion (the derivation's)",
    )
    ax.axvline(actual, color=PALETTE["vermillion"], ls="--", lw=1.2)
    ax.annotate(
        "the encoding\nas added",
        (actual, 2e-4),
        xytext=(-70, 0),
        textcoords="offset points",
        color=INK["vermillion"],
    )
    ax.axhline(0.01, color="#888888", ls=":", lw=1)
    ax.set_xlabel(
        r"scale $\varepsilon$ of the added encoding, $x_t + \varepsilon\,p_t$"
    )
    ax.set_ylabel("relative error of the expansion")
    figure.legend(loc="outside upper center")
    return figure
