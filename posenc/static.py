"""The static form of an explorer, for the built website (no kernel there).

The website cannot run Python, so an explorer's sliders step through frames
rendered when the book is built, one PNG for every combination of slider
values. This module holds what the notebook side and the build side must
agree on. It is a leaf: it imports nothing from the rest of ``posenc`` and is
handed what it renders (:mod:`posenc.widgets` calls it; the list of explorers
lives there only).

* :func:`player_html` -- the HTML a notebook output carries for the website:
  a figure inline (a data URI, so it shows with JavaScript off) and, given
  :class:`Slider` descriptions, one range input per slider, hidden until the
  site's script (``_ext/static/posenc-player.js``) reveals them and swaps the
  picture on every move;
* :func:`frame_name` and :func:`all_indices` -- how frames are named: by the
  index of each slider's value, ``2_0_1.png``, under
  ``_static/explorers/<ClassName>/`` of the site;
* :func:`render_frames` -- renders frames to files (run at build time by the
  Sphinx extension ``_ext/explorer_frames.py``, in worker processes);
* :func:`code_hash` -- the key of the build's caches: the code of ``posenc``
  (its syntax tree without docstrings, so editing a docstring or a comment
  re-renders nothing).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import html
import itertools
import json
import struct
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = [
    "FRAMES_DIR",
    "NOTE_LIVE",
    "NOTE_STATIC",
    "MAX_FRAMES",
    "MAX_FRAME_BYTES",
    "Slider",
    "all_indices",
    "code_hash",
    "frame_name",
    "player_html",
    "render_frames",
    "value_indices",
]

#: Where the frames go, relative to the site's ``_static`` folder.
FRAMES_DIR = "explorers"

#: Shown under a player whose sliders work (revealed by the script).
NOTE_LIVE = (
    "The sliders step through figures computed when the book was built; run "
    "this chapter as a notebook (Running it yourself, in the introduction) "
    "and they recompute live."
)
#: Shown under a player without JavaScript, and in print: ``{values}`` is
#: replaced by the values the figure shows.
NOTE_STATIC = (
    "Figure for {values}. With JavaScript on, sliders on this page step through "
    "figures computed when the book was built; in this chapter's notebook "
    "they recompute live."
)
#: Kinds of :class:`Slider`: a range over ordered numbers, or buttons for
#: named choices (a layout, a schedule, a kind of matrix).
KINDS = ("range", "choice")

#: The most frames one explorer may have: the product of its sliders' option
#: counts. A new slider multiplies it, and every frame is a file of the site.
MAX_FRAMES = 200
#: The most bytes the frames of one explorer may take in the site.
MAX_FRAME_BYTES = 10_000_000

_PACKAGE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Slider:
    """What the page shows of one slider: its name (the keyword of the
    explorer's ``update``), its label, the label of each option, and the
    index of the option the figure shows."""

    name: str
    label: str
    labels: tuple[str, ...]
    index: int
    #: "range" (ordered numbers) or "choice" (named options, shown as buttons).
    kind: str = "range"
    #: How the options are spaced, shown under a range ("×2 per step",
    #: "uneven steps"); empty for none.
    scale: str = ""
    #: Offer a play button that steps through the options.
    play: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        if not 0 <= self.index < len(self.labels):
            raise ValueError(
                f"index must be in 0 … {len(self.labels) - 1}, got {self.index}"
            )


def frame_name(indices: Sequence[int]) -> str:
    """File name of the frame whose slider ``k`` is at option ``indices[k]``."""
    if not indices or any(index < 0 for index in indices):
        raise ValueError(f"indices must be non-negative and not empty: {indices!r}")
    return "_".join(str(int(index)) for index in indices) + ".png"


def all_indices(explorer_class: Any) -> Iterator[tuple[int, ...]]:
    """Every combination of option indices of ``explorer_class``'s sliders
    (its ``choices``, each with its ``options``)."""
    return itertools.product(*(range(len(c.options)) for c in explorer_class.choices))


def value_indices(explorer: Any) -> tuple[int, ...]:
    """The option index of each slider's current value."""
    return tuple(c.options.index(explorer.values[c.name]) for c in explorer.choices)


def values_at(explorer_class: Any, indices: Sequence[int]) -> dict:
    """The slider values (keyword arguments of ``update``) at ``indices``."""
    choices = explorer_class.choices
    return {c.name: c.options[i] for c, i in zip(choices, indices, strict=True)}


def render_frames(
    explorer_class: Any,
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


def _without_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with the docstring of every module, class and function removed."""
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if not isinstance(node, kinds) or not node.body:
            continue
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            if isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    return tree


def code_hash(
    package: str | Path = _PACKAGE,
    libraries: Sequence[str] = ("matplotlib", "numpy", "pillow"),
    modules: Iterable[str] | None = None,
) -> str:
    """Key of the build's caches: what the code of ``package`` does.

    Hashes the syntax tree of every ``*.py`` file (or of the named
    ``modules`` only) without docstrings and positions, so comments,
    docstrings and blank lines do not count, and the versions of
    ``libraries`` (those that draw and encode the frames).
    """
    digest = hashlib.sha256()
    paths = sorted(Path(package).glob("*.py"))
    if modules is not None:
        paths = [path for path in paths if path.stem in set(modules)]
    for path in paths:
        tree = _without_docstrings(ast.parse(path.read_text(encoding="utf-8")))
        digest.update(path.name.encode() + b"\0" + ast.dump(tree).encode() + b"\0")
    for library in libraries:
        digest.update(f"{library}=={metadata.version(library)}\0".encode())
    return digest.hexdigest()[:16]


# ------------------------------------------------------------------ HTML


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    return struct.unpack(">II", data[16:24])


def _attribute(value: str) -> str:
    return html.escape(value, quote=True)


def _slider_html(slider: Slider) -> str:
    """One labelled control. A range input (with its scale and, if asked for,
    a play button) or a group of buttons; its ``<output>`` shows the value."""
    current = _attribute(slider.labels[slider.index])
    label = f'<span class="posenc-label">{html.escape(slider.label)}</span>'
    output = f'<output class="posenc-value">{current}</output>'
    common = (
        f'data-name="{_attribute(slider.name)}" '
        f'data-labels="{_attribute(json.dumps(list(slider.labels)))}"'
    )
    if slider.kind == "choice":
        buttons = "".join(
            f'<button type="button" data-index="{index}" '
            f'aria-pressed="{"true" if index == slider.index else "false"}">'
            f"{html.escape(text)}</button>"
            for index, text in enumerate(slider.labels)
        )
        return (
            f'<div class="posenc-slider posenc-choice">{label}'
            f'<span class="posenc-buttons" role="group" '
            f'aria-label="{_attribute(slider.label)}" data-kind="choice" '
            f'data-index="{slider.index}" {common}>{buttons}</span>{output}</div>'
        )
    play = (
        f'<button type="button" class="posenc-play" '
        f'aria-label="play {_attribute(slider.label)}">▶</button>'
        if slider.play
        else ""
    )
    scale = (
        f'<span class="posenc-scale">{html.escape(slider.labels[0])} … '
        f"{html.escape(slider.labels[-1])}, {html.escape(slider.scale)}</span>"
        if slider.scale
        else ""
    )
    return (
        f'<label class="posenc-slider">{label}'
        f'<input type="range" min="0" max="{len(slider.labels) - 1}" step="1" '
        f'value="{slider.index}" data-kind="range" {common} '
        f'aria-valuetext="{current}">{output}{play}</label>{scale}'
    )


def player_html(
    name: str,
    png: bytes,
    description: str,
    sliders: Sequence[Slider] | None = None,
) -> str:
    """HTML of the static player of explorer class ``name``.

    ``png`` is the figure at the sliders' current options, inline, so the page
    shows it with no script and no other file; ``description`` is its alt
    text. With ``sliders`` (for explorers whose frames the build renders), the
    player gets one range input per slider, hidden until the site's script
    reveals them; without, it is a plain figure.
    """
    width, height = _png_size(png)
    image = (
        f'<img class="posenc-frame" width="{width}" height="{height}" '
        f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}" '
        f'alt="{_attribute(description)}">'
    )
    if sliders is None:
        return f'<div class="posenc-explorer" data-explorer="{name}">{image}</div>'
    controls = "".join(_slider_html(slider) for slider in sliders)
    return (
        f'<div class="posenc-explorer posenc-player" data-explorer="{name}">'
        f'<div class="posenc-controls" hidden>{controls}</div>'
        f'<div class="posenc-stage">{image}'
        '<span class="posenc-loading" hidden>loading …</span></div>'
        f'<p class="posenc-note posenc-note-live" hidden>{NOTE_LIVE}</p>'
        f'<p class="posenc-note posenc-note-static">{_static_note(sliders)}</p>'
        "</div>"
    )


def _static_note(sliders: Sequence[Slider]) -> str:
    """:data:`NOTE_STATIC` naming the values of the figure shown (in a span
    that the script keeps up to date, for printing after a slider moved)."""
    values = ", ".join(f"{s.label} = {s.labels[s.index]}" for s in sliders)
    before, after = (html.escape(part) for part in NOTE_STATIC.split("{values}"))
    return f'{before}<span class="posenc-values">{html.escape(values)}</span>{after}'
