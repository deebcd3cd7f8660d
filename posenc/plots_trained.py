"""The figures of the chapter "What trained models do with the encoding".

Each draws the arrays it is handed (computed and asserted on in the chapter
with :mod:`posenc.trained_measures`), in the style of
:mod:`posenc.figure_style`. A chapter calls them as
``plots_trained.<name>``; :mod:`posenc.plots` does not re-export them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from posenc.figure_style import INK, PALETTE, _figure_function, new_figure

__all__ = [
    "VARIANT_COLOURS",
    "relative_share_figure",
    "distance_figure",
    "pair_norm_figure",
    "loss_figure",
]

#: One colour and one marker per variant, in every figure of the chapter.
VARIANT_COLOURS = {
    "sinusoidal": (PALETTE["blue"], "o"),
    "rope": (PALETTE["vermillion"], "s"),
    "p-rope": (PALETTE["orange"], "D"),
    "learned": (PALETTE["green"], "^"),
    "nope": (PALETTE["black"], "v"),
}


@_figure_function
def relative_share_figure(trained: dict, initial: dict, baseline: dict) -> Figure:
    """Figure: the share of ``p_m^T H p_n`` that the offset explains, per head.

    For each variant (a panel, ``"sinusoidal"`` and ``"learned"``): the
    trained heads' shares (filled markers, one row per seed), the same heads
    at initialisation (open markers) and the draws of random matrices with
    each head's spectrum (grey ticks, pooled over the heads); each value is
    an array (seeds, heads), the baseline (seeds, heads, draws).
    """
    names = list(trained)
    figure, axes = new_figure(height=3.9, nrows=len(names), sharex=True)
    for ax, name in zip(np.atleast_1d(axes), names, strict=True):
        colour, marker = VARIANT_COLOURS[name]
        shares, starts = np.asarray(trained[name]), np.asarray(initial[name])
        draws = np.asarray(baseline[name])
        seeds = shares.shape[0]
        for seed in range(seeds):
            y = seeds - seed
            ax.plot(
                draws[seed].ravel(),
                np.full(draws[seed].size, y),
                "|",
                color="#9a9a9a",
                ms=9,
                mew=0.8,
                label="random H, same spectrum" if seed == 0 else None,
            )
            ax.plot(
                starts[seed],
                np.full(starts.shape[1], y),
                marker,
                ms=7,
                mfc="white",
                mec=colour,
                mew=1.3,
                label="at initialisation" if seed == 0 else None,
            )
            ax.plot(
                shares[seed],
                np.full(shares.shape[1], y),
                marker,
                ms=7,
                color=colour,
                label="trained" if seed == 0 else None,
            )
        ax.set_yticks(range(1, seeds + 1), [f"seed {s}" for s in range(seeds)][::-1])
        ax.set_ylim(0.4, seeds + 0.6)
        ax.set_title(
            f"{name}: the {shares.shape[1]} heads of layer 0",
            color=INK[_ink_name(colour)],
        )
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of the cross terms that the offset explains")
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    # two columns: three would make the figure wider than the page's width
    # (a phone then shows it below 0.75 of its design size)
    figure.legend(handles, labels, loc="outside lower center", ncol=2)
    return figure


def _ink_name(colour: str) -> str:
    return next(name for name, value in PALETTE.items() if value == colour)


@_figure_function
def distance_figure(offsets, ratios: dict, initial) -> Figure:
    """Figure: mean attention by offset over that of uniform causal attention.

    ``ratios`` maps each variant to an array (layers, len(offsets)), the
    mean over heads and seeds; ``initial`` (layers, len(offsets)) is the
    same for the initialised models. Log axes; 1 is no preference.
    """
    offsets = np.asarray(offsets)
    layers = np.asarray(initial).shape[0]
    figure, axes = new_figure(height=4.6, nrows=layers, sharex=True)
    for layer, ax in enumerate(axes):
        ax.plot(
            offsets,
            np.asarray(initial)[layer],
            color="#8a8a8a",
            lw=2.4,
            label="at initialisation (all)",
        )
        for name, ratio in ratios.items():
            colour, marker = VARIANT_COLOURS[name]
            ax.plot(
                offsets,
                np.asarray(ratio)[layer],
                color=colour,
                lw=1.5,
                marker=marker,
                ms=4,
                markevery=(layer, 9),
                label=name,
            )
        ax.axhline(1, color=PALETTE["black"], lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(3e-3, 30)
        ax.set_ylabel("over uniform")
        ax.set_title(f"layer {layer}")
    axes[-1].set_xlabel("offset Δ = m − n")
    figure.legend(
        *axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3
    )
    return figure


@_figure_function
def pair_norm_figure(trained: dict, initial) -> Figure:
    """Figure: the mean norm of each frequency pair of the queries, RoPE's
    measurement of Barbero et al.

    ``trained`` maps a variant to an array (seeds, layers, pairs); ``initial``
    is (seeds, layers, pairs) for the initialised models (the same for
    both variants). A panel per layer; pair 0 is the fastest.
    """
    initial = np.asarray(initial)
    layers, pairs = initial.shape[1], initial.shape[2]
    figure, axes = new_figure(height=4.6, nrows=layers, sharex=True)
    x = np.arange(pairs)
    for layer, ax in enumerate(axes):
        for seed in range(initial.shape[0]):
            ax.plot(
                x,
                initial[seed, layer],
                color="#8a8a8a",
                lw=1.2,
                ls="--",
                label="at initialisation" if seed == 0 else None,
            )
        for shift, (name, norms) in zip((-0.08, 0.08), trained.items(), strict=True):
            colour, marker = VARIANT_COLOURS[name]
            norms = np.asarray(norms)
            for seed in range(norms.shape[0]):
                ax.plot(
                    x + shift,
                    norms[seed, layer],
                    marker=marker,
                    ms=5,
                    color=colour,
                    lw=1.0,
                    label=name if seed == 0 else None,
                )
        ax.axvspan(5.5, 7.5, color=PALETTE["yellow"], alpha=0.18, lw=0)
        ax.set_ylim(0, 5.5)
        ax.set_ylabel("mean |q| of pair")
        ax.set_title(f"layer {layer}")
    axes[0].text(6.5, 5.2, "p-RoPE: not turned", ha="center", va="top")
    axes[-1].set_xticks(x)
    axes[-1].set_xlabel("frequency pair i (0 fastest, θᵢ = 10000^(−i/8))")
    figure.legend(
        *axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=3
    )
    return figure


@_figure_function
def loss_figure(contexts, losses: dict, unigram) -> Figure:
    """Figure: validation loss at each context length, every seed a marker
    and the mean a line, for each variant (``losses``: variant -> (seeds,
    len(contexts)), NaN where not measured); ``unigram``, the loss of byte
    frequencies alone on the same windows, one number or one per context,
    a dotted line."""
    contexts = np.asarray(contexts)
    unigram = np.broadcast_to(np.asarray(unigram, dtype=float), contexts.shape)
    figure, ax = new_figure(height=3.4)
    for shift, (name, table) in zip(
        np.linspace(-0.06, 0.06, len(losses)), losses.items(), strict=True
    ):
        colour, marker = VARIANT_COLOURS[name]
        table = np.asarray(table, dtype=float)
        where = contexts * 2.0**shift
        measured = ~np.isnan(table[0])
        ax.plot(
            where[measured],
            table[:, measured].mean(axis=0),
            color=colour,
            lw=1.5,
            label=name,
        )
        for row in table:
            ax.plot(
                where[measured],
                row[measured],
                marker,
                color=colour,
                ms=5,
                mfc="white",
                mew=1.2,
            )
    ax.plot(contexts, unigram, color=PALETTE["black"], ls=":", lw=1.2)
    ax.text(contexts[0] * 0.92, unigram[0] - 0.05, "byte frequencies alone", va="top")
    ax.set_xscale("log", base=2)
    ax.set_xticks(contexts, [f"{c}" for c in contexts])
    ax.set_xlim(contexts[0] * 0.85, contexts[-1] * 1.15)
    ax.set_xlabel("context length (trained at 128)")
    ax.set_ylabel("loss (nats a byte)")
    figure.legend(loc="outside lower center", ncol=3)
    return figure
