"""The static form of an explorer, for the built website (no kernel there).

:func:`player_html` returns the HTML that the book's pages show in place of
the live ipywidgets version. This first version shows the default figure
only; the slider player over precomputed frames builds on it.
"""

from __future__ import annotations

import base64
import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .widgets import Explorer


def player_html(explorer: Explorer) -> str:
    """HTML showing ``explorer``'s figure at its current values."""
    data = base64.b64encode(explorer.png()).decode("ascii")
    alt = html.escape(explorer.description, quote=True)
    return (
        f'<div class="posenc-explorer" data-explorer="{type(explorer).__name__}">'
        f'<img src="data:image/png;base64,{data}" alt="{alt}"></div>'
    )
