"""Tests of the modules of the chapter "The encoding in real code":
posenc.codebases (the conventions of real code), posenc.measure (reading a
table) and posenc.bugchecks (the checks).

Every table function is compared, entry by entry, with a straightforward
computation written from the description of the original code (``math.sin``
of a scalar angle). Six of them are also compared with the tables their
original code computed (``tests/data/codebase_tables.json``, recorded by
``tests/record_codebases.py``), in ``tests/test_conventions_recorded.py``;
the PyTorch tutorial and tensor2tensor are checked against the description
only. Tolerances: entries of tables at
positions below 1e3 are held to 1e-12 absolute (an angle t * theta computed
by two routes differs by a few times |t| * 2**-53 < 1e-12), entries of the
recorded float32 tables to the bound of ``float32_table_bound``; identities
are held near 1e-9, the default tolerance of the checks.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import bugchecks

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
    posenc.vaswani2017: ("interleaved", paper_exponent, 0),
    posenc.pytorch_tutorial: ("interleaved", paper_exponent, 0),
    posenc.distilbert: ("interleaved", paper_exponent, 0),
    posenc.marian: ("halves", paper_exponent, 0),
    posenc.gptj: ("halves", paper_exponent, 0),
    posenc.tensor2tensor: ("halves", t2t_exponent, 0),
    posenc.fairseq: ("halves", t2t_exponent, 2),
    posenc.whisper: ("halves", t2t_exponent, 0),
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
            posenc.fairseq(t, 8, padding_idx=padding_idx),
            posenc.tensor2tensor(t + padding_idx + 1, 8),
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
        posenc.vaswani2017(t, 64), posenc.encoding(t, 64), rtol=0, atol=1e-12
    )


# ------------------------------------------------------------- schedules


@given(d=dims, base=bases)
@SETTINGS
def test_t2t_schedule_runs_from_one_to_exactly_one_over_base(d, base):
    theta = posenc.t2t_frequencies(d, base)
    assert theta.shape == (d // 2,)
    assert theta[0] == 1.0
    np.testing.assert_allclose(theta[-1], 1 / base, rtol=1e-12)
    np.testing.assert_allclose(
        theta[1:] / theta[:-1], base ** (-1 / (d // 2 - 1)), rtol=1e-12
    )


@given(d=dims, base=bases)
@SETTINGS
def test_the_schedules_share_only_the_first_frequency(d, base):
    paper, t2t = posenc.paper_frequencies(d, base), posenc.t2t_frequencies(d, base)
    np.testing.assert_array_equal(paper, posenc.frequencies(d, base))
    assert paper[0] == t2t[0] == 1.0
    # t2t / paper = base^(-i/(N(N-1))): at least base^(-1/(N(N-1))) apart
    half = d // 2
    gap = 1 - base ** (-1 / (half * (half - 1)))
    assert np.all(t2t[1:] / paper[1:] < 1 - gap / 2)


# ---------------------------------------------------------- permutations


@given(d=dims, base=bases)
@SETTINGS
def test_same_columns_and_permuted_columns(d, base):
    t = np.arange(40)
    paper = posenc.vaswani2017(t, d, base)
    for name in SAME_COLUMNS:
        table = posenc.CONVENTIONS[name].table(t, d, base)
        perm = posenc.find_column_permutation(paper, table, atol=1e-12)
        np.testing.assert_array_equal(perm, np.arange(d))
    for name in PERMUTED:
        table = posenc.CONVENTIONS[name].table(t, d, base)
        perm = posenc.find_column_permutation(paper, table, atol=1e-12)
        np.testing.assert_array_equal(perm, posenc.interleaved_to_halves(d))
        np.testing.assert_allclose(paper[:, perm], table, rtol=0, atol=1e-12)


@given(d=dims, base=st.floats(10.0, 1e6))
@SETTINGS
def test_other_schedule_is_no_permutation_of_the_paper(d, base):
    t = np.arange(64)
    paper = posenc.vaswani2017(t, d, base)
    paper_sorted = np.sort(posenc.column_frequencies(paper))
    for name in OTHER_SCHEDULE:
        table = posenc.CONVENTIONS[name].table(t, d, base)
        assert posenc.find_column_permutation(paper, table) is None
        other_sorted = np.sort(posenc.column_frequencies(table))
        # only the first pair (theta_0 = 1, two columns) is shared
        assert np.count_nonzero(np.abs(paper_sorted - other_sorted) < 1e-9) == 2


def test_fairseq_is_a_row_shift_not_a_column_permutation_of_t2t():
    t = np.arange(100)
    t2t, fairseq = posenc.tensor2tensor(t, 32), posenc.fairseq(t, 32)
    assert posenc.find_column_permutation(t2t, fairseq) is None
    np.testing.assert_allclose(fairseq @ fairseq.T, t2t @ t2t.T, atol=1e-10)
    np.testing.assert_array_equal(posenc.whisper(t, 32), t2t)


def test_find_column_permutation_recovers_a_random_permutation():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((20, 12))
    perm = rng.permutation(12)
    np.testing.assert_array_equal(posenc.find_column_permutation(a, a[:, perm]), perm)
    b = a[:, perm] + 1e-10  # within the default tolerance
    np.testing.assert_array_equal(posenc.find_column_permutation(a, b), perm)


def test_find_column_permutation_refuses_near_misses_and_reuse():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((20, 6))
    moved = a.copy()
    moved[3, 2] += 1e-6
    assert posenc.find_column_permutation(a, moved) is None
    reused = a[:, [0, 0, 2, 3, 4, 5]]  # column 0 twice, column 1 never
    assert posenc.find_column_permutation(a, reused) is None
    twins = a.copy()
    twins[:, 1] = twins[:, 0]  # two equal columns in a: ambiguous
    assert posenc.find_column_permutation(twins, twins) is None


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
    np.testing.assert_allclose(posenc.column_frequencies(table), theta, atol=1e-8)
    perm = rng.permutation(theta.size)
    np.testing.assert_allclose(
        posenc.column_frequencies(table[:, perm]),
        posenc.column_frequencies(table)[perm],
        rtol=0,
        atol=1e-10,  # arccos near 1: summation order moves theta by ~1e-13
    )


# ------------------------------------------------------------ measuring


@pytest.mark.parametrize("name", posenc.CONVENTIONS)
@pytest.mark.parametrize("d", [8, 64])
def test_measured_table_agrees_with_the_registry(name, d):
    convention = posenc.CONVENTIONS[name]
    measured = posenc.measure_table(convention.table(np.arange(100), d))
    assert measured.layout == convention.layout
    assert measured.first == convention.first
    assert measured.schedule == convention.schedule
    assert measured.start == pytest.approx(convention.start, abs=1e-9)


def test_measure_table_reads_cosine_first_and_a_start():
    d, t = 16, np.arange(50)
    swap = np.arange(d) ^ 1  # cosine first in every pair
    measured = posenc.measure_table(posenc.encoding(t + 1.5, d)[:, swap])
    assert measured == ("interleaved", "cos", "paper", pytest.approx(1.5))


def test_measure_table_reports_what_it_does_not_know():
    t = np.arange(50)
    assert posenc.measure_table(posenc.encoding(t, 16, 37.0)).schedule == "other"
    rng = np.random.default_rng(0)
    scrambled = posenc.encoding(t, 16)[:, rng.permutation(16)]
    assert posenc.measure_table(scrambled).layout in {"other", "interleaved"}
    pairs_apart = posenc.encoding(t, 16)[
        :, [0, 2, 1, 3, 4, 6, 5, 7] + [8, 9, 10, 11, 12, 13, 14, 15]
    ]
    assert posenc.measure_table(pairs_apart).layout == "other"


def test_registry_records_the_rosetta_stone():
    assert set(posenc.CONVENTIONS) == {
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
    for convention in posenc.CONVENTIONS.values():
        assert convention.layout in {"interleaved", "halves"}
        assert convention.schedule in posenc.CODEBASE_SCHEDULES
        assert convention.source
    assert posenc.CONVENTIONS["fairseq"].start == 2


# ------------------------------------------------------ the table checks

D, BASE = 32, 1e4
T = np.arange(400.0)
PAIR = np.arange(D // 2)


def interleave(angles):
    table = np.empty(angles.shape[:-1] + (2 * angles.shape[-1],))
    table[..., 0::2], table[..., 1::2] = np.sin(angles), np.cos(angles)
    return table


def failed(table, **options):
    return list(posenc.encoding_table_problems(table, D, BASE, **options))


@pytest.mark.parametrize("start", [0.0, 2.0, 1e3])
@pytest.mark.parametrize("layout", ["interleaved", "halves"])
def test_correct_tables_pass(start, layout):
    table = posenc.encoding(T + start, D, BASE, layout=layout)
    posenc.check_encoding_table(table, D, BASE, layout=layout, start=start)
    assert failed(table, layout=layout, start=start) == []


@given(d=dims, base=bases)
@SETTINGS
def test_correct_tables_pass_for_any_dimension_and_base(d, base):
    table = posenc.encoding(np.arange(60), d, base)
    assert posenc.encoding_table_problems(table, d, base) == {}


def test_multiplying_by_the_frequency_term_is_caught_by_the_frequencies():
    table = interleave(np.outer(T, BASE ** (2 * PAIR / D)))
    assert failed(table) == [bugchecks.FREQUENCIES]
    with pytest.raises(ValueError, match=r"\[frequencies\]"):
        posenc.check_encoding_table(table, D, BASE)


def test_exponent_i_over_d_is_caught_by_the_frequencies():
    table = interleave(np.outer(T, BASE ** (-PAIR / D)))
    assert failed(table) == [bugchecks.FREQUENCIES]
    message = posenc.encoding_table_problems(table, D, BASE)[bugchecks.FREQUENCIES]
    assert "down to" in message


def test_floor_division_precedence_is_caught_by_the_frequencies():
    factor = -np.log(BASE) / D // 2
    assert factor == -1.0
    table = interleave(np.outer(T, np.exp(np.arange(0, D, 2) * factor)))
    assert failed(table) == [bugchecks.FREQUENCIES]


def test_one_exponent_per_column_breaks_norm_offsets_and_pairs():
    column = np.arange(D)
    angles = np.outer(T, BASE ** (-2 * column / D))
    table = np.where(column % 2 == 0, np.sin(angles), np.cos(angles))
    assert failed(table) == [bugchecks.NORM, bugchecks.OFFSET, bugchecks.PAIRS]
    with pytest.raises(ValueError, match="constant norm") as caught:
        posenc.check_encoding_table(table, D, BASE)
    assert "offset-only" in str(caught.value)


def test_swapped_sine_and_cosine_turn_backwards():
    table = posenc.encoding(T, D, BASE)[:, np.arange(D) ^ 1]
    problems = posenc.encoding_table_problems(table, D, BASE)
    assert list(problems) == [bugchecks.FREQUENCIES, bugchecks.START]
    assert "swapped" in problems[bugchecks.FREQUENCIES]


def test_wrong_layout_and_wrong_start_are_named():
    halves = posenc.encoding(T, D, BASE, layout="halves")
    problems = posenc.encoding_table_problems(halves, D, BASE)
    assert list(problems) == [bugchecks.PAIRS, bugchecks.START]
    assert "layout='halves'" in problems[bugchecks.PAIRS]
    shifted = posenc.encoding(T + 2, D, BASE)
    assert failed(shifted) == [bugchecks.START]
    assert failed(shifted, start=2) == []


def test_a_scaled_table_leaves_the_circle():
    table = 2 * posenc.encoding(T, D, BASE)
    assert failed(table) == [bugchecks.NORM, bugchecks.PAIRS, bugchecks.START]


def test_a_chirp_stays_on_the_circle_but_turns_unevenly():
    table = interleave(np.outer(T**2 / 400, posenc.frequencies(D, BASE)))
    problems = posenc.encoding_table_problems(table, D, BASE)
    assert list(problems) == [bugchecks.OFFSET, bugchecks.PAIRS]
    assert "uneven steps" in problems[bugchecks.PAIRS]


def test_a_single_corrupted_entry_breaks_the_offsets():
    table = posenc.encoding(T, D, BASE)
    table[200, 5] = -table[200, 5]
    assert bugchecks.OFFSET in failed(table)


def test_tolerances_accept_float32_tables_when_asked():
    table = posenc.encoding(T, D, BASE).astype(np.float32)
    assert failed(table) != []
    assert failed(table, atol=1e-6 * T[-1]) == []


# ------------------------------------------------------------------ RoPE


def half_split(x, positions, base=10000.0):
    """A rotary function with half-split pairs, as real code passes one."""
    return posenc.rotate(x, positions, base, pairing="half-split")


def test_rope_pairing_tells_the_pairings_apart():
    for d in [4, 8, 64]:
        assert posenc.rope_pairing(posenc.rotate, d) == "interleaved"
        assert posenc.rope_pairing(half_split, d) == "half-split"
    posenc.check_rope_pairing(posenc.rotate, 16, "interleaved")
    posenc.check_rope_pairing(half_split, 16, "half-split")
    with pytest.raises(ValueError, match="rotary pairing"):
        posenc.check_rope_pairing(half_split, 16, "interleaved")
    with pytest.raises(ValueError, match="rotary pairing"):
        posenc.check_rope_pairing(posenc.rotate, 16, "half-split")


def test_rope_pairing_rejects_other_functions():
    with pytest.raises(ValueError, match="neither"):
        posenc.rope_pairing(lambda x, t, base: x, 8)

    def reversed_pairs(x, t, base):  # pairs (i, d-1-i)
        x = np.asarray(x, float)
        perm = np.concatenate([np.arange(0, 8, 2), np.arange(7, 0, -2)])
        out = np.empty_like(x)
        out[..., perm] = half_split(x[..., perm], t, base)
        return out

    with pytest.raises(ValueError, match="neither"):
        posenc.rope_pairing(reversed_pairs, 8)


def test_relative_scores_hold_for_one_pairing_and_fail_for_two():
    for rotate in [posenc.rotate, half_split]:
        posenc.check_relative_scores(rotate, rotate, 16)
    with pytest.raises(ValueError, match="relative property"):
        posenc.check_relative_scores(posenc.rotate, half_split, 16)
    with pytest.raises(ValueError, match="relative property"):
        posenc.check_relative_scores(half_split, posenc.rotate, 16)
    posenc.check_relative_scores(posenc.rotate, half_split, 2)


def test_relative_scores_catch_angles_laid_out_for_the_other_pairing():
    def mismatched(x, t, base):
        # angles repeated for adjacent pairs, rotation by halves
        x = np.asarray(x, float)
        d = x.shape[-1]
        angles = np.repeat(t * posenc.frequencies(d, base), 2)
        half = np.concatenate([-x[..., d // 2 :], x[..., : d // 2]], axis=-1)
        return x * np.cos(angles) + half * np.sin(angles)

    with pytest.raises(ValueError, match="relative property"):
        posenc.check_relative_scores(mismatched, mismatched, 16)


def test_weights_of_one_pairing_in_code_of_the_other():
    rng = np.random.default_rng(3)
    d = 16
    q, k = rng.standard_normal((2, d))

    def score(rotate, m, n, perm=slice(None)):
        return rotate(q[perm], m) @ rotate(k[perm], n)

    assert score(posenc.rotate, 9, 9) == pytest.approx(
        score(half_split, 9, 9), abs=1e-12
    )
    assert abs(score(posenc.rotate, 10, 9) - score(half_split, 10, 9)) > 1e-3
    perm = posenc.interleaved_to_halves(d)
    assert score(half_split, 10, 9, perm) == pytest.approx(
        score(posenc.rotate, 10, 9), abs=1e-12
    )


# ------------------------------------------------------ what the figures draw


def test_schedule_ratio_is_tensor2tensor_over_the_paper():
    for d in [16, 64, 512]:
        ratio = posenc.schedule_ratio(d)
        np.testing.assert_allclose(
            ratio, posenc.t2t_frequencies(d) / posenc.paper_frequencies(d), rtol=1e-15
        )
        half = d // 2
        exponent = -np.arange(half) / (half * (half - 1))
        np.testing.assert_allclose(ratio, 1e4**exponent, rtol=1e-12)


def test_column_distances_are_root_mean_squares_and_find_exact_matches():
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((2, 30, 4))
    expected = [[np.sqrt(np.mean((a[:, j] - b[:, k]) ** 2)) for k in range(4)]
                for j in range(4)]  # fmt: skip
    np.testing.assert_allclose(posenc.column_distances(a, b), expected, rtol=1e-14)
    t = np.arange(32)
    paper = posenc.vaswani2017(t, 8)
    marian = posenc.column_distances(paper, posenc.marian(t, 8))
    rows, cols = np.nonzero(marian < 1e-9)
    np.testing.assert_array_equal(
        rows[np.argsort(cols)], posenc.interleaved_to_halves(8)
    )
    other = posenc.column_distances(paper, posenc.tensor2tensor(t, 8))
    assert np.count_nonzero(other < 1e-9) == 2  # only the first pair
    with pytest.raises(ValueError, match="same number of rows"):
        posenc.column_distances(a, b[:5])


def test_offset_profiles_are_normalised_inner_products_from_each_anchor():
    table = posenc.encoding(np.arange(500), 16)
    profiles = posenc.offset_profiles(table, (0, 300), 120)
    assert profiles.shape == (2, 121)
    np.testing.assert_allclose(profiles[0], table[:121] @ table[0] / 8)
    np.testing.assert_allclose(profiles[1], table[300:421] @ table[300] / 8)
    np.testing.assert_allclose(profiles[0], profiles[1], atol=1e-12)
    np.testing.assert_allclose(
        profiles[0], posenc.inner_product(np.arange(121), 16) / 8
    )
    with pytest.raises(ValueError, match="rows"):
        posenc.offset_profiles(table[:400], (0, 300), 120)


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
    "function",
    [posenc.tensor2tensor, posenc.fairseq, posenc.whisper, posenc.t2t_frequencies],
)
def test_other_schedule_needs_two_pairs(function):
    arguments = (2,) if function is posenc.t2t_frequencies else ([0, 1], 2)
    with pytest.raises(ValueError, match="d must be an even integer of at least 4"):
        function(*arguments)


@pytest.mark.parametrize("padding_idx", [-1, 1.0, True, None])
def test_fairseq_rejects_bad_padding_index(padding_idx):
    with pytest.raises(ValueError, match="padding_idx"):
        posenc.fairseq([0, 1], 8, padding_idx=padding_idx)


def test_table_tools_reject_bad_tables():
    good = posenc.encoding(np.arange(10), 8)
    with pytest.raises(ValueError, match="same shape"):
        posenc.find_column_permutation(good, good[:, :6])
    with pytest.raises(ValueError, match="atol"):
        posenc.find_column_permutation(good, good, atol=-1.0)
    with pytest.raises(ValueError, match="a must be"):
        posenc.find_column_permutation([[np.nan]], [[1.0]])
    for bad, rule in [
        (good[0], "2-D"),
        (good[:2], "at least 3 rows"),
        (good[:, :7], "even number of columns"),
        (good[:, :2], "even number of columns"),
        (np.zeros((5, 4)), "zero on its inner rows"),
        (np.full((5, 4), np.inf), "finite"),
    ]:
        with pytest.raises(ValueError, match=rule):
            posenc.column_frequencies(bad)
    with pytest.raises(ValueError, match="base"):
        posenc.measure_table(good, base=0.5)
    with pytest.raises(ValueError, match="d must be"):
        posenc.interleaved_to_halves(7)


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
        posenc.encoding_table_problems(table, **arguments)
    with pytest.raises(ValueError, match=rule):
        posenc.check_encoding_table(table, **arguments)


def test_rope_tools_reject_bad_input():
    with pytest.raises(ValueError, match="at least 4"):
        posenc.rope_pairing(posenc.rotate, 2)
    with pytest.raises(ValueError, match="expected must be one of"):
        posenc.check_rope_pairing(posenc.rotate, 8, "interleave")
    for trials in [0, True, 2.5]:
        with pytest.raises(ValueError, match="trials"):
            posenc.check_relative_scores(posenc.rotate, posenc.rotate, 8, trials=trials)
    with pytest.raises(ValueError, match="d must be"):
        posenc.check_relative_scores(posenc.rotate, posenc.rotate, 5)
