"""The explorer of the chapter "From adding p_m to rotating by R_m: RoPE".

:class:`RopePlanesExplorer`: one query q and one key k with d = 4, two
frequency pairs (two planes). RoPE turns pair i of the query by mθ_i and
pair i of the key by nθ_i, with n = m - Δ. Moving the position m turns
both by the same angle in each plane; the angle between them stays, and so
does the score <R_m q, R_n k>. The lower panel draws the score against m
at the fixed offset, beside the score of the added encoding,
<q + p̃_m, k + p̃_n>, which moves with m.

Reached as ``posenc.widgets.RopePlanesExplorer``: ``posenc.widgets``
imports this module and lists the class in its ``EXPLORERS``, so the
website renders its frames. It subclasses :class:`posenc.explorer.Explorer`,
which imports no explorer: no cycle.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from matplotlib.figure import Figure

from . import core
from .explorer import Choice, Explorer, Sweep
from .figure_style import INK, PALETTE, new_figure

__all__ = [
    "RopePlanesExplorer",
    "rope_planes_data",
    "ROPE_POSITIONS",
    "ROPE_QUERY",
    "ROPE_KEY",
    "ROPE_BASE",
]

#: The positions m the slider offers and the lower panel draws: from 3, so
#: that n = m - Δ is a position (not negative) for every offset offered.
ROPE_POSITIONS = tuple(range(3, 23))
#: One query and one key of width d = 4 (two pairs), interleaved: pair i is
#: coordinates (2i, 2i + 1). Of different lengths and directions in each
#: pair, so that the score is not a special case.
ROPE_QUERY = np.array([0.9, 0.25, 0.35, 0.75])
ROPE_KEY = np.array([0.45, 0.65, 0.8, -0.35])
#: With d = 4 the frequencies are θ_0 = 1 and θ_1 = base^(-1/2) = 0.25.
ROPE_BASE = 16.0


def rope_planes_data(m: int, delta: int) -> dict:
    """Data of :class:`RopePlanesExplorer`: q at position m, k at n = m - Δ.

    Computed with :func:`posenc.rotate` (interleaved pairs, d = 4, base 16,
    so θ = (1, 0.25)). Returns:

    * ``n`` and ``theta`` (the two frequencies);
    * ``query`` and ``key``: the rotated pairs R_m q and R_n k, shape (2, 2),
      row i the pair i (the tips of the hands drawn in plane i);
    * ``between``: in each plane, the angle turned from the key to the
      query, wrapped to (-π, π];
    * ``products``: the score's part in each plane, the inner product of
      the two rotated pairs; ``score``: their sum, <R_m q, R_n k>;
    * ``positions``: :data:`ROPE_POSITIONS`; ``rope``: the score at each
      position m' with n' = m' - Δ; ``added``: the score of the added
      (cosine-first) encoding there, <q + p̃_m', k + p̃_n'>.
    """
    n = m - delta
    theta = core.frequencies(4, ROPE_BASE)
    query = core.rotate(ROPE_QUERY, m, ROPE_BASE).reshape(2, 2)
    key = core.rotate(ROPE_KEY, n, ROPE_BASE).reshape(2, 2)
    as_complex = query @ [1, 1j], key @ [1, 1j]
    between = np.angle(as_complex[0] * np.conj(as_complex[1]))
    products = (query * key).sum(axis=1)

    positions = np.array(ROPE_POSITIONS)
    queries = core.rotate(
        np.tile(ROPE_QUERY, (len(positions), 1)), positions, ROPE_BASE
    )
    keys = core.rotate(
        np.tile(ROPE_KEY, (len(positions), 1)), positions - delta, ROPE_BASE
    )
    # the cosine-first encoding: pairs (cos tθ_i, sin tθ_i)
    swap = [1, 0, 3, 2]
    at_m = core.encoding(positions, 4, ROPE_BASE)[:, swap]
    at_n = core.encoding(positions - delta, 4, ROPE_BASE)[:, swap]
    return {
        "n": n,
        "theta": theta,
        "query": query,
        "key": key,
        "between": between,
        "products": products,
        "score": float(products.sum()),
        "positions": positions,
        "rope": (queries * keys).sum(axis=1),
        "added": ((ROPE_QUERY + at_m) * (ROPE_KEY + at_n)).sum(axis=1),
    }


class RopePlanesExplorer(Explorer):
    """A query and a key in RoPE's two planes (d = 4), at positions m and n = m - Δ."""

    description = (
        "Above, two circles, one for each frequency pair: in each, the query's "
        "pair in blue, turned by m times θ, and the key's pair in orange, "
        "turned by n times θ, with the arc between them. Below, against the "
        "position m at the fixed offset: the RoPE score, a flat line, and the "
        "score of the added encoding, which swings up and down. Moving m turns "
        "query and key together; the angles between them and the RoPE score "
        "stay the same."
    )
    choices = (
        Choice("m", "position m", ROPE_POSITIONS, 6),
        Choice("delta", "offset Δ", (0, 1, 2, 3), 2),
    )
    #: Pressing play turns query and key together: the demonstration.
    animated = ("m",)
    #: Where the two planes are drawn, and the radius of the arc between
    #: the hands.
    centres: ClassVar[tuple[float, float]] = (0.0, 2.75)
    arc_radius: ClassVar[float] = 0.3

    def build(self) -> Figure:
        figure, (planes, lines) = new_figure(
            height=4.35, nrows=2, gridspec_kw={"height_ratios": [1.25, 1]}
        )
        planes.set_aspect("equal")
        planes.axis("off")
        planes.set_xlim(-1.3, 4.05)
        planes.set_ylim(-1.5, 1.55)
        circle = np.linspace(0, 2 * np.pi, 121)
        blue, orange = PALETTE["blue"], PALETTE["vermillion"]
        self.query_hands, self.key_hands, self.arcs = [], [], []
        self.query_names, self.key_names, self.plane_notes = [], [], []
        theta = core.frequencies(4, ROPE_BASE)
        for i, centre in enumerate(self.centres):
            planes.plot(
                centre + np.cos(circle), np.sin(circle), color="#bbbbbb", lw=1.0
            )
            planes.plot([centre + 0.9, centre + 1.1], [0, 0], color="#888888", lw=1.2)
            (query,) = planes.plot([], [], color=blue, lw=3.2, solid_capstyle="round")
            (key,) = planes.plot([], [], color=orange, lw=3.2, solid_capstyle="round")
            (arc,) = planes.plot([], [], color=PALETTE["black"], lw=1.2)
            self.query_hands.append(query)
            self.key_hands.append(key)
            self.arcs.append(arc)
            self.query_names.append(
                planes.text(0, 0, "q", color=blue, ha="center", va="center")
            )
            self.key_names.append(
                planes.text(
                    0, 0, "k", color=INK["vermillion"], ha="center", va="center"
                )
            )
            planes.text(
                centre,
                1.12,
                f"pair {i}: θ{'₀₁'[i]} = {theta[i]:g}",
                ha="center",
                va="bottom",
            )
            self.plane_notes.append(
                planes.text(centre, -1.2, "", ha="center", va="top")
            )
        self.title = planes.set_title(" ")

        self.sweep = Sweep.draw_on(
            lines,
            ROPE_POSITIONS,
            kept=("RoPE: ⟨Rₘq, Rₙk⟩", blue),
            moved=("added: ⟨q + p̃ₘ, k + p̃ₙ⟩", PALETTE["orange"]),
            ylim=(-1.6, 4.6),
            ylabel="score",
        )
        self.rope_line, self.added_line = self.sweep.kept, self.sweep.moved
        self.here = self.sweep.here
        figure.legend(loc="outside lower center", ncol=2)
        self.dynamic(*self.query_hands, *self.key_hands, *self.arcs)
        self.dynamic(*self.query_names, *self.key_names, *self.plane_notes)
        self.dynamic(self.title)
        self.dynamic(self.rope_line, self.added_line, self.here)
        self.dynamic(*lines.spines.values())
        return figure

    def draw(self, m: int, delta: int) -> None:
        data = rope_planes_data(m, delta)
        for i, centre in enumerate(self.centres):
            query, key = data["query"][i], data["key"][i]
            self.query_hands[i].set_data([centre, centre + query[0]], [0, query[1]])
            self.key_hands[i].set_data([centre, centre + key[0]], [0, key[1]])
            start = np.arctan2(key[1], key[0])
            sweep = start + np.linspace(0, 1, 40) * data["between"][i]
            self.arcs[i].set_data(
                centre + self.arc_radius * np.cos(sweep),
                self.arc_radius * np.sin(sweep),
            )
            for name, tip in ((self.query_names[i], query), (self.key_names[i], key)):
                direction = tip / np.hypot(*tip)
                name.set_position(
                    (centre + tip[0] + 0.2 * direction[0], tip[1] + 0.2 * direction[1])
                )
            part = f"{data['products'][i]:+.3f}".replace("-", "−")
            self.plane_notes[i].set_text(f"in this plane: {part}")
        self.title.set_text(
            f"m = {m}, n = {data['n']}: score ⟨Rₘq, Rₙk⟩ = "
            + f"{data['score']:.3f}".replace("-", "−")
        )
        self.sweep.show(data["rope"], data["added"], m)
