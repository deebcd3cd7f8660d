"""The marked answer of every question that is a number or an identity.

``tests/test_quiz.py`` checks the form of the questions; the chapters'
check cells check the numbers in their explanations. Neither fails when an
``:answer:`` marks the wrong option. Here, for each question whose answer
is a result (a number, an identity, what a computation does), a
computation decides each option's claim, and exactly the marked option
must be borne out: a wrong ``:answer:``, or a computation that no longer
gives the result, fails.

An option is named by a few words of its text (``claims`` below); a
reworded option that no longer holds its words fails here, with the words,
until its claim is named again. Questions of reason or purpose (why the
fast clocks cancel, what the paper's spacing is for, what $H = I$ is) are
left to their explanations: decay_integral 1 and 5, decay_finite_d 2,
taylor_expansion 4, attention_is_blind_to_order 2, long_context 3,
precision 2 (an argument from the irrationality of pi), appendix_sqrt_d 2
and 3. The questions of rope and assumptions are not covered yet.

Each computation is small (under 10 s in all, a fifth of it the two
smallest bases of long_context 1).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from scipy import optimize
from test_quiz import ROOT, picks, questions

import posenc


def marked(stem: str, number: int) -> tuple[int, list[str]]:
    """The answer and the option texts (whitespace folded) of question
    ``number`` (1-based) of chapter ``stem``."""
    answer, options = questions(ROOT / "book" / f"{stem}.md")[number - 1]
    return answer, [" ".join(pick.split()) for pick in picks(options)]


def assert_selects(stem: str, number: int, claims: dict[str, bool]) -> None:
    """``claims`` maps words of each option to whether the computation bears
    that option out. Each option holds exactly one key, each key names one
    option, and the one option borne out is the chapter's ``:answer:``."""
    answer, labels = marked(stem, number)
    verdicts = []
    for label in labels:
        keys = [key for key in claims if key in label]
        assert len(keys) == 1, f"{stem} {number}: {label!r} holds {keys}"
        verdicts.append(claims[keys[0]])
    assert len(labels) == len(claims), f"{stem} {number}: {labels}"
    borne_out = [place for place, true in enumerate(verdicts, 1) if true]
    assert borne_out == [answer], (
        f"{stem} question {number}: the computation bears out option(s) "
        f"{borne_out}, the chapter marks {answer}"
    )


def offset_only(gram: np.ndarray, tol: float = 1e-9) -> bool:
    """Whether a matrix of inner products is constant along every
    diagonal: a function of m - n alone."""
    n = len(gram)
    diagonals = (np.diagonal(gram, k) for k in range(1 - n, n))
    return max(np.abs(diagonal - diagonal[0]).max() for diagonal in diagonals) < tol


def test_marked_selects_by_words_and_fails_on_another_answer():
    """The helper itself: a claim table with the right option borne out
    passes; the same table with another option borne out fails, as does a
    key that names no option."""
    claims = {"point on the unit circle": True, "normalised": False}
    claims |= {"average out": False, "divided by the base": False}
    assert_selects("the_encoding", 1, claims)
    with pytest.raises(AssertionError, match="bears out option"):
        assert_selects("the_encoding", 1, claims | {"normalised": True})
    with pytest.raises(AssertionError, match="holds"):
        assert_selects("the_encoding", 1, {"no such words": True})


# ------------------------------------------------------------ the encoding


def test_encoding_1_equal_lengths_come_from_the_unit_circles():
    t = np.arange(500)
    table = posenc.encoding(t, 64)
    pairs = table[:, 0::2] ** 2 + table[:, 1::2] ** 2
    lengths = {d: np.linalg.norm(posenc.encoding(t, d), axis=1) for d in (2, 64)}
    angles = np.outer(t, posenc.frequencies(64))
    assert_selects("the_encoding", 1, {
        "normalised": bool(np.allclose(lengths[64], 1)),
        "point on the unit circle": bool(np.allclose(pairs, 1, rtol=0, atol=1e-13)),
        # "for large d": the length would settle only as d grows
        "average out": bool(np.ptp(lengths[2]) > 1e-9),
        "divided by the base": not np.allclose(table[:, 0::2], np.sin(angles)),
    })  # fmt: skip


def test_encoding_2_pair_0_is_fastest_with_period_2pi():
    theta = posenc.frequencies(64)
    periods = 2 * np.pi / theta
    fastest = int(np.argmin(periods))
    assert_selects("the_encoding", 2, {
        "once per position": fastest == 0 and abs(periods[0] - 1) < 1e-9,
        "The last pair": fastest == len(theta) - 1,
        "None: all pairs": np.ptp(theta) == 0,
        "6.28": fastest == 0 and round(periods[0], 2) == 6.28,
    })  # fmt: skip


def test_encoding_3_the_layouts_give_the_same_inner_products():
    t = np.arange(200)
    paper = posenc.encoding(t, 64)
    halves = posenc.encoding(t, 64, layout="halves")
    same = np.allclose(paper @ paper.T, halves @ halves.T, rtol=0, atol=1e-10)
    assert_selects("the_encoding", 3, {
        "comes back": not offset_only(halves @ halves.T),
        "same lengths": not same,  # lengths alike, other products differ
        "same inner products": same,
    })  # fmt: skip


def test_encoding_4_a_vector_says_its_position():
    table = posenc.encoding(np.arange(10_000), 64)
    unique = len(np.unique(table, axis=0)) == len(table)
    pair_0 = len(np.unique(table[:, :2], axis=0)) == len(table)
    turn = round(2 * np.pi / posenc.frequencies(64)[-1])  # slowest turns once
    ends = posenc.encoding(np.array([0, turn]), 64)
    assert_selects("the_encoding", 4, {
        "no two integer positions": unique,
        "leave no absolute": not unique,
        "fastest pair starts": not pair_0,
        "slowest pair repeats": bool(np.abs(ends[1] - ends[0]).max() < 1e-3),
    })  # fmt: skip


# ------------------------------------------------------------ attention


def attention_layer(x: np.ndarray, weights, causal: bool = False) -> np.ndarray:
    """One self-attention layer, softmax(QKᵀ/√d) V, unmasked or causal."""
    q, k, v = (x @ w for w in weights)
    scores = q @ k.T / np.sqrt(x.shape[1])
    if causal:
        scores[np.triu_indices(len(x), 1)] = -np.inf
    scores = np.exp(scores - scores.max(axis=1, keepdims=True))
    return scores / scores.sum(axis=1, keepdims=True) @ v


def random_layers(seed: int, d: int = 8):
    """Tokens (5 x d), three weight matrices, a permutation. Entries of
    variance 1/d keep the softmax away from saturation (one-hot rows would
    make outputs tie for a reason other than the question's)."""
    rng = np.random.default_rng(seed)
    tokens = rng.normal(size=(5, d))
    weights = [rng.normal(size=(d, d)) / np.sqrt(d) for _ in range(3)]
    return tokens, weights, rng.permutation(5)


def test_attention_1_shuffled_tokens_shuffle_the_outputs():
    shuffled, still = [], []
    for seed in range(5):
        x, weights, order = random_layers(seed)
        out, moved = attention_layer(x, weights), attention_layer(x[order], weights)
        shuffled.append(np.allclose(moved, out[order], rtol=0, atol=1e-12))
        still.append(np.allclose(moved, out, rtol=0, atol=1e-12))
    assert_selects("attention_is_blind_to_order", 1, {
        "depends on the weights": not all(shuffled),
        "softmax row is reordered": not all(shuffled),  # each output changes
        "Nothing moves": all(still),
        "shuffled in the same way": all(shuffled),
    })  # fmt: skip


def test_attention_3_a_causal_mask_gives_six_outputs():
    """Two causal layers, pooled by the mean and a fixed vector, on the six
    orders of three tokens, for five draws of the weights."""
    from itertools import permutations

    counts = []
    for seed in range(5):
        x, weights, _ = random_layers(seed)
        pool = np.random.default_rng(seed + 100).normal(size=8)
        outputs = []
        for order in permutations(range(3)):
            once = attention_layer(x[list(order)], weights, causal=True)
            twice = attention_layer(once, weights, causal=True)
            outputs.append(pool @ twice.mean(axis=0))
        counts.append(int(np.sum(np.diff(np.sort(outputs)) > 1e-9)) + 1)
    assert_selects("attention_is_blind_to_order", 3, {
        "One for all six": set(counts) == {1},
        "Six:": set(counts) == {6},
        "Three:": set(counts) == {3},
    })  # fmt: skip


def test_attention_4_a_shared_vector_keeps_the_layer_equivariant():
    shuffled, still, changed = [], [], []
    for seed in range(5):
        x, weights, order = random_layers(seed)
        y = np.random.default_rng(seed + 50).normal(size=8)
        out = attention_layer(x + y, weights)
        moved = attention_layer(x[order] + y, weights)
        shuffled.append(np.allclose(moved, out[order], rtol=0, atol=1e-12))
        still.append(np.allclose(moved, out, rtol=0, atol=1e-12))
        changed.append(not shuffled[-1])
    assert_selects("attention_is_blind_to_order", 4, {
        "something new to see": any(changed),
        "stays equivariant": all(shuffled),
        "makes the layer invariant": all(still),
        "only $y = 0$": any(changed),
    })  # fmt: skip


# ------------------------------------------------------------ Taylor


def test_taylor_1_the_first_term_in_both_positions_is_the_mixed_one():
    """f(x_m + εp, x_n + εq) for a function that is not a polynomial: the
    first power of ε with a term in both p and q, and that term's degree
    in each."""
    eps, p, q = sp.symbols("epsilon p q")
    x_m, x_n = sp.Rational(3, 10), sp.Rational(7, 10)
    f = sp.exp((x_m + eps * p) * (x_n + eps * q) + x_m + eps * p)
    series = sp.expand(sp.series(f, eps, 0, 3).removeO())
    both = {}  # power of eps -> the (degree in p, degree in q) of both
    for power in (1, 2):
        terms = sp.Poly(series.coeff(eps, power), p, q).monoms()
        both[power] = [m for m in terms if m[0] > 0 and m[1] > 0]
    first = min(power for power in both if both[power])
    assert_selects("taylor_expansion", 1, {
        "of first order": first == 1,
        "H\\, p_n": first == 2 and both[2] == [(1, 1)],
        "x_m^2": first == 2 and (2, 0) in both[2],
    })  # fmt: skip


def test_taylor_2_the_expansion_of_one_logit_is_exact():
    """For a general H (not I) and any size of p, the logit minus its
    second-order expansion in ε is zero."""
    eps = sp.Symbol("epsilon")
    x_m, x_n, p_m, p_n = (sp.Matrix(sp.symbols(f"{v}1:3")) for v in "abcd")
    h = sp.Matrix(2, 2, sp.symbols("h1:5"))
    logit = ((x_m + eps * p_m).T * h * (x_n + eps * p_n))[0]
    rest = sp.expand(logit - sp.series(logit, eps, 0, 3).removeO())
    assert_selects("taylor_expansion", 2, {
        "Close for small": rest != 0,
        "unless $H = I$": rest != 0,
        "Exact": rest == 0,
    })  # fmt: skip


def test_taylor_3_sines_alone_have_a_part_in_m_plus_n():
    """Positions (0, 0) and (1, 1), both at offset 0: sines alone give 0
    and sin²θ, for fast and slow frequencies alike."""
    thetas = np.array([1.0, 0.3, 1e-3, 1e-4])
    at_00, at_11 = np.sin(0 * thetas) ** 2, np.sin(1 * thetas) ** 2
    differ = bool(np.all(at_11 - at_00 > 0))
    m, n, theta = sp.symbols("m n theta")
    product = sp.sin(m * theta) * sp.sin(n * theta)
    split = sp.cos((m - n) * theta) / 2 - sp.cos((m + n) * theta) / 2
    identity = sp.simplify(sp.expand_trig(product - split)) == 0
    assert_selects("taylor_expansion", 3, {
        "part in $m + n$": identity and differ,
        "Sines are odd": not differ,  # trouble at m, n >= 0 already
        "too short": not differ,  # slow sines fail as well
    })  # fmt: skip


# ------------------------------------------------------------ complex


def test_complex_1_the_inner_product_is_re_v_conj_w():
    rng = np.random.default_rng(1)
    v, w = rng.normal(size=(2, 20)) + 1j * rng.normal(size=(2, 20))
    inner = v.real * w.real + v.imag * w.imag

    def gives(values):
        return bool(np.allclose(values, inner, rtol=0, atol=1e-12))

    assert_selects("complex_solution", 1, {
        "Re}[": gives((v * np.conj(w)).real),
        "$v\\,\\bar w$": gives(v * np.conj(w)),
        "Im}[": gives((v * np.conj(w)).imag),
        "$v\\,w$": gives(v * w),
    })  # fmt: skip


def test_complex_2_offset_only_products_need_one_circle_and_one_angle():
    """Each option is a family of sequences; it is borne out if every member
    drawn has p_m conj(p_n) a function of m - n alone."""
    rng = np.random.default_rng(2)
    m = np.arange(13)

    def holds(points):
        return offset_only(np.outer(points, np.conj(points)))

    draws = range(4)
    families = {
        "any order": [np.exp(2j * np.pi * rng.random(13)) for _ in draws],
        "c^m p_0": [(0.9 * np.exp(0.8j)) ** m * (0.5 + 0.5j)],
        "constant speed": [1.0 + m * (0.3 + 0.5j)],
        "fixed angle per step": [
            rng.uniform(0.5, 2) * np.exp(1j * (rng.uniform(0, 3) * m + rng.random()))
            for _ in draws
        ],
    }
    assert_selects("complex_solution", 2, {
        words: all(holds(points) for points in members)
        for words, members in families.items()
    })  # fmt: skip


def test_complex_3_solutions_are_circles_under_an_orthogonal_map():
    """A stack of circles of free radii and speeds seen through a random
    orthogonal map is a solution, and radii other than 1 keep it one: so
    the paper's alone, or radius 1 alone, misses solutions. Vectors of one
    length at random directions are not solutions. (That every solution
    is such a stack, up to the frozen and flipping hands the question
    leaves aside, is the chapter's proof.)"""
    rng = np.random.default_rng(3)
    t = np.arange(16)[:, None]
    radii, speeds = rng.uniform(0.5, 2, 4), rng.uniform(0.01, 3, 4)
    circles = np.empty((16, 8))
    circles[:, 0::2] = radii * np.sin(t * speeds)
    circles[:, 1::2] = radii * np.cos(t * speeds)
    orthogonal, _ = np.linalg.qr(rng.normal(size=(8, 8)))
    stack = circles @ orthogonal.T
    stack_solves = offset_only(stack @ stack.T)
    outside_radius_1 = not np.allclose(np.linalg.norm(circles[:, :2], axis=1), 1)
    one_length = rng.normal(size=(16, 8))
    one_length /= np.linalg.norm(one_length, axis=1, keepdims=True)
    assert_selects("complex_solution", 3, {
        "Only the paper's": not stack_solves,
        "every radius still 1": not (stack_solves and outside_radius_1),
        "free radii and speeds": stack_solves,
        "one common length": offset_only(one_length @ one_length.T),
    })  # fmt: skip


def test_complex_4_one_matrix_turns_each_pair_by_its_own_angle():
    t, shift = np.arange(40), 3
    rows, later = posenc.encoding(t[:-shift], 8), posenc.encoding(t[shift:], 8)
    shift_matrix = posenc.shift_matrix(shift, 8)
    one_matrix = np.allclose(rows @ shift_matrix.T, later, rtol=0, atol=1e-12)
    # each pair turned by the same angle l (pair 0's turn, for every pair)
    same_angle = np.kron(np.eye(4), posenc.shift_matrix(shift, 2))
    # the best constant for each coordinate, by least squares
    diagonal = np.sum(rows * later, axis=0) / np.sum(rows * rows, axis=0)
    assert_selects("complex_solution", 4, {
        "different matrix for each position": not one_matrix,
        "same angle $\\ell$": bool(
            np.allclose(rows @ same_angle.T, later, rtol=0, atol=1e-9)
        ),
        "constant of its own": bool(
            np.allclose(rows * diagonal, later, rtol=0, atol=1e-9)
        ),
        "one matrix for all positions": one_matrix,
    })  # fmt: skip


# ------------------------------------------------------------ decay


def test_decay_integral_2_a_quarter_per_factor_10_from_10_to_1000():
    integral = posenc.decay_integral
    at = integral(np.array([10.0, 100.0, 1000.0]), 1e4)
    starts = np.geomspace(10, 100, 201)
    quarters = (integral(starts, 1e4) - integral(10 * starts, 1e4)) / 0.25
    logs = np.log(at)
    assert_selects("decay_integral", 2, {
        # halving every fixed number of positions: log I linear in Delta
        "Exponentially": abs((logs[1] - logs[0]) / 90
                             / ((logs[2] - logs[1]) / 900) - 1) < 0.05,
        "Logarithmically": bool(np.all(np.abs(quarters - 1) < 0.05)),
        "Like $1/\\Delta$": abs(at[1] / at[0] - 0.1) < 0.05,
        "Linearly": abs((at[0] - at[1]) / 90 / ((at[1] - at[2]) / 900) - 1)
        < 0.05,
    })  # fmt: skip


def first_zero(values, grid) -> float | None:
    """The first zero of ``values(x)`` on ``grid`` (its first sign change,
    refined), or None."""
    sampled = values(grid)
    below = np.flatnonzero(sampled < 0)
    if not len(below):
        return None
    j = below[0]
    return optimize.brentq(values, grid[j - 1], grid[j], xtol=1e-9)


def test_decay_integral_3_the_first_zero_is_near_0_6_base():
    zero = first_zero(
        lambda x: posenc.decay_integral(x, 1e4), np.linspace(0, 1e5, 100_001)
    )

    def near(offset):
        return zero is not None and abs(zero / offset - 1) < 0.1

    assert_selects("decay_integral", 3, {
        "0.6": near(0.6 * 1e4),
        "Near the base": near(1e4),
        "Never": zero is None,
        "2\\pi": near(2 * np.pi * 1e4),
    })  # fmt: skip


def test_decay_integral_4_the_integral_does_not_change_with_d():
    """The normalised sums of every d from 256 to 16384 follow one and the
    same I, within the Riemann bound Δ ln(base)/d: the limit of many
    pairs is I, the same for every d, which only sets how close the sum
    comes."""
    delta = np.arange(1.0, 101.0)
    integral = posenc.decay_integral(delta, 1e4)
    gaps = {
        d: np.abs(posenc.inner_product(delta, d) / (d / 2) - integral)
        for d in (256, 1024, 4096, 16384)
    }
    follow = all(np.all(gap <= delta * np.log(1e4) / d) for d, gap in gaps.items())
    assert gaps[16384].max() < gaps[256].max() / 10
    assert_selects("decay_integral", 4, {
        "Yes:": not follow,
        "decays faster": not follow,
        "the same for every $d$": follow,
    })  # fmt: skip


def test_decay_finite_d_1_the_sum_leaves_the_integral_near_delta_1():
    """The first offset where the sum of d = 512 errs by more than 3 x 2/d
    (three times its endpoint scale)."""
    delta = np.arange(0.0, 20_000.0)
    error = np.abs(
        posenc.inner_product(delta, 512) / 256 - posenc.decay_integral(delta, 1e4)
    )
    beyond = np.flatnonzero(error > 3 * 2 / 512)
    leaves = delta[beyond[0]] if len(beyond) else None
    threshold = posenc.alias_threshold(512, 1e4)

    def near(offset, within):
        return leaves is not None and abs(np.log(leaves / offset)) < np.log(within)

    assert_selects("decay_finite_d", 1, {
        "From the start": leaves is not None and leaves < 10,
        "0.6": near(0.6 * 1e4, 2),
        "Delta_1": near(threshold, 1.5),
        "Never": leaves is None,
    })  # fmt: skip


def test_decay_finite_d_3_one_over_root_d_is_a_typical_size_not_a_floor():
    def gaps(centre):
        at = np.round(np.linspace(0.8 * centre, 1.2 * centre, 8000))
        gap = posenc.inner_product(at, 512) / 256 - posenc.decay_integral(at, 1e4)
        return np.abs(gap) * np.sqrt(512)  # in units of 1/sqrt(d)

    closer, far = gaps(10 * posenc.alias_threshold(512, 1e4)), gaps(1e6)
    rms = {"closer": np.sqrt(np.mean(closer**2)), "far": np.sqrt(np.mean(far**2))}
    assert 0.9 < rms["far"] < 1.1  # the question's "about 1/sqrt(d)"
    assert_selects("decay_finite_d", 3, {
        "far smaller": far.min() < 0.1,
        "at least": far.min() >= 1,
        "shrinks back": rms["far"] < rms["closer"],
        "not closer in": far.min() >= 1,
    })  # fmt: skip


# ------------------------------------------------------------ general H


def cross_terms(h: np.ndarray, d: int = 16, count: int = 30) -> np.ndarray:
    """p_mᵀ H p_n for m, n < count, the paper's frequencies."""
    table = posenc.encoding(np.arange(count), d)
    return table @ h @ table.T


#: A quarter turn of a pair, in the interleaved (sin, cos) layout.
J = np.array([[0.0, -1.0], [1.0, 0.0]])


def blocks(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The block-diagonal H of blocks a_i I + b_i J."""
    h = np.zeros((2 * len(a), 2 * len(a)))
    for i, (ai, bi) in enumerate(zip(a, b, strict=True)):
        h[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = ai * np.eye(2) + bi * J
    return h


def test_general_h_1_a_diagonal_h_needs_equal_entries_on_each_pair():
    rng = np.random.default_rng(4)
    equal = np.diag(np.repeat(rng.uniform(0.5, 2, 8), 2))  # not I
    unequal = np.diag(rng.uniform(0.5, 2, 16))
    assert_selects("general_h", 1, {
        "entries are equal": offset_only(cross_terms(equal)),
        "Always": offset_only(cross_terms(unequal)),
        "Only when $H = I$": not offset_only(cross_terms(equal)),
    })  # fmt: skip


def test_general_h_2_only_what_lies_outside_the_blocks_breaks_it():
    rng = np.random.default_rng(5)
    a, b = rng.uniform(0.5, 2, 8), rng.uniform(0.5, 2, 8)
    block_form = blocks(a, b)  # entries off the diagonal, antisymmetric parts
    outside = rng.normal(size=(16, 16)) * (blocks(np.ones(8), np.ones(8)) == 0)
    assert np.abs(block_form - np.diag(np.diag(block_form))).max() > 0.4
    assert np.abs(block_form - block_form.T).max() > 0.9
    keeps_blocks = offset_only(cross_terms(block_form))
    breaks_outside = not offset_only(cross_terms(block_form + 0.1 * outside))
    assert_selects("general_h", 2, {
        "outside the pairs' blocks": keeps_blocks and breaks_outside,
        "Every entry off the diagonal": not keeps_blocks,
        "antisymmetric part": not keeps_blocks,
        "None:": offset_only(cross_terms(rng.normal(size=(16, 16)))),
    })  # fmt: skip


def test_general_h_3_the_j_parts_add_a_part_odd_in_the_offset():
    b = np.random.default_rng(6).uniform(0.5, 2, 8)
    terms = cross_terms(blocks(np.zeros(8), b))
    assert_selects("general_h", 3, {
        "Nothing": bool(np.abs(terms).max() < 1e-9),
        "A part in $m + n$": not offset_only(terms),
        "odd in $m - n$": offset_only(terms)
        and np.allclose(terms, -terms.T, rtol=0, atol=1e-9)
        and np.abs(terms).max() > 0.1,
    })  # fmt: skip


# ------------------------------------------------------------ shift


def test_shift_1_one_orthogonal_matrix_composing_like_shifts():
    d, table = 8, posenc.encoding(np.arange(60), 8)
    T = {ell: posenc.shift_matrix(ell, d) for ell in (2, 3, 5)}
    special = (
        np.allclose(T[2] @ T[2].T, np.eye(d), rtol=0, atol=1e-12)
        and np.allclose(T[2] @ T[3], T[5], rtol=0, atol=1e-12)
        and np.allclose(table[:-3] @ T[3].T, table[3:], rtol=0, atol=1e-12)
    )
    # any d + l vectors in general position have a linear map moving
    # them on by l: random rows, l = 3, solved exactly
    rows = np.random.default_rng(7).normal(size=(d + 3, d))
    moved = np.linalg.solve(rows[:-3], rows[3:])
    generic = np.allclose(rows[:-3] @ moved, rows[3:], rtol=0, atol=1e-9)
    assert_selects("shift_is_rotation", 1, {
        "One orthogonal matrix": special,
        "exists at all": not generic,  # were it special to this table
        "changes with $t$": not special,
    })  # fmt: skip


def test_shift_2_a_pairs_new_sine_needs_its_sine_and_cosine():
    rows = posenc.encoding(np.arange(200), 8)
    target = posenc.encoding(np.arange(3, 203), 8)[:, 2]  # pair 1, l = 3

    def exact(columns):
        fit = np.linalg.lstsq(rows[:, columns], target, rcond=None)[0]
        return np.abs(rows[:, columns] @ fit - target).max() < 1e-12

    assert_selects("shift_is_rotation", 2, {
        "alone": exact([2]),
        "Every entry": not exact([2, 3]),  # were all needed
        "sine and the cosine": exact([2, 3]) and not exact([2]),
    })  # fmt: skip


def test_shift_3_sine_first_the_point_turns_clockwise():
    ell = 0.7  # d = 2: theta_0 = 1
    block = posenc.shift_matrix(ell, 2)
    phi = np.linspace(0, 6, 50)
    points = np.stack([np.sin(phi), np.cos(phi)], axis=1)
    velocity = np.stack([np.cos(phi), -np.sin(phi)], axis=1)
    turning = points[:, 0] * velocity[:, 1] - points[:, 1] * velocity[:, 0]
    clockwise = bool(np.all(turning < 0))
    rotation = np.array([[np.cos(ell), -np.sin(ell)], [np.sin(ell), np.cos(ell)]])
    later = np.stack([np.sin(phi + ell), np.cos(phi + ell)], axis=1)
    assert_selects("shift_is_rotation", 3, {
        "reflection": np.linalg.det(block) < 0,
        "clockwise": clockwise and np.allclose(block, rotation.T),
        "sign slip": np.allclose(points @ rotation.T, later),
        "back to $p_t$": np.allclose(later @ block.T, points),
    })  # fmt: skip


# ------------------------------------------------------------ long context


def test_long_context_1_the_sum_needs_a_base_larger_by_a_growing_factor():
    ratios = [posenc.min_base(L, 128) * posenc.CI_FIRST_ZERO / L for L in (1024, 16384)]
    assert [round(r, 1) for r in ratios] == [2.6, 8.7]  # the explanation
    larger = min(ratios) > 1.05
    assert_selects("long_context", 1, {
        "the same base": all(abs(r - 1) < 0.05 for r in ratios),
        "grows with $L$": larger and ratios[1] > 1.1 * ratios[0],
        "a smaller base": max(ratios) < 1,
        "one factor for every": larger and abs(ratios[1] / ratios[0] - 1) < 0.1,
    })  # fmt: skip


def test_long_context_2_interpolation_moves_the_first_zero_kappa_times_out():
    theta, kappa = posenc.frequencies(64, 100.0), 4.0

    def g(frequencies):
        return lambda x: np.cos(np.multiply.outer(x, frequencies)).sum(axis=-1)

    grid = np.linspace(0, 2000, 200_001)
    plain, slowed = first_zero(g(theta), grid), first_zero(g(theta / kappa), grid)
    ratio = slowed / plain
    assert_selects("long_context", 2, {
        "stays put": abs(ratio - 1) < 0.01,
        "$\\kappa$ times further": abs(ratio - kappa) < 1e-6,
        "\\sqrt\\kappa": abs(ratio - np.sqrt(kappa)) < 0.01,
        "closer in": abs(ratio - 1 / kappa) < 0.01,
    })  # fmt: skip


# ------------------------------------------------------------ real code


def test_real_code_1_tensor2tensor_is_another_table():
    t = np.arange(64)
    t2t, paper = posenc.tensor2tensor(t, 32), posenc.encoding(t, 32)
    permuted = posenc.find_column_permutation(t2t, paper) is not None
    swapped = paper.reshape(64, 16, 2)[:, :, ::-1].reshape(64, 32)
    assert_selects("real_code", 1, {
        "another order": permuted,
        "no permutation": not permuted,
        "depend on $m + n$": not offset_only(t2t @ t2t.T),
        "swapped": np.allclose(t2t, swapped),
    })  # fmt: skip


def test_real_code_2_a_frequency_slip_can_change_the_decay_only():
    """Slip 2, the paper's table at base 100: the frequencies change, each
    sine stays paired with its cosine."""
    t = np.arange(100)
    slip, paper = posenc.encoding(t, 64, 100.0), posenc.encoding(t, 64)
    grid = np.linspace(0, 2e5, 200_001)
    zeros = [
        first_zero(lambda x, base=base: posenc.decay_integral(x, base), grid)
        for base in (100.0, 1e4)
    ]
    changes = {
        "relative": offset_only(slip @ slip.T) != offset_only(paper @ paper.T),
        "lengths": not np.allclose(np.linalg.norm(slip, axis=1), np.sqrt(32)),
        "decay": abs(zeros[0] / zeros[1] - 1) > 0.5,
    }
    assert [round(zeros[0], 1), round(zeros[1])] == [60.7, 6166]
    assert_selects("real_code", 2, {
        "Relativity": changes["relative"],
        "Equal lengths": changes["lengths"],
        "The decay": changes["decay"],
        "None:": not any(changes.values()),
    })  # fmt: skip


def test_real_code_3_the_halves_layout_is_a_column_permutation():
    t = np.arange(64)
    paper, halves = posenc.encoding(t, 16), posenc.encoding(t, 16, layout="halves")
    order = posenc.find_column_permutation(paper, halves)
    readout = np.random.default_rng(8).normal(size=16)  # a trained linear map
    moved = posenc.shift_matrix(3, 16)[np.ix_(order, order)]
    assert_selects("real_code", 3, {
        "columns permuted": order is not None,
        "inner products differ": not np.allclose(paper @ paper.T, halves @ halves.T),
        "runs right on it": np.allclose(paper @ readout, halves @ readout),
        "no longer orthogonal": not np.allclose(moved @ moved.T, np.eye(16)),
    })  # fmt: skip


# ------------------------------------------------------------ precision


def test_precision_1_float32_error_grows_with_the_position():
    def row_errors(start):
        t = np.arange(start, start + 100, dtype=float)
        return posenc.encoding_error(posenc.encoding_float32(t, 512), t, 512)

    near, million = row_errors(900.0), row_errors(999_900.0)
    per_pair = million.reshape(100, 256, 2).mean(axis=(0, 2))
    typical = np.median(million.max(axis=1))
    assert_selects("precision", 1, {
        "stays near": million.max() < 1e-6,
        "grows with the position": 0.01 < typical < 0.1
        and typical > 100 * np.median(near.max(axis=1)),
        "slowest pairs": per_pair[-16:].mean() > per_pair[1:17].mean(),
    })  # fmt: skip


def test_precision_3_float64_angles_remove_the_error():
    t = np.round(np.random.default_rng(2).uniform(5e6, 1e7, 200))

    def rms(table, base=1e4):
        return np.sqrt(np.mean(posenc.encoding_error(table, t, 512, base) ** 2))

    theta32 = posenc.frequencies(512).astype(np.float32)
    angles32 = t.astype(np.float32)[:, None] * theta32
    sines64 = np.empty((len(t), 512))
    sines64[:, 0::2] = np.sin(angles32.astype(np.float64))
    sines64[:, 1::2] = np.cos(angles32.astype(np.float64))
    baseline = rms(posenc.encoding_float32(t, 512))
    assert_selects("precision", 3, {
        "smaller base": rms(posenc.encoding_float32(t, 512, 100.0), 100.0)
        < baseline / 10,
        "angles $t\\theta_i$ in float64": rms(posenc.encoding_cast(t, 512))
        < baseline / 10,
        "sines in float64": rms(sines64) < baseline / 10,
    })  # fmt: skip


# ------------------------------------------------------------ sqrt(d_k)


def test_appendix_sqrt_d_1_the_variance_of_q_dot_k_is_d_k():
    """20,000 draws at d_k = 64: the sample variance is within 5% of the
    true one (its relative standard error is about 1%)."""
    d_k, rng = 64, np.random.default_rng(9)
    q, k = rng.normal(size=(2, 20_000, d_k))
    variance = np.var(np.sum(q * k, axis=1))

    def matches(value):
        return abs(value / variance - 1) < 0.05

    assert_selects("appendix_sqrt_d", 1, {
        "$1$.": matches(1),
        "$d_k$.": matches(d_k),
        "$\\sqrt{d_k}$.": matches(np.sqrt(d_k)),
        "$d_k^2$.": matches(d_k**2),
    })  # fmt: skip
