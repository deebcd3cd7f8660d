"""Figures of the encoding as code computes it: the code bases' schedules,
columns and rotary pairings ("The encoding in real code") and float32 tables
("Precision"). A chapter calls each as ``plots.<name>`` (:mod:`posenc.plots`
re-exports them).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.ticker import MaxNLocator

from .figure_style import (
    INK,
    PALETTE,
    SEQUENTIAL,
    _figure_function,
    new_figure,
)

__all__ = [
    "codebase_schedules_figure",
    "column_match_figure",
    "offset_figure",
    "rope_pairing_figure",
    "error_growth_figure",
    "distance_figure",
    "rule_figure",
]


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
