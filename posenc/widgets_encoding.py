"""The explorer of the chapter "The encoding": its table as a heat map.

:class:`EncodingExplorer`: positions down, the d columns across, with the
sliders d, base and layout. Reached, like every explorer, as
``posenc.widgets.EncodingExplorer`` (``posenc.widgets`` imports this module
and lists the class in its ``EXPLORERS``); in a module of its own so that
its slide form (``posenc.widgets_slides``) can subclass it without
importing ``posenc.widgets``, which imports the slide forms (no cycle).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from matplotlib import colormaps
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, ScalarFormatter

from . import core
from .explorer import Choice, Explorer, _power_of_ten, base_choice, d_choice
from .figure_style import DIVERGING, new_figure

__all__ = [
    "EncodingExplorer",
    "encoding_table",
    "shown_columns",
    "heat_map_image",
    "HEAT_MAP_COLUMNS",
    "HEAT_MAP_GAP",
    "GAP_GREY",
]


def encoding_table(d: int, base: float, layout: str, n_positions: int) -> np.ndarray:
    """Data of :class:`EncodingExplorer`: the (n_positions, d) encoding table."""
    return core.encoding(np.arange(n_positions), d, base, layout)


#: The most columns the heat map draws. With the gap (HEAT_MAP_GAP), 67
#: columns share its 320 px of axes: at least 4.7 screen px each at the
#: design width, 3.8 on a 390 px phone (0.81 of it) and 3.5 on the
#: narrowest common phones (360 px, 0.75). Drawn with fewer pixels,
#: neighbouring columns blend: in the interleaved layout the slow pairs'
#: sine (near 0) and cosine (near 1) columns would look like one flat
#: block near 0.5, a value no column has.
HEAT_MAP_COLUMNS = 64
#: Empty columns that mark where the heat map leaves columns out, and
#: their colour (no value of the diverging map is grey).
HEAT_MAP_GAP = 3
GAP_GREY = "0.6"


def shown_columns(d: int, most: int = HEAT_MAP_COLUMNS) -> np.ndarray:
    """The columns of a ``d``-column table that the heat map draws: all of
    them if there are at most ``most``, else the first and the last
    ``most // 2`` (the fastest and the slowest in either layout)."""
    if d <= most:
        return np.arange(d)
    half = most // 2
    return np.concatenate([np.arange(half), np.arange(d - half, d)])


def heat_map_image(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What the heat map draws of ``table``: its shown columns, each once and
    unchanged, with :data:`HEAT_MAP_GAP` columns of NaN (drawn grey) where
    columns are left out; and, for each drawn column, the table column it
    shows (-1 in the gap)."""
    d = table.shape[1]
    columns = shown_columns(d)
    if len(columns) == d:
        return table, columns
    half = len(columns) // 2
    gap = np.full((table.shape[0], HEAT_MAP_GAP), np.nan)
    image = np.concatenate([table[:, :half], gap, table[:, d - half :]], axis=1)
    index = np.concatenate([columns[:half], np.full(HEAT_MAP_GAP, -1), columns[half:]])
    return image, index


_LAYOUT_LABELS = {
    "interleaved": "column c (2i: sin, 2i + 1: cos)",
    "halves": "column c (c < d/2: sin, c ≥ d/2: cos)",
}


class EncodingExplorer(Explorer):
    """Heat map of the encoding: positions down, dimensions across."""

    description = (
        "Heat map of the sinusoidal encoding table, positions 0 to 99 down and "
        "the d columns across (for d of 128 or more, the first 32 and the last "
        "32, with a grey gap between), coloured from -1 (blue) to +1 (red)."
    )

    choices = (
        d_choice(64),
        base_choice(1e4),
        Choice("layout", "layout", core.LAYOUTS, "interleaved"),
    )
    n_positions: ClassVar[int] = 100

    def build(self) -> Figure:
        figure, ax = new_figure(height=3.9)
        self.image = ax.imshow(
            np.zeros((self.n_positions, 2)),
            cmap=colormaps[DIVERGING].with_extremes(bad=GAP_GREY),
            vmin=-1,
            vmax=1,
            aspect="auto",
            interpolation="nearest",
            interpolation_stage="data",
            origin="upper",
        )
        colorbar = figure.colorbar(self.image, ax=ax, shrink=0.9)
        colorbar.set_label("value of the component")
        ax.set_xlabel(_LAYOUT_LABELS["interleaved"])
        ax.set_ylabel("position t")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # columns are whole
        ax.grid(False)
        self.ax = ax
        self.title = ax.set_title(" ")
        self.dynamic(self.image, ax.xaxis, *ax.spines.values(), self.title)
        return figure

    def draw(self, d: int, base: float, layout: str) -> None:
        table = encoding_table(d, base, layout, self.n_positions)
        self.ax.xaxis.label.set_text(_LAYOUT_LABELS[layout])
        # Every drawn column is a band at least 4.7 screen px wide at the
        # design width (see HEAT_MAP_COLUMNS): above 64 columns, the first
        # 32 and the last 32 are drawn, with a grey gap where the others
        # are left out.
        shown, index = heat_map_image(table)
        width = shown.shape[1]
        self.image.set_data(shown)
        self.image.set_extent((-0.5, width - 0.5, self.n_positions - 0.5, -0.5))
        self.ax.set_xlim(-0.5, width - 0.5)
        title = f"Sinusoidal encoding, d = {d}, base = {_power_of_ten(base)}"
        if width == d:
            self.ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            self.ax.xaxis.set_major_formatter(ScalarFormatter())
        else:
            half = HEAT_MAP_COLUMNS // 2
            left, right = range(0, half, 8), range(d - half, d, 8)
            ticks = [*left, *right]  # at the drawn place of each column
            at = [int(np.flatnonzero(index == c)[0]) for c in ticks]
            self.ax.set_xticks(at, [str(c) for c in ticks])
            title = (
                f"d = {d}, base = {_power_of_ten(base)}: "
                f"columns 0–{half - 1} and {d - half}–{d - 1}"
            )
        self.title.set_text(title)
