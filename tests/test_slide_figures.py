"""The text inside the figures the decks show is readable: contrast.

A deck shows a figure by its name (``show: [fig-...]`` in a chapter's slide
comment, ``_ext/slides.py``); the chapter's code cell of that name draws it
with a function of ``posenc/plots*.py`` or an explorer of
``posenc/widgets*.py``. Here every chapter with a deck is run in this
process (its code cells in order, in a scratch folder, with matplotlib's Agg
backend, up to the last cell a slide shows; 10 to 60 s in all) and the figure each shown
cell returns is taken (an explorer's is its ``figure``, at its sliders'
first values; the colours do not change with the values).

For every piece of text the figure draws (every ``matplotlib.text.Text``
artist its ``draw`` draws: titles, labels, tick labels, legends,
annotations), its colour (with its alpha) must have a contrast ratio of at
least 4.5:1 (WCAG 2, AA, normal text) against what lies under it: the median
colour, in the figure rendered with every text hidden, of the pixels under
the text's box. A failure names the chapter, the figure, the text, its
colour and the ratio; figures a slide names that are not drawn by a code
cell (a picture file) cannot be checked here and are listed by
``test_every_figure_a_deck_shows_is_found``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))

import slide_comments  # noqa: E402  (_ext/slide_comments.py)
import tiers  # noqa: E402  (tests/tiers.py)

#: WCAG 2 AA for normal text (every figure text is 10 to 11 pt at the
#: design width: no figure text is "large", 18 pt).
MIN_CONTRAST = 4.5
CHAPTERS = sorted(
    path.stem
    for path in (ROOT / "book").glob("*.md")
    if slide_comments.MARKER.search(path.read_text(encoding="utf-8"))
)


def relative_luminance(rgb) -> float:
    """WCAG 2's relative luminance of an sRGB colour (components in 0..1)."""
    c = np.asarray(rgb, dtype=float)[:3]
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return float(c @ [0.2126, 0.7152, 0.0722])


def contrast(first, second) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    a, b = sorted((relative_luminance(first), relative_luminance(second)))
    return (b + 0.05) / (a + 0.05)


def _cell_name(cell) -> str | None:
    figure = (cell.metadata.get("mystnb") or {}).get("figure") or {}
    return figure.get("name") or cell.metadata.get("name")


def shown_figures(chapter: str) -> dict[str, object]:
    """Name -> the figure (or explorer) of each code cell the chapter's
    slides show, by running the chapter's code cells in order."""
    import jupytext
    from IPython.core.inputtransformer2 import TransformerManager

    path = ROOT / "book" / f"{chapter}.md"
    wanted = {
        name
        for slide in slide_comments.slides_of(path.read_text(encoding="utf-8"), chapter)
        for name in slide.names
    }
    cells = [c for c in jupytext.read(path).cells if c.cell_type == "code"]
    last = max((i for i, c in enumerate(cells) if _cell_name(c) in wanted), default=-1)
    transform = TransformerManager().transform_cell
    namespace: dict = {"__name__": "__main__"}
    found = {}
    here = os.getcwd()
    scratch = tempfile.TemporaryDirectory()
    os.chdir(scratch.name)  # as make test runs the notebooks: in a folder of their own
    try:
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(io.StringIO()),
        ):
            warnings.simplefilter("ignore")
            for index, cell in enumerate(cells[: last + 1]):
                code = "\n".join(
                    line
                    for line in transform(cell.source).splitlines()
                    if "get_ipython()" not in line  # %matplotlib inline
                )
                tree = ast.parse(code)
                where = f"{chapter}.md, code cell {index + 1}"
                value = None
                if tree.body and isinstance(tree.body[-1], ast.Expr):
                    body = ast.Module(tree.body[:-1], type_ignores=[])
                    exec(compile(body, where, "exec"), namespace)
                    last_line = ast.Expression(tree.body[-1].value)
                    value = eval(compile(last_line, where, "eval"), namespace)
                else:
                    exec(compile(tree, where, "exec"), namespace)
                if _cell_name(cell) in wanted:
                    found[_cell_name(cell)] = value
    finally:
        os.chdir(here)
        scratch.cleanup()
    return found


def low_contrast_texts(figure) -> list[tuple[float, str, str]]:
    """(ratio, text, colour) of every text ``figure`` draws with a contrast
    below :data:`MIN_CONTRAST` against what lies under it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.colors import to_hex, to_rgba
    from matplotlib.text import Text

    canvas = FigureCanvasAgg(figure)
    # An explorer draws its moving artists itself (blitting): draw them too.
    animated = [a for a in figure.findobj() if a.get_animated()]
    for artist in animated:
        artist.set_animated(False)
    layout = figure.get_layout_engine()
    drawn = []
    original = Text.draw

    def recording(text, renderer):
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)
        return original(text, renderer)

    Text.draw = recording
    try:
        canvas.draw()  # the texts drawn, not every tick matplotlib keeps
    finally:
        Text.draw = original
    renderer = canvas.get_renderer()
    boxes = [(text, text.get_window_extent(renderer)) for text in drawn]
    # Hide every text, the layout kept (a constrained layout would give
    # the axes the room of the labels), and render what lies under them.
    figure.set_layout_engine("none")
    for text in drawn:
        text.set_visible(False)
    try:
        canvas.draw()
        under_all = np.asarray(canvas.buffer_rgba())[..., :3] / 255
    finally:
        for text in drawn:
            text.set_visible(True)
        for artist in animated:
            artist.set_animated(True)
        figure.set_layout_engine(layout)
    height, width = under_all.shape[:2]
    low = []
    for text, box in boxes:
        x0, x1 = max(int(box.x0), 0), min(int(np.ceil(box.x1)), width)
        y0, y1 = (
            max(int(height - box.y1), 0),
            min(int(np.ceil(height - box.y0)), height),
        )
        if x1 <= x0 or y1 <= y0:
            continue  # off the canvas: not shown
        under = np.median(under_all[y0:y1, x0:x1].reshape(-1, 3), axis=0)
        *rgb, alpha = to_rgba(text.get_color(), text.get_alpha())
        colour = alpha * np.asarray(rgb) + (1 - alpha) * under
        ratio = contrast(colour, under)
        if ratio < MIN_CONTRAST:
            shown = " ".join(text.get_text().split())[:40]
            low.append((ratio, shown, to_hex(text.get_color())))
    return low


@pytest.fixture(scope="module")
def figures():
    import matplotlib

    matplotlib.use("Agg")
    return {chapter: shown_figures(chapter) for chapter in CHAPTERS}


def test_the_contrast_ratio_is_wcags():
    """Known pairs: black on white 21:1; #767676 on white is AA's edge, 4.54."""
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21)
    grey = np.array([0x76] * 3) / 255
    assert contrast(grey, (1, 1, 1)) == pytest.approx(4.54, abs=0.005)


def test_a_low_contrast_label_is_found():
    """A label in Okabe-Ito's orange (2.25:1 on white) is found; black is
    not (the check can fail)."""
    from posenc import plots

    figure, ax = plots.new_figure(height=2.0)
    ax.plot([0, 1], [0, 1], color="black")
    ax.text(0.1, 0.8, "orange label", color=plots.PALETTE["orange"])
    ax.set_xlabel("black label")
    low = low_contrast_texts(figure)
    assert [text for _, text, _ in low] == ["orange label"]
    assert low[0][0] == pytest.approx(2.25, abs=0.01)


@pytest.mark.parametrize("chapter", tiers.sampled(CHAPTERS, tiers.DECKS))
def test_every_figure_a_deck_shows_is_found(figures, chapter):
    """Every ``fig-...`` a slide of the chapter shows is a code cell's
    figure or explorer (so its text is checked below)."""
    path = ROOT / "book" / f"{chapter}.md"
    named = {
        name
        for slide in slide_comments.slides_of(path.read_text(encoding="utf-8"), chapter)
        for name in slide.names
        if name.startswith("fig-")
    }
    assert named <= set(figures[chapter]), named - set(figures[chapter])
    for name, value in figures[chapter].items():
        if name.startswith("fig-"):
            assert hasattr(getattr(value, "figure", value), "findobj"), name


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_text_in_the_figures_a_deck_shows_has_contrast(figures, chapter):
    """Every text of every figure the chapter's deck shows: at least
    4.5:1 against what lies under it."""
    low = [
        f"{name}: {text!r} in {colour}: {ratio:.2f}:1"
        for name, value in figures[chapter].items()
        if name.startswith("fig-")
        for ratio, text, colour in low_contrast_texts(getattr(value, "figure", value))
    ]
    assert not low, "\n".join([f"{chapter}:", *low])
