"""The figures of the chapter on RoPE. Its explorer (posenc.widgets_rope)
draws exactly the data of its pure function, and meets what
tests/test_widgets.py and tests/test_static.py ask of every explorer listed
in EXPLORERS (it is listed, so those parametrized tests reach it too; the
page shows its sliders). Its figure of the two pairings
(posenc.plots_rope, fig-rope-pairings) draws the pairs and speeds that
posenc.rotate turns together, read back from the figure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_plots import assert_readable

import posenc
from posenc import static, widgets_rope
from posenc.widgets_rope import ROPE_POSITIONS, RopePlanesExplorer, rope_planes_data

ROOT = Path(__file__).resolve().parents[1]
DELTAS = RopePlanesExplorer.choices[1].options


def _turn(angle):
    """An angle wrapped to (-pi, pi]."""
    return np.angle(np.exp(1j * angle))


def test_the_data_are_rope_s_rotations_of_one_query_and_one_key():
    """Pair i of the query is turned by m θ_i, of the key by n θ_i, with
    θ = (1, 0.25); the angle between them in each plane is Δθ_i plus the
    angle they had at position 0, the same for every m."""
    theta = np.array([1.0, 0.25])
    q0 = widgets_rope.ROPE_QUERY.reshape(2, 2) @ [1, 1j]
    k0 = widgets_rope.ROPE_KEY.reshape(2, 2) @ [1, 1j]
    for delta in DELTAS:
        for m in ROPE_POSITIONS:
            data = rope_planes_data(m, delta)
            n = data["n"]
            assert n == m - delta >= 0
            np.testing.assert_allclose(data["theta"], theta, rtol=1e-15)
            q = data["query"] @ [1, 1j]
            k = data["key"] @ [1, 1j]
            np.testing.assert_allclose(q, q0 * np.exp(1j * m * theta), atol=1e-12)
            np.testing.assert_allclose(k, k0 * np.exp(1j * n * theta), atol=1e-12)
            at_zero = np.angle(q0 * np.conj(k0))
            np.testing.assert_allclose(
                _turn(data["between"] - delta * theta - at_zero), 0, atol=1e-12
            )
            assert data["score"] == pytest.approx(data["products"].sum(), abs=1e-15)
            np.testing.assert_allclose(
                data["score"], (q * np.conj(k)).real.sum(), atol=1e-12
            )


@pytest.mark.parametrize("delta", DELTAS)
def test_the_rope_score_is_flat_in_m_and_the_added_one_is_not(delta):
    data = rope_planes_data(6, delta)
    np.testing.assert_array_equal(data["positions"], ROPE_POSITIONS)
    np.testing.assert_allclose(data["rope"], data["score"], rtol=0, atol=1e-12)
    assert np.ptp(data["added"]) > 1.0
    # the added score, by its definition with the cosine-first encoding
    positions = np.array(ROPE_POSITIONS)
    theta = np.array([1.0, 0.25])

    def cosine_first(t):
        angles = np.multiply.outer(t, theta)
        return np.stack([np.cos(angles), np.sin(angles)], axis=-1).reshape(-1, 4)

    added = (widgets_rope.ROPE_QUERY + cosine_first(positions)) @ (
        widgets_rope.ROPE_KEY + cosine_first(positions - delta)
    ).T
    np.testing.assert_allclose(data["added"], np.diag(added), atol=1e-12)


@pytest.mark.parametrize("delta", DELTAS)
def test_the_explorer_draws_its_data_at_every_position(delta):
    explorer = RopePlanesExplorer()
    for m in ROPE_POSITIONS:
        explorer.update(m=m, delta=delta)
        data = rope_planes_data(m, delta)
        for i, centre in enumerate(explorer.centres):
            for hand, tip in (
                (explorer.query_hands[i], data["query"][i]),
                (explorer.key_hands[i], data["key"][i]),
            ):
                x, y = hand.get_data()
                assert (x[0], y[0]) == (centre, 0)
                np.testing.assert_allclose([x[1] - centre, y[1]], tip, atol=1e-15)
            arc_x, arc_y = explorer.arcs[i].get_data()
            np.testing.assert_allclose(
                np.hypot(arc_x - centre, arc_y), explorer.arc_radius
            )
            ends = np.arctan2(arc_y[[0, -1]], arc_x[[0, -1]] - centre)
            key_angle = np.arctan2(*data["key"][i][::-1])
            query_angle = np.arctan2(*data["query"][i][::-1])
            assert abs(_turn(ends[0] - key_angle)) < 1e-12
            assert abs(_turn(ends[1] - query_angle)) < 1e-12
            part = f"{data['products'][i]:+.3f}".replace("-", "−")
            assert explorer.plane_notes[i].get_text() == f"in this plane: {part}"
        score = f"{data['score']:.3f}".replace("-", "−")
        assert explorer.title.get_text().endswith(f"= {score}")
        assert f"m = {m}, n = {m - delta}" in explorer.title.get_text()
        positions, rope = explorer.rope_line.get_data()
        np.testing.assert_array_equal(positions, ROPE_POSITIONS)
        np.testing.assert_array_equal(rope, data["rope"])
        np.testing.assert_array_equal(explorer.added_line.get_data()[1], data["added"])
        here_x, here_y = explorer.here.get_data()
        index = ROPE_POSITIONS.index(m)
        assert list(here_x) == [m, m]
        assert list(here_y) == [data["rope"][index], data["added"][index]]
        low, high = explorer.added_line.axes.get_ylim()
        assert low < data["added"].min() and data["added"].max() < high


def test_the_query_is_posenc_rotate_of_the_query():
    data = rope_planes_data(9, 2)
    np.testing.assert_array_equal(
        data["query"].reshape(-1),
        posenc.rotate(widgets_rope.ROPE_QUERY, 9, widgets_rope.ROPE_BASE),
    )


# What tests/test_widgets.py and tests/test_static.py ask of every listed
# explorer, asked of this one.


def test_it_offers_only_valid_values_and_has_alt_text():
    for choice in RopePlanesExplorer.choices:
        assert choice.default in choice.options
        shown = [choice.format(option) for option in choice.options]
        assert not [text for text in shown if text.startswith(choice.label)]
        relations = ("=", "<", ">", "≤", "≥", " up to", " to", " from", " at")
        assert not [r for r in relations if r in choice.label]
    assert RopePlanesExplorer.description


def test_it_is_drawn_for_the_page_and_blits_exactly():
    explorer = RopePlanesExplorer()
    for pick in (0, -1):
        explorer.update(**{c.name: c.options[pick] for c in explorer.choices})
        assert_readable(explorer.figure)
        blitted = explorer.render().copy()
        for artist in explorer._dynamic:
            artist.set_animated(False)
        explorer.canvas.draw()
        full = np.asarray(explorer.canvas.buffer_rgba()).copy()
        for artist in explorer._dynamic:
            artist.set_animated(True)
        np.testing.assert_array_equal(blitted, full)


def test_it_stays_within_the_frame_cap():
    frames = len(list(static.all_indices(RopePlanesExplorer)))
    assert frames == len(ROPE_POSITIONS) * len(DELTAS) <= static.MAX_FRAMES


def test_it_is_listed_and_the_page_gets_its_two_sliders():
    """posenc.widgets lists it in EXPLORERS, so the page (which imports
    posenc.widgets) shows the sliders m and Δ the caption speaks of."""
    from posenc import widgets

    assert widgets.RopePlanesExplorer is RopePlanesExplorer
    assert RopePlanesExplorer in widgets.EXPLORERS
    html = RopePlanesExplorer().player_html()
    for name in ("m", "delta"):
        assert f'data-name="{name}"' in html


# ------------------------------------------------ the two pairings
# fig-rope-pairings: the chapter's own figure cell is run, and the pairs
# and speeds it draws are read back from the figure and compared with what
# posenc.rotate (the book's RoPE code) does to vectors, in each pairing.


def chapter_figure(name: str):
    """The figure the RoPE chapter's code cell ``name`` draws: the cell is
    run on its own (it computes what it draws) and its last line's value
    returned."""
    import ast

    import jupytext

    from posenc import plots_rope

    chapter = jupytext.read(ROOT / "book" / "rope.md")
    (source,) = [
        cell.source
        for cell in chapter.cells
        if cell.cell_type == "code"
        and (cell.metadata.get("mystnb") or {}).get("figure", {}).get("name") == name
    ]
    tree = ast.parse(source)
    namespace = {"np": np, "posenc": posenc, "plots_rope": plots_rope}
    exec(compile(ast.Module(tree.body[:-1], []), name, "exec"), namespace)
    return eval(compile(ast.Expression(tree.body[-1].value), name, "eval"), namespace)


SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"


def drawn_pairings(figure) -> dict:
    """What the figure draws, read from its artists: for each pairing, pair
    i's two boxes (the ends of its arc, the boxes whose centres they are),
    the pair each box's label names, and the speeds' values."""
    from matplotlib.patches import Rectangle

    (ax,) = figure.axes
    boxes = sorted(
        {
            round(p.get_x() + p.get_width() / 2, 9)
            for p in ax.patches
            if isinstance(p, Rectangle)
        }
    )
    numbers = {
        round(t.get_position()[0], 9): int(t.get_text())
        for t in ax.texts
        if t.get_text().isdigit()
    }
    drawn = {}
    for line in ax.lines:
        pairing, _, i = line.get_gid().rpartition(" pair ")
        x = line.get_xdata()
        ends = [
            numbers[boxes[int(np.argmin(np.abs(np.subtract(boxes, end))))]]
            for end in (x[0], x[-1])
        ]
        assert (
            min(
                np.abs(np.subtract(boxes, x[0])).min(),
                np.abs(np.subtract(boxes, x[-1])).min(),
            )
            < 1e-9
        )
        drawn.setdefault(pairing, {"pairs": {}, "labels": {}})["pairs"][int(i)] = ends
    for text in ax.texts:
        gid = text.get_gid() or ""
        if " speed of " in gid:
            pairing, _, j = gid.partition(" speed of ")
            label = text.get_text()
            assert label[0] == "θ" and all(c in SUBSCRIPTS for c in label[1:])
            index = int("".join(str(SUBSCRIPTS.index(c)) for c in label[1:]))
            drawn[pairing]["labels"][int(j)] = index
    (values,) = [t.get_text() for t in ax.texts if t.get_gid() == "speeds"]
    head, _, listed = values.partition(": ")
    speeds = [float(part.split(" = ")[1]) for part in listed.split(", ")]
    return {"rows": drawn, "head": head, "speeds": speeds}


def test_the_pairs_drawn_are_those_posenc_rotate_turns_together():
    """For each pairing: the four arcs join the two coordinates that
    posenc.rotate turns together (a vector nonzero only there stays there),
    at the speed the figure names (it turns e_a by t θ_i towards e_b,
    counter-clockwise), each coordinate in one pair; the labels under the
    boxes name their pair; the values are posenc.frequencies(8)."""
    figure = chapter_figure("fig-rope-pairings")
    drawn = drawn_pairings(figure)
    assert drawn["head"] == "d = 8, base 10⁴"
    theta = posenc.frequencies(8)
    np.testing.assert_allclose(drawn["speeds"], theta, rtol=1e-5)  # printed :g
    assert set(drawn["rows"]) == {"interleaved", "half-split"}
    seen = {}
    for pairing, row in drawn["rows"].items():
        pairs = row["pairs"]
        assert sorted(pairs) == [0, 1, 2, 3]
        assert sorted(c for pair in pairs.values() for c in pair) == list(range(8))
        for i, (a, b) in pairs.items():
            assert row["labels"][a] == row["labels"][b] == i
            e_a, e_b = np.eye(8)[a], np.eye(8)[b]
            for t in (1.0, 2.5, -7.0, 300.0):
                turned = posenc.rotate(e_a, t, pairing=pairing)
                want = np.cos(t * theta[i]) * e_a + np.sin(t * theta[i]) * e_b
                np.testing.assert_allclose(turned, want, rtol=0, atol=1e-12)
                back = posenc.rotate(e_b, t, pairing=pairing)
                want = -np.sin(t * theta[i]) * e_a + np.cos(t * theta[i]) * e_b
                np.testing.assert_allclose(back, want, rtol=0, atol=1e-12)
        seen[pairing] = sorted(tuple(sorted(p)) for p in pairs.values())
    assert seen["interleaved"] == [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert seen["half-split"] == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert_readable(figure)


def test_the_pairings_figure_draws_the_pairs_it_is_handed():
    """Any pairs handed are drawn as given (so the test above reads the
    chapter's data, not the function's own idea of the pairings), and a
    row of another pairing is refused."""
    from posenc import plots_rope

    made_up = {"half-split": [((1, 2), 0.5), ((0, 5), 0.25), ((3, 4), 0.125)]}
    drawn = drawn_pairings(plots_rope.pairings_figure(made_up, 6, 500.0))
    assert drawn["rows"]["half-split"]["pairs"] == {0: [1, 2], 1: [0, 5], 2: [3, 4]}
    assert drawn["speeds"] == [0.5, 0.25, 0.125] and drawn["head"] == "d = 6, base 500"
    with pytest.raises(ValueError, match="keys of ROWS"):
        plots_rope.pairings_figure({"halves": made_up["half-split"]}, 6, 500.0)
