"""Explorers: figures with sliders, live in Jupyter and static in the book.

An :class:`Explorer` owns one matplotlib figure, built once. Its sliders are
:class:`Choice` objects that offer only valid values (``d`` even, ``base > 1``),
so a reader cannot ask for something the maths rejects. Moving a slider calls
:meth:`Explorer.update`, which recomputes the figure's data with a pure
function of the slider values and moves the existing artists: no figure is
rebuilt, nothing flickers.

Displayed in a notebook, an explorer offers two forms in one output:

* ``application/vnd.jupyter.widget-view+json`` -- the live ipywidgets version
  (sliders above a picture re-rendered on every change), which JupyterLab
  shows when a kernel runs;
* ``image/png`` -- the figure at the default slider values, which the built
  book shows (the book's configuration drops the widget view for HTML).

Tests drive explorers by calling :meth:`Explorer.update` with values and
reading back the plotted data.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from . import core, experiments, scaling
from .explorer import (
    BASE_CHOICES,
    D_CHOICES,
    LISTED,
    Choice,
    Explorer,
    _power_of_ten,
    base_choice,
    d_choice,
)
from .figure_style import (
    DIVERGING,
    PALETTE,
    TEXT,
    new_figure,
)
from .widgets_complex import OffsetClocksExplorer
from .widgets_decay import DecayExplorer, OffsetExplorer, range_choice
from .widgets_encoding import HEAT_MAP_COLUMNS, HEAT_MAP_GAP, EncodingExplorer
from .widgets_rope import RopePlanesExplorer
from .widgets_slides import SLIDE_FORMS
from .widgets_trained import AttentionOffsetExplorer

__all__ = [
    "Choice",
    "Explorer",
    "EXPLORERS",
    "EncodingExplorer",
    "ClockExplorer",
    "OffsetClocksExplorer",
    "RopePlanesExplorer",
    "SLIDE_FORMS",
    "AttentionOffsetExplorer",
    "DecayExplorer",
    "ScheduleExplorer",
    "CrossTermExplorer",
    "ShiftExplorer",
    "ScalingExplorer",
    "D_CHOICES",
    "BASE_CHOICES",
    "HEAT_MAP_COLUMNS",
    "HEAT_MAP_GAP",
]


# ------------------------------------------------------------------ explorers


def clock_hands(m: float, d: int, base: float) -> np.ndarray:
    """Data of :class:`ClockExplorer`: the tip of each pair's hand at position m.

    Row ``i`` is ``(cos m theta_i, sin m theta_i)``, the complex number
    ``exp(i m theta_i)``: the cosine-first pairs the derivation arrives at.
    """
    return core.encoding(m, d, base).reshape(d // 2, 2)[:, ::-1]


class ClockExplorer(Explorer):
    """One clock per frequency pair; its hand points at angle m * theta_i."""

    description = (
        "Rows of clock faces, one per frequency pair, fastest first; each hand "
        "points at the angle m times theta_i, so the fast pairs of the first "
        "row have turned far and the slow ones of the last row have barely moved."
    )
    choices = (
        Choice("m", "position m", (0, 1, 2, 3, 5, 8, 10, 20, 50, 100, 200, 500), 10),
        d_choice(32, (4, 8, 16, 32)),
        base_choice(1e4, (10.0, 100.0, 1e3, 1e4)),
    )
    #: Watching the hands turn as m grows is the demonstration.
    animated = ("m",)
    #: Six clocks a row: big enough to watch the hands turn at the design
    #: width, with room for each frequency under its clock.
    columns: ClassVar[int] = 6
    spacing: ClassVar[float] = 2.7

    def centres(self, count: int) -> np.ndarray:
        index = np.arange(count)
        return np.c_[index % self.columns, -(index // self.columns)] * self.spacing

    def build(self) -> Figure:
        figure, ax = new_figure(height=3.3)
        ax.set_aspect("equal")
        ax.axis("off")
        slots = max(self.choices[1].options) // 2
        rows = -(-slots // self.columns)
        ax.set_xlim(-1.3, (self.columns - 1) * self.spacing + 1.3)
        ax.set_ylim(-(rows - 1) * self.spacing - 1.9, 1.3)
        self.faces = LineCollection([], colors="#bbbbbb", linewidths=1.0)
        self.zeros = LineCollection([], colors="#bbbbbb", linewidths=1.0)
        self.hands = LineCollection([], colors=PALETTE["blue"], linewidths=2.4)
        for collection in (self.faces, self.zeros, self.hands):
            ax.add_collection(collection)
        (self.tips,) = ax.plot([], [], "o", color=PALETTE["vermillion"], ms=4)
        self.labels = [
            ax.text(x, y - 1.2, "", ha="center", va="top")
            for x, y in self.centres(slots)
        ]
        self.title = ax.set_title(" ")
        figure.supxlabel(
            "under each clock, its frequency θᵢ (i = 0, 1, … row by row)",
            size=TEXT["note"],
        )
        self.dynamic(self.faces, self.zeros, self.hands, self.tips, *self.labels)
        self.dynamic(self.title)
        return figure

    def draw(self, m: int, d: int, base: float) -> None:
        tips = clock_hands(m, d, base)
        centres = self.centres(d // 2)
        circle = np.c_[
            np.cos(np.linspace(0, 2 * np.pi, 61)), np.sin(np.linspace(0, 2 * np.pi, 61))
        ]
        self.faces.set_segments([centre + circle for centre in centres])
        self.zeros.set_segments([[c + (0.85, 0), c + (1.15, 0)] for c in centres])
        self.hands.set_segments(np.stack([centres, centres + 0.95 * tips], axis=1))
        self.tips.set_data(*(centres + 0.95 * tips).T)
        theta = core.frequencies(d, base)
        for index, label in enumerate(self.labels):
            label.set_text(f"{theta[index]:.3g}" if index < d // 2 else "")
        self.title.set_text(
            f"m = {m}, d = {d}, base = {_power_of_ten(base)}: hand i at angle m·θᵢ"
        )


def _subscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def schedule_data(schedule: str, d: int, delta_max: int) -> dict[str, np.ndarray]:
    """Data of :class:`ScheduleExplorer` (base 10^4 for the exponential schedule)."""
    delta = np.unique(np.round(np.linspace(0, delta_max, 2001)))
    theta = core.schedule_frequencies(d, schedule, 1e4)
    return {
        "delta": delta,
        "sum": np.cos(delta[:, None] * theta).sum(axis=1) / (d / 2),
        "integral": core.schedule_integral(delta, schedule, 1e4),
        "paper": core.decay_integral(delta, 1e4),
    }


_SCHEDULE_NAMES = {
    "exponential": "θ(τ) = 10000^(−τ) (the paper)",
    "linear": "θ(τ) = τ",
    "square": "θ(τ) = τ²",
    "sqrt": "θ(τ) = √τ",
}


class ScheduleExplorer(OffsetExplorer):
    """Other frequency schedules: their exact sum and integral, against the paper's."""

    description = (
        "For a chosen frequency schedule, the normalised sum of cosines as dots "
        "and its integral as a line, with the paper's integral in grey for "
        "comparison."
    )
    choices = (
        Choice(
            "schedule",
            "θ(τ)",
            core.DECAY_SCHEDULES,
            "linear",
            # the label says "θ(τ)": the buttons show the right-hand side
            format=lambda name: _SCHEDULE_NAMES[name].split(" (")[0].split(" = ")[1],
        ),
        d_choice(256, (64, 256, 1024)),
        range_choice((128, 1024, 8192), 128),
    )

    def build(self) -> Figure:
        figure, ax = new_figure(height=4.0)
        (self.paper,) = ax.plot(
            [], [], color="#aaaaaa", lw=2.5, label="the paper's integral"
        )
        (self.sum_line,) = ax.plot(
            [], [], ".", ms=2.5, color=PALETTE["vermillion"], label="exact sum / (d/2)"
        )
        (self.integral_line,) = ax.plot(
            [], [], color=PALETTE["blue"], lw=1.5, label="integral of this θ(τ)"
        )
        self._finish_offset_axes(ax, -0.65)
        self.dynamic(self.paper, self.sum_line, self.integral_line)
        return figure

    def draw(self, schedule: str, d: int, delta_max: int) -> None:
        data = schedule_data(schedule, d, delta_max)
        self.paper.set_data(data["delta"], data["paper"])
        self.sum_line.set_data(data["delta"], data["sum"])
        self.integral_line.set_data(data["delta"], data["integral"])
        self.ax.set_xlim(0, delta_max)
        self.title.set_text(f"{_SCHEDULE_NAMES[schedule]}, d = {d}")


def cross_term_data(kind: str, strength: float, d: int, length: int) -> dict:
    """Data of :class:`CrossTermExplorer`.

    ``c``: the cross terms p_m^T H p_n scaled to max |C| = 1; ``residual``: the
    scaled C minus its mean along each diagonal m - n = const (zero when C
    depends on the offset alone); ``leakage``: :func:`posenc.offset_leakage`.
    """
    h = experiments.perturbation(kind, strength, d)
    c = core.cross_terms(h, np.arange(length))
    c = c / np.abs(c).max()
    return {
        "c": c,
        "residual": c - core.diagonal_means(c),
        "leakage": core.offset_leakage(c),
    }


class CrossTermExplorer(Explorer):
    """The cross terms p_m^T H p_n, and what the offset m - n does not explain."""

    description = (
        "Two heat maps over positions m and n. Left, the cross term, constant "
        "along every diagonal when H is the identity. Right, what remains after "
        "subtracting the mean of each diagonal: blank for the identity, "
        "increasingly patterned as the perturbation grows."
    )
    choices = (
        Choice(
            "kind",
            "G",
            experiments.PERTURBATIONS,
            "full",
            format=lambda k: {"full": "dense", "diagonal": "diagonal"}.get(k, "aI+bJ"),
        ),
        Choice("strength", "ε", (0.0, 0.1, 0.3, 1.0, 3.0), 0.3),
    )
    d: ClassVar[int] = 64
    length: ClassVar[int] = 64

    def build(self) -> Figure:
        figure, (left, right) = new_figure(height=3.4, ncols=2, sharey=True)
        blank = np.zeros((self.length, self.length))
        # one block per pair of positions (~3 pixels each), not smoothed
        cells = {"cmap": DIVERGING, "interpolation": "nearest"}
        self.image = left.imshow(blank, vmin=-1, vmax=1, **cells)
        self.residual = right.imshow(blank, vmin=-0.3, vmax=0.3, **cells)
        for ax, image, label in [
            (left, self.image, "p_mᵀ H p_n  /  max |·|"),
            (right, self.residual, "minus mean along m − n"),
        ]:
            figure.colorbar(image, ax=ax, location="bottom", label=label)
            ax.set_xlabel("position n")
            ax.grid(False)
            self.dynamic(*ax.spines.values())
        left.set_ylabel("position m")
        left.set_title("cross term")
        self.title = right.set_title(" ")
        self.dynamic(self.image, self.residual, self.title)
        return figure

    def draw(self, kind: str, strength: float) -> None:
        data = cross_term_data(kind, strength, self.d, self.length)
        self.image.set_data(data["c"])
        self.residual.set_data(data["residual"])
        self.title.set_text(f"not explained: {data['leakage']:.1%}")


def shift_scatter(k: int, pair: int, d: int, base: float, count: int) -> dict:
    """Data of :class:`ShiftExplorer`: the sine column of one pair at t and t + k.

    ``x`` = p_{t,2i}, ``y`` = p_{t+k,2i} for t = 0 ... count-1, and the
    least-squares line y = alpha x + beta with its R^2 (from
    :func:`posenc.column_fit` over the same positions).
    """
    positions = np.arange(count)
    alpha, beta, r_squared = core.column_fit(k, d, base, positions)
    column = 2 * pair
    return {
        "x": core.encoding(positions, d, base)[:, column],
        "y": core.encoding(positions + k, d, base)[:, column],
        "alpha": alpha[column],
        "beta": beta[column],
        "r_squared": r_squared[column],
        "angle": k * core.frequencies(d, base)[pair],
    }


class ShiftExplorer(Explorer):
    """One coordinate of p_{t+l} against the same coordinate of p_t: an ellipse."""

    description = (
        "Scatter of the sine coordinate of one frequency pair at position t + ℓ "
        "against the same coordinate at position t: the points trace an "
        "ellipse, with the best straight-line fit drawn through it."
    )
    choices = (
        Choice("k", "shift ℓ", (0, 1, 2, 3, 5, 10, 20, 50), 5),
        Choice("pair", "pair i", tuple(range(8)), 0),
    )
    d: ClassVar[int] = 16
    base: ClassVar[float] = 1e4
    count: ClassVar[int] = 4000

    def build(self) -> Figure:
        figure, ax = new_figure(height=4.6)
        (self.points,) = ax.plot(
            [],
            [],
            ".",
            ms=2,
            color=PALETTE["blue"],
            alpha=0.5,
            label="positions t = 0 … 3999",
        )
        (self.fit,) = ax.plot(
            [], [], color=PALETTE["vermillion"], lw=2, label="best straight line"
        )
        ax.set_xlim(-1.1, 1.1)
        ax.set_ylim(-1.1, 1.45)
        ax.set_aspect("equal")
        ax.set_xlabel(r"$p_{t,2i} = \sin t\theta_i$")
        ax.set_ylabel(r"$p_{t+\ell,2i} = \sin (t+\ell)\theta_i$")
        legend = ax.legend(loc="upper center", ncol=2, markerscale=5)
        self.title = ax.set_title(" ")
        self.dynamic(self.points, self.fit, legend, *ax.spines.values(), self.title)
        return figure

    def draw(self, k: int, pair: int) -> None:
        data = shift_scatter(k, pair, self.d, self.base, self.count)
        self.points.set_data(data["x"], data["y"])
        line = np.array([-1.0, 1.0])
        self.fit.set_data(line, data["alpha"] * line + data["beta"])
        self.title.set_text(
            f"ℓ·θ{_subscript(pair)} = {data['angle']:.3g} rad:  R² = "
            f"{data['r_squared']:.3f},  cos²(ℓθ{_subscript(pair)}) = "
            f"{np.cos(data['angle']) ** 2:.3f}"
        )


_PLAIN_SUMS: dict[tuple[int, float, int], tuple[np.ndarray, int | None]] = {}


def scaling_data(
    method: str, factor: float, d: int, base: float, target: int, original: int
) -> dict:
    """Data of :class:`ScalingExplorer`.

    ``ratio``: theta'_i / theta_i after the scaling method, against the
    original ``wavelength`` 2 pi / theta_i; ``offsets`` (about 2000 integers,
    log-spaced, 1 to ``target``) with ``scaled`` and ``plain``, the sums
    g(Delta)/(d/2) with and without scaling; ``zero``: the first integer
    offset up to ``target`` where the scaled sum is negative (None if none),
    ``zero_plain`` the same without scaling; ``threshold``:
    :func:`posenc.phase_step_threshold` of the scaled frequencies;
    ``attention``: the method's attention factor. The dynamic method is
    evaluated at the length ``target``.
    """
    plain = core.frequencies(d, base)
    theta, attention = scaling.scaled_frequencies(
        d, base, method, factor, original_context=original, context=target
    )
    offsets = np.unique(np.round(np.geomspace(1, target, 2000))).astype(int)
    key = (d, base, target)
    if key not in _PLAIN_SUMS:  # the same for every method: computed once
        _PLAIN_SUMS[key] = (
            np.cos(np.multiply.outer(offsets.astype(float), plain)).sum(axis=1)
            / (d / 2),
            scaling.first_negative(plain, target),
        )
    plain_sums, zero_plain = _PLAIN_SUMS[key]
    scaled = np.cos(np.multiply.outer(offsets.astype(float), theta)).sum(axis=1)
    return {
        "wavelength": 2 * np.pi / plain,
        "ratio": theta / plain,
        "offsets": offsets,
        "scaled": scaled / (d / 2),
        "plain": plain_sums,
        "zero": scaling.first_negative(theta, target),
        "zero_plain": zero_plain,
        "threshold": scaling.phase_step_threshold(theta),
        "attention": attention,
    }


_METHOD_NAMES = {
    "none": "no scaling",
    "linear": "position interpolation",
    "ntk": "NTK-aware",
    "dynamic": "dynamic NTK",
    "yarn": "YaRN",
    "llama3": "Llama 3.1",
}


class ScalingExplorer(Explorer):
    """RoPE scaling methods: the frequencies they change, and the inner product."""

    description = (
        "Two stacked panels. Top: for each frequency pair, the factor by which "
        "the chosen scaling method multiplies its frequency, against the "
        "pair's wavelength on log axes, with the original context marked. "
        "Bottom: the normalised inner product of two positions against their "
        "offset on a log axis, after scaling (blue) and before (grey), with "
        "its first zero and the phase-step threshold marked."
    )
    choices = (
        Choice(
            "method",
            "method",
            scaling.SCALING_METHODS,
            "yarn",
            format=lambda name: _METHOD_NAMES[name],
        ),
        Choice("factor", "factor κ", (4.0, 8.0, 16.0), 8.0, format=lambda s: f"{s:g}"),
        d_choice(128, (64, 128)),
        base_choice(5e5, (1e4, 5e5)),
        Choice(
            "target",
            "target context",
            (32768, 131072),
            131072,
            format=lambda n: f"{n:,}",
        ),
    )
    #: The context of pre-training, fixed: Llama 3's 8192.
    original: ClassVar[int] = 8192

    def build(self) -> Figure:
        figure, (top, bottom) = new_figure(height=5.5, nrows=2)
        top.set_xscale("log")
        top.set_yscale("log")
        top.set_xlim(4, 2e7)
        top.set_ylim(2e-3, 1.6)  # dynamic NTK, 16 x 16 the context: 1/241
        top.set_xlabel("wavelength 2π/θᵢ before scaling (positions)")
        top.set_ylabel("θ′ᵢ / θᵢ")
        (self.ratio,) = top.plot([], [], "o", ms=3.5, color=PALETTE["blue"])
        # static, so under the dots (zorder 1) in a blit and a full redraw alike
        top.axvline(self.original, color=PALETTE["black"], lw=1, ls=":", zorder=1)
        top.text(self.original * 1.15, 1.2, "original\ncontext", va="top", zorder=1)
        self.guide = top.axhline(1.0, color=PALETTE["orange"], lw=1.2, ls="--")
        self.top_title = top.set_title(" ")
        self.dynamic(self.ratio, self.guide, *top.spines.values(), self.top_title)

        bottom.set_xscale("log")
        # fixed limits: redrawing a log axis costs more than all the data
        bottom.set_xlim(1, max(self.choices[-1].options))
        bottom.set_ylim(-0.35, 1.05)
        bottom.set_xlabel("offset Δ = m − n")
        bottom.set_ylabel("g(Δ) / (d/2)")
        zero = bottom.axhline(0, color="#888888", lw=0.6)
        (self.plain,) = bottom.plot(
            [], [], color="#aaaaaa", lw=2.2, label="before scaling"
        )
        (self.scaled,) = bottom.plot(
            [], [], color=PALETTE["blue"], lw=1.3, label="after scaling"
        )
        self.zero = bottom.axvline(
            1, color=PALETTE["vermillion"], lw=1.4, label="first Δ with g < 0"
        )
        self.threshold = bottom.axvline(
            1, color=PALETTE["green"], ls="--", lw=1.4, label="phase-step threshold"
        )
        self.target = bottom.axvline(
            1, color=PALETTE["black"], ls=":", lw=1.2, label="target context"
        )
        figure.legend(
            handles=[self.plain, self.scaled, self.zero, self.threshold, self.target],
            loc="outside lower center",
            ncol=2,
        )
        self.bottom_title = bottom.set_title(" ")
        self.dynamic(self.plain, self.scaled, self.zero, self.threshold, self.target)
        self.dynamic(zero, *bottom.spines.values(), self.bottom_title)
        return figure

    def draw(
        self, method: str, factor: float, d: int, base: float, target: int
    ) -> None:
        data = scaling_data(method, factor, d, base, target, self.original)
        self.ratio.set_data(data["wavelength"], data["ratio"])
        self.guide.set_ydata([1 / factor, 1 / factor])
        attention = (
            f", logits ×{data['attention']:.3f}" if data["attention"] != 1 else ""
        )
        self.top_title.set_text(f"{_METHOD_NAMES[method]}, κ = {factor:g}{attention}")
        self.plain.set_data(data["offsets"], data["plain"])
        self.scaled.set_data(data["offsets"], data["scaled"])
        zero = data["zero"]
        self.zero.set_visible(zero is not None)
        if zero is not None:
            self.zero.set_xdata([zero, zero])
        threshold = data["threshold"]
        self.threshold.set_xdata([threshold, threshold])
        self.threshold.set_visible(threshold <= target)
        self.target.set_xdata([target, target])
        before = data["zero_plain"]
        # short: the values of d and base are in the sliders and the caption
        self.bottom_title.set_text(
            "first g < 0 at "
            + (f"{zero:,}" if zero is not None else "none")
            + " (before: "
            + (f"{before:,}" if before is not None else "none")
            + ")"
        )


#: Every explorer of the book, for the benchmark and the static site.
EXPLORERS: tuple[type[Explorer], ...] = (
    EncodingExplorer,
    ClockExplorer,
    OffsetClocksExplorer,
    RopePlanesExplorer,
    DecayExplorer,
    ScheduleExplorer,
    CrossTermExplorer,
    ShiftExplorer,
    ScalingExplorer,
    AttentionOffsetExplorer,
    # drawn for the decks' slides (posenc.widgets_slides)
    *SLIDE_FORMS.values(),
)
LISTED.update(EXPLORERS)
