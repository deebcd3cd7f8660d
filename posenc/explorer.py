"""The base of every explorer: :class:`Explorer` and its sliders, :class:`Choice`.

An explorer (a figure with sliders, live in Jupyter and static in the book)
subclasses :class:`Explorer`; the book's explorers are in
:mod:`posenc.widgets` (and, by chapter, ``posenc/widgets_<chapter>.py``),
which lists them in ``EXPLORERS``. This module imports none of them, so a
chapter's explorer module and :mod:`posenc.widgets` both import from here
and never from each other (no import cycle).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from . import static
from .figure_style import DESIGN_DPI, PALETTE, book_style

__all__ = [
    "Choice",
    "Explorer",
    "LISTED",
    "D_CHOICES",
    "BASE_CHOICES",
    "d_choice",
    "base_choice",
    "Sweep",
]

#: The MIME type of a live widget's view (ipywidgets 7 and 8 alike).
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: The explorers whose frames the build renders: ``posenc.widgets`` adds
#: its ``EXPLORERS`` here when it is imported.
LISTED: set[type] = set()


@dataclass(frozen=True)
class Choice:
    """A slider over a fixed, ordered tuple of valid values."""

    name: str
    label: str
    options: tuple[Any, ...]
    default: Any
    format: Callable[[Any], str] = field(default=str, compare=False)

    def __post_init__(self) -> None:
        if self.default not in self.options:
            raise ValueError(
                f"default {self.default!r} of {self.name} is not among its options"
            )

    def check(self, value: Any) -> Any:
        """Return ``value`` if the slider offers it, else raise ``ValueError``."""
        if value not in self.options:
            raise ValueError(
                f"{self.name} must be one of {[self.format(o) for o in self.options]}, "
                f"got {value!r}"
            )
        return value


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _power_of_ten(value: float) -> str:
    """``10⁴`` for 10000.0 (as maths, in plain text), else ``value`` as ``g``."""
    exponent = int(round(np.log10(value)))
    if 10.0**exponent != value:
        return f"{value:g}"
    return "10" + str(exponent).translate(_SUPERSCRIPT)


def _kind(options: Sequence[Any]) -> str:
    """Buttons ("choice") for named options, a slider ("range") for numbers."""
    return "choice" if any(isinstance(option, str) for option in options) else "range"


def _scale(options: Sequence[Any]) -> str:
    """How numeric ``options`` are spaced, in words ("" for named options)."""
    if any(isinstance(option, str) for option in options) or len(options) < 3:
        return ""
    values = np.asarray(options, dtype=float)
    steps = np.diff(values)
    if np.allclose(steps, steps[0]):
        return f"steps of {steps[0]:g}"
    if values[0] > 0 and np.allclose(values[1:] / values[:-1], values[1] / values[0]):
        return f"×{values[1] / values[0]:g} per step"
    return "uneven steps"


#: Dimensions offered by the sliders: even, from a toy size to a real model's.
D_CHOICES = (4, 8, 16, 32, 64, 128, 256, 512)
#: Bases offered by the sliders, log-spaced around the paper's 10000.
BASE_CHOICES = (10.0, 100.0, 1e3, 1e4, 1e5, 1e6)


def d_choice(default: int = 64, options: Sequence[int] = D_CHOICES) -> Choice:
    return Choice("d", "d", tuple(options), default)


def base_choice(
    default: float = 1e4, options: Sequence[float] = BASE_CHOICES
) -> Choice:
    return Choice("base", "base", tuple(options), default, format=_power_of_ten)


class Explorer:
    """Base class: a figure whose data follow a few :class:`Choice` sliders.

    Subclasses set :attr:`choices`, build their artists in :meth:`build`
    (called once) and move them in :meth:`draw` (called on every change).
    Artists that ``draw`` changes must be registered with :meth:`dynamic`:
    the rest of the figure is rendered once and cached (blitting), which is
    what keeps an update within a few tens of milliseconds.
    """

    choices: ClassVar[tuple[Choice, ...]] = ()
    #: Names of the sliders whose static player gets a play button.
    animated: ClassVar[tuple[str, ...]] = ()
    #: What the figure shows, in words: the alt text of its static form.
    description: ClassVar[str] = ""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {c.name: c.default for c in self.choices}
        self._dynamic: list[Artist] = []
        self._background = None  # the rendered static part of the figure
        with book_style():
            self.figure: Figure = self.build()
        # frames at the design resolution: hundreds of them, fetched on a move
        self.figure.set_dpi(DESIGN_DPI)
        self.canvas = FigureCanvasAgg(self.figure)
        self.draw(**self.values)
        # Lay the figure out once, at the default values, then freeze the
        # layout: constrained layout costs ~100 ms a render, and the sliders
        # change data and titles, not the arrangement of the axes.
        self.figure.draw_without_rendering()
        self.figure.set_layout_engine("none")

    def dynamic(self, *artists: Artist) -> None:
        """Register artists that :meth:`draw` changes (drawn on every frame)."""
        for artist in artists:
            artist.set_animated(True)
            self._dynamic.append(artist)

    # -- to be provided by subclasses -------------------------------------
    def build(self) -> Figure:  # pragma: no cover - abstract
        raise NotImplementedError

    def draw(self, **values: Any) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- shared behaviour --------------------------------------------------
    def update(self, **changes: Any) -> None:
        """Set some slider values, validate them, and redraw the figure."""
        by_name = {c.name: c for c in self.choices}
        for name, value in changes.items():
            if name not in by_name:
                raise ValueError(
                    f"unknown parameter {name!r}; expected one of {list(by_name)}"
                )
            by_name[name].check(value)
        self.values.update(changes)
        self.draw(**self.values)

    def render(self) -> np.ndarray:
        """The figure as it stands, as an (height, width, 4) RGBA array.

        The static part is drawn once (animated artists are skipped by a
        normal draw) and restored from a cache; only the dynamic artists are
        drawn again.
        """
        if self._background is None:
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.figure.bbox)
        else:
            self.canvas.restore_region(self._background)
        for artist in sorted(self._dynamic, key=_drawing_order):
            self.figure.draw_artist(artist)
        return np.asarray(self.canvas.buffer_rgba())

    def png(self, compress_level: int = 6) -> bytes:
        """The figure as it stands, as PNG bytes (lower level: faster, larger)."""
        rgb = Image.fromarray(self.render()[..., :3])
        buffer = io.BytesIO()
        rgb.save(buffer, format="png", compress_level=compress_level)
        return buffer.getvalue()

    def widget(self):
        """The live form: one slider per choice above the figure.

        Every call (every display) makes a form with its own values and
        picture: its sliders redraw the shared figure at those values and
        update that picture only.
        """
        import ipywidgets as widgets

        values = dict(self.values)
        image = widgets.Image(value=self.png(compress_level=1), format="png")

        def move(name: str, value: Any) -> None:
            values[name] = value
            self.update(**values)
            image.value = self.png(compress_level=1)

        sliders = []
        for choice in self.choices:
            slider = widgets.SelectionSlider(
                options=[(choice.format(o), o) for o in choice.options],
                value=self.values[choice.name],
                description=choice.label,
                continuous_update=True,
                layout=widgets.Layout(width="420px"),
            )
            slider.observe(
                lambda change, name=choice.name: move(name, change["new"]),
                names="value",
            )
            sliders.append(slider)
        return widgets.VBox([*sliders, image])

    def sliders(self) -> list[static.Slider]:
        """The sliders as the static player shows them, at the current values."""
        return [
            static.Slider(
                choice.name,
                choice.label,
                tuple(choice.format(option) for option in choice.options),
                choice.options.index(self.values[choice.name]),
                kind=_kind(choice.options),
                scale=_scale(choice.options),
                play=choice.name in self.animated,
            )
            for choice in self.choices
        ]

    def player_html(self) -> str:
        """The static player of the website, at the current values.

        Explorers listed in :data:`posenc.widgets.EXPLORERS` (whose frames
        the build renders; it fills :data:`LISTED`) get their sliders; any
        other explorer is shown as a plain figure.
        """
        listed = type(self) in LISTED
        return static.player_html(
            type(self).__name__,
            self.png(),
            self.description,
            self.sliders() if listed else None,
        )

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, Any]:
        """Live widget for Jupyter, static player for the website, PNG for print.

        JupyterLab ranks the widget view first. The book's HTML build drops the
        widget view (``_config.yml``) and so shows ``text/html``, the static
        player of :mod:`posenc.static`; other builders fall back to the PNG.
        ipywidgets 7 (Colab's 7.7.1) has no ``_repr_mimebundle_``: its view
        is the same widget-view entry, written here.
        """
        view = self.widget()
        if hasattr(view, "_repr_mimebundle_"):
            bundle = dict(view._repr_mimebundle_())
        else:
            bundle = {WIDGET_VIEW: {"version_major": 2, "version_minor": 0}}
            bundle[WIDGET_VIEW]["model_id"] = view.model_id
        bundle["text/html"] = self.player_html()
        bundle["image/png"] = base64.b64encode(self.png()).decode("ascii")
        return bundle


def _drawing_order(artist: Artist) -> tuple[float, int]:
    """Matplotlib's own order: by z-order, ties broken by the axes' child order."""
    siblings = artist.axes.get_children() if artist.axes is not None else []
    position = siblings.index(artist) if artist in siblings else len(siblings)
    return artist.get_zorder(), position


@dataclass
class Sweep:
    """The lower panel of a player that moves m at a fixed offset: over the
    positions m, what the rotation keeps (circles on a solid line) against
    what moves with m (squares on a dashed line), and a ring at the m shown.
    Used by the two-hands players (``widgets_complex``, ``widgets_rope``)."""

    positions: tuple[int, ...]
    kept: Any
    moved: Any
    here: Any

    @classmethod
    def draw_on(cls, ax, positions, kept, moved, ylim, ylabel) -> Sweep:
        """Draw the empty panel on ``ax``; ``kept`` and ``moved`` are each a
        (label, colour)."""
        (kept_line,) = ax.plot(
            [], [], "o-", color=kept[1], ms=3.5, lw=1.8, label=kept[0]
        )
        (moved_line,) = ax.plot(
            [], [], "s--", color=moved[1], ms=3.0, lw=1.3, label=moved[0]
        )
        (here,) = ax.plot([], [], "o", ms=9, mfc="none", mec=PALETTE["black"], mew=1.4)
        ax.set_xlim(positions[0] - 0.5, positions[-1] + 0.5)
        ax.set_ylim(*ylim)
        ax.set_xticks(range(4, positions[-1] + 1, 2))
        ax.set_xlabel("position m (and n = m − Δ)")
        ax.set_ylabel(ylabel)
        return cls(tuple(positions), kept_line, moved_line, here)

    def show(self, kept, moved, m: int) -> None:
        """The two curves over the positions, and the ring at ``m``."""
        self.kept.set_data(np.array(self.positions), kept)
        self.moved.set_data(np.array(self.positions), moved)
        index = self.positions.index(m)
        self.here.set_data([m, m], [kept[index], moved[index]])
