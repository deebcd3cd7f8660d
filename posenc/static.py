"""The static form of an explorer, for the built website (no kernel there).

The website cannot run Python, so an explorer's sliders step through frames
rendered when the book is built, one PNG for every combination of slider
values. This module holds what the notebook side and the build side must
agree on:

* :func:`player_html` -- the HTML a notebook output carries for the website:
  the explorer's current frame inline (a data URI, so the figure shows with
  JavaScript off), and one range input per :class:`~posenc.widgets.Choice`,
  hidden until the site's script (``_ext/static/posenc-player.js``)
  reveals them and swaps the picture on every move;
* :func:`frame_name` and :func:`all_indices` -- how frames are named: by the
  index of each slider's value, ``2_0_1.png``, under
  ``_static/explorers/<ClassName>/`` of the site;
* :func:`render_frames` -- renders frames to files (run at build time by the
  Sphinx extension ``_ext/explorer_frames.py``, in worker processes);
* :func:`sources_hash` -- the key of the build's frame cache.
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import struct
import time
from collections.abc import Iterable, Iterator, Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .widgets import Choice, Explorer

__all__ = [
    "FRAMES_DIR",
    "NOTE_LIVE",
    "NOTE_STATIC",
    "all_indices",
    "frame_name",
    "player_html",
    "render_frames",
    "sources_hash",
    "value_indices",
]

#: Where the frames go, relative to the site's ``_static`` folder.
FRAMES_DIR = "explorers"

#: Shown under a player whose sliders work (revealed by the script).
NOTE_LIVE = (
    "Static version: the sliders step through figures precomputed when the "
    "book was built. Open this chapter as a notebook for the live version."
)
#: Shown under a player without JavaScript, and in print: ``{values}`` is
#: replaced by the values the figure shows.
NOTE_STATIC = (
    "Figure for {values}. Its sliders work on the book's website (with "
    "JavaScript on) and, live, in this chapter's notebook."
)

_PACKAGE = Path(__file__).resolve().parent


def frame_name(indices: Sequence[int]) -> str:
    """File name of the frame whose slider ``k`` is at option ``indices[k]``."""
    if not indices or any(index < 0 for index in indices):
        raise ValueError(f"indices must be non-negative and not empty: {indices!r}")
    return "_".join(str(int(index)) for index in indices) + ".png"


def all_indices(explorer_class: type[Explorer]) -> Iterator[tuple[int, ...]]:
    """Every combination of option indices of ``explorer_class``'s sliders."""
    return itertools.product(*(range(len(c.options)) for c in explorer_class.choices))


def value_indices(explorer: Explorer) -> tuple[int, ...]:
    """The option index of each slider's current value."""
    return tuple(c.options.index(explorer.values[c.name]) for c in explorer.choices)


def values_at(explorer_class: type[Explorer], indices: Sequence[int]) -> dict:
    """The slider values (keyword arguments of ``update``) at ``indices``."""
    choices = explorer_class.choices
    return {c.name: c.options[i] for c, i in zip(choices, indices, strict=True)}


def render_frames(
    explorer_class: type[Explorer],
    indices: Iterable[Sequence[int]],
    directory: str | Path,
) -> tuple[int, int, float]:
    """Render the frames at ``indices`` into ``directory``.

    One explorer draws them all, so its cached background is reused (frames
    differ only in their dynamic artists). Returns the number of frames, the
    bytes written and the seconds spent.
    """
    start = time.perf_counter()
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    explorer = explorer_class()
    count = written = 0
    for index in indices:
        explorer.update(**values_at(explorer_class, index))
        data = explorer.png()
        (directory / frame_name(index)).write_bytes(data)
        count, written = count + 1, written + len(data)
    return count, written, time.perf_counter() - start


def sources_hash(package: str | Path = _PACKAGE) -> str:
    """Key of the frame cache: the ``*.py`` sources of ``package`` and the
    versions of the libraries that draw and encode the frames."""
    digest = hashlib.sha256()
    for path in sorted(Path(package).glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    for library in ("matplotlib", "numpy", "pillow"):
        digest.update(f"{library}=={metadata.version(library)}\0".encode())
    return digest.hexdigest()[:16]


# ------------------------------------------------------------------ HTML


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    return struct.unpack(">II", data[16:24])


def _attribute(value: str) -> str:
    return html.escape(value, quote=True)


def _slider_html(choice: Choice, index: int) -> str:
    """One labelled range input; its ``<output>`` shows the formatted value."""
    labels = [choice.format(option) for option in choice.options]
    current = _attribute(labels[index])
    return (
        '<label class="posenc-slider">'
        f'<span class="posenc-label">{html.escape(choice.label)}</span>'
        f'<input type="range" min="0" max="{len(labels) - 1}" step="1" '
        f'value="{index}" data-name="{_attribute(choice.name)}" '
        f'data-labels="{_attribute(json.dumps(labels))}" '
        f'aria-valuetext="{current}">'
        f'<output class="posenc-value">{current}</output></label>'
    )


def player_html(explorer: Explorer) -> str:
    """HTML of ``explorer``'s static player, starting at its current values.

    The current frame is inline, so the page shows the figure with no script
    and no other file. Explorers listed in ``posenc.widgets.EXPLORERS`` (whose
    frames the build renders) also get their sliders, hidden until the site's
    script reveals them; any other explorer is shown as a plain figure.
    """
    from .widgets import EXPLORERS

    name = type(explorer).__name__
    data = explorer.png()
    width, height = _png_size(data)
    image = (
        f'<img class="posenc-frame" width="{width}" height="{height}" '
        f'src="data:image/png;base64,{base64.b64encode(data).decode("ascii")}" '
        f'alt="{_attribute(explorer.description)}">'
    )
    if type(explorer) not in EXPLORERS:
        return f'<div class="posenc-explorer" data-explorer="{name}">{image}</div>'
    indices = value_indices(explorer)
    sliders = "".join(
        _slider_html(choice, index)
        for choice, index in zip(explorer.choices, indices, strict=True)
    )
    return (
        f'<div class="posenc-explorer posenc-player" data-explorer="{name}">'
        f'<div class="posenc-controls" hidden>{sliders}</div>{image}'
        f'<p class="posenc-note posenc-note-live" hidden>{NOTE_LIVE}</p>'
        f'<p class="posenc-note posenc-note-static">{_static_note(explorer)}</p>'
        "</div>"
    )


def _static_note(explorer: Explorer) -> str:
    """:data:`NOTE_STATIC` naming the values of the figure shown (in a span
    that the script keeps up to date, for printing after a slider moved)."""
    values = ", ".join(
        f"{c.label} = {c.format(explorer.values[c.name])}" for c in explorer.choices
    )
    before, after = (html.escape(part) for part in NOTE_STATIC.split("{values}"))
    return f'{before}<span class="posenc-values">{html.escape(values)}</span>{after}'
