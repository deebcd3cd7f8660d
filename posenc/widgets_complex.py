"""The explorer of the chapter "Complex numbers solve <p_m, p_n> = g(m - n)".

:class:`OffsetClocksExplorer`: two hands of one frequency pair, Δ positions
apart. Moving the position m turns both hands; the angle between them stays
Δθ, and so does their inner product cos(Δθ). Reached, like every explorer,
as ``posenc.widgets.OffsetClocksExplorer`` (``posenc.widgets`` imports this
module and lists the class in its ``EXPLORERS``). It subclasses
:class:`posenc.explorer.Explorer`, which imports no explorer: no cycle.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from matplotlib.figure import Figure

from .explorer import Choice, Explorer, Sweep
from .figure_style import INK, PALETTE, new_figure

__all__ = ["OffsetClocksExplorer", "offset_clocks_data", "OFFSET_POSITIONS"]

#: The positions m the slider offers and the lower panel draws: from 3, so
#: that n = m - Δ is a position (not negative) for every offset offered.
OFFSET_POSITIONS = tuple(range(3, 23))


def offset_clocks_data(m: int, delta: int, theta: float) -> dict:
    """Data of :class:`OffsetClocksExplorer`: one pair at positions m and n.

    With n = m - Δ, the pair of position m is (cos mθ, sin mθ), the complex
    number exp(i m θ) of eq-2d-solution. Returns:

    * ``n``, ``angle_m`` = mθ and ``angle_n`` = nθ, and the hands ``tip_m``,
      ``tip_n`` (the pairs themselves, unit vectors);
    * ``between``: the angle turned from hand n to hand m, wrapped to
      (-π, π] (it is Δθ for the offsets the slider offers, Δθ ≤ 3 < π);
    * ``inner``: the inner product of the two pairs, computed from their
      coordinates (cos mθ cos nθ + sin mθ sin nθ, not from cos Δθ);
    * ``positions``: the positions of :data:`OFFSET_POSITIONS`; ``pair``:
      the inner product of the pairs of positions m' and m' - Δ at each of
      them; ``sine``: the product of the sine coordinates alone,
      sin m'θ sin (m' - Δ)θ, which carries a term in m' + n'.
    """
    n = m - delta
    angle_m, angle_n = m * theta, n * theta
    tip_m = np.array([np.cos(angle_m), np.sin(angle_m)])
    tip_n = np.array([np.cos(angle_n), np.sin(angle_n)])
    positions = np.array(OFFSET_POSITIONS)
    later, earlier = positions * theta, (positions - delta) * theta
    return {
        "n": n,
        "angle_m": angle_m,
        "angle_n": angle_n,
        "tip_m": tip_m,
        "tip_n": tip_n,
        "between": float(np.angle(np.exp(1j * (angle_m - angle_n)))),
        "inner": float(tip_m @ tip_n),
        "positions": positions,
        "pair": np.cos(later) * np.cos(earlier) + np.sin(later) * np.sin(earlier),
        "sine": np.sin(later) * np.sin(earlier),
    }


class OffsetClocksExplorer(Explorer):
    """Two hands of one pair, at positions m and n = m - Δ, on one dial."""

    description = (
        "Above, one clock face with two hands: position m in blue at the "
        "angle m times θ, position n = m − Δ in orange at the angle n times "
        "θ, and the arc between them, Δ times θ. Below, against the position "
        "m: the inner product of the two pairs, a flat line at cos(Δθ), and "
        "the product of their sine coordinates alone, which swings up and "
        "down. Moving m turns both hands; the angle between them stays the same."
    )
    choices = (
        Choice("m", "position m", OFFSET_POSITIONS, 6),
        Choice("delta", "offset Δ", (1, 2, 3), 2),
        Choice("theta", "frequency θ", (0.25, 0.5, 1.0), 0.5),
    )
    #: Pressing play turns both hands together: the demonstration.
    animated = ("m",)
    #: Radius of the arc that marks the angle between the hands, and of
    #: its label.
    arc_radius: ClassVar[float] = 0.42
    label_radius: ClassVar[float] = 0.62
    #: How far (in data units) the centre of the label "Δθ" keeps from
    #: either hand: half the diagonal of its box (0.16) plus half a hand's
    #: width and a margin. Where the hands are too close for that on the
    #: bisector (Δθ ≤ 0.5), the label moves just outside the angle, beside
    #: hand m, so that it covers neither a hand nor the arc.
    label_clearance: ClassVar[float] = 0.22

    def build(self) -> Figure:
        figure, (dial, lines) = new_figure(
            height=4.3, nrows=2, gridspec_kw={"height_ratios": [1.6, 1]}
        )
        dial.set_aspect("equal")
        dial.axis("off")
        dial.set_xlim(-1.25, 3.6)
        dial.set_ylim(-1.3, 1.3)
        circle = np.linspace(0, 2 * np.pi, 121)
        dial.plot(np.cos(circle), np.sin(circle), color="#bbbbbb", lw=1.0)
        dial.plot([0.88, 1.12], [0, 0], color="#888888", lw=1.2)  # angle 0
        blue, orange = PALETTE["blue"], PALETTE["vermillion"]
        (self.hand_m,) = dial.plot([], [], color=blue, lw=3.2, solid_capstyle="round")
        (self.hand_n,) = dial.plot([], [], color=orange, lw=3.2, solid_capstyle="round")
        (self.arc,) = dial.plot([], [], color=PALETTE["black"], lw=1.4)
        self.arc_label = dial.text(0, 0, "Δθ", ha="center", va="center")
        self.name_m = dial.text(0, 0, "m", color=blue, ha="center", va="center")
        self.name_n = dial.text(
            0, 0, "n", color=INK["vermillion"], ha="center", va="center"
        )
        self.readout = dial.text(1.45, 0.0, "", va="center", linespacing=1.6)
        self.title = dial.set_title(" ")

        self.sweep = Sweep.draw_on(
            lines,
            OFFSET_POSITIONS,
            kept=("pair: ⟨pₘ, pₙ⟩", blue),
            moved=("sine coordinate alone: sin mθ · sin nθ", PALETTE["green"]),
            ylim=(-1.15, 1.15),
            ylabel="product",
        )
        self.pair_line, self.sine_line = self.sweep.kept, self.sweep.moved
        self.here = self.sweep.here
        figure.legend(loc="outside lower center", ncol=1)
        self.dynamic(self.hand_m, self.hand_n, self.arc, self.arc_label)
        self.dynamic(self.name_m, self.name_n)
        self.dynamic(self.readout, self.title)
        self.dynamic(self.pair_line, self.sine_line, self.here)
        self.dynamic(*lines.spines.values())
        return figure

    def label_position(self, data: dict) -> tuple[float, float]:
        """Where the label "Δθ" goes: on the bisector of the angle between
        the hands if it clears both there, else just outside the angle,
        beyond hand m (turned from it away from hand n)."""
        half = data["between"] / 2
        if self.label_radius * abs(np.sin(half)) >= self.label_clearance:
            where = data["angle_n"] + half
        else:
            aside = np.arcsin(self.label_clearance / self.label_radius)
            where = data["angle_m"] + np.sign(half) * aside
        return (self.label_radius * np.cos(where), self.label_radius * np.sin(where))

    def draw(self, m: int, delta: int, theta: float) -> None:
        data = offset_clocks_data(m, delta, theta)
        self.hand_m.set_data([0, data["tip_m"][0]], [0, data["tip_m"][1]])
        self.hand_n.set_data([0, data["tip_n"][0]], [0, data["tip_n"][1]])
        sweep = data["angle_n"] + np.linspace(0, 1, 40) * data["between"]
        self.arc.set_data(*(self.arc_radius * np.array([np.cos(sweep), np.sin(sweep)])))
        self.arc_label.set_position(self.label_position(data))
        for name, tip in ((self.name_m, data["tip_m"]), (self.name_n, data["tip_n"])):
            name.set_position(1.16 * tip)
        n = data["n"]
        self.readout.set_text(
            f"m = {m}: angle mθ = {data['angle_m']:.2f}\n"
            f"n = {n}: angle nθ = {data['angle_n']:.2f}\n"
            f"between: Δθ = {data['between']:.2f}\n"
            f"⟨pₘ, pₙ⟩ = {data['inner']:.3f}"
        )
        self.title.set_text(f"Δ = {delta}, θ = {theta:g}: both hands turn with m")
        self.sweep.show(data["pair"], data["sine"], m)
