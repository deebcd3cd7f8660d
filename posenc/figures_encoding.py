"""Figures of the encoding and of what attention sees of it: the introduction,
"The encoding", "Attention cannot see order", "General H", "A shift is a
rotation", "RoPE", the appendix "Why sqrt(d)" and "The assumptions,
revisited". A chapter calls each as ``plots.<name>`` (:mod:`posenc.plots`
re-exports them).
"""

from __future__ import annotations

import numpy as np

from .figure_style import INK, PALETTE, _figure_function, new_figure

__all__ = [
    "similarity_figure",
    "inner_product_figure",
    "orderings_figure",
    "leakage_figure",
    "column_fit_figure",
    "rope_decay_figure",
    "scaling_figure",
    "taylor_scale_figure",
]


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
    # 3.2 inches for six orders: the slide shows it at 1.8 times, under a
    # line of text (slides.FIGURE_SCALE; tests/test_slides_measured.py, NO_ROOM)
    figure, ax = new_figure(height=0.34 * len(orderings) + 1.16)
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
