"""The teaching kit's figures drawn for slides (issue 21, a lecturer's review).

* ``posenc.plots_decay.hands_at_offset_figure`` (decay slide 4): each hand
  turned by the offset times its speed, coloured by slow or fast, with its
  angle above and its cosine under it, and the title's mean and share.
* ``posenc.plots_rope.activity_figure`` (the RoPE deck's backup slide for
  the in-class activity) draws the scores it is handed; the chapter's
  figure shows the numbers the activity itself computes (its reference
  answer run as ``tests/test_activity.py`` runs it), and the slide's notes
  quote them.
* ``posenc.widgets_slides``: the players drawn for a slide keep their page
  explorer's sliders and data, fit a slide at 1.8 times with their sliders
  under them and a caption of two lines, and their text is at least 10 pt
  and at 4.5:1 contrast.
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
    (found,) = [s for s in slides.slides_of(text, chapter) if s.title == title]
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
    titles = [s.title for s in slides.slides_of(text, "rope")]
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


def _plotted(explorer) -> list[np.ndarray]:
    """The data of every line the explorer draws, in order."""
    return [
        np.asarray(line.get_xydata())
        for line in explorer.figure.findobj(matplotlib.lines.Line2D)
        if len(line.get_xdata())
    ]


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_a_slide_form_draws_its_page_explorers_data(page, form):
    """At the first, the default and the last values of every slider, the
    slide's form draws the same lines (hands, arcs, curves) as the page's
    explorer, and states the same score or inner product."""
    on_page, on_slide = getattr(widgets, page)(), form()
    for pick in (0, None, -1):
        values = {
            c.name: c.default if pick is None else c.options[pick] for c in form.choices
        }
        on_page.update(**values)
        on_slide.update(**values)
        lines_page, lines_slide = _plotted(on_page), _plotted(on_slide)
        dynamic = [a for a in on_slide._dynamic if hasattr(a, "get_xydata")]
        for artist in dynamic:
            data = np.asarray(artist.get_xydata())
            assert any(
                p.shape == data.shape and np.allclose(p, data) for p in lines_page
            ), (values, artist)
        assert len(lines_slide) >= len(dynamic)
        numbers = re.compile(r"[−-]?\d+\.\d{3}")
        # the same numbers, whichever minus sign each form writes
        page_texts = " ".join(
            t.get_text() for t in on_page.figure.findobj(matplotlib.text.Text)
        ).replace("−", "-")
        for text in on_slide.figure.findobj(matplotlib.text.Text):
            for number in numbers.findall(text.get_text().replace("−", "-")):
                assert number in page_texts, (values, text.get_text())


@pytest.mark.parametrize("page, form", FORMS, ids=[p for p, _ in FORMS])
def test_a_slide_forms_text_has_contrast(page, form):
    """Every text of the slide's form at 4.5:1 or more against what lies
    under it (tests/test_slide_figures.py's measure; it checks the page's
    forms, which the decks no longer show)."""
    import test_slide_figures

    assert test_slide_figures.low_contrast_texts(form().figure) == []
