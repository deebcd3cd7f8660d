"""Homework checks of values: numbers within their tolerance, "close"
within NEAR tolerances, slips with their own hint, the exact decision of
decay-rms-break, and what each form error says. ``judge`` is the verdict
without the attempt budget (``test_homework.py`` tests the budget).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from homework_cases import ROOT
from scipy import special
from scipy.optimize import brentq

import posenc
from posenc import homework
from posenc.homework_judge import NEAR, judge
from posenc.homework_properties import two_pi

TASKS = homework.TASKS
CLOSE = "not yet, but close"


def judged(name: str, answer: object) -> tuple[str, str]:
    return judge(TASKS[name], answer)[:2]


def _leakage(seed: int, query: str, key: str) -> float:
    """The leakage of <R_m q, R'_n k>, written here with complex numbers
    (not posenc.rotate): a pair (a, b) of coordinates as a + ib, turned
    by t theta_i, then back to its two coordinates."""
    q, k = np.random.default_rng(seed).normal(size=(2, 64))
    theta = 1e4 ** (-np.arange(0, 64, 2) / 64)
    turns = np.exp(1j * np.arange(64)[:, None] * theta)  # positions x pairs

    def rotated(v, pairing):  # rows: the positions 0 ... 63
        if pairing == "interleaved":
            z = (v[0::2] + 1j * v[1::2]) * turns
            return np.stack([z.real, z.imag], axis=-1).reshape(64, 64)
        z = (v[:32] + 1j * v[32:]) * turns
        return np.concatenate([z.real, z.imag], axis=1)

    scores = rotated(q, query) @ rotated(k, key).T
    offsets = np.subtract.outer(np.arange(64), np.arange(64))
    means = {o: scores[offsets == o].mean() for o in range(-63, 64)}
    along = np.vectorize(means.get)(offsets)
    total = ((scores - scores.mean()) ** 2).sum()
    return float(((scores - along) ** 2).sum() / total)


def test_the_leakage_here_is_posencs():
    q, k = np.random.default_rng(2024).normal(size=(2, 64))
    scores = np.array(
        [
            [
                posenc.rotate(q, m) @ posenc.rotate(k, n, pairing="half-split")
                for n in range(64)
            ]
            for m in range(64)
        ]
    )
    here = _leakage(2024, query="interleaved", key="half-split")
    assert abs(posenc.offset_leakage(scores) - here) < 1e-12


def _slip_values() -> dict[str, list]:
    """For each task with a slip: the wrong value a student who makes it
    computes, at full precision and rounded as students round it."""
    from posenc import frequencies

    two_pi_base = 2 * np.pi * 1e4  # the period of exactly 1/base
    bound = np.sqrt(2 * 64)  # sqrt(2d)
    wrong_sign = -0.5 * np.cos(203 * frequencies(64)).sum()
    log_law = np.exp(-np.euler_gamma) * np.sqrt(1e5)
    delta_1 = np.pi * 512 / np.log(1e4)  # pi d / ln(base)
    swapped = _leakage(2024, query="half-split", key="interleaved")
    return {
        "encoding-slowest-period": [round(two_pi_base), int(two_pi_base)],
        "encoding-max-distance": [bound, *(round(bound, k) for k in (3, 2, 1))],
        "taylor-cosines": [wrong_sign, *(round(wrong_sign, k) for k in (3, 2, 1))],
        "decay-half": [log_law, *(round(log_law, k) for k in (3, 2, 1))],
        "decay-cube-exponent": [-1, -1.0, -0.9995],
        "decay-double-nyquist": [delta_1, *(round(delta_1, k) for k in (3, 2, 1, 0))],
        # one layer's rows compared exactly: rounding splits them
        "symmetry-causal": [(2, 6), (3, 6), (4, 6), (5, 6), (6, 6)],
        # the pairings the other way round; both in one pairing
        "rope-mix-leakage": [
            swapped,
            *(round(swapped, k) for k in (3, 2, 1)),
            _leakage(2024, query="interleaved", key="interleaved"),
            _leakage(2024, query="half-split", key="half-split"),
            0.0,
        ],
    }


def test_every_slip_fires_on_the_value_a_student_computes():
    values = _slip_values()
    assert set(values) == {n for n, t in TASKS.items() if t.slips}
    for name, answers in values.items():
        hints = set(TASKS[name].slips.values())
        for answer in answers:
            status, message = judged(name, answer)
            assert status == homework.NOT_YET, (name, answer)
            assert any(hint in message for hint in hints), (name, answer)


def _exact_values() -> dict[str, float]:
    """Each number task's exact answer, computed here without posenc."""
    with mpmath.workdps(30):
        cube = float(mpmath.gamma(mpmath.mpf(4) / 3) * mpmath.cos(mpmath.pi / 6))
    theta = 1e4 ** (-np.arange(0, 64, 2) / 64)  # d = 64, base 1e4
    g = np.cos(np.outer(np.arange(1, 100_001), theta)).sum(axis=1)

    def decay(x, base=1e5):  # (Ci(x) - Ci(x/base)) / ln(base)
        return (special.sici(x)[1] - special.sici(x / base)[1]) / np.log(base)

    return {
        "encoding-max-distance": float(np.sqrt(64 - 2 * g).max()),
        "taylor-cosines": float(np.cos(203 * theta).sum() / 2),
        # (1.2)(1.0) cos 0.6 - (1.5)(1.3) cos 0.6
        "complex-radii": -0.75 * np.cos(0.6),
        "decay-half": brentq(lambda x: decay(x) - 0.5, 10, 1000, xtol=1e-12),
        "decay-cube-exponent": -1 / 3,
        "decay-cube-constant": cube,
        "decay-rope-threshold": np.pi * 128 / np.log(1e4),
        "decay-double-nyquist": 2 * np.pi / (1 - 1e4 ** (-2 / 512)),
        "decay-linear-zero": np.pi,
        "decay-linear-period": 64 * np.pi,
        "rope-mix-leakage": _leakage(2024, query="interleaved", key="half-split"),
    }


def test_every_number_task_accepts_all_within_its_tolerance():
    """The digests were made from the exact value: every answer within
    the tolerance is accepted, and none more than two tolerances away."""
    exact = _exact_values()
    assert set(exact) == {n for n, t in TASKS.items() if t.kind == "number"}
    for name, value in exact.items():
        tolerance = TASKS[name].tolerance
        for step in np.linspace(-1, 1, 201):
            assert judged(name, value + step * tolerance)[0] == homework.CORRECT, name
        for step in (-2.001, 2.001):
            assert judged(name, value + step * tolerance)[0] == homework.NOT_YET, name


def test_close_numbers_are_told_to_give_more_digits():
    """Every number within NEAR tolerances of the exact value that is
    neither right nor a slip is told it is close; none beyond 2 NEAR."""
    for name, value in _exact_values().items():
        tolerance = TASKS[name].tolerance
        steps = [*np.linspace(-NEAR, -2.001, 20), *np.linspace(2.001, NEAR, 20)]
        for step in steps:
            status, message = judged(name, value + step * tolerance)
            assert status == homework.NOT_YET, (name, step)
            slip = message[len("not yet. ") :] in TASKS[name].slips.values()
            assert slip or message.startswith(CLOSE), (name, step, message)
        for step in (-2 * NEAR - 0.01, 2 * NEAR + 0.01):
            assert not judged(name, value + step * tolerance)[1].startswith(CLOSE), (
                name,
                step,
            )


@pytest.mark.parametrize(
    "name, answer",
    [
        ("decay-rope-threshold", 43.7),  # the chapter prints "≈ 43.7"
        ("decay-cube-exponent", -0.33),
        ("decay-half", 178),
        ("taylor-cosines", 4.68),
        ("rope-mix-leakage", 0.961),
        ("decay-rms-break", (3.1416, 0.3)),  # 2 theta_0: 1.5e-5 from 2 pi
        ("decay-rms-break", (0.3, 0.3 + 2 * 3.14)),
    ],
)
def test_right_answers_with_too_few_digits(name, answer):
    status, message = judged(name, answer)
    assert status == homework.NOT_YET
    assert message.startswith(CLOSE) and "digits" in message


def test_stored_digests_do_not_contain_plain_values():
    sources = "".join(p.read_text() for p in (ROOT / "posenc").glob("homework*.py"))
    for value in (
        "60611",
        "9.53",
        "178.2",
        "43.66",
        "177.8",
        "0.7733",
        "4.677",
        "0.9605",
    ):
        assert value not in sources, value


@pytest.mark.parametrize(
    "pair, breaks",
    [
        ((1.0, 1.0000001), False),  # theta_0 - theta_1 = -1e-7: mean exactly 1
        ((1.0, 1.0 + 1e-12), False),
        ((1.0, 2.0), False),
        ((0.3, 0.7), False),
        ((0.5, 0.5), True),  # theta_0 - theta_1 = 0
        ((0.3, -0.3), True),  # theta_0 + theta_1 = 0
        ((0.0, 0.7), True),  # 2 theta_0 = 0
        ((0.7, 0), True),
        ((np.pi, 0.3), True),  # 2 theta_0 = 2 pi
        ((0.3, 3 * np.pi), True),  # 2 theta_1 = 6 pi
        ((0.3, 2 * np.pi - 0.3), True),  # theta_0 + theta_1 = 2 pi
        ((0.3, 0.3 + 2 * np.pi), True),  # theta_0 - theta_1 = -2 pi
        ((np.pi + 1e-9, 0.3), False),  # 2 theta_0 = 2 pi + 2e-9
    ],
)
def test_rms_break_is_decided_exactly(pair, breaks):
    assert judged("decay-rms-break", pair)[0] == (
        homework.CORRECT if breaks else homework.NOT_YET
    )


def test_rms_break_resonances_are_the_long_run_mean():
    """The check's reason, measured: the mean of g^2 over many integer
    offsets approaches 1 + [2a] / 2 + [2b] / 2 + [a - b] + [a + b], where
    [x] is 1 if x is a multiple of 2 pi, else 0."""
    offsets = np.arange(2_000_000.0)
    for pair, mean in [
        ((0.5, 0.5), 2.0),
        ((np.pi, 0.3), 1.5),
        ((np.pi, np.pi), 4.0),  # all four: g = 2 cos(pi Delta) = +-2
        ((1.0, 2.0), 1.0),
        ((0.3, 2 * np.pi - 0.3), 2.0),
        ((1.0, 1.0000001), 1.0),  # cos(1e-7 Delta) averages out, slowly
    ]:
        sums = np.cos(offsets * pair[0]) + np.cos(offsets * pair[1])
        # the slowest term averages to within 1/(N |sin(phi/2)|) of its limit
        phases = (2 * pair[0], 2 * pair[1], pair[0] - pair[1], pair[0] + pair[1])
        away = [abs(np.sin(p / 2)) for p in phases if abs(np.sin(p / 2)) > 1e-12]
        room = 4 / (len(offsets) * min(away)) if away else 0.0
        assert abs(np.mean(sums**2) - mean) < 1e-3 + room, (pair, np.mean(sums**2))
        breaks = judged("decay-rms-break", pair)[0] == homework.CORRECT
        assert breaks == (mean != 1.0), pair


def _distance_to_multiple_of_two_pi(value: Fraction) -> tuple[float, int]:
    """|value - 2 pi k| for the nearest k, and k (mpmath, with 40 digits
    after the point whatever the size of ``value``)."""
    digits = len(str(abs(int(value)))) + 40
    with mpmath.workdps(digits):
        exact = mpmath.mpf(value.numerator) / value.denominator
        turns = int(mpmath.nint(exact / (2 * mpmath.pi)))
        return float(abs(exact - 2 * mpmath.pi * turns)), turns


def _breaks_by_mpmath(pair) -> bool:
    """The rule the prompt states, computed our own way: 2a, 2b, a - b or
    a + b is 0, or within 1e-9 of a nonzero multiple of 2 pi."""
    a, b = (Fraction(float(x)) for x in pair)
    for angle in (2 * a, 2 * b, a - b, a + b):
        distance, turns = _distance_to_multiple_of_two_pi(angle)
        if angle == 0 or (turns != 0 and distance <= 1e-9):
            return True
    return False


def test_rms_break_reads_large_frequencies_as_they_are():
    """A relative tolerance took every pair with |theta| above about 1.6e12
    for a multiple of 2 pi; the bound is absolute, 1e-9."""
    distance, _ = _distance_to_multiple_of_two_pi(Fraction(2e13))
    assert distance > 0.5  # 2e13 is far from every multiple of 2 pi
    assert judged("decay-rms-break", (1e13, 0.3))[0] == homework.NOT_YET
    rng = np.random.default_rng(0)
    pairs = [(x, 0.3) for x in rng.uniform(1e11, 2e11, 200)]
    pairs += [tuple(rng.uniform(-1e15, 1e15, 2)) for _ in range(200)]
    pairs += [tuple(rng.uniform(-1e300, 1e300, 2)) for _ in range(50)]
    for pair in pairs:
        breaks = judged("decay-rms-break", pair)[0] == homework.CORRECT
        assert breaks == _breaks_by_mpmath(pair), pair


@pytest.mark.parametrize(
    "pair, breaks",
    [
        ((1e6 * np.pi, 0.3), True),  # 2 theta_0: 4.5e-10 from 2 pi 10^6
        ((0.3, 2 * np.pi * 1e6 - 0.3), True),  # the sum: 2.6e-10 away
        ((1e7 * np.pi, 0.3), False),  # 1.1e-9 away: taken as it is
        ((np.pi + 2e-10, 0.3), True),  # 4e-10 from 2 pi: within 1e-9
        ((np.pi + 1e-9, 0.3), False),  # 2e-9
        ((2**1023, 2**1023), True),  # equal, at the top of the range
        ((-(2.0**1023), 2.0**1023), True),  # sum 0
    ],
)
def test_rms_break_counts_multiples_of_two_pi_within_1e_9(pair, breaks):
    assert _breaks_by_mpmath(pair) == breaks  # the prompt's rule, ours
    assert judged("decay-rms-break", pair)[0] == (
        homework.CORRECT if breaks else homework.NOT_YET
    )


@pytest.mark.parametrize(
    "answer",
    [
        ("0.5", "0.5"),
        (True, True),
        (np.True_, np.True_),
        (0.5, "0.5"),
        (1 + 0j, 1 + 0j),
        (0.5,),
        (0.5, 0.5, 0.5),
        (float("nan"), 0.5),
        (float("inf"), 0.5),
        (10**400, 10**400),  # beyond the floats' range
        "0.5, 0.5",
        0.5,
        np.array(["0.5", "0.5"]),
    ],
)
def test_rms_break_wants_two_real_numbers(answer):
    status, message = judged("decay-rms-break", answer)
    assert status == homework.NOT_YET
    assert "two finite real numbers" in message, message


def test_two_pi_to_1200_bits():
    exact = two_pi()
    with mpmath.workdps(400):
        error = abs(mpmath.mpf(exact.numerator) / exact.denominator - 2 * mpmath.pi)
        assert error < mpmath.mpf(2) ** -1200


@pytest.mark.parametrize(
    "name, answer, expected",
    [
        ("decay-rope-threshold", 1e308, None),  # was OverflowError
        ("decay-rope-threshold", -1e308, None),
        ("decay-rope-threshold", 10**400, "a finite number"),  # likewise
        ("decay-rope-threshold", float("nan"), "a finite number"),
        ("decay-rope-threshold", np.inf, "a finite number"),
        ("decay-rope-threshold", "43.66", "not a string or a list"),
        ("decay-rope-threshold", [43.66], "not a string or a list"),
        ("decay-rope-threshold", np.array([43.6, 43.7]), "one number"),
        ("taylor-rank", 10**400, None),
        ("taylor-rank", 512.0, "an integer"),
        (
            "encoding-inverse-permutation",
            [0.0, 4.0, 1.0, 5.0, 2.0, 6.0, 3.0, 7.0],
            "8 integers",
        ),
        ("encoding-inverse-permutation", [0, 4, 1, 5, 2, 6, 3], "8 integers"),
        ("encoding-inverse-permutation", [0, 4, 1, 5, 2, 6, 3, 3], "once"),
        ("encoding-inverse-permutation", "04152637", "8 integers"),
        ("encoding-inverse-permutation", [[0, 4], [1, 5, 2]], "8 integers"),
        ("symmetry-repeated", (2, 1), "smaller first"),
        ("symmetry-repeated", (0, 1, 2), "2 integers"),
        ("symmetry-causal", (1, 6, 6), "2 integers"),
        ("symmetry-causal", "16", "2 integers"),
        ("complex-clockwise", [[1, 0]], "2×2 matrix"),
        ("complex-clockwise", "I", "2×2 matrix"),
        ("complex-clockwise", [[1, 0], [0, float("nan")]], "2×2 matrix"),
        # A complex array cast to float would lose its imaginary parts (with
        # only a warning) and pass: (cos, sin) -> (cos + i sin, -sin).
        ("complex-clockwise", np.array([[1, 1j], [0, -1]]), "2×2 matrix"),
        ("complex-clockwise", np.array([[1, 5j], [3j, -1]]), "2×2 matrix"),
        ("complex-clockwise", [[True, False], [False, True]], "2×2 matrix"),
        # review 4: sets, dicts and bytes are not tuples; a masked entry is
        # no answer; an endless iterator must not hang
        ("symmetry-causal", {1, 6}, "2 integers"),
        ("symmetry-causal", {1: "a", 6: "b"}, "2 integers"),
        ("symmetry-causal", b"\x01\x06", "2 integers"),
        ("symmetry-causal", itertools.count(), "2 integers"),
        ("taylor-rank", np.ma.masked_array([512], mask=[True]), "masked"),
        ("complex-clockwise", np.ma.masked_array(np.eye(2), mask=np.eye(2)), "masked"),
    ],
)
def test_every_form_error_says_what_the_answer_is(name, answer, expected):
    """None: a number of the right form, far off: the task's own hint."""
    status, message = judged(name, answer)
    assert status == homework.NOT_YET
    if expected is None:
        assert message == f"not yet. {TASKS[name].hint}"
    else:
        assert message.startswith("not yet: the answer is"), message
        assert expected in message, message


@pytest.mark.parametrize(
    "answer", [np.float64(43.66), np.array(43.66), np.array([43.66])]
)
def test_a_number_in_an_array_counts_as_the_number(answer):
    # what numpy arithmetic and scipy.optimize.fsolve return
    assert judged("decay-rope-threshold", answer)[0] == homework.CORRECT


def test_no_answer_raises():
    odd = [
        1e308,
        -1e308,
        10**400,
        -(10**400),
        float("nan"),
        np.inf,
        "x",
        b"x",
        [],
        (),
        {},
        {1: 2},
        set(),
        None,
        object(),
        1j,
        np.array([]),
        np.array([[1.0]]),
        np.array(["a"]),
        [[1, 2], [3]],
        (1e308, 1e308),
        (10**400, 1),
        [np.nan] * 8,
        list(range(8)),
        [2**70] * 8,
        True,
        np.float32(1e38),
        np.int64(7),
        range(8),
        iter([1, 2]),
        10**5000,  # beyond Python's 4,300-digit limit for int -> text
        (1, 10**5000),
        [10**5000] * 8,
    ]
    for name in TASKS:
        for answer in odd:
            status, message = judged(name, answer)
            assert status in (
                homework.NOT_YET,
                homework.NOT_ATTEMPTED,
                homework.CORRECT,
            )
            assert message.startswith(("not yet", "not attempted", "correct"))


def test_causal_rows_differ_by_rounding_only():
    """symmetry-causal's prompt and slip: one masked layer's rows 3, for
    the six orders of the first three tokens, agree to within 1e-12 but
    not always bit for bit (a masked softmax average written here, with
    random weights)."""
    assert "within $10^{-12}$" in TASKS["symmetry-causal"].prompt
    rng = np.random.default_rng(1)
    d = 16
    w_q, w_k, w_v = rng.normal(size=(3, d, d)) / np.sqrt(d)
    counts = []
    for _ in range(20):
        tokens = rng.normal(size=(4, d))
        rows = []
        for before in itertools.permutations(range(3)):
            x = tokens[[*before, 3]]
            scores = (x[3] @ w_q) @ (x @ w_k).T / np.sqrt(d)
            weights = np.exp(scores - scores.max())
            rows.append(weights / weights.sum() @ (x @ w_v))
        rows = np.array(rows)
        assert np.abs(rows - rows[0]).max() < 1e-12
        counts.append(len(np.unique(rows, axis=0)))
    assert max(counts) > 1  # compared exactly, some rows differ
    slip = next(iter(TASKS["symmetry-causal"].slips.values()))
    for count in set(counts) - {1}:  # what an exact comparison answers
        message = judged("symmetry-causal", (count, 6))[1]
        assert slip in message, count


def test_not_attempted_and_bad_task_names():
    assert judged("taylor-rank", ...)[0] == homework.NOT_ATTEMPTED
    with pytest.raises(ValueError, match="task must be one of"):
        homework.check("no-such-task", 1)
