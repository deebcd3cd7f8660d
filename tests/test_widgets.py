"""Explorers: the plotted data follow the sliders, and only valid values are offered."""

from __future__ import annotations

import numpy as np
import pytest
from test_plots import assert_readable

import posenc
from posenc import plots, widgets, widgets_complex


@pytest.fixture
def explorer():
    return widgets.EncodingExplorer()


def test_default_figure_shows_the_default_encoding(explorer):
    np.testing.assert_array_equal(
        explorer.image.get_array(), posenc.encoding(np.arange(100), 64, 1e4)
    )


@pytest.mark.parametrize("d", [4, 64, 128, 512])
@pytest.mark.parametrize("layout", ["interleaved", "halves"])
def test_update_redraws_with_the_new_values(explorer, d, layout):
    explorer.update(d=d, base=100.0, layout=layout)
    plotted = np.ma.getdata(explorer.image.get_array())
    table = posenc.encoding(np.arange(100), d, 100.0, layout)
    title, label = explorer.title.get_text(), explorer.ax.get_xlabel()
    if d <= 64:  # every column, as it is
        np.testing.assert_array_equal(plotted, table)
        width = d
        assert "columns" not in title
    else:  # the first 32 and the last 32 columns, a gap of NaN between
        gap = widgets.HEAT_MAP_GAP
        np.testing.assert_array_equal(plotted[:, :32], table[:, :32])
        assert np.isnan(plotted[:, 32 : 32 + gap]).all()
        np.testing.assert_array_equal(plotted[:, 32 + gap :], table[:, -32:])
        width = 64 + gap
        assert f"columns 0–31 and {d - 32}–{d - 1}" in title
        # each tick names the table column drawn under it
        ticks = explorer.ax.get_xticks()
        names = [int(t.get_text()) for t in explorer.ax.get_xticklabels()]
        columns = np.r_[0:32, [-1] * gap, d - 32 : d]
        assert [columns[int(t)] for t in ticks] == names
    assert explorer.image.get_extent() == [-0.5, width - 0.5, 99.5, -0.5]
    assert explorer.ax.get_xlim() == (-0.5, width - 0.5)
    assert f"d = {d}" in title
    assert ("sin" in label) and (("d/2" in label) == (layout == "halves"))


#: Widths a figure is shown at, as a share of its design width: on the
#: phone of the browser tests (tests/test_site.py SIZES, 390 px) and on the
#: narrowest common phones (360 px: test_site_players.LEAST_SCALE, 0.75).
DESIGN_PX = plots.FIGURE_WIDTH * plots.DESIGN_DPI
PHONE, NARROWEST_PHONE = 390 / DESIGN_PX, 360 / DESIGN_PX


@pytest.mark.parametrize("d", widgets.D_CHOICES)
def test_every_column_of_the_heat_map_is_a_band_of_its_own(explorer, d):
    """At the design size (as the page shows it), every drawn column gets at
    least 4.7 screen pixels of the axes' 320 (3.8 on a 390 px phone, 3.5 on
    a 360 px one, as widgets.HEAT_MAP_COLUMNS says), and the pixel at its
    centre has exactly the colour of its value: no column blends with its
    neighbours. Drawn all at once, at d = 512 the slow pairs' sine (near 0)
    and cosine (near 1) columns came out as one flat block near 0.5."""
    explorer.update(d=d, base=1e4, layout="interleaved")
    pixels = explorer.render()  # rows from the top, at DESIGN_DPI
    box = explorer.ax.get_window_extent()
    shown = np.ma.getdata(explorer.image.get_array())
    rows, width = shown.shape
    assert round(box.width) == 320 and DESIGN_PX == 480
    assert width == min(d, 64 + widgets.HEAT_MAP_GAP) <= 67
    per_column = box.width / width
    assert per_column >= 4.7
    assert per_column * PHONE >= 3.8
    assert per_column * NARROWEST_PHONE >= 3.5
    colours = explorer.image.cmap(explorer.image.norm(shown))[..., :3]
    for t in (10, 37, 90):  # rows away from the spines
        y = int(pixels.shape[0] - (box.y1 - (t + 0.5) * box.height / rows))
        x = (box.x0 + (np.arange(width) + 0.5) * box.width / width).astype(int)
        drawn = pixels[y, x, :3] / 255
        np.testing.assert_allclose(drawn, colours[t], rtol=0, atol=1 / 255 + 1e-9)


def test_column_ticks_are_whole_numbers_for_a_small_d(explorer):
    explorer.update(d=4)
    explorer.figure.draw_without_rendering()
    ticks = [tick for tick in explorer.ax.get_xticks() if -0.5 <= tick <= 3.5]
    assert ticks == [0, 1, 2, 3]


def test_update_keeps_the_same_figure_and_artists(explorer):
    figure, image = explorer.figure, explorer.image
    explorer.update(d=8)
    assert explorer.figure is figure and explorer.image is image


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"d": 7}, "d must be one of"),
        ({"d": 1024}, "d must be one of"),
        ({"base": 1.0}, "base must be one of"),
        ({"layout": "sin-first"}, "layout must be one of"),
        ({"dimension": 8}, "unknown parameter 'dimension'"),
    ],
)
def test_invalid_values_are_rejected(explorer, changes, message):
    with pytest.raises(ValueError, match=message):
        explorer.update(**changes)


def test_sliders_offer_only_valid_values(explorer):
    box = explorer.widget()
    sliders = {s.description: s for s in box.children[:-1]}
    assert set(sliders) == {"d", "base", "layout"}
    d_values = [value for _, value in sliders["d"].options]
    assert all(d > 0 and d % 2 == 0 for d in d_values)
    assert all(base > 1 for _, base in sliders["base"].options)
    assert [value for _, value in sliders["layout"].options] == list(posenc.LAYOUTS)


def test_moving_a_slider_updates_the_figure_and_the_picture(explorer):
    box = explorer.widget()
    d_slider, picture = box.children[0], box.children[-1]
    before = picture.value
    d_slider.value = 16
    assert explorer.values["d"] == 16
    np.testing.assert_array_equal(
        explorer.image.get_array(), posenc.encoding(np.arange(100), 16)
    )
    assert bytes(picture.value) != bytes(before)
    assert bytes(picture.value).startswith(b"\x89PNG")


def test_an_explorer_shown_twice_keeps_each_picture_with_its_own_sliders(explorer):
    first, second = explorer.widget(), explorer.widget()  # two displays
    first_picture, second_picture = first.children[-1], second.children[-1]
    first_before = bytes(first_picture.value)
    second_before = bytes(second_picture.value)
    second.children[0].value = 16  # the second display's d
    second_after = bytes(second_picture.value)
    assert second_after != second_before
    assert bytes(first_picture.value) == first_before
    first.children[1].value = 100.0  # the first display's base
    assert bytes(first_picture.value) != first_before
    assert bytes(second_picture.value) == second_after
    # each picture shows the values of its own sliders
    expected = {"d": 64, "base": 100.0, "layout": "interleaved"}
    assert explorer.values == expected
    reference = widgets.EncodingExplorer()
    reference.update(**expected)
    assert bytes(first_picture.value) == reference.png(compress_level=1)


def test_blitted_frame_equals_a_full_redraw(explorer):
    explorer.update(d=32, base=10.0, layout="halves")
    blitted = explorer.render().copy()
    for artist in explorer._dynamic:
        artist.set_animated(False)
    explorer.canvas.draw()
    np.testing.assert_array_equal(blitted, np.asarray(explorer.canvas.buffer_rgba()))


def test_output_bundle_has_live_widget_and_static_figure(explorer):
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "image/png" in bundle


def test_choice_default_must_be_an_option():
    with pytest.raises(ValueError, match="default"):
        widgets.Choice("d", "d", (2, 4), 8)


class _ReversedRegistration(widgets.Explorer):
    """A minimal explorer that registers its dynamic artists top-most first."""

    choices = (widgets.Choice("level", "level", (0.2, 0.8), 0.2),)

    def build(self):
        figure, ax = posenc.plots.new_figure(3, 2)
        self.fill = ax.axhspan(0, 1, color="tab:blue", zorder=1)
        (self.line,) = ax.plot([0, 1], [0.5, 0.5], color="black", lw=4, zorder=3)
        ax.set_ylim(0, 1)
        self.dynamic(self.line, *ax.spines.values(), self.fill)  # not in z-order
        return figure

    def draw(self, level):
        self.line.set_ydata([level, level])


def test_blitting_respects_z_order_whatever_the_registration_order():
    explorer = _ReversedRegistration()
    explorer.update(level=0.8)
    blitted = explorer.render().copy()
    for artist in explorer._dynamic:
        artist.set_animated(False)
    explorer.canvas.draw()
    np.testing.assert_array_equal(blitted, np.asarray(explorer.canvas.buffer_rgba()))


# ------------------------------------------------------------ every explorer


@pytest.mark.parametrize("explorer_class", widgets.EXPLORERS, ids=lambda c: c.__name__)
def test_every_explorer_offers_only_valid_values(explorer_class):
    for choice in explorer_class.choices:
        assert choice.default in choice.options
        if choice.name == "d":
            assert all(d > 0 and d % 2 == 0 for d in choice.options)
        if choice.name == "base":
            assert all(base > 1 for base in choice.options)
    assert explorer_class.description, "the static form needs alt text"


@pytest.mark.parametrize("explorer_class", widgets.EXPLORERS, ids=lambda c: c.__name__)
def test_no_option_repeats_its_sliders_label(explorer_class):
    """A value reads "label = value" on the page: an option that starts with
    the label would read "θ(τ) = θ(τ) = τ"."""
    for choice in explorer_class.choices:
        shown = [choice.format(option) for option in choice.options]
        assert not [text for text in shown if text.startswith(choice.label)]


@pytest.mark.parametrize("explorer_class", widgets.EXPLORERS, ids=lambda c: c.__name__)
def test_no_label_holds_a_relation(explorer_class):
    """A label names a quantity: "label = value" with a label that ends in a
    relation read "Δ up to = 1,024" (now "largest Δ = 1,024")."""
    relations = ("=", "<", ">", "≤", "≥", " up to", " to", " from", " at")
    for choice in explorer_class.choices:
        assert not [
            r
            for r in relations
            if r in choice.label or choice.label.endswith(r.strip())
        ], choice.label


@pytest.mark.parametrize("explorer_class", widgets.EXPLORERS, ids=lambda c: c.__name__)
def test_every_explorer_is_drawn_for_the_page(explorer_class):
    """No wider than the figure width, no text below the smallest size, at
    the first and the last option of every slider."""
    explorer = explorer_class()
    for pick in (0, -1):
        explorer.update(**{c.name: c.options[pick] for c in explorer_class.choices})
        assert_readable(explorer.figure)


@pytest.mark.parametrize("explorer_class", widgets.EXPLORERS, ids=lambda c: c.__name__)
def test_every_explorer_blits_exactly_at_extreme_values(explorer_class):
    explorer = explorer_class()
    for pick in (0, -1):  # all sliders at their first, then their last option
        explorer.update(**{c.name: c.options[pick] for c in explorer_class.choices})
        blitted = explorer.render().copy()
        for artist in explorer._dynamic:
            artist.set_animated(False)
        explorer.canvas.draw()
        full = np.asarray(explorer.canvas.buffer_rgba()).copy()
        for artist in explorer._dynamic:
            artist.set_animated(True)
        np.testing.assert_array_equal(blitted, full)


# ------------------------------------------------------------------ clocks


@pytest.mark.parametrize("m, d, base", [(0, 4, 10.0), (10, 32, 1e4), (500, 16, 100.0)])
def test_clock_hands_point_at_m_theta(m, d, base):
    explorer = widgets.ClockExplorer()
    explorer.update(m=m, d=d, base=base)
    theta = posenc.frequencies(d, base)
    expected_tips = np.c_[np.cos(m * theta), np.sin(m * theta)]
    centres = explorer.centres(d // 2)
    hands = np.array(explorer.hands.get_segments())
    assert hands.shape == (d // 2, 2, 2)
    np.testing.assert_allclose(hands[:, 0], centres)
    np.testing.assert_allclose(
        (hands[:, 1] - centres) / 0.95, expected_tips, atol=1e-12
    )
    assert len(explorer.faces.get_segments()) == d // 2
    labelled = [label.get_text() for label in explorer.labels if label.get_text()]
    assert len(labelled) == d // 2


def test_clock_hands_are_the_cosine_first_encoding():
    tips = widgets.clock_hands(7, 8, 100.0)
    p = posenc.encoding(7, 8, 100.0)
    np.testing.assert_array_equal(tips[:, 0], p[1::2])  # cosines
    np.testing.assert_array_equal(tips[:, 1], p[0::2])  # sines


# ----------------------------------------------------------- offset clocks


def _drawn_angle(line):
    """The angle of a hand drawn from the centre to its tip."""
    x, y = line.get_data()
    assert (x[0], y[0]) == (0, 0) and np.hypot(x[1], y[1]) == pytest.approx(1)
    return np.arctan2(y[1], x[1])


def _turn(angle):
    """An angle wrapped to (-pi, pi]."""
    return np.angle(np.exp(1j * angle))


@pytest.mark.parametrize("delta", [1, 2, 3])
@pytest.mark.parametrize("theta", [0.25, 0.5, 1.0])
def test_offset_clocks_turn_both_hands_and_keep_the_angle(delta, theta):
    """Moving m through every value the slider offers: the hands are drawn
    at m theta and (m - delta) theta, the arc between them spans delta
    theta, and the lower panel draws the data function's products: the
    pair's constant cos(delta theta), the sine coordinate's swinging one."""
    explorer = widgets.OffsetClocksExplorer()
    for m in widgets_complex.OFFSET_POSITIONS:
        explorer.update(m=m, delta=delta, theta=theta)
        data = widgets_complex.offset_clocks_data(m, delta, theta)
        assert data["n"] == m - delta >= 0
        angle_m, angle_n = _drawn_angle(explorer.hand_m), _drawn_angle(explorer.hand_n)
        assert abs(_turn(angle_m - m * theta)) < 1e-12
        assert abs(_turn(angle_n - (m - delta) * theta)) < 1e-12
        assert abs(_turn(angle_m - angle_n) - delta * theta) < 1e-12
        assert data["between"] == pytest.approx(delta * theta, abs=1e-12)
        arc_x, arc_y = explorer.arc.get_data()
        np.testing.assert_allclose(np.hypot(arc_x, arc_y), explorer.arc_radius)
        ends = np.arctan2(arc_y[[0, -1]], arc_x[[0, -1]])
        assert abs(_turn(ends[0] - angle_n)) < 1e-12
        assert abs(_turn(ends[1] - angle_m)) < 1e-12
        assert data["inner"] == pytest.approx(np.cos(delta * theta), abs=1e-12)
        assert f"Δθ = {delta * theta:.2f}" in explorer.readout.get_text()
        assert f"= {data['inner']:.3f}" in explorer.readout.get_text()
        positions, pair = explorer.pair_line.get_data()
        np.testing.assert_array_equal(positions, widgets_complex.OFFSET_POSITIONS)
        np.testing.assert_array_equal(pair, data["pair"])
        np.testing.assert_allclose(pair, np.cos(delta * theta), rtol=0, atol=1e-12)
        _, sine = explorer.sine_line.get_data()
        earlier = positions - delta
        np.testing.assert_allclose(
            sine, np.sin(positions * theta) * np.sin(earlier * theta), atol=1e-15
        )
        assert np.ptp(sine) > 0.1  # the sine coordinate alone does not keep it
        here_x, here_y = explorer.here.get_data()
        assert list(here_x) == [m, m]
        index = widgets_complex.OFFSET_POSITIONS.index(m)
        assert list(here_y) == [pair[index], sine[index]]


def _points_on(line, axes, per_segment=400):
    """Points along a drawn line, densely, in display pixels."""
    x, y = (np.asarray(values, float) for values in line.get_data())
    pieces = [
        np.c_[
            np.linspace(x[i], x[i + 1], per_segment),
            np.linspace(y[i], y[i + 1], per_segment),
        ]
        for i in range(len(x) - 1)
    ]
    return axes.transData.transform(np.vstack(pieces))


def test_offset_clocks_angle_label_covers_no_hand_and_no_arc():
    """At every slider setting the label "Δθ" covers neither hand (each
    widened by half its line width) nor the arc, nor the names m and n or
    the readout, and it stays beside the arc (inside the dial)."""
    explorer = widgets.OffsetClocksExplorer()
    renderer = explorer.canvas.get_renderer()
    dial = explorer.hand_m.axes
    half_width = explorer.hand_m.get_linewidth() / 2 * explorer.figure.dpi / 72
    settings = [
        (m, delta, theta)
        for delta in (1, 2, 3)
        for theta in (0.25, 0.5, 1.0)
        for m in widgets_complex.OFFSET_POSITIONS
    ]
    assert len(settings) == 180
    for m, delta, theta in settings:
        explorer.update(m=m, delta=delta, theta=theta)
        box = explorer.arc_label.get_window_extent(renderer)
        for line, pad in (
            (explorer.hand_m, half_width),
            (explorer.hand_n, half_width),
            (explorer.arc, 1.0),
        ):
            widened = box.padded(pad)
            points = _points_on(line, dial)
            inside = (
                (points[:, 0] > widened.x0)
                & (points[:, 0] < widened.x1)
                & (points[:, 1] > widened.y0)
                & (points[:, 1] < widened.y1)
            )
            assert not inside.any(), (m, delta, theta, line.get_color())
        for text in (explorer.name_m, explorer.name_n, explorer.readout):
            assert not box.overlaps(text.get_window_extent(renderer)), (m, delta, theta)
        assert np.hypot(*explorer.arc_label.get_position()) < 0.8


def test_offset_clocks_hands_are_pairs_of_the_encoding():
    """With theta = 1 (pair 0 of every encoding), the hands are the
    cosine-first pair 0 of posenc.encoding at positions m and n."""
    data = widgets_complex.offset_clocks_data(9, 2, 1.0)
    np.testing.assert_array_equal(data["tip_m"], posenc.encoding(9, 2)[::-1])
    np.testing.assert_array_equal(data["tip_n"], posenc.encoding(7, 2)[::-1])


# ------------------------------------------------------------- decay explorers


@pytest.mark.parametrize(
    "d, base, delta_max", [(16, 10.0, 128), (512, 1e4, 65536), (1024, 10.0, 128)]
)
def test_decay_explorer_plots_sum_integral_spread_and_offsets(d, base, delta_max):
    explorer = widgets.DecayExplorer()
    explorer.update(d=d, base=base, delta_max=delta_max)
    delta, plotted_sum = explorer.sum_line.get_data()
    assert delta[0] == 0 and delta[-1] == delta_max and np.all(delta == np.round(delta))
    np.testing.assert_allclose(
        plotted_sum, posenc.inner_product(delta, d, base) / (d / 2)
    )
    _, plotted_integral = explorer.integral_line.get_data()
    np.testing.assert_allclose(plotted_integral, posenc.decay_integral(delta, base))
    spread = posenc.rms_law(delta, d, base)
    upper_delta, upper = explorer.upper.get_data()
    np.testing.assert_array_equal(upper_delta, delta)
    np.testing.assert_allclose(upper, plotted_integral + spread)
    np.testing.assert_allclose(explorer.lower.get_data()[1], plotted_integral - spread)
    threshold = posenc.alias_threshold(d, base)
    assert explorer.threshold.get_xdata()[0] == threshold
    assert explorer.threshold.get_visible() == (threshold < delta_max)
    assert explorer.level.get_height() == pytest.approx(2 / np.sqrt(d))
    assert explorer.level.get_y() == pytest.approx(-1 / np.sqrt(d))
    assert explorer.ax.get_xlim() == (0, delta_max)


def test_decay_explorer_legend_lists_only_what_the_default_chart_shows():
    explorer = widgets.DecayExplorer()
    (legend,) = explorer.figure.legends
    labels = [text.get_text() for text in legend.get_texts()]
    assert not any("floor" in label or "envelope" in label for label in labels)
    # at the defaults every listed artist lies inside the axes
    low, high = explorer.ax.get_xlim()
    assert low < explorer.threshold.get_xdata()[0] < high
    assert explorer.ax.get_ylim()[0] < explorer.level.get_y() < 0
    for line in (explorer.sum_line, explorer.integral_line, explorer.upper):
        x, y = line.get_data()
        assert len(x) and np.all((x >= low) & (x <= high))


@pytest.mark.parametrize("schedule", posenc.DECAY_SCHEDULES)
def test_schedule_explorer_plots_the_chosen_schedule(schedule):
    explorer = widgets.ScheduleExplorer()
    explorer.update(schedule=schedule, d=64, delta_max=1024)
    delta, plotted_sum = explorer.sum_line.get_data()
    theta = posenc.schedule_frequencies(64, schedule, 1e4)
    expected = np.cos(np.multiply.outer(delta, theta)).sum(axis=1) / 32
    np.testing.assert_allclose(plotted_sum, expected, atol=1e-12)
    np.testing.assert_allclose(
        explorer.integral_line.get_data()[1],
        posenc.schedule_integral(delta, schedule, 1e4),
    )
    np.testing.assert_allclose(
        explorer.paper.get_data()[1], posenc.decay_integral(delta)
    )


# -------------------------------------------------------------- cross terms


@pytest.mark.parametrize("kind", ["full", "diagonal", "rotation blocks"])
@pytest.mark.parametrize("strength", [0.0, 1.0])
def test_cross_term_explorer_shows_c_and_its_offset_residual(kind, strength):
    explorer = widgets.CrossTermExplorer()
    explorer.update(kind=kind, strength=strength)
    h = posenc.perturbation(kind, strength, 64)
    c = posenc.cross_terms(h, np.arange(64))
    np.testing.assert_allclose(explorer.image.get_array(), c / np.abs(c).max())
    residual = np.asarray(explorer.residual.get_array())
    if strength == 0.0 or kind == "rotation blocks":
        assert np.abs(residual).max() < 1e-12
    else:
        assert np.abs(residual).max() > 1e-3
    leakage = posenc.offset_leakage(c)
    assert f"{leakage:.1%}" in explorer.title.get_text()


# -------------------------------------------------------------------- shifts


@pytest.mark.parametrize("k, pair", [(0, 0), (5, 0), (50, 3)])
def test_shift_explorer_plots_the_column_at_t_and_t_plus_k(k, pair):
    explorer = widgets.ShiftExplorer()
    explorer.update(k=k, pair=pair)
    t = np.arange(4000)
    x, y = explorer.points.get_data()
    np.testing.assert_array_equal(x, posenc.encoding(t, 16)[:, 2 * pair])
    np.testing.assert_array_equal(y, posenc.encoding(t + k, 16)[:, 2 * pair])
    alpha, beta, r_squared = posenc.column_fit(k, 16, 1e4, t)
    line_x, line_y = explorer.fit.get_data()
    np.testing.assert_allclose(line_y, alpha[2 * pair] * line_x + beta[2 * pair])
    assert f"R² = {r_squared[2 * pair]:.3f}" in explorer.title.get_text()


# ------------------------------------------------------------ RoPE scaling


@pytest.mark.parametrize(
    "method, factor, d, base, target",
    [
        ("yarn", 8.0, 128, 5e5, 131072),
        ("none", 4.0, 64, 1e4, 32768),
        ("linear", 16.0, 128, 1e4, 32768),
        ("dynamic", 4.0, 64, 5e5, 131072),
        ("llama3", 8.0, 128, 5e5, 32768),
    ],
)
def test_scaling_explorer_plots_the_scaled_frequencies_and_sums(
    method, factor, d, base, target
):
    explorer = widgets.ScalingExplorer()
    explorer.update(method=method, factor=factor, d=d, base=base, target=target)
    theta, attention = posenc.scaled_frequencies(
        d, base, method, factor, original_context=8192, context=target
    )
    plain = posenc.frequencies(d, base)
    wavelength, ratio = explorer.ratio.get_data()
    np.testing.assert_allclose(wavelength, 2 * np.pi / plain, rtol=1e-15)
    np.testing.assert_allclose(ratio, theta / plain, rtol=1e-15)
    assert explorer.guide.get_ydata()[0] == 1 / factor
    offsets, scaled = explorer.scaled.get_data()
    assert offsets[0] == 1 and offsets[-1] == target
    direct = np.cos(np.multiply.outer(offsets.astype(float), theta)).sum(axis=1)
    np.testing.assert_allclose(scaled, direct / (d / 2), rtol=0, atol=1e-9)
    before = np.cos(np.multiply.outer(offsets.astype(float), plain)).sum(axis=1)
    np.testing.assert_allclose(
        explorer.plain.get_data()[1], before / (d / 2), rtol=0, atol=1e-9
    )
    zero = posenc.first_negative(theta, target)
    assert explorer.zero.get_visible() == (zero is not None)
    if zero is not None:
        assert explorer.zero.get_xdata()[0] == zero
    assert explorer.threshold.get_xdata()[0] == posenc.phase_step_threshold(theta)
    assert explorer.target.get_xdata()[0] == target
    title = explorer.bottom_title.get_text()
    assert (f"{zero:,}" if zero is not None else "at none") in title
    assert (f"×{attention:.3f}" in explorer.top_title.get_text()) == (attention != 1)


def test_scaling_explorer_frames_stay_within_the_cap():
    count = np.prod([len(c.options) for c in widgets.ScalingExplorer.choices])
    assert count <= posenc.static.MAX_FRAMES


def test_scaling_explorer_shows_every_ratio_within_its_axes():
    explorer = widgets.ScalingExplorer()
    low, high = explorer.ratio.axes.get_ylim()
    options = {c.name: c.options for c in widgets.ScalingExplorer.choices}
    for method in options["method"]:
        for factor in options["factor"]:
            for d in options["d"]:
                for base in options["base"]:
                    for target in options["target"]:
                        theta, _ = posenc.scaled_frequencies(
                            d, base, method, factor, 8192, context=target
                        )
                        ratio = theta / posenc.frequencies(d, base)
                        assert low < ratio.min() and ratio.max() < high
