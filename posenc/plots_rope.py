"""The figure of the chapter "From adding to rotating" (RoPE) on its two
pairings.

It draws the pairs (or the scores) it is handed, in the style of
:mod:`posenc.figure_style`. A chapter calls it as
``plots_rope.pairings_figure`` (or ``plots_rope.activity_figure``, the
in-class activity's results); :mod:`posenc.plots` does not re-export them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from posenc.figure_style import INK, PALETTE, _figure_function, new_figure

__all__ = ["activity_figure", "pairings_figure", "ROWS"]

#: The rows of the figure, top to bottom: the pairing (as ``posenc.rotate``
#: names it) and the words on the row's left.
ROWS = {
    "interleaved": ("interleaved", "pairs (2i, 2i + 1)"),
    "half-split": ("half-split", "pairs (i, i + d/2)"),
}
#: Pair i's colour (lines take PALETTE, text INK) and line style: the style
#: and the label under each box tell the pairs apart without colour.
_COLOURS = ("blue", "vermillion", "green", "orange", "purple", "sky")
_STYLES = ("-", "--", "-.", ":", "-", "--")
#: Sizes in inches at DESIGN_DPI (the axes' data units are inches).
_LEFT = 1.3  # the row's words
_PITCH = 0.43  # from one box to the next: 8 boxes and the words in 4.74
_BOX = 0.35
_LABEL = 0.25  # the speed's name under a box
_GAP = 0.08  # between a row's labels and what is below them
_VALUES = 0.25  # the line of the speeds' values, at the bottom
_ARC = 0.16  # the height of an arc over neighbours; a longer arc of a
_ARC_STEP = 0.12  # later pair is higher and flat on top (a bracket), so
# that arcs that cross meet only at their legs, each top at its own height


def _rise(i: int, a: int, b: int) -> float:
    """The height of pair i's arc over its boxes a and b."""
    return _ARC + (_ARC_STEP * (i + 1) if abs(b - a) > 1 else 0.0)


def _subscript(i: int) -> str:
    return "".join("₀₁₂₃₄₅₆₇₈₉"[int(c)] for c in str(i))


def _number(value: float) -> str:
    """A base as the book writes it: 10⁴ for a power of ten, else 500."""
    power = np.log10(value)
    if power == round(power) and power > 1:
        return "10" + "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(c)] for c in str(int(power)))
    return f"{value:g}"


@_figure_function
def pairings_figure(pairings: dict, d: int, base: float) -> Figure:
    """Figure: which coordinates RoPE turns together, in each pairing.

    ``pairings`` maps a pairing (a key of :data:`ROWS`) to its pairs in
    order, pair ``i`` first: ``((a, b), theta_i)``, the two coordinates
    turned together and their speed in radians per position. Each row
    draws the ``d`` coordinates of a query or key as numbered boxes, an arc
    over the two boxes of each pair (its line Line2D has the gid
    ``"<pairing> pair <i>"``; its ends are the two boxes' centres) and,
    under each box, the name of its pair's speed, θᵢ. A line under the
    rows gives the speeds' values. Used in the chapter "From adding to
    rotating", figure fig-rope-pairings.
    """
    if set(pairings) - set(ROWS) or not pairings:
        raise ValueError(f"pairings are keys of ROWS, not {sorted(pairings)}")
    rows = [name for name in ROWS if name in pairings]
    highest = {
        name: max(_rise(i, a, b) for i, ((a, b), _) in enumerate(pairings[name]))
        for name in rows
    }
    # from the bottom: the speeds' line, then each row (its labels under
    # the boxes, the boxes, the arcs), the last row first
    bottoms, y = {}, _VALUES
    for name in reversed(rows):
        bottoms[name] = y + _GAP + _LABEL
        y = bottoms[name] + _BOX + highest[name] + 0.04
    height = y + 0.02
    width = _LEFT + d * _PITCH
    figure, ax = new_figure(width=width, height=height)
    figure.set_layout_engine("none")
    ax.set_position((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    centres = _LEFT + _PITCH * (np.arange(d) + 0.5)
    for name in rows:
        box_bottom = bottoms[name]
        words, pairs_text = ROWS[name]
        middle = box_bottom + _BOX / 2
        ax.text(0.02, middle + 0.1, words, fontsize=11, va="center")
        ax.text(0.02, middle - 0.12, pairs_text, va="center")
        speed_of = {}
        for i, ((a, b), _) in enumerate(pairings[name]):
            colour = _COLOURS[i % len(_COLOURS)]
            x_left, x_right = centres[min(a, b)], centres[max(a, b)]
            angle = np.linspace(np.pi, 0, 60)
            centre, half = (x_left + x_right) / 2, (x_right - x_left) / 2
            xs, ys = centre + half * np.cos(angle), np.sin(angle)
            if abs(b - a) > 1:  # a bracket: legs up, a flat top
                xs = np.array([x_left, x_left, x_right, x_right])
                ys = np.array([0.0, 1.0, 1.0, 0.0])
            ax.plot(
                xs,
                box_bottom + _BOX + _rise(i, a, b) * ys,
                _STYLES[i % len(_STYLES)],
                color=PALETTE[colour],
                lw=2.0,
                gid=f"{name} pair {i}",
            )
            speed_of[a] = speed_of[b] = i
        for j, x in enumerate(centres):
            ax.add_patch(
                Rectangle(
                    (x - _BOX / 2, box_bottom),
                    _BOX,
                    _BOX,
                    facecolor="white",
                    edgecolor=PALETTE["black"],
                    lw=1.0,
                )
            )
            ax.text(x, middle, str(j), ha="center", va="center")
            if j in speed_of:
                i = speed_of[j]
                ax.text(
                    x,
                    box_bottom - _LABEL / 2 - 0.02,
                    f"θ{_subscript(i)}",
                    fontsize=11,
                    ha="center",
                    va="center",
                    color=INK[_COLOURS[i % len(_COLOURS)]],
                    gid=f"{name} speed of {j}",
                )
    speeds = pairings[rows[0]]
    if any([t for _, t in pairings[n]] != [t for _, t in speeds] for n in rows):
        raise ValueError("the pairings turn their pairs at different speeds")
    values = ", ".join(
        f"θ{_subscript(i)} = {theta:g}" for i, (_, theta) in enumerate(speeds)
    )
    ax.text(
        0.02,
        _VALUES / 2,
        f"d = {d}, base {_number(base)}: {values}",
        va="center",
        gid="speeds",
    )
    return figure


@_figure_function
def activity_figure(positions, steps) -> Figure:
    """Figure: the scores the in-class activity finds, step by step.

    ``positions`` are the query's positions m the activity draws; ``steps``
    is a list of (label, scores, exact) with one score for each position.
    A step whose scores are one number up to rounding (``exact``) is drawn
    as dots on a line, its value written at the line's right end; another
    as dots alone, with a bracket at the right over the spread of its
    scores (largest minus smallest). Drawn against m, for the slide that
    shows the activity's results when the room's computation went wrong
    (the RoPE deck). Used in the chapter "From adding p_m to rotating by
    R_m", figure fig-rope-activity.
    """
    positions = np.asarray(positions, dtype=float)
    order = np.argsort(positions)
    figure, ax = new_figure(height=3.0)
    marks = ("o-", "s-", "^")
    colours = ("blue", "orange", "vermillion")
    inks = (INK["blue"], INK["orange"], INK["vermillion"])
    end = positions.max() + 400
    bracket = end + 2600
    for (label, scores, exact), mark, colour, ink in zip(
        steps, marks, colours, inks, strict=False
    ):
        scores = np.asarray(scores, dtype=float)
        ax.plot(
            positions[order],
            scores[order],
            mark,
            color=PALETTE[colour],
            ms=7,
            lw=1.6,
            label=label,
        )
        if exact:
            value = f"{scores.mean():.2f}".replace("-", "−")
            ax.text(end, scores.mean(), value, color=ink, va="center")
            continue
        low, high = scores.min(), scores.max()
        ax.plot([bracket, bracket], [low, high], color=ink, lw=1.4)
        for y in (low, high):
            ax.plot([bracket - 250, bracket], [y, y], color=ink, lw=1.4)
        middle = (low + high) / 2
        spread = f"spread\n{high - low:.0f}"
        ax.text(bracket + 300, middle, spread, color=ink, va="center")
    ax.set_xlim(positions.min() - 700, bracket + 2600)
    ax.set_xticks([0, 5000, 10_000])
    ax.set_xlabel("position m of the query")
    ax.set_ylabel("score")
    figure.legend(
        loc="outside upper center", ncol=3, columnspacing=0.9, handlelength=1.4
    )
    return figure
