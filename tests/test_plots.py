"""Every figure of posenc.plots draws exactly the arrays it is handed."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from PIL import Image

import posenc
from posenc import plots


def drawn(figure: Figure) -> list[np.ndarray]:
    """The y data of every line of every axes of ``figure``."""
    return [
        np.asarray(line.get_ydata(), dtype=float)
        for ax in figure.axes
        for line in ax.get_lines()
    ]


def assert_drawn(figure: Figure, *arrays) -> None:
    """Each of ``arrays`` is the y data of one line of ``figure``, exactly."""
    assert isinstance(figure, Figure)
    lines = drawn(figure)
    for array in arrays:
        array = np.asarray(array, dtype=float)
        assert any(
            line.shape == array.shape and np.array_equal(line, array, equal_nan=True)
            for line in lines
        ), f"not drawn: {array[:4]}..."
    for ax in figure.axes:
        if ax.get_visible() and ax.get_lines():
            # an axes stacked over another with the same x axis shares its label
            shared = ax.get_shared_x_axes().get_siblings(ax)
            assert any(sibling.get_xlabel() for sibling in shared), ax.get_title()
    assert_readable(figure)


def smallest_text(figure: Figure) -> tuple[float, str]:
    """The size (points) and text of the smallest text ``figure`` shows."""
    figure.draw_without_rendering()  # makes the tick labels
    shown = [
        (text.get_fontsize(), text.get_text())
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text().strip()
    ]
    return min(shown)


def assert_readable(figure: Figure) -> None:
    """``figure`` is drawn for the page: no wider than the figure width, no
    taller than a projector's screen, no text smaller than the book's
    smallest (whose size on screen the browser tests check)."""
    assert figure.get_figwidth() <= plots.FIGURE_WIDTH + 1e-9
    assert figure.get_figheight() <= plots.MAX_HEIGHT + 1e-9
    size, text = smallest_text(figure)
    assert size >= plots.SMALLEST_TEXT_PT, f"{text!r} at {size} pt"


def test_figures_show_in_a_notebook_at_their_design_width_twice_as_sharp():
    """The PNG records a dpi of PIXEL_DENSITY x DESIGN_DPI and is shown at
    its design width (its pixel width over PIXEL_DENSITY: the figure width,
    trimmed to the drawing and padded by 0.1 inch as matplotlib's inline
    backend does): a reader gets a sharp figure, and the page a link to it
    at twice the size."""
    figure, ax = plots.new_figure(height=2.0)
    ax.plot([0, 1], [0, 1])
    data, metadata = figure._repr_mimebundle_()
    image = Image.open(io.BytesIO(base64.b64decode(data["image/png"])))
    density = plots.PIXEL_DENSITY
    assert image.info["dpi"] == pytest.approx((100 * density,) * 2, rel=1e-5)
    width = metadata["image/png"]["width"]
    assert abs(image.size[0] - density * width) <= 1
    assert abs(width - 480) <= 20  # 0.1 inch of padding each side at most
    assert figure.dpi == 100 * density


def test_the_style_sets_every_text_size_and_leaves_no_trace():
    """Sizes come from plots.TEXT, inside the figure functions only: a
    notebook's own rcParams change none of them (tick labels are made when
    the figure is drawn, after the figure function has returned), and the
    function leaves the rcParams as it found them."""
    import matplotlib as mpl

    tiny = {key: 6 for key in ("font.size", "xtick.labelsize", "legend.fontsize")}
    with mpl.rc_context(tiny):
        before = dict(mpl.rcParams)
        figure = plots.inner_product_figure(np.arange(-3, 4), np.ones(7), 8, 1e4)
        assert dict(mpl.rcParams) == before
        ax = figure.axes[0]
        assert ax.xaxis.label.get_fontsize() == plots.TEXT["label"]
        assert ax.title.get_fontsize() == plots.TEXT["title"]
        figure.draw_without_rendering()
        ticks = ax.get_xticklabels() + ax.get_yticklabels()
        assert {tick.get_fontsize() for tick in ticks} == {plots.TEXT["tick"]}
        assert smallest_text(figure)[0] == plots.SMALLEST_TEXT_PT


def test_chapter_figures_draw_their_data():
    delta = np.arange(-20, 21)
    normalised = posenc.inner_product(delta, 16) / 8
    assert_drawn(plots.inner_product_figure(delta, normalised, 16, 1e4), normalised)
    integral = posenc.decay_integral(delta)
    assert_drawn(
        plots.decay_comparison_figure(delta, integral, delta, normalised, 16),
        integral,
        normalised,
    )
    scales = np.array([0.1, 0.2, 0.4])
    assert_drawn(
        plots.taylor_scale_figure(scales, scales, scales**2), scales, scales**2
    )


def test_similarity_figure_draws_the_matrix_it_is_handed():
    table = posenc.encoding(np.arange(12), 8)
    gram = table @ table.T / 4
    figure = plots.similarity_figure(gram, 8, 1e4, offset=3)
    np.testing.assert_array_equal(figure.axes[0].get_images()[0].get_array(), gram)
    (dashed,) = figure.axes[0].get_lines()
    rows, columns = dashed.get_ydata(), dashed.get_xdata()
    np.testing.assert_array_equal(np.subtract(rows, columns), [3, 3])
    assert_readable(figure)


def test_orderings_figure_draws_one_bar_per_ordering_and_input():
    orderings = ["a b", "b a", "a a"]
    plain, encoded = np.array([0.5, 0.5, 0.2]), np.array([0.1, -0.3, 0.4])
    figure = plots.orderings_figure(orderings, plain, encoded)
    ax = figure.axes[0]
    widths = [patch.get_width() for patch in ax.patches]
    np.testing.assert_array_equal(widths, np.r_[plain, encoded])
    assert [label.get_text() for label in ax.get_yticklabels()] == orderings
    assert_readable(figure)


def test_decay_figures_draw_their_data():
    regimes = posenc.decay_regimes(1e4, np.logspace(0, 6, 50))
    figure = plots.decay_law_figure(regimes, 1e4, first_zero=6166.0312)
    assert_drawn(
        figure,
        regimes["integral"],
        regimes["log_law"],
        regimes["envelope"],
        -regimes["envelope"],
    )
    # the purple line and its label show the first zero handed in
    (ax,) = figure.axes
    lines = [
        line for line in ax.get_lines() if line.get_color() == plots.PALETTE["purple"]
    ]
    assert [tuple(line.get_xdata()) for line in lines] == [(6166.0312, 6166.0312)]
    assert [text.get_text() for text in ax.texts] == [
        "first zero\n= 6,166.03\n≈ 0.6165·base"
    ]
    x = np.linspace(0, 50, 11)
    short, long = posenc.schedule_integrals(x), posenc.schedule_integrals(2 * x)
    figure = plots.schedule_integrals_figure([(x, short), (2 * x, long)])
    assert_drawn(figure, *short.values(), *long.values())


def test_finite_d_figures_draw_their_data():
    curves = {(64, 1e4): posenc.aliasing_error(64, 1e4, reach=5.0)}
    ratio = np.linspace(0.1, 5, 50)
    staircase = (ratio, np.sqrt(posenc.harmonic(np.floor(ratio))))
    assert_drawn(
        plots.aliasing_figure(curves, staircase),
        curves[64, 1e4]["scaled"],
        staircase[1],
    )
    rms = posenc.alias_rms((8, 32), edges=np.logspace(0, 6, 7), samples=20)
    far = np.random.default_rng(0).normal(size=200)
    figure = plots.rms_law_figure(rms, far)
    assert_drawn(
        figure,
        rms["error"][8],
        rms["error"][32],
        rms["law"][8],
        rms["law"][32],
        rms["integral"],
    )
    heights = [patch.get_height() for patch in figure.axes[1].patches[1:]]
    counts, _ = np.histogram(far, bins=np.linspace(-4, 4, 81), density=True)
    np.testing.assert_allclose(heights, counts)


def test_other_chapters_figures_draw_their_data():
    strengths = np.array([0.1, 1.0])
    curves = posenc.leakage_curves(strengths, d=8, length=8, seeds=1)
    assert_drawn(
        plots.leakage_figure(strengths, curves),
        curves["full"],
        curves["diagonal"],
        np.maximum(curves["rotation blocks"], 1e-12),
    )
    theta = np.repeat(posenc.frequencies(8), 2)
    fits = {k: (np.mod(k * theta, np.pi), posenc.column_fit(k, 8)[2]) for k in (1, 5)}
    assert_drawn(plots.column_fit_figure(fits), fits[1][1], fits[5][1])
    delta = np.arange(0, 50)
    scores = posenc.rope_scores(delta, d=16, samples=10)
    assert_drawn(
        plots.rope_decay_figure(delta, scores),
        scores["bound"],
        scores["aligned"],
        scores["expected"],
    )
    dims = (4, 16)
    scaling = posenc.score_scaling(dims, keys=8, samples=20)
    assert_drawn(plots.scaling_figure(dims, scaling, keys=8), *scaling.values())


def test_real_code_figures_draw_their_data():
    schedules = {name: f(16) for name, f in posenc.CODEBASE_SCHEDULES.items()}
    ratios = {d: posenc.schedule_ratio(d) for d in (16, 64)}
    assert_drawn(
        plots.codebase_schedules_figure(schedules, ratios),
        *schedules.values(),
        *ratios.values(),
    )
    t = np.arange(32)
    paper = posenc.vaswani2017(t, 8)
    distances = {
        name: posenc.column_distances(paper, posenc.CONVENTIONS[name].table(t, 8))
        for name in ("Marian", "tensor2tensor")
    }
    matches = {name: np.nonzero(dist < 1e-9) for name, dist in distances.items()}
    figure = plots.column_match_figure(distances, matches)
    marked = [ax.get_lines()[0].get_ydata() for ax in figure.axes[:2]]
    for rows, (expected, _) in zip(marked, matches.values(), strict=True):
        np.testing.assert_array_equal(rows, expected)
    np.testing.assert_array_equal(
        figure.axes[0].get_images()[0].get_array(),
        np.maximum(distances["Marian"], 1e-4),
    )
    table = posenc.encoding(np.arange(200), 8)
    profiles = {"a": posenc.offset_profiles(table, (0, 50), 40), "b": 0.5 * table[:2]}
    figure = plots.offset_figure(profiles, (0, 50))
    assert_drawn(figure, *profiles["a"], *profiles["b"])
    assert [ax.get_visible() for ax in figure.axes] == [True, True]
    scores = posenc.pairing_scores(d=8)
    assert_drawn(
        plots.rope_pairing_figure(scores),
        *scores["fixed"].values(),
        *scores["at_500"].values(),
    )


def test_precision_figures_draw_their_data():
    t = np.array([1.0, 10.0, 100.0])
    errors = {m: np.full(3, 1e-7) * (i + 1) for i, m in enumerate(posenc.METHODS[:3])}
    lines = {"predicted": t * 1e-8, "float32": t * 2e-8, "float64": t * 1e-16}
    per_column, column_bound = np.full(8, 1e-7), np.full(8, 2e-7)
    figure = plots.error_growth_figure(
        t, errors, lines, per_column, column_bound, (1, 100)
    )
    assert_drawn(figure, *errors.values(), *lines.values(), per_column)
    records = {2: posenc.distance_records(999, 2), 8: posenc.distance_records(999, 8)}
    lengths = np.array([2, 10, 100, 1000])
    dirichlet = {2: (lengths, posenc.dirichlet_bound(lengths, 2))}
    assert_drawn(plots.distance_figure(records, 1000, dirichlet), dirichlet[2][1])
    curves = {
        d: posenc.certification_curves(lengths, *records[d], 1000, d) for d in records
    }
    figure = plots.rule_figure(lengths, curves, 1000)
    for curve in curves.values():
        assert_drawn(figure, curve["distance"], *curve["twice_error"].values())


def test_distance_figure_folk_label_clear_of_legend():
    """fig-prec-distance's "2 pi 10000" label overlaps neither the legend
    nor the axes' labels, with the chapter's widths and x range."""
    top = 2**24  # the x range of the chapter; records scanned to 2^17 here
    records = {d: posenc.distance_records(2**17, d) for d in (2, 4, 8, 16, 32, 64, 512)}
    lengths = np.unique(np.geomspace(2, top, 50).astype(np.int64))
    dirichlet = {d: (lengths, posenc.dirichlet_bound(lengths, d)) for d in (2, 4)}
    figure = plots.distance_figure(records, top, dirichlet)
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    (ax,) = figure.axes
    (label,) = [text for text in ax.texts if r"2\pi" in text.get_text()]
    box = label.get_window_extent(renderer)
    assert not box.overlaps(ax.get_legend().get_window_extent(renderer))
    for other in (ax.xaxis.label, ax.yaxis.label):
        assert not box.overlaps(other.get_window_extent(renderer))
    assert figure.bbox.contains(box.x0, box.y0)
    assert figure.bbox.contains(box.x1, box.y1)
