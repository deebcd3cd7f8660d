"""The teaching kit's figures drawn for slides (issue 21, a lecturer's review).

* ``posenc.plots_decay.hands_at_offset_figure`` (decay slide 4): each hand
  turned by the offset times its speed, coloured by slow or fast, with its
  angle above and its cosine under it, and the title's mean and share.
* ``posenc.plots_rope.activity_figure`` (the RoPE deck's backup slide for
  the in-class activity) draws the scores it is handed; the chapter's
  figure shows the numbers the activity itself computes (its reference
  answer run as ``tests/test_activity.py`` runs it), and the slide's notes
  quote them.
* ``posenc.widgets_slides``: the players drawn for a slide (encoding
  slide 4, complex slide 10, finite-d slide 10, RoPE slide 5) keep their
  page explorer's sliders and data (lines, images, shaded bands, the
  numbers their texts state, the labels of moving ticks), fit a slide at
  1.8 times with their sliders under them and a caption of two lines,
  their text is at least 10 pt and at 4.5:1 contrast, and no text runs off
  the frame.
* A player in a notebook shows its live form on Colab's ipywidgets 7 too
  (the kit's hosted route, ``book/instructor/guide.md``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from matplotlib.colors import to_hex
from test_plots import assert_readable, smallest_text

import posenc
from posenc import plots_decay, plots_rope, widgets, widgets_slides
from posenc.figure_style import PALETTE, SMALLEST_TEXT_PT

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))

import slide_comments  # noqa: E402  (_ext/slide_comments.py)
import slides  # noqa: E402  (_ext/slides.py)

# ------------------------------------------------------------ decay slide 4


def _hands(figure):
    """(angle, colour) of each hand the figure draws: a line from a clock's
    centre (on the x axis, y = 0) to its tip."""
    (ax,) = figure.axes
    found = []
    for line in ax.get_lines():
        x, y = line.get_xdata(), line.get_ydata()
        if len(x) == 2 and y[0] == 0 and line.get_linewidth() > 2:
            found.append((np.arctan2(y[1], x[1] - x[0]), to_hex(line.get_color())))
    return found


def test_the_hands_figure_turns_each_hand_by_the_offset_times_its_speed():
    theta = posenc.frequencies(16, 1e4)
    figure = plots_decay.hands_at_offset_figure(50, theta)
    assert_readable(figure)
    hands = _hands(figure)
    assert len(hands) == 8
    turned = np.angle(np.exp(1j * 50 * theta))  # wrapped to (-pi, pi]
    assert np.allclose([a for a, _ in hands], turned, atol=1e-12)
    slow = theta < 1 / 50
    colours = [to_hex(PALETTE["blue" if s else "vermillion"]) for s in slow]
    assert [c for _, c in hands] == colours
    texts = [t.get_text() for t in figure.axes[0].texts]
    for angle, cosine in zip(50 * theta, np.cos(50 * theta), strict=True):
        assert f"{angle:.2g}" in texts
        assert f"{cosine:+.2f}".replace("-", "−") in texts
    title = figure.axes[0].get_title()
    assert f"mean of the cosines {np.cos(50 * theta).mean():.2f}" in title
    assert f"share of slow clocks {slow.mean():.2f}" in title
    assert "fast: they cancel" in texts and "slow: near 1 each" in texts


def test_the_hands_figure_puts_the_cut_where_the_speeds_cross_one_over_delta():
    """The dashed line stands between the last fast and the first slow
    clock; at another offset it moves."""
    theta = posenc.frequencies(16, 1e4)
    for delta, fast in ((50, 4), (5, 2), (500, 6)):
        assert np.sum(theta >= 1 / delta) == fast
        (ax,) = plots_decay.hands_at_offset_figure(delta, theta).axes
        (cut,) = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert np.allclose(cut.get_xdata(), (fast - 0.5) * 2.6)


# ------------------------------------------------ the RoPE activity's results


def test_the_activity_figure_draws_the_scores_it_is_handed():
    positions = np.array([30, 10, 20])
    steps = [
        ("one", [1.0, 1.0, 1.0], True),
        ("two", [-2.0, -2.0, -2.0], True),
        ("mixed", [5.0, -7.0, 1.0], False),
    ]
    figure = plots_rope.activity_figure(positions, steps)
    assert_readable(figure)
    (ax,) = figure.axes
    by_label = {line.get_label(): line for line in ax.get_lines()}
    order = np.argsort(positions)
    for label, scores, _ in steps:
        line = by_label[label]
        assert np.array_equal(line.get_xdata(), positions[order])
        assert np.array_equal(line.get_ydata(), np.array(scores)[order])
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["1.00", "−2.00", "spread\n12"]
    # the bracket spans the mixed scores, from the least to the largest
    bracket = [
        line
        for line in ax.get_lines()
        if not line.get_label().startswith(("one", "two", "mixed"))
        and len(set(line.get_xdata())) == 1
    ]
    assert [sorted(line.get_ydata()) for line in bracket] == [[-7.0, 5.0]]


def _cell(chapter: str, name: str) -> str:
    """The source of the chapter's code cell that draws figure ``name``."""
    import jupytext

    for cell in jupytext.read(ROOT / "book" / f"{chapter}.md").cells:
        figure = (cell.metadata.get("mystnb") or {}).get("figure") or {}
        if cell.cell_type == "code" and figure.get("name") == name:
            return cell.source
    raise LookupError(name)


@pytest.fixture(scope="module")
def activity_run():
    """What the activity computes, run as tests/test_activity.py runs it
    (its reference answer, every cell before the self-check)."""
    import test_activity

    return test_activity.run_in_process(test_activity.rope_cells()[:-1])


def test_the_rope_chapter_shows_the_activitys_own_scores(activity_run):
    """The figure the RoPE deck's backup slide shows (fig-rope-activity)
    plots, for each step, the scores the activity computes at its own
    positions: steps 1 and 2 (offsets +3 and -3) and step 3 (the pairings
    mixed), to 1e-12."""
    import ast

    namespace = {"np": np, "posenc": posenc, "plots_rope": plots_rope}
    tree = ast.parse(_cell("rope", "fig-rope-activity"))
    exec(compile(ast.Module(tree.body[:-1], []), "rope.md", "exec"), namespace)
    last = ast.Expression(tree.body[-1].value)
    figure = eval(compile(last, "rope.md", "eval"), namespace)
    (ax,) = figure.axes
    positions = np.asarray(activity_run["positions"])
    order = np.argsort(positions)
    expected = {
        "step 1: Δ = +3": activity_run["scores"],
        "step 2: Δ = −3": activity_run["behind"],
        "step 3: mixed": activity_run["mixed"],
    }
    by_label = {line.get_label(): line for line in ax.get_lines()}
    for label, scores in expected.items():
        line = by_label[label]
        assert np.array_equal(line.get_xdata(), positions[order])
        np.testing.assert_allclose(
            line.get_ydata(), np.asarray(scores)[order], rtol=0, atol=1e-12
        )
    texts = [t.get_text() for t in ax.texts]
    spread = round(float(np.ptp(activity_run["mixed"])))
    assert texts == [
        f"{np.mean(activity_run['scores']):.2f}".replace("-", "−"),
        f"{np.mean(activity_run['behind']):.2f}".replace("-", "−"),
        f"spread\n{spread}",
    ]


def _slide(chapter: str, title: str):
    text = (ROOT / "book" / f"{chapter}.md").read_text(encoding="utf-8")
    (found,) = [s for s in slide_comments.slides_of(text, chapter) if s.title == title]
    return found


def test_the_backup_slide_quotes_the_activitys_numbers(activity_run):
    """RoPE's "What the activity finds": the numbers its notes and its
    figure's caption quote are the activity's (step 1 at offset +3, step 2
    at -3, step 3's spread), and it stands right after "Mix the
    pairings", where the 90-minute plan uses the activity."""
    slide = _slide("rope", "What the activity finds")
    assert slide.show == ["fig-rope-activity"]
    one = f"{np.mean(activity_run['scores']):.2f}".replace("-", "−")
    two = f"{np.mean(activity_run['behind']):.2f}".replace("-", "−")
    spread = round(float(np.ptp(activity_run["mixed"])))
    notes = " ".join(slide.notes.split())
    one_tex, two_tex = one.replace("−", "-"), two.replace("−", "-")
    assert f"offset $+3$ give one score, ${one_tex}$" in notes
    assert f"offset $-3$ gives ${two_tex}$, not ${one_tex}$" in notes
    assert f"spread by {spread}," in notes
    caption = " ".join(_caption("rope", "fig-rope-activity").split())
    assert f"one score, {one};" in caption and f"another, {two};" in caption
    assert f"spread by {spread}." in caption
    text = (ROOT / "book" / "rope.md").read_text(encoding="utf-8")
    titles = [s.title for s in slide_comments.slides_of(text, "rope")]
    at = titles.index("What the activity finds")
    assert titles[at - 1] == "Mix the pairings: what breaks?"


def _caption(chapter: str, name: str) -> str:
    import jupytext

    for cell in jupytext.read(ROOT / "book" / f"{chapter}.md").cells:
        figure = (cell.metadata.get("mystnb") or {}).get("figure") or {}
        if figure.get("name") == name:
            return figure["caption"]
    raise LookupError(name)


# ------------------------------------------------ players drawn for a slide

FORMS = list(widgets_slides.SLIDE_FORMS.items())


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_a_slide_form_keeps_its_page_explorers_sliders_and_is_rendered(page, form):
    page_class = getattr(widgets, page)
    assert issubclass(form, page_class)
    assert form.choices == page_class.choices
    assert form.animated == page_class.animated
    assert form.description == page_class.description
    assert form in widgets.EXPLORERS and page_class in widgets.EXPLORERS


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_a_slide_form_fits_a_slide_at_projector_size(page, form):
    """At its design size, 1.8 times (slides.FIGURE_SCALE) fits the slide's
    width, and its height with the sliders' row under it and a caption of
    two lines (the room _ext/slides.py gives a figure: FIGURE_ROOM, for a
    caption of one line, less the sliders' row and a second line, 28 px);
    its text is at least the book's smallest, 10 pt: 24.5 px on the
    screen. The page's form does not fit so (else it needs no slide
    form)."""
    second_line = 28
    for explorer_class in (form, getattr(widgets, page)):
        explorer = explorer_class()
        width, height = explorer.figure.get_size_inches() * explorer.figure.get_dpi()
        below = (slides.FIGURE_ROOM - slides.CONTROLS_HEIGHT - second_line) / height
        across = (slides.WIDTH - slides.PADDING) / width
        fits = min(below, across) >= slides.FIGURE_SCALE
        assert fits == (explorer_class is form), (explorer_class, below, across)
    assert smallest_text(form().figure)[0] >= SMALLEST_TEXT_PT
    px = SMALLEST_TEXT_PT * 100 / 72 * slides.FIGURE_SCALE * 0.98
    assert px >= slides.FIGURE_TEXT_PX


def _shown(artist) -> list[np.ndarray] | None:
    """What ``artist`` shows of the data, as arrays: a line's points, an
    image's values (NaN in the gap) and extent, a patch's corners in its
    own coordinates (a shaded band's height); None for another artist."""
    if isinstance(artist, matplotlib.lines.Line2D):
        return [np.asarray(artist.get_xydata(), dtype=float)]
    if isinstance(artist, matplotlib.image.AxesImage):
        values = np.ma.filled(np.ma.asarray(artist.get_array(), dtype=float), np.nan)
        return [values, np.asarray(artist.get_extent(), dtype=float)]
    if isinstance(artist, matplotlib.patches.Patch):
        corners = artist.get_patch_transform().transform(artist.get_path().vertices)
        return [corners]
    return None


def _same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(
        x.shape == y.shape and np.allclose(x, y, rtol=0, atol=1e-12, equal_nan=True)
        for x, y in zip(a, b, strict=True)
    )


#: A number as a text states it (thousands separated by commas).
NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?")


def _numbers(texts) -> list[str]:
    """The numbers the texts state, whichever minus sign each writes."""
    return [
        n for text in texts for n in NUMBER.findall(text.get_text().replace("−", "-"))
    ]


def _ticks(axis) -> list[tuple[float, str]]:
    """(place, label) of each tick the axis shows, as its formatter writes it."""
    places = [p for p in axis.get_majorticklocs() if _in_view(axis, p)]
    labels = axis.get_major_formatter().format_ticks(places)
    return list(zip(np.round(places, 9), labels, strict=True))


def _in_view(axis, place: float) -> bool:
    low, high = sorted(axis.get_view_interval())
    return low - 1e-9 <= place <= high + 1e-9


def _slider_values(form):
    """The first, the default and the last value of each slider, each with
    the other sliders at their defaults."""
    defaults = {c.name: c.default for c in form.choices}
    yield defaults
    for choice in form.choices:
        for pick in (0, -1):
            yield {**defaults, choice.name: choice.options[pick]}


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_a_slide_form_draws_its_page_explorers_data(page, form):
    """At the first, the default and the last value of every slider, every
    visible artist the slide's form moves (lines, hands and arcs, a heat
    map's image, a shaded band) shows what a visible artist of the page's
    explorer shows, to 1e-12; the numbers its moving texts state (a score,
    an inner product, d, the base, the threshold) are among the page's;
    and each tick of a moving axis (the heat map's columns) is at a place
    where the page has a tick with the same label. Seen failing with a
    planted bug in each new form (see the report of issue 21)."""
    on_page, on_slide = getattr(widgets, page)(), form()
    for values in _slider_values(form):
        on_page.update(**values)
        on_slide.update(**values)
        page_artists = [
            shown
            for artist in on_page.figure.findobj()
            if artist.get_visible() and (shown := _shown(artist)) is not None
        ]
        moving = [a for a in on_slide._dynamic if a.get_visible()]
        compared = 0
        for artist in moving:
            shown = _shown(artist)
            if shown is None:
                continue
            compared += 1
            assert any(_same(shown, p) for p in page_artists), (values, artist)
        assert compared >= 1, (values, "nothing compared")
        page_numbers = set(_numbers(on_page.figure.findobj(matplotlib.text.Text)))
        texts = [a for a in moving if isinstance(a, matplotlib.text.Text)]
        for number in _numbers(texts):
            assert number in page_numbers, (values, number)
        page_axes = [a for a in on_page._dynamic if isinstance(a, matplotlib.axis.Axis)]
        for axis in [a for a in moving if isinstance(a, matplotlib.axis.Axis)]:
            ticks = dict(
                tick
                for page_axis in page_axes
                if type(page_axis) is type(axis)
                for tick in _ticks(page_axis)
            )
            for place, label in _ticks(axis):
                assert ticks.get(place) == label, (values, place, label)


def _drawn_texts(explorer) -> list[tuple[str, object]]:
    """(text, box on the frame) of every text a frame of the explorer
    shows, rendered as :meth:`posenc.explorer.Explorer.render` renders a
    frame: each visible text that is not empty, tick labels only of the
    ticks in a shown axis's view (matplotlib keeps others, undrawn)."""
    explorer.render()
    figure = explorer.figure
    hidden = set()
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            shown = ax.axison and axis.get_visible()
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not (
                    shown and tick.get_visible() and _in_view(axis, tick.get_loc())
                ):
                    hidden.update((tick.label1, tick.label2))
    renderer = explorer.canvas.get_renderer()
    return [
        (text.get_text(), text.get_window_extent(renderer))
        for text in figure.findobj(matplotlib.text.Text)
        if text.get_visible() and text.get_text().strip() and text not in hidden
    ]


#: The slide forms whose texts never overlap. The older two do at some
#: values, as their page explorers' labels of moving hands do: complex
#: slide 10's "m" and "n" touch where the hands are 0.25 rad apart, and
#: RoPE's "q" and "k" can cross a plane's heading or its part of the score.
APART = {"EncodingExplorer", "DecayExplorer"}


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_no_text_of_a_slide_form_runs_off_its_frame(page, form):
    """At every combination of the first, the default and the last value of
    each slider (the longest titles and tick labels among them), every
    text a frame shows lies inside the frame, to half a pixel: a frame is
    the figure's canvas, so a text beyond it is cut. For the forms of
    APART, no two texts overlap either."""
    import itertools

    explorer = form()
    width, height = explorer.figure.bbox.width, explorer.figure.bbox.height
    picks = [
        sorted({0, c.options.index(c.default), len(c.options) - 1})
        for c in form.choices
    ]
    wrong = []
    for indices in itertools.product(*picks):
        values = {
            c.name: c.options[i] for c, i in zip(form.choices, indices, strict=True)
        }
        explorer.update(**values)
        boxes = _drawn_texts(explorer)
        for text, box in boxes:
            if (
                min(box.x0, box.y0) < -0.5
                or box.x1 > width + 0.5
                or box.y1 > height + 0.5
            ):
                wrong.append(f"{values}: {text!r} runs off the frame")
        if page not in APART:
            continue
        for (one, a), (other, b) in itertools.combinations(boxes, 2):
            if a.overlaps(b):
                wrong.append(f"{values}: {one!r} overlaps {other!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_a_slide_forms_text_has_contrast(page, form):
    """Every text of the slide's form at 4.5:1 or more against what lies
    under it (tests/test_slide_figures.py's measure; it checks the page's
    forms, which the decks no longer show)."""
    import test_slide_figures

    assert test_slide_figures.low_contrast_texts(form().figure) == []


# ------------------------------------- a player on a hosted service (Colab)


def test_a_player_shows_its_live_form_on_ipywidgets_7(monkeypatch):
    """Colab's ipywidgets is 7.7.1 (googlecolab/backend-info, 2026), whose
    widgets have no ``_repr_mimebundle_``: a player's output still holds
    the live form's view (the model's id, the widget-view format 2.0 of
    ipywidgets 7 and 8), its static player and its PNG. Seen failing with
    explorer.py calling the form's ``_repr_mimebundle_`` unconditionally
    (every chapter with a player failed there, 9 of 16)."""

    class Version7Box:
        model_id = "a1b2"

    monkeypatch.setattr(widgets.Explorer, "widget", lambda self: Version7Box())
    bundle = widgets.DecayExplorer()._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view == {"version_major": 2, "version_minor": 0, "model_id": "a1b2"}
    assert "posenc-player" in bundle["text/html"]
    assert bundle["image/png"]
