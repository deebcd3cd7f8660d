"""Every static figure of the book, and the style they share: the one place
a chapter reaches them (``from posenc import plots``, then
``plots.leakage_figure(...)``, ``plots.PALETTE``).

Each ``*_figure`` function draws data it is given and computes nothing that
a chapter could assert on: the chapter computes the numbers with a maths
function of :mod:`posenc`, checks them, and passes the same arrays here. The
function returns a ``matplotlib.figure.Figure``.

This module holds no code: it re-exports (``__all__`` below), as
``posenc/__init__.py`` re-exports the maths, from the modules that hold it:

- :mod:`posenc.figure_style` -- colours (``PALETTE``, ``INK``, the colour
  maps), sizes (``FIGURE_WIDTH``, ``TEXT`` ...), ``book_style``,
  ``new_figure`` and the decorator ``_figure_function``; it imports no other
  module of posenc;
- :mod:`posenc.figures_encoding` -- the encoding and what attention sees of
  it (introduction, the encoding, order, general H, shift, RoPE, sqrt(d),
  assumptions);
- :mod:`posenc.figures_decay` -- the decay integral, other schedules,
  finite d;
- :mod:`posenc.figures_code` -- the encoding in real code, precision.

**Where a new figure goes.** Into the ``figures_*`` module of its topic
(importing only :mod:`posenc.figure_style`, never this module), decorated
with ``@_figure_function``; then into the import and ``__all__`` here, and a
test in ``tests/test_plots.py``. A chapter calls it as ``plots.<name>``.
A topic module past about 500 lines is split in two by topic.

The per-chapter modules ``posenc/plots_<chapter>.py`` (``plots_decay``,
``plots_finite`` ...) hold figures their chapter reaches as
``posenc.plots_<chapter>.<name>``; they also import their style from
:mod:`posenc.figure_style` and are not re-exported here, so every figure
function has one way to be reached.

Nothing here touches matplotlib's global state: figures are created as
``Figure`` objects (not through pyplot), so importing this module changes no
rcParams and leaves no figure open.
"""

from __future__ import annotations

from .figure_style import (
    DESIGN_DPI,
    DIVERGING,
    FIGURE_WIDTH,
    INK,
    MAX_HEIGHT,
    PALETTE,
    PIXEL_DENSITY,
    SEQUENTIAL,
    SMALLEST_TEXT_PT,
    TEXT,
    BookFigure,
    _figure_function,  # noqa: F401  (for figure modules written against plots)
    book_style,
    new_figure,
)
from .figures_code import (
    codebase_schedules_figure,
    column_match_figure,
    distance_figure,
    error_growth_figure,
    offset_figure,
    rope_pairing_figure,
    rule_figure,
)
from .figures_decay import (
    aliasing_figure,
    decay_comparison_figure,
    decay_law_figure,
    rms_law_figure,
    schedule_integrals_figure,
)
from .figures_encoding import (
    column_fit_figure,
    inner_product_figure,
    leakage_figure,
    orderings_figure,
    rope_decay_figure,
    scaling_figure,
    similarity_figure,
    taylor_scale_figure,
)

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
