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
    ax.bar(
        positions - width / 2, plain, width, color=PALETTE["sky"], label="tokens only"
    )
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


# ------------------------------------------------ chapter "long-range decay"


def _integer_offsets(delta_max: float, count: int = 2001):
    """About ``count`` distinct integer offsets from 0 to ``delta_max``."""
    import numpy as np

    return np.unique(np.round(np.linspace(0, delta_max, count)))


def decay_comparison_figure(d: int = 128, base: float = 1e4, delta_max: int = 128):
    """Figure: the integral I(Delta) and the exact normalised sum, side by side."""
    import numpy as np

    from . import core

    figure, ax = new_figure(7.0, 3.4)
    fine = np.linspace(-delta_max, delta_max, 2001)
    whole = np.arange(-delta_max, delta_max + 1)
    ax.plot(
        fine,
        core.decay_integral(fine, base),
        color=PALETTE["black"],
        lw=1.6,
        label=r"integral $\int_0^1 \cos(\Delta\,\mathrm{base}^{-t})\,dt$",
    )
    ax.plot(
        whole,
        core.inner_product(whole, d, base) / (d / 2),
        ".",
        ms=3,
        color=PALETTE["vermillion"],
        label=rf"sum $g(\Delta)/(d/2)$, $d = {d}$",
    )
    ax.set_xlabel(r"offset $\Delta = m - n$")
    ax.set_ylabel("normalised inner product")
    ax.set_xlim(-delta_max, delta_max)
    ax.legend(frameon=False, loc="upper right", fontsize=9)
    return figure


def _binned_rms(values_of, edges, samples: int, rng):
    import numpy as np

    rms = []
    for low, high in zip(edges[:-1], edges[1:], strict=True):
        offsets = np.round(rng.uniform(low, high, samples))
        rms.append(np.sqrt(np.mean(values_of(offsets) ** 2)))
    return np.array(rms)


def decay_law_figure(base: float = 1e4, dims=(64, 512), seed: int = 0):
    """Figure: (a) the integral and its two regimes, (b) the sums' floor 1/sqrt(d)."""
    import numpy as np

    from . import core

    figure, (left, right) = new_figure(10.0, 3.9, ncols=2)
    delta = np.logspace(0, 7, 4000)
    left.semilogx(
        delta,
        core.decay_integral(delta, base),
        color=PALETTE["black"],
        lw=1.4,
        label=r"exact $I(\Delta)$",
    )
    near = delta[delta <= base]
    left.semilogx(
        near,
        core.log_law(near, base),
        "--",
        color=PALETTE["orange"],
        lw=2,
        label=r"log law $1 - (\ln\Delta + \gamma)/\ln \mathrm{base}$",
    )
    far = delta[delta >= base / 3]
    envelope = core.integral_envelope(far, base)
    left.semilogx(
        far,
        envelope,
        ":",
        color=PALETTE["blue"],
        lw=2,
        label=r"envelope $\pm(1+\mathrm{base})/(\Delta \ln \mathrm{base})$",
    )
    left.semilogx(far, -envelope, ":", color=PALETTE["blue"], lw=2)
    zero = core.CI_FIRST_ZERO * base
    left.axvline(zero, color=PALETTE["purple"], lw=1)
    left.annotate(
        f"first zero\n≈ 0.6165·base\n= {zero:,.0f}",
        (zero, 0.7),
        xytext=(8, 0),
        textcoords="offset points",
        fontsize=9,
        color=PALETTE["purple"],
    )
    left.axhline(0, color="#888888", lw=0.6)
    left.set_ylim(-0.25, 1.05)
    left.set_xlabel(r"offset $\Delta$ (log scale)")
    left.set_ylabel(r"$I(\Delta)$")
    left.set_title(f"(a) the integral, base = {base:g}")
    left.legend(frameon=False, fontsize=8, loc="lower left")

    rng = np.random.default_rng(seed)
    edges = np.logspace(0, 8, 41)
    centres = np.sqrt(edges[:-1] * edges[1:])
    colours = [PALETTE["vermillion"], PALETTE["green"]]
    for d, colour in zip(dims, colours, strict=True):
        rms = _binned_rms(
            lambda x, d=d: core.inner_product(x, d, base) / (d / 2), edges, 400, rng
        )
        right.loglog(centres, rms, "o-", ms=3, color=colour, label=f"sum, d = {d}")
        right.axhline(1 / np.sqrt(d), color=colour, ls="--", lw=1)
        right.annotate(
            rf"$1/\sqrt{{{d}}}$",
            (1.5, 1 / np.sqrt(d)),
            xytext=(0, 3),
            textcoords="offset points",
            color=colour,
            fontsize=9,
        )
    rms_integral = _binned_rms(lambda x: core.decay_integral(x, base), edges, 400, rng)
    right.loglog(
        centres, rms_integral, color=PALETTE["black"], lw=1.4, label="integral"
    )
    right.set_ylim(1e-5, 1.5)
    right.set_xlabel(r"offset $\Delta$ (log scale)")
    right.set_ylabel(r"rms over offsets near $\Delta$")
    right.set_title("(b) the sums stop decaying at 1/√d")
    right.legend(frameon=False, fontsize=8, loc="lower left")
    return figure


def aliasing_figure(cases=((64, 1e4), (256, 1e4), (1024, 1e4), (256, 1e2), (256, 1e6))):
    """Figure: the sum's error after the endpoint correction, against Delta / Delta*.

    Binned rms of sum/(d/2) - I - (cos Delta - cos(Delta/base))/d, times sqrt(d).
    """
    import numpy as np

    from . import core

    figure, ax = new_figure(7.0, 3.8)
    colours = [PALETTE[c] for c in ("blue", "orange", "green", "vermillion", "purple")]
    markers = "osD^v"
    for (d, base), colour, marker in zip(cases, colours, markers, strict=True):
        star = core.aliasing_offset(d, base)
        offsets = np.arange(1, int(30 * star))
        error = (
            core.inner_product(offsets, d, base) / (d / 2)
            - core.decay_integral(offsets, base)
            - (np.cos(offsets) - np.cos(offsets / base)) / d
        )
        edges = np.logspace(np.log10(1.0), np.log10(offsets[-1]), 36)
        index = np.digitize(offsets, edges)
        rms = np.array(
            [
                np.sqrt(np.mean(error[index == k] ** 2))
                if np.any(index == k)
                else np.nan
                for k in range(1, len(edges))
            ]
        )
        centres = np.sqrt(edges[:-1] * edges[1:]) / star
        ax.loglog(
            centres,
            rms * np.sqrt(d),
            marker + "-",
            ms=3,
            color=colour,
            lw=1,
            label=f"d = {d}, base = {base:g}",
        )
    ax.axvline(1, color=PALETTE["black"], lw=1, ls="--")
    ax.annotate(
        r"$\Delta = \Delta^*$", (1, 2e-3), xytext=(5, 0), textcoords="offset points"
    )
    ax.set_xlabel(r"offset relative to the aliasing offset, $\Delta / \Delta^*$")
    ax.set_ylabel(r"rms error $\times \sqrt{d}$")
    ax.set_ylim(1e-3, 3)
    ax.legend(frameon=False, fontsize=8, loc="upper left")
    return figure


SCHEDULE_LABELS = {
    "exponential": r"$\mathrm{base}^{-t}$",
    "linear": r"$t$",
    "square": r"$t^2$",
    "sqrt": r"$\sqrt{t}$",
}


def schedules_figure():
    """Figure: the integral for several schedules theta_t, short and long range."""
    import numpy as np

    from . import core

    lines = [
        ("exponential", 1e2, PALETTE["sky"], "-"),
        ("exponential", 1e3, PALETTE["blue"], "-"),
        ("exponential", 1e4, PALETTE["black"], "-"),
        ("exponential", 1e5, PALETTE["green"], "-"),
        ("linear", None, PALETTE["vermillion"], "--"),
        ("square", None, PALETTE["orange"], "-."),
        ("sqrt", None, PALETTE["purple"], ":"),
    ]
    figure, axes = new_figure(10.0, 3.8, ncols=2, sharey=True)
    for ax, delta_max, title in zip(
        axes, (128, 10000), ("(a) short range", "(b) long range"), strict=True
    ):
        delta = np.linspace(0, delta_max, 4001)
        for schedule, base, colour, style in lines:
            label = SCHEDULE_LABELS[schedule]
            if base is not None:
                label = rf"$(10^{{{int(np.log10(base))}}})^{{-t}}$"
            ax.plot(
                delta,
                core.schedule_integral(delta, schedule, base or 1e4),
                style,
                color=colour,
                lw=1.4,
                label=label,
            )
        ax.axhline(0, color="#888888", lw=0.6)
        ax.set_xlim(0, delta_max)
        ax.set_xlabel(r"offset $\Delta$")
        ax.set_title(title)
    axes[0].set_ylabel(r"$\int_0^1 \cos(\Delta\,\theta_t)\,dt$")
    axes[1].legend(frameon=False, fontsize=9, title=r"$\theta_t$", ncol=2)
    return figure


# ------------------------------------------------- chapter "general H"


def perturbation(kind: str, strength: float, d: int, seed: int = 0):
    """A matrix H = I + strength * E, as studied in "When H is not the identity".

    ``kind``: "full" (E dense Gaussian), "diagonal" (E diagonal, each entry on
    its own), or "rotation blocks" (E block diagonal with 2x2 blocks a I + b J,
    which keep the cross term a function of the offset). E is scaled to the
    Frobenius norm of the identity, sqrt(d).
    """
    import numpy as np
    from scipy.linalg import block_diag

    rng = np.random.default_rng(seed)
    if kind == "full":
        e = rng.normal(size=(d, d))
    elif kind == "diagonal":
        e = np.diag(rng.normal(size=d))
    elif kind == "rotation blocks":
        turn = np.array([[0.0, -1.0], [1.0, 0.0]])
        e = block_diag(
            *[a * np.eye(2) + b * turn for a, b in rng.normal(size=(d // 2, 2))]
        )
    else:
        raise ValueError(
            f"kind must be 'full', 'diagonal' or 'rotation blocks', got {kind!r}"
        )
    return np.eye(d) + strength * e * np.sqrt(d) / np.linalg.norm(e)


def leakage_figure(d: int = 64, length: int = 64, seeds: int = 5):
    """Figure: offset leakage of p_m^T H p_n against the perturbation strength."""
    import numpy as np

    from . import core

    strengths = np.logspace(-2, 1, 16)
    positions = np.arange(length)
    figure, ax = new_figure(7.0, 3.8)
    styles = [
        ("full", PALETTE["vermillion"], "o", "dense E (off-diagonal mass)"),
        ("diagonal", PALETTE["blue"], "s", "diagonal E (unequal pairs)"),
        ("rotation blocks", PALETTE["green"], "D", "2×2 blocks aI + bJ"),
    ]
    for kind, colour, marker, label in styles:
        values = np.array(
            [
                [
                    core.offset_leakage(
                        core.cross_terms(perturbation(kind, s, d, seed), positions)
                    )
                    for s in strengths
                ]
                for seed in range(seeds)
            ]
        )
        ax.loglog(
            strengths,
            np.maximum(values.mean(axis=0), 1e-12),
            marker + "-",
            color=colour,
            ms=4,
            label=label,
        )
    ax.set_ylim(1e-6, 1.5)
    ax.set_xlabel(
        r"strength $\varepsilon$ of the perturbation, $H = I + \varepsilon E$"
    )
    ax.set_ylabel("offset leakage")
    ax.legend(frameon=False, fontsize=9, loc="lower right")
    ax.annotate(
        "rotation blocks: leakage 0 (plotted at 1e-12, off the axis)",
        (0.012, 2e-6),
        fontsize=8,
        color=PALETTE["green"],
    )
    return figure


# ------------------------------------------------- chapter "a shift is a rotation"


def column_fit_figure(d: int = 64, base: float = 1e4, ks=(1, 2, 3, 5, 10, 30, 100)):
    """Figure: R^2 of the per-column linear fit of p_{t+k} on p_t against k theta_i.

    Every column of every k is one point, at k theta_i reduced modulo pi; the
    curve is cos^2. Used in the chapter "A shift is a rotation".
    """
    import numpy as np

    from . import core

    figure, ax = new_figure(7.0, 3.6)
    theta = np.repeat(core.frequencies(d, base), 2)
    markers = "os^Dv<>"
    colours = [
        PALETTE[c]
        for c in ("blue", "orange", "green", "vermillion", "sky", "purple", "black")
    ]
    for k, marker, colour in zip(ks, markers, colours, strict=False):
        _, _, r_squared = core.column_fit(k, d, base)
        ax.plot(
            np.mod(k * theta, np.pi),
            r_squared,
            marker,
            color=colour,
            ms=4,
            alpha=0.8,
            label=f"k = {k}",
        )
    phase = np.linspace(0, np.pi, 400)
    ax.plot(
        phase, np.cos(phase) ** 2, color="#555555", lw=1.2, label=r"$\cos^2(k\theta_i)$"
    )
    ax.set_xticks(
        [0, np.pi / 4, np.pi / 2, 3 * np.pi / 4, np.pi],
        ["0", "π/4", "π/2", "3π/4", "π"],
    )
    ax.set_xlabel(r"$k\,\theta_i$ modulo $\pi$")
    ax.set_ylabel(r"$R^2$ of the per-column fit")
    ax.legend(frameon=False, fontsize=8, ncol=2, loc="upper center")
    return figure


# ------------------------------------------------- chapter "RoPE"


def rope_decay_figure(
    d: int = 128,
    base: float = 1e4,
    delta_max: int = 1000,
    samples: int = 200,
    seed: int = 0,
):
    """Figure: RoFormer's bound against actual RoPE scores, as functions of m - n.

    (a) the relative bound (1/(d/2)) sum_j |S_j|; (b) normalised scores: the
    mean over random q = k against its expectation g(m - n)/(d/2), and the
    spread for random independent q, k. Used in the chapter "From adding to
    rotating: RoPE".
    """
    import numpy as np

    from . import core

    delta = np.arange(0, delta_max + 1)
    rng = np.random.default_rng(seed)
    figure, (left, right) = new_figure(10.0, 3.8, ncols=2)
    left.plot(delta, core.rope_bound(delta, d, base), color=PALETTE["black"], lw=1.4)
    left.set_xlabel(r"relative distance $m - n$")
    left.set_ylabel(r"$\frac{1}{d/2}\sum_j |S_j(m - n)|$")
    left.set_title("(a) RoFormer's relative upper bound")

    theta = core.frequencies(d, base)
    waves = np.cos(np.multiply.outer(delta, theta))  # (Delta, d/2)
    ones = 2 * waves.sum(axis=1) / d  # g / (d/2): E|q_i|^2 = 2 per pair
    same = rng.normal(size=(samples, d))
    weights = (same[:, 0::2] ** 2 + same[:, 1::2] ** 2) / d  # |q_i|^2, q = k
    mean_same = (weights @ waves.T).mean(axis=0)
    q, k = rng.normal(size=(2, samples, d))
    h = (q[:, 0::2] + 1j * q[:, 1::2]) * np.conj(k[:, 0::2] + 1j * k[:, 1::2])
    phases = np.exp(1j * np.multiply.outer(delta, theta))
    independent = np.real(h @ phases.T) / d
    right.fill_between(
        delta,
        *np.percentile(independent, [10, 90], axis=0),
        color=PALETTE["sky"],
        alpha=0.4,
        label="independent random q, k (10–90%)",
    )
    right.plot(
        delta,
        mean_same,
        color=PALETTE["black"],
        lw=1.6,
        label=f"q = k random, mean of {samples}",
    )
    right.plot(
        delta,
        ones,
        "--",
        color=PALETTE["orange"],
        lw=1.6,
        label=r"$g(m-n)/(d/2)$: the expectation",
    )
    right.axhline(0, color="#888888", lw=0.6)
    right.set_xlabel(r"relative distance $m - n$")
    right.set_ylabel(r"score $\langle R_m q, R_n k\rangle / d$")
    right.set_title("(b) actual scores")
    right.legend(frameon=False, fontsize=8, loc="upper right")
    return figure


# ------------------------------------------------- appendix "why sqrt(d)"


def scaling_figure(
    dims=(4, 16, 64, 256, 1024), keys: int = 64, samples: int = 400, seed: int = 0
):
    """Figure: (a) variance of q.k against d; (b) softmax saturation without 1/sqrt(d).

    Entries of q and k are independent standard normal. Used in the appendix
    "Why attention divides by sqrt(d)".
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    dims = np.asarray(dims)
    raw_var, scaled_var, raw_max, scaled_max = [], [], [], []
    for d in dims:
        q = rng.normal(size=(samples, d))
        k = rng.normal(size=(samples, keys, d))
        logits = np.einsum("sd,skd->sk", q, k)
        raw_var.append(logits.var())
        scaled_var.append((logits / np.sqrt(d)).var())
        for values, store in ((logits, raw_max), (logits / np.sqrt(d), scaled_max)):
            weights = np.exp(values - values.max(axis=1, keepdims=True))
            weights /= weights.sum(axis=1, keepdims=True)
            store.append(weights.max(axis=1).mean())
    figure, (left, right) = new_figure(10.0, 3.6, ncols=2)
    left.loglog(dims, raw_var, "o-", color=PALETTE["vermillion"], label=r"$q\cdot k$")
    left.loglog(
        dims, scaled_var, "s-", color=PALETTE["blue"], label=r"$q\cdot k/\sqrt{d}$"
    )
    left.loglog(dims, dims, ":", color="#777777", label="slope 1 (variance = d)")
    left.set_xlabel("dimension d")
    left.set_ylabel("variance of the score")
    left.set_title("(a) the variance grows like d")
    left.legend(frameon=False, fontsize=9)
    right.semilogx(dims, raw_max, "o-", color=PALETTE["vermillion"], label="unscaled")
    right.semilogx(
        dims, scaled_max, "s-", color=PALETTE["blue"], label=r"scaled by $1/\sqrt{d}$"
    )
    right.axhline(1 / keys, color="#777777", ls=":", label=f"uniform, 1/{keys}")
    right.set_ylim(0, 1.02)
    right.set_xlabel("dimension d")
    right.set_ylabel(f"mean largest weight of {keys}")
    right.set_title("(b) unscaled softmax saturates")
    right.legend(frameon=False, fontsize=9, loc="center right")
    return figure


# ------------------------------------------------- chapter "assumptions"


def taylor_scale_figure(scales, first_error, second_error, actual: float = 1.0):
    """Figure: relative error of the Taylor expansion in the position vectors,
    against their scale, for a model; a line marks the encoding's real scale.

    Used in the chapter "The assumptions, revisited".
    """
    figure, ax = new_figure(6.6, 3.8)
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
        color=PALETTE["vermillion"],
        fontsize=9,
    )
    ax.axhline(0.01, color="#888888", ls=":", lw=1)
    ax.set_xlabel(r"scale $s$ of the added encoding, $x_t + s\,p_t$")
    ax.set_ylabel("relative error of the expansion")
    ax.legend(frameon=False, fontsize=9, loc="upper left")
    return figure
