"""Tests of posenc.conventions: the conventions of real code, and the checks.

Every table function is compared, entry by entry, with a straightforward
computation written from the description of the original code (``math.sin``
of a scalar angle). Tolerances: entries of tables at positions below 1e3 are
held to 1e-12 absolute (an angle t * theta computed by two routes differs by
a few times |t| * 2**-53 < 1e-12); identities are held near 1e-9, the
default tolerance of the checks.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure

import posenc
from posenc import conventions as C

SETTINGS = settings(max_examples=30, deadline=None)
dims = st.integers(2, 64).map(lambda half: 2 * half)  # d >= 4
bases = st.floats(1.5, 1e6)
POSITIONS = np.array([0.0, 1.0, 2.5, 17.0, -3.0, 999.0])
SAME_COLUMNS = ["PyTorch tutorial", "Annotated Transformer", "DistilBERT"]
PERMUTED = ["Marian", "GPT-J"]
OTHER_SCHEDULE = ["tensor2tensor", "fairseq", "Whisper"]

# ------------------------------------------------- independent references


def reference(t, d, base, layout, exponent, start=0):
    """A table from scalar sines and cosines, one entry at a time."""
    table = np.zeros((len(t), d))
    for row, position in enumerate(t):
        for i in range(d // 2):
            angle = (position + start) * base ** (-exponent(i, d))
            sine, cosine = (
                (2 * i, 2 * i + 1)
                if layout == "interleaved"
                else (
                    i,
                    d // 2 + i,
                )
            )
            table[row, sine] = math.sin(angle)
            table[row, cosine] = math.cos(angle)
    return table


def paper_exponent(i, d):
    return 2 * i / d


def t2t_exponent(i, d):
    return i / (d // 2 - 1)


REFERENCES = {
    C.vaswani2017: ("interleaved", paper_exponent, 0),
    C.pytorch_tutorial: ("interleaved", paper_exponent, 0),
    C.distilbert: ("interleaved", paper_exponent, 0),
    C.marian: ("halves", paper_exponent, 0),
    C.gptj: ("halves", paper_exponent, 0),
    C.tensor2tensor: ("halves", t2t_exponent, 0),
    C.fairseq: ("halves", t2t_exponent, 2),
    C.whisper: ("halves", t2t_exponent, 0),
}


@pytest.mark.parametrize("function", REFERENCES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("d", [4, 6, 10])
@pytest.mark.parametrize("base", [1e4, 37.5])
def test_each_convention_matches_its_description(function, d, base):
    layout, exponent, start = REFERENCES[function]
    expected = reference(POSITIONS, d, base, layout, exponent, start)
    np.testing.assert_allclose(
        function(POSITIONS, d, base), expected, rtol=0, atol=1e-12
    )


def test_fairseq_starts_after_the_padding_index():
    t = np.arange(5.0)
    for padding_idx in [0, 1, 7]:
        np.testing.assert_array_equal(
            C.fairseq(t, 8, padding_idx=padding_idx),
            C.tensor2tensor(t + padding_idx + 1, 8),
        )


@pytest.mark.parametrize("function", REFERENCES, ids=lambda f: f.__name__)
def test_table_shapes_and_dtype(function):
    assert function(3, 8).shape == (8,)
    assert function([1, 2, 3], 8).shape == (3, 8)
    assert function(np.zeros((2, 5)), 8).shape == (2, 5, 8)
    assert function([1, 2], 8).dtype == np.float64


def test_the_paper_is_posenc_encoding():
    t = np.arange(1000)
    np.testing.assert_allclose(
        C.vaswani2017(t, 64), posenc.encoding(t, 64), rtol=0, atol=1e-12
    )


# ------------------------------------------------------------- schedules


@given(d=dims, base=bases)
@SETTINGS
def test_t2t_schedule_runs_from_one_to_exactly_one_over_base(d, base):
    theta = C.t2t_frequencies(d, base)
    assert theta.shape == (d // 2,)
    assert theta[0] == 1.0
    np.testing.assert_allclose(theta[-1], 1 / base, rtol=1e-12)
    np.testing.assert_allclose(
        theta[1:] / theta[:-1], base ** (-1 / (d // 2 - 1)), rtol=1e-12
    )


@given(d=dims, base=bases)
@SETTINGS
def test_the_schedules_share_only_the_first_frequency(d, base):
    paper, t2t = C.paper_frequencies(d, base), C.t2t_frequencies(d, base)
    np.testing.assert_array_equal(paper, posenc.frequencies(d, base))
    assert paper[0] == t2t[0] == 1.0
    # t2t / paper = base^(-i/(N(N-1))): at least base^(-1/(N(N-1))) apart
    half = d // 2
    gap = 1 - base ** (-1 / (half * (half - 1)))
    assert np.all(t2t[1:] / paper[1:] < 1 - gap / 2)


# ---------------------------------------------------------- permutations


@pytest.mark.parametrize("d", [4, 16, 64])
def test_interleaved_to_halves_is_the_documented_permutation(d):
    perm = C.interleaved_to_halves(d)
    assert sorted(perm) == list(range(d))
    np.testing.assert_array_equal(perm[: d // 2], np.arange(0, d, 2))
    np.testing.assert_array_equal(perm[d // 2 :], np.arange(1, d, 2))
    t = np.arange(50)
    np.testing.assert_array_equal(
        posenc.encoding(t, d)[:, perm], posenc.encoding(t, d, layout="halves")
    )


@given(d=dims, base=bases)
@SETTINGS
def test_same_columns_and_permuted_columns(d, base):
    t = np.arange(40)
    paper = C.vaswani2017(t, d, base)
    for name in SAME_COLUMNS:
        table = C.CONVENTIONS[name].table(t, d, base)
        perm = C.find_column_permutation(paper, table, atol=1e-12)
        np.testing.assert_array_equal(perm, np.arange(d))
    for name in PERMUTED:
        table = C.CONVENTIONS[name].table(t, d, base)
        perm = C.find_column_permutation(paper, table, atol=1e-12)
        np.testing.assert_array_equal(perm, C.interleaved_to_halves(d))
        np.testing.assert_allclose(paper[:, perm], table, rtol=0, atol=1e-12)


@given(d=dims, base=st.floats(10.0, 1e6))
@SETTINGS
def test_other_schedule_is_no_permutation_of_the_paper(d, base):
    t = np.arange(64)
    paper = C.vaswani2017(t, d, base)
    paper_sorted = np.sort(C.column_frequencies(paper))
    for name in OTHER_SCHEDULE:
        table = C.CONVENTIONS[name].table(t, d, base)
        assert C.find_column_permutation(paper, table) is None
        other_sorted = np.sort(C.column_frequencies(table))
        # only the first pair (theta_0 = 1, two columns) is shared
        assert np.count_nonzero(np.abs(paper_sorted - other_sorted) < 1e-9) == 2


def test_fairseq_is_a_row_shift_not_a_column_permutation_of_t2t():
    t = np.arange(100)
    t2t, fairseq = C.tensor2tensor(t, 32), C.fairseq(t, 32)
    assert C.find_column_permutation(t2t, fairseq) is None
    np.testing.assert_allclose(fairseq @ fairseq.T, t2t @ t2t.T, atol=1e-10)
    np.testing.assert_array_equal(C.whisper(t, 32), t2t)


def test_find_column_permutation_recovers_a_random_permutation():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((20, 12))
    perm = rng.permutation(12)
    np.testing.assert_array_equal(C.find_column_permutation(a, a[:, perm]), perm)
    b = a[:, perm] + 1e-10  # within the default tolerance
    np.testing.assert_array_equal(C.find_column_permutation(a, b), perm)


def test_find_column_permutation_refuses_near_misses_and_reuse():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((20, 6))
    moved = a.copy()
    moved[3, 2] += 1e-6
    assert C.find_column_permutation(a, moved) is None
    reused = a[:, [0, 0, 2, 3, 4, 5]]  # column 0 twice, column 1 never
    assert C.find_column_permutation(a, reused) is None
    twins = a.copy()
    twins[:, 1] = twins[:, 0]  # two equal columns in a: ambiguous
    assert C.find_column_permutation(twins, twins) is None


@given(
    theta=st.lists(st.floats(1e-3, 3.0), min_size=2, max_size=6),
    seed=st.integers(0, 1000),
)
@SETTINGS
def test_column_frequencies_recover_sinusoids_and_follow_permutations(theta, seed):
    rng = np.random.default_rng(seed)
    theta = np.repeat(theta, 2)  # an even number of columns
    amplitude = rng.uniform(0.5, 2.0, theta.size)
    phase = rng.uniform(0, 2 * np.pi, theta.size)
    t = np.arange(200)[:, None]
    table = amplitude * np.sin(theta * t + phase)
    np.testing.assert_allclose(C.column_frequencies(table), theta, atol=1e-8)
    perm = rng.permutation(theta.size)
    np.testing.assert_allclose(
        C.column_frequencies(table[:, perm]),
        C.column_frequencies(table)[perm],
        rtol=0,
        atol=1e-10,  # arccos near 1: summation order moves theta by ~1e-13
    )


# ------------------------------------------------------------ measuring


@pytest.mark.parametrize("name", C.CONVENTIONS)
@pytest.mark.parametrize("d", [8, 64])
def test_measured_table_agrees_with_the_registry(name, d):
    convention = C.CONVENTIONS[name]
    measured = C.measure_table(convention.table(np.arange(100), d))
    assert measured.layout == convention.layout
    assert measured.first == convention.first
    assert measured.schedule == convention.schedule
    assert measured.start == pytest.approx(convention.start, abs=1e-9)


def test_measure_table_reads_cosine_first_and_a_start():
    d, t = 16, np.arange(50)
    swap = np.arange(d) ^ 1  # cosine first in every pair
    measured = C.measure_table(posenc.encoding(t + 1.5, d)[:, swap])
    assert measured == ("interleaved", "cos", "paper", pytest.approx(1.5))


def test_measure_table_reports_what_it_does_not_know():
    t = np.arange(50)
    assert C.measure_table(posenc.encoding(t, 16, 37.0)).schedule == "other"
    rng = np.random.default_rng(0)
    scrambled = posenc.encoding(t, 16)[:, rng.permutation(16)]
    assert C.measure_table(scrambled).layout in {"other", "interleaved"}
    pairs_apart = posenc.encoding(t, 16)[
        :, [0, 2, 1, 3, 4, 6, 5, 7] + [8, 9, 10, 11, 12, 13, 14, 15]
    ]
    assert C.measure_table(pairs_apart).layout == "other"


def test_registry_records_the_rosetta_stone():
    assert set(C.CONVENTIONS) == {
        "paper",
        "PyTorch tutorial",
        "Annotated Transformer",
        "DistilBERT",
        "Marian",
        "GPT-J",
        "tensor2tensor",
        "fairseq",
        "Whisper",
    }
    for convention in C.CONVENTIONS.values():
        assert convention.layout in {"interleaved", "halves"}
        assert convention.schedule in C.SCHEDULES
        assert convention.source
    assert C.CONVENTIONS["fairseq"].start == 2


# ------------------------------------------------------ the table checks

D, BASE = 32, 1e4
T = np.arange(400.0)
PAIR = np.arange(D // 2)


def interleave(angles):
    table = np.empty(angles.shape[:-1] + (2 * angles.shape[-1],))
    table[..., 0::2], table[..., 1::2] = np.sin(angles), np.cos(angles)
    return table


def failed(table, **options):
    return list(C.encoding_table_problems(table, D, BASE, **options))


@pytest.mark.parametrize("start", [0.0, 2.0, 1e3])
@pytest.mark.parametrize("layout", ["interleaved", "halves"])
def test_correct_tables_pass(start, layout):
    table = posenc.encoding(T + start, D, BASE, layout=layout)
    C.check_encoding_table(table, D, BASE, layout=layout, start=start)
    assert failed(table, layout=layout, start=start) == []


@given(d=dims, base=bases)
@SETTINGS
def test_correct_tables_pass_for_any_dimension_and_base(d, base):
    table = posenc.encoding(np.arange(60), d, base)
    assert C.encoding_table_problems(table, d, base) == {}


def test_multiplying_by_the_frequency_term_is_caught_by_the_frequencies():
    table = interleave(np.outer(T, BASE ** (2 * PAIR / D)))
    assert failed(table) == [C.FREQUENCIES]
    with pytest.raises(ValueError, match=r"\[frequencies\]"):
        C.check_encoding_table(table, D, BASE)


def test_exponent_i_over_d_is_caught_by_the_frequencies():
    table = interleave(np.outer(T, BASE ** (-PAIR / D)))
    assert failed(table) == [C.FREQUENCIES]
    message = C.encoding_table_problems(table, D, BASE)[C.FREQUENCIES]
    assert "down to" in message


def test_floor_division_precedence_is_caught_by_the_frequencies():
    factor = -np.log(BASE) / D // 2
    assert factor == -1.0
    table = interleave(np.outer(T, np.exp(np.arange(0, D, 2) * factor)))
    assert failed(table) == [C.FREQUENCIES]


def test_one_exponent_per_column_breaks_norm_offsets_and_pairs():
    column = np.arange(D)
    angles = np.outer(T, BASE ** (-2 * column / D))
    table = np.where(column % 2 == 0, np.sin(angles), np.cos(angles))
    assert failed(table) == [C.NORM, C.OFFSET, C.PAIRS]
    with pytest.raises(ValueError, match="constant norm") as caught:
        C.check_encoding_table(table, D, BASE)
    assert "offset-only" in str(caught.value)


def test_swapped_sine_and_cosine_turn_backwards():
    table = posenc.encoding(T, D, BASE)[:, np.arange(D) ^ 1]
    problems = C.encoding_table_problems(table, D, BASE)
    assert list(problems) == [C.FREQUENCIES, C.START]
    assert "swapped" in problems[C.FREQUENCIES]


def test_wrong_layout_and_wrong_start_are_named():
    halves = posenc.encoding(T, D, BASE, layout="halves")
    problems = C.encoding_table_problems(halves, D, BASE)
    assert list(problems) == [C.PAIRS, C.START]
    assert "layout='halves'" in problems[C.PAIRS]
    shifted = posenc.encoding(T + 2, D, BASE)
    assert failed(shifted) == [C.START]
    assert failed(shifted, start=2) == []


def test_a_scaled_table_leaves_the_circle():
    table = 2 * posenc.encoding(T, D, BASE)
    assert failed(table) == [C.NORM, C.PAIRS, C.START]


def test_a_chirp_stays_on_the_circle_but_turns_unevenly():
    table = interleave(np.outer(T**2 / 400, posenc.frequencies(D, BASE)))
    problems = C.encoding_table_problems(table, D, BASE)
    assert list(problems) == [C.OFFSET, C.PAIRS]
    assert "uneven steps" in problems[C.PAIRS]


def test_a_single_corrupted_entry_breaks_the_offsets():
    table = posenc.encoding(T, D, BASE)
    table[200, 5] = -table[200, 5]
    assert C.OFFSET in failed(table)


def test_tolerances_accept_float32_tables_when_asked():
    table = posenc.encoding(T, D, BASE).astype(np.float32)
    assert failed(table) != []
    assert failed(table, atol=1e-6 * T[-1]) == []


# ------------------------------------------------------------------ RoPE


def half_split_reference(x, t, base):
    """Rotate pairs (i, i + d/2) with explicit 2x2 matrices, one by one."""
    d = x.size
    out = x.astype(float).copy()
    for i in range(d // 2):
        angle = t * base ** (-2 * i / d)
        rotation = np.array(
            [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
        )
        out[[i, i + d // 2]] = rotation @ x[[i, i + d // 2]]
    return out


@pytest.mark.parametrize("d", [2, 4, 10])
def test_half_split_rotation_matches_explicit_rotations(d):
    rng = np.random.default_rng(d)
    x = rng.standard_normal(d)
    for t in [0.0, 1.0, 7.5, -20.0]:
        np.testing.assert_allclose(
            C.rotate_half_split(x, t, 100.0),
            half_split_reference(x, t, 100.0),
            rtol=0,
            atol=1e-12,
        )


@given(d=dims, base=bases, t=st.floats(-1e3, 1e3))
@SETTINGS
def test_half_split_is_interleaved_after_the_permutation(d, base, t):
    x = np.random.default_rng(d).standard_normal((3, d))
    perm = C.interleaved_to_halves(d)
    np.testing.assert_allclose(
        C.rotate_half_split(x[:, perm], t, base),
        posenc.rotate(x, t, base)[:, perm],
        atol=1e-9,
    )
    np.testing.assert_allclose(
        np.linalg.norm(C.rotate_half_split(x, t, base), axis=-1),
        np.linalg.norm(x, axis=-1),
        rtol=1e-12,
    )


def test_half_split_broadcasts_positions_like_rotate():
    x = np.ones((5, 8))
    t = np.arange(5.0)
    np.testing.assert_array_equal(
        C.rotate_half_split(x, t)[3], C.rotate_half_split(x[3], 3.0)
    )
    assert C.rotate_half_split(np.ones(8), np.arange(4.0)[:, None]).shape == (4, 1, 8)


def test_rope_pairing_tells_the_pairings_apart():
    for d in [4, 8, 64]:
        assert C.rope_pairing(posenc.rotate, d) == "interleaved"
        assert C.rope_pairing(C.rotate_half_split, d) == "half-split"
    C.check_rope_pairing(posenc.rotate, 16, "interleaved")
    C.check_rope_pairing(C.rotate_half_split, 16, "half-split")
    with pytest.raises(ValueError, match="rotary pairing"):
        C.check_rope_pairing(C.rotate_half_split, 16, "interleaved")
    with pytest.raises(ValueError, match="rotary pairing"):
        C.check_rope_pairing(posenc.rotate, 16, "half-split")


def test_rope_pairing_rejects_other_functions():
    with pytest.raises(ValueError, match="neither"):
        C.rope_pairing(lambda x, t, base: x, 8)

    def reversed_pairs(x, t, base):  # pairs (i, d-1-i)
        x = np.asarray(x, float)
        perm = np.concatenate([np.arange(0, 8, 2), np.arange(7, 0, -2)])
        out = np.empty_like(x)
        out[..., perm] = C.rotate_half_split(x[..., perm], t, base)
        return out

    with pytest.raises(ValueError, match="neither"):
        C.rope_pairing(reversed_pairs, 8)


def test_relative_scores_hold_for_one_pairing_and_fail_for_two():
    for rotate in [posenc.rotate, C.rotate_half_split]:
        C.check_relative_scores(rotate, rotate, 16)
    with pytest.raises(ValueError, match="relative property"):
        C.check_relative_scores(posenc.rotate, C.rotate_half_split, 16)
    with pytest.raises(ValueError, match="relative property"):
        C.check_relative_scores(C.rotate_half_split, posenc.rotate, 16)
    C.check_relative_scores(posenc.rotate, C.rotate_half_split, 2)


def test_relative_scores_catch_angles_laid_out_for_the_other_pairing():
    def mismatched(x, t, base):
        # angles repeated for adjacent pairs, rotation by halves
        x = np.asarray(x, float)
        d = x.shape[-1]
        angles = np.repeat(t * posenc.frequencies(d, base), 2)
        half = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
        return x * np.cos(angles) + half * np.sin(angles)

    with pytest.raises(ValueError, match="relative property"):
        C.check_relative_scores(mismatched, mismatched, 16)


def test_weights_of_one_pairing_in_code_of_the_other():
    rng = np.random.default_rng(3)
    d = 16
    q, k = rng.standard_normal((2, d))

    def score(rotate, m, n, perm=slice(None)):
        return rotate(q[perm], m) @ rotate(k[perm], n)

    assert score(posenc.rotate, 9, 9) == pytest.approx(
        score(C.rotate_half_split, 9, 9), abs=1e-12
    )
    assert abs(score(posenc.rotate, 10, 9) - score(C.rotate_half_split, 10, 9)) > 1e-3
    perm = C.interleaved_to_halves(d)
    assert score(C.rotate_half_split, 10, 9, perm) == pytest.approx(
        score(posenc.rotate, 10, 9), abs=1e-12
    )


# ------------------------------------------------------------- figures


def test_schedules_figure_plots_both_schedules():
    figure = C.schedules_figure(dims=(16, 64))
    assert isinstance(figure, Figure)
    left = figure.axes[0]
    ys = [line.get_ydata() for line in left.get_lines()[:2]]
    np.testing.assert_array_equal(ys[0], C.paper_frequencies(16))
    np.testing.assert_array_equal(ys[1], C.t2t_frequencies(16))
    ratio = figure.axes[1].get_lines()[1].get_ydata()
    np.testing.assert_allclose(
        ratio, C.t2t_frequencies(64) / C.paper_frequencies(64), rtol=1e-15
    )


def test_column_match_figure_marks_exact_matches():
    figure = C.column_match_figure(d=8, length=32)
    marked = [ax.get_lines()[0].get_xdata().size for ax in figure.axes[:2]]
    assert marked == [8, 2]  # a full permutation; only the first pair


def test_offset_figure_and_rope_figure_draw_their_curves():
    table = posenc.encoding(np.arange(500), 16)
    figure = C.offset_figure({"a": table, "b": table, "c": table}, 16)
    visible = [ax for ax in figure.axes if ax.get_visible()]
    assert len(visible) == 3
    first = visible[0].get_lines()[0].get_ydata()
    np.testing.assert_allclose(first, table[:121] @ table[0] / 8)
    figure = C.rope_pairing_figure(d=8)
    flat, _, wandering = (line.get_ydata() for line in figure.axes[0].get_lines())
    assert np.ptp(flat) < 1e-9 and np.ptp(wandering) > 1e-3


# ----------------------------------------------------------- bad input


@pytest.mark.parametrize("function", REFERENCES, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        (([0, 1], 7), "d"),
        (([0, 1], 0), "d"),
        (([0, 1], True), "d"),
        (([0, 1], 8.0), "d"),
        (([0, 1], 8, 1.0), "base"),
        (([0, 1], 8, float("inf")), "base"),
        (([0, 1], 8, "10000"), "base"),
        (([0, float("nan")], 8), "positions"),
        ((["a"], 8), "positions"),
    ],
)
def test_tables_reject_bad_input(function, arguments, parameter):
    with pytest.raises(ValueError, match=parameter):
        function(*arguments)


@pytest.mark.parametrize(
    "function", [C.tensor2tensor, C.fairseq, C.whisper, C.t2t_frequencies]
)
def test_other_schedule_needs_two_pairs(function):
    arguments = (2,) if function is C.t2t_frequencies else ([0, 1], 2)
    with pytest.raises(ValueError, match="d must be at least 4"):
        function(*arguments)


@pytest.mark.parametrize("padding_idx", [-1, 1.0, True, None])
def test_fairseq_rejects_bad_padding_index(padding_idx):
    with pytest.raises(ValueError, match="padding_idx"):
        C.fairseq([0, 1], 8, padding_idx=padding_idx)


def test_table_tools_reject_bad_tables():
    good = posenc.encoding(np.arange(10), 8)
    with pytest.raises(ValueError, match="same shape"):
        C.find_column_permutation(good, good[:, :6])
    with pytest.raises(ValueError, match="atol"):
        C.find_column_permutation(good, good, atol=-1.0)
    with pytest.raises(ValueError, match="a must be"):
        C.find_column_permutation([[np.nan]], [[1.0]])
    for bad, rule in [
        (good[0], "2-D"),
        (good[:2], "at least 3 rows"),
        (good[:, :7], "even number of columns"),
        (good[:, :2], "even number of columns"),
        (np.zeros((5, 4)), "zero on its inner rows"),
        (np.full((5, 4), np.inf), "finite"),
    ]:
        with pytest.raises(ValueError, match=rule):
            C.column_frequencies(bad)
    with pytest.raises(ValueError, match="base"):
        C.measure_table(good, base=0.5)
    with pytest.raises(ValueError, match="d must be"):
        C.interleaved_to_halves(7)


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"d": 16}, "columns but d = 16"),
        ({"d": 9}, "d must be"),
        ({"base": 1.0}, "base"),
        ({"layout": "cos-first"}, "layout"),
        ({"start": float("nan")}, "start"),
        ({"atol": 0.0}, "atol"),
    ],
)
def test_table_checks_reject_bad_parameters(options, rule):
    arguments = {"d": D, "base": BASE} | options
    table = posenc.encoding(T[:10], D, BASE)
    with pytest.raises(ValueError, match=rule):
        C.encoding_table_problems(table, **arguments)
    with pytest.raises(ValueError, match=rule):
        C.check_encoding_table(table, **arguments)


def test_rope_tools_reject_bad_input():
    with pytest.raises(ValueError, match="even, non-zero last axis"):
        C.rotate_half_split(np.ones(5), 1.0)
    with pytest.raises(ValueError, match="even, non-zero last axis"):
        C.rotate_half_split(1.0, 1.0)
    with pytest.raises(ValueError, match="positions"):
        C.rotate_half_split(np.ones((3, 4)), np.arange(2.0))
    with pytest.raises(ValueError, match="x must be finite"):
        C.rotate_half_split([np.nan, 1.0], 1.0)
    with pytest.raises(ValueError, match="base"):
        C.rotate_half_split(np.ones(4), 1.0, base=-2.0)
    with pytest.raises(ValueError, match="at least 4"):
        C.rope_pairing(posenc.rotate, 2)
    with pytest.raises(ValueError, match="expected must be one of"):
        C.check_rope_pairing(posenc.rotate, 8, "interleave")
    for trials in [0, True, 2.5]:
        with pytest.raises(ValueError, match="trials"):
            C.check_relative_scores(posenc.rotate, posenc.rotate, 8, trials=trials)
    with pytest.raises(ValueError, match="d must be"):
        C.check_relative_scores(posenc.rotate, posenc.rotate, 5)
