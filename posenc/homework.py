"""Homework checks: right or wrong, with a hint, never the answer.

The assignment notebooks (``make homework``, ``scripts/homework.py``) are
generated from the exercises of the derivation chapters. Each task of a
notebook ends with ``check(task, answer)``, which prints one of

* ``correct``;
* ``not yet``, with a hint (a targeted one for a known slip; "close,
  give more digits" for a number within 100 tolerances of the right one;
  what form the answer takes, if it has another: a 0-d or one-element
  array counts as the number it holds);
* ``not attempted``, while ``answer`` is still ``...`` (the starter value),

and returns True only for a right answer. It never prints the expected
value, and the expected values are not written in this file either: a
number is stored as SHA-256 digests of the integers next to ``value /
tolerance`` (salted with the task's name), so any answer within a
tolerance of the right one is accepted, and none more than two tolerances
from it. The digests keep the answers from
being read at a glance, in the notebook or here; they do not keep them from
anyone who searches: the salt is the task's name, which is public, and the
answers are small integers, booleans or bins of a known width, so trying
candidates finds them in seconds. A few tasks are checked by a property
instead (a permutation, a matrix, a pair of frequencies), which the answer
must satisfy.

The reference solutions are on the instructor section's answer-key page
(``book/instructor/homework_answers.md``), in the default edition only;
``tests/test_homework.py`` runs them through every check and a wrong answer
through each, and runs the generated notebooks with their starter code.
"""

from __future__ import annotations

import functools
import hashlib
import math
import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .core import encoding
from .validate import check_choice

#: What ``check`` says: right, wrong (with a hint), or nothing to check yet.
CORRECT, NOT_YET, NOT_ATTEMPTED = "correct", "not yet", "not attempted"


@dataclass(frozen=True)
class Task:
    """One task of an assignment.

    ``kind`` says what the answer is: "integer", "integers" (a tuple),
    "boolean", "number" (within ``tolerance``) or "property" (``test`` says
    whether it holds). ``digests`` are the accepted answers' digests: for a
    number, ``number_digests`` of its exact value (not of a rounding of it,
    which would shift the window off centre). ``slips`` maps the digests of
    a known wrong answer to its own hint: for a number, the bins about its
    exact value and about its usual roundings, since that is what a student
    who makes the slip enters. ``near``, for a number, are the digests
    of ``near_digests`` of its exact value: an answer within 100
    tolerances (and none beyond 200) that is neither right nor a slip is
    told it is close and to give more digits. ``length`` and
    ``increasing``, for "integers", are the form of the tuple.
    """

    name: str
    chapter: str
    exercise: str
    prompt: str
    starter: str
    kind: str
    hint: str
    digests: frozenset[str] = frozenset()
    tolerance: float = 0.0
    slips: dict[str, str] = field(default_factory=dict)
    test: Callable[[object], bool] | None = None
    near: frozenset[str] = frozenset()
    length: int | None = None
    increasing: bool = False


def digest(task: str, canonical: str) -> str:
    """The stored form of an answer: salted with the task's name."""
    return hashlib.sha256(f"posenc-homework:{task}:{canonical}".encode()).hexdigest()


def _scalar(answer: object) -> object:
    """A 0-d or one-element numpy array (what ``np.float64(...)`` math or
    ``scipy.optimize.fsolve`` returns) as the number it holds."""
    if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
        return None  # masked entries hold no answer
    if isinstance(answer, np.ndarray) and answer.size == 1:
        return answer.reshape(()).item()
    return answer


#: Integers beyond this size are no task's answer; checking it first keeps
#: Python's limit on converting long integers to text (4,300 digits) from
#: raising.
_LARGEST_INTEGER = 10**4000


def _integer_text(value: object) -> str | None:
    """An integer (not a boolean) of at most 4,000 digits as its text, else
    None."""
    if not isinstance(value, numbers.Integral) or isinstance(value, (bool, np.bool_)):
        return None
    value = int(value)
    return str(value) if abs(value) <= _LARGEST_INTEGER else None


def _finite_real(answer: object) -> float | None:
    """``answer`` as a finite float, or None (NaN, infinities, ints beyond
    the floats' range, non-numbers, booleans)."""
    answer = _scalar(answer)
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, numbers.Real):
        return None
    try:
        value = float(answer)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def _bin(value: float, width: float) -> str:
    """The bin of ``value``, as hashed; beyond the floats' range (a huge
    value over a small width) a bin no digest holds."""
    ratio = value / width
    return str(math.floor(ratio)) if math.isfinite(ratio) else "out of range"


def canonical(kind: str, answer: object, tolerance: float = 0.0) -> str | None:
    """``answer`` as the text that is hashed, or None if it is not of the
    task's kind (a string for a number, a float for an integer, ...). A
    0-d or one-element array counts as the number it holds."""
    answer = _scalar(answer)
    if kind == "boolean":
        if isinstance(answer, (bool, np.bool_)):
            return str(bool(answer))
        return None
    if kind == "integer":
        return _integer_text(answer)
    if kind == "integers":
        # a sequence (a tuple, a list, an array), not a set, a dict, bytes,
        # a string or an endless iterator
        if not isinstance(answer, (tuple, list, np.ndarray)):
            return None
        if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
            return None
        texts = [_integer_text(v) for v in list(answer)[:100]]
        if len(answer) > 100 or any(text is None for text in texts):
            return None
        return ",".join(texts)
    if kind == "number":
        value = _finite_real(answer)
        return None if value is None else _bin(value, tolerance)
    raise ValueError(f"kind must be one of the task kinds, got {kind!r}")


def number_digests(task: str, value: float, tolerance: float) -> frozenset[str]:
    """Digests that accept any number within ``tolerance`` of ``value``,
    and none more than twice ``tolerance`` from it: the bin of width
    ``tolerance`` that holds ``value`` and its two neighbours. ``value``
    must be the exact value (made from a rounding of it, the window is off
    centre and may miss answers within ``tolerance``). Used to write the
    digests below; the values themselves are not stored."""
    centre = math.floor(value / tolerance)
    return frozenset(
        digest(task, str(bin_)) for bin_ in (centre - 1, centre, centre + 1)
    )


#: How close a number counts as "close, give more digits", in tolerances.
NEAR = 100


def near_digests(task: str, value: float, tolerance: float) -> frozenset[str]:
    """As ``number_digests``, with bins ``NEAR`` times wider (salted
    "near:"): they hold every number within ``NEAR`` tolerances of
    ``value`` and none beyond twice that."""
    centre = math.floor(value / (NEAR * tolerance))
    return frozenset(
        digest(task, f"near:{bin_}") for bin_ in (centre - 1, centre, centre + 1)
    )


# ------------------------------------------------------------ property tests


def _inverse_permutation(answer: object) -> bool:
    """Halves to interleaved for d = 8: the interleaved table, from the
    halves table's columns in the order ``answer``; AnswerForm unless it
    is 8 integers, each of 0 to 7 once."""
    form = AnswerForm(
        "the answer is a list of 8 integers (ints, not floats or "
        "strings), each of 0 to 7 once."
    )
    if isinstance(answer, (str, bytes)):
        raise form
    try:
        order = np.asarray(answer)
    except (TypeError, ValueError):
        raise form from None
    if order.shape != (8,) or order.dtype.kind not in "iu":
        raise form
    if sorted(order.tolist()) != list(range(8)):
        raise form
    positions = np.arange(50)
    halves = encoding(positions, 8, layout="halves")
    return bool(np.array_equal(halves[:, order], encoding(positions, 8)))


def _clockwise_map(answer: object) -> bool:
    """An orthogonal 2x2 matrix O with O (cos m t, sin m t) = (cos m t,
    -sin m t) for every m and t; AnswerForm unless it is a 2x2 matrix of
    finite numbers."""
    form = AnswerForm("the answer is a 2×2 matrix of finite numbers.")
    if isinstance(answer, (str, bytes)):
        raise form
    try:
        # Read without a cast first: a complex array cast to float would
        # drop its imaginary parts (with a mere warning).
        raw = np.asarray(answer)
        if raw.dtype.kind not in "biuf" or raw.dtype.kind == "b":
            raise form
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            matrix = raw.astype(float)
    except (TypeError, ValueError, OverflowError, Warning):
        raise form from None
    if matrix.shape != (2, 2) or not np.all(np.isfinite(matrix)):
        raise form
    angles = np.linspace(-7, 7, 29)
    counter = np.stack([np.cos(angles), np.sin(angles)])
    clockwise = np.stack([np.cos(angles), -np.sin(angles)])
    return bool(
        np.allclose(matrix @ counter, clockwise, rtol=0, atol=1e-9)
        and np.allclose(matrix.T @ matrix, np.eye(2), rtol=0, atol=1e-9)
    )


#: No float is a nonzero multiple of 2 pi (pi is irrational), so an angle
#: this close to one (an absolute distance, far below pi) is read as that
#: multiple: k * 2 * np.pi, or 2 * (k * np.pi), lies within it of 2 pi k
#: for every |k| up to 10^6 (at most 7.1e-10, at k = 997,982).
_MULTIPLE_ATOL = 1e-9


class AnswerForm(ValueError):
    """Raised by a property test when the answer has the wrong form; its
    message says what form the task wants."""


class NearMiss(ValueError):
    """Raised by a property test when the answer misses only by its
    digits; its message says so."""


#: A resonance this close to a nonzero multiple of 2 pi, but not within
#: ``_MULTIPLE_ATOL``, is a value typed with too few digits (3.14, 3.1416).
_NEAR_ATOL = 1e-2


@functools.cache
def _two_pi() -> Fraction:
    """2 pi to within 2^-1200, by Machin's formula pi = 16 arctan(1/5) -
    4 arctan(1/239) in integers: enough for the distance of any float's
    double (below 2^1025) to its nearest multiple of 2 pi."""
    one = 1 << 1240

    def arctan_inverse(x: int) -> int:  # arctan(1/x) * one, to ~300 units
        term = total = one // x
        n, sign = 1, 1
        while term:
            term //= x * x
            n, sign = n + 2, -sign
            total += sign * (term // n)
        return total

    return Fraction(2 * (16 * arctan_inverse(5) - 4 * arctan_inverse(239)), one)


def _is_multiple_of_two_pi(value: Fraction, atol: float = _MULTIPLE_ATOL) -> bool:
    """Whether ``value`` (exact) is 0, or within ``atol`` of a nonzero
    multiple of 2 pi."""
    if value == 0:
        return True
    turns = round(value / _two_pi())
    return turns != 0 and abs(value - turns * _two_pi()) <= atol


def _two_reals(answer: object) -> tuple[Fraction, Fraction]:
    """``answer`` as two exact numbers; AnswerForm if it is not two finite
    real numbers in the floats' range (strings, booleans and complex
    numbers are not)."""
    form = AnswerForm(
        "the answer is a tuple of two finite real numbers (floats or ints), "
        "not strings or booleans."
    )
    if isinstance(answer, (str, bytes)):
        raise form
    try:
        values = list(answer)
    except TypeError:
        raise form from None
    if len(values) != 2:
        raise form
    exact = []
    for value in values:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise form
        try:  # ints are kept exact, within the floats' range
            approximate = float(value)
        except OverflowError:
            raise form from None
        if not math.isfinite(approximate):
            raise form
        if isinstance(value, numbers.Integral):
            exact.append(Fraction(int(value)))
        else:
            exact.append(Fraction(approximate))
    return exact[0], exact[1]


def _breaks_rms_law(answer: object) -> bool:
    """Two frequencies (theta_0, theta_1) for which the long-run mean of
    g(Delta)^2 = (cos Delta theta_0 + cos Delta theta_1)^2 over all the
    integer offsets is not N/2 = 1.

    g^2 = 1 + cos(2 Delta theta_0)/2 + cos(2 Delta theta_1)/2
    + cos(Delta (theta_0 - theta_1)) + cos(Delta (theta_0 + theta_1)), and
    the long-run mean of cos(Delta phi) over the integers is 1 if phi is a
    multiple of 2 pi and 0 otherwise. So the mean is 1 plus non-negative
    terms, and it differs from 1 exactly when one of 2 theta_0, 2 theta_1,
    theta_0 - theta_1, theta_0 + theta_1 is a multiple of 2 pi.

    What "exactly" means for floats: the two numbers are taken as the exact
    rationals they hold (so 1.0 and 1.0000001 are not equal, and their mean
    is exactly 1), and 0 is decided exactly. No float, and no sum of two,
    is a nonzero multiple of 2 pi, so there the check takes the intended
    one: an angle within ``_MULTIPLE_ATOL`` = 1e-9 (absolute) of 2 pi k,
    k != 0, counts as 2 pi k (the distance computed exactly, with 2 pi to
    2^-1200). Anything farther is decided as the number it is: 2e13 is
    0.586 from the nearest multiple, so (1e13, 0.3) does not break the
    law. Strings, booleans and complex numbers are not accepted. A pair
    that misses only by digits (one of the four within ``_NEAR_ATOL`` =
    0.01 of a nonzero multiple, as with 3.1416 for pi) raises NearMiss."""
    first, second = _two_reals(answer)
    resonances = (2 * first, 2 * second, first - second, first + second)
    if any(_is_multiple_of_two_pi(value) for value in resonances):
        return True
    if any(_is_multiple_of_two_pi(value, _NEAR_ATOL) for value in resonances):
        raise NearMiss(
            "close: one of 2θ₀, 2θ₁, θ₀ − θ₁, θ₀ + θ₁ is near a nonzero "
            "multiple of 2π, but not within 1e-9. Give more digits "
            "(np.pi, not 3.14)."
        )
    return False


# ------------------------------------------------------------ the tasks


def _task(name: str, **fields) -> Task:
    return Task(name=name, **fields)


TASKS: dict[str, Task] = {
    task.name: task
    for task in [
        _task(
            "encoding-slowest-period",
            chapter="the_encoding",
            exercise="ex-encoding-longest-period",
            prompt=(
                "For $d = 512$ and base $10^4$: how many positions does "
                "the slowest pair take to complete one turn? Round to the "
                "nearest integer (an `int`)."
            ),
            starter="theta = posenc.frequencies(512)\nanswer = ...",
            hint=(
                "The period of a pair is 2π divided by its frequency; "
                "which pair has the smallest frequency?"
            ),
            kind="integer",
            digests=frozenset(
                ["91a54b0e7f7448f639fd358f069b328dc61eaed180ee88dab21fdf4f626cb123"]
            ),
            slips=dict.fromkeys(
                [
                    "0bbe1f5cd3e6b12ff976e7cc88df4c58b8c4b66db0ee48bb70c253c4535e4c54",
                    "630864fb70648cb8459faab4ca40d79428de04d8e0f6e61d3f1048e17b6afa46",
                ],
                (
                    "That is 2π·base, the period of a frequency of exactly "
                    "1/base. The slowest pair is i = d/2 − 1, whose frequency "
                    "is base^(−(d−2)/d), a little faster."
                ),
            ),
        ),
        _task(
            "encoding-max-distance",
            chapter="the_encoding",
            exercise="ex-encoding-distance",
            prompt=(
                "For $d = 64$ and base $10^4$: the largest distance "
                "$\\lVert p_m - p_n\\rVert$ over all offsets $1 \\le |m - n| "
                "\\le 100\\,000$ (a float, within about 0.001). Compare it "
                "with $\\sqrt{2d}$."
            ),
            starter="offsets = np.arange(1, 100_001)\nanswer = ...",
            hint=(
                "The distance depends only on the offset: ‖p_m − p_n‖² = "
                "d − 2 g(m − n). Compute g on all offsets "
                "(posenc.inner_product, or a sum of cosines) and take the "
                "largest distance."
            ),
            kind="number",
            tolerance=0.001,
            near=frozenset(
                [
                    "1c10312d884ab788c0fa63b0954a43682d78f5d2c8aa224f5d6031069b3f386f",
                    "87757ee9483c425963adbd0733e44249d2baebcfb52d90defd7b626a17df9fd7",
                    "efacfb740614d2854eaaa244d817d7d9696720b5a3247afa820eed1a154fe234",
                ]
            ),
            digests=frozenset(
                [
                    "4a70e1695a873200db022a34bdb8b748ef00a5502449d6684ac7ece542c59547",
                    "8a606f5c0e4c9ea615f3f2963ab0949396498559b9c240fbc11374b5cca7a5bc",
                    "b71c6ed7cf0c3531f40e1f6be07840ad342fa4630180c95a9fc739fc0fc77ff3",
                ]
            ),
            slips=dict.fromkeys(
                [
                    "0a996115daee5554987bd07c121a986029886d72dd81ede8c14b0434215b9fcb",
                    "2ae96b3d0b6dc898d988539bd1712a0d20f9e5b0cff5ef0dde275856f9162da5",
                    "5c52ce39a878e1d8290d96cb43be0bbb49387c5c803b91831e5b8305aa3ea8d6",
                    "6ac88aa94bee7828c86fea1f24865c19aafaa20340f9175a9381755eebee30cc",
                    "8334e12e88f90c591b22f53ae7e249a2d495d599c2b5b800787cb3c7cfb44980",
                    "a13c484980bbf7a36da44085d0fdfb6620d07e215d2cb9f55203ee332421e138",
                    "a236b3df15c01234f7ccaa692cb28c9c81d08d2f35016ae00af195146492f809",
                    "b47a4bed6dde33299a8a3e845fa6eb04103d6f0004651182fe24841fa054fa6d",
                    "e501062d650b4b84727f57b05b64c447c680c67a974895b7fa356536ae4f3432",
                    "ecaf31abeb3a2bc9b58b507042666b5548c6c96cdeec7cbc98f1f5124610d4e6",
                ],
                (
                    "That is the bound √(2d); do integer offsets reach it? "
                    "Compute the distances and take their maximum."
                ),
            ),
        ),
        _task(
            "encoding-inverse-permutation",
            chapter="the_encoding",
            exercise="ex-encoding-permutation",
            prompt=(
                "For $d = 8$: the column order that turns the halves "
                "layout back into the interleaved one, as a list of 8 "
                "integers: `halves[:, answer]` must equal the interleaved "
                "table."
            ),
            starter=(
                "interleaved = posenc.encoding(np.arange(10), 8)\n"
                'halves = posenc.encoding(np.arange(10), 8, layout="halves")\n'
                "answer = ..."
            ),
            hint=(
                "Column 2i of the interleaved table is sin(tθ_i), which "
                "the halves layout stores in column i; column 2i + 1 is "
                "cos(tθ_i), stored in column d/2 + i."
            ),
            kind="property",
            test=_inverse_permutation,
        ),
        _task(
            "symmetry-maxpool",
            chapter="attention_is_blind_to_order",
            exercise="ex-symmetry-maxpool",
            prompt=(
                "Is the model with a maximum over positions (instead of "
                "the mean) still blind to word order? `True` or `False`."
            ),
            starter="answer = ...",
            hint=(
                "A maximum over positions, coordinate by coordinate, is a "
                "symmetric function of the rows: what does it do to rows "
                "given in another order?"
            ),
            kind="boolean",
            digests=frozenset(
                ["4f08d633eceb7547b768f3ad877560022da06e1082eb70326be55c4bd855a7b0"]
            ),
        ),
        _task(
            "symmetry-causal",
            chapter="attention_is_blind_to_order",
            exercise="ex-symmetry-causal",
            prompt=(
                "Put the three tokens before position 3 in each of their "
                "6 orders. How many *different* rows 3 come out of one "
                "masked layer (`causal_attention`), and how many of two "
                "(`causal_layer` twice)? Count two rows as the same when "
                "every entry agrees to within $10^{-12}$ "
                "(`np.allclose(a, b, rtol=0, atol=1e-12)`). A tuple of two "
                "integers, e.g. `(2, 5)`; copy the two functions from the "
                "chapter's notebook."
            ),
            starter="answer = ...",
            hint=(
                "Row 3 of one masked layer is a weighted average over "
                "positions 0 to 3 with weights from the same scores: does "
                "the order of the first three change that sum? After one "
                "layer, rows 0 to 2 already depend on the order."
            ),
            kind="integers",
            length=2,
            digests=frozenset(
                ["a8cc51b9f807f64de1c407f0a453aca7a56cad661fc65420e78f361d8d83d651"]
            ),
            # (2, 6) ... (6, 6): one layer's rows compared exactly; (6, 6)
            # is also "one masked layer sees the order", hence the hint's
            # last sentence
            slips=dict.fromkeys(
                [
                    "4295e9c69820cd1ebb11c57fdb635cf869c2619a6e9b92a903bffb1fe0138b6a",
                    "cec8792aa16f9407b8a2ae6d4249c03078f0cf36bc0c166e1c7c2e970f81de13",
                    "efbcae7000e5232f03d35fac956b8623c4703b51c6d811e0f8b2f2c7d8a42df0",
                    "0981110d22949047a703b0e65618280be6614c5ddbbc581f05cd0ca2551dcc52",
                    "2d7632455535468e7bb43c010aaffe5dd15b83ed480a57641d52a1302666dbd3",
                ],
                (
                    "Did you compare the rows of one layer exactly? The same "
                    "terms summed in another order can round differently, "
                    "by about 1e-16: floating-point addition is not "
                    "associative. Count rows that agree to within 1e-12 as "
                    "the same. (If they differ by more, look again at what "
                    "row 3 of one masked layer averages.)"
                ),
            ),
        ),
        _task(
            "symmetry-repeated",
            chapter="attention_is_blind_to_order",
            exercise="ex-symmetry-repeated",
            prompt=(
                "With $p_1 = p_2$ (positions 0, 1, 2), which swap of two "
                "words can the model still not see? The two positions as "
                "a tuple, smaller first, e.g. `(0, 2)`."
            ),
            starter="answer = ...",
            hint=(
                "A swap is invisible when the two words swapped receive "
                "the same position vector."
            ),
            kind="integers",
            length=2,
            increasing=True,
            digests=frozenset(
                ["12f8c961a0397bfc4eb85f131c1bb6dbc84a19ae0a565102ea78c5fcb3140abd"]
            ),
        ),
        _task(
            "taylor-rank",
            chapter="taylor_expansion",
            exercise="ex-taylor-rank",
            prompt=(
                "What is the smallest $d_k$ for which one head can have "
                "$H = I$ exactly when $d = 512$? An integer."
            ),
            starter="answer = ...",
            hint=(
                "rank(W_Q W_Kᵀ) is at most d_k, and the identity of size d has rank d."
            ),
            kind="integer",
            digests=frozenset(
                ["2e1ffe1e6393defce8e6833e99d222770e5a7c58d9d16cdc12680f001431d4a8"]
            ),
        ),
        _task(
            "taylor-cosines",
            chapter="taylor_expansion",
            exercise="ex-taylor-cosines",
            prompt=(
                "With cosines alone, $p_t = (\\cos t\\theta_i)_i$, "
                "$\\theta_i$ = `posenc.frequencies(64)` (32 frequencies) "
                "and $H = I$: the part of $\\langle p_{100}, "
                "p_{103}\\rangle$ that depends on $m + n$ (a float, within "
                "about 0.001)."
            ),
            starter="theta = posenc.frequencies(64)\nanswer = ...",
            hint=(
                "cos a cos b = ½[cos(a − b) + cos(a + b)]: the part in m "
                "+ n is the second half-sum, at m + n = 203."
            ),
            kind="number",
            tolerance=0.001,
            near=frozenset(
                [
                    "45046c575448419ad3318fb3674485d3ad7bb7684ad1c172b1f199693903935a",
                    "8a7083f8db88bc5c736202fb02e02b3f467ffa3a93135cf3d474e1111394f354",
                    "c1299b5e92d5ba22e6851363369aa9f9563d4f3e8d41ae0c9839f18f3297ee4b",
                ]
            ),
            digests=frozenset(
                [
                    "630415c68ce9e801aed8860ffb76f7517971dc8e4c9201b4f10729d62acd03a0",
                    "6d057e48651095ba20734610f441135cfbcf8646a582bc02960c23fcb9f70b23",
                    "b87565192c1e4fd9906f1e0cb9f11a736eb162cd1981e2c7a10062f976d99aa9",
                ]
            ),
            slips=dict.fromkeys(
                [
                    "1efc8f4b027519e34a4f91c13978f3e285cbdee10e7aec60f19e1a94c9c1b856",
                    "78bb35fd0d632d762772d688158c471e94854f5284a5b13b60a589a6a90647ad",
                    "95fc1231ac086161453e0aec3be692c7014e6b61d15d103b39753a7250f899b1",
                    "96e707df68a002eb1863fdb42c14f685fceaf6423a76cc05da88ba301def0ddc",
                    "bfc7d4d0111035ef8fafba203e11cf9d2501e0578d55acb26268b66302b8f8f9",
                    "caee4c9df26eab52f500e6e6274da198579d447fc07bd6dccd194b6ebc3d2796",
                    "eb9627396fee3d28b745619b134c2b3618a405d345bb5f0cbc0622744c7eed3f",
                    "f505821e38e91e264dafa0c45a28b88a888f5d088b3752f7f6bcac6071aa5f02",
                    "f86cc961d4585e641f7109995a1eb0f3fac0b7c5c6d96d2914f0a809ac0b0ce6",
                ],
                (
                    "Right size, wrong sign: write cos a cos b as a half-sum "
                    "of two cosines and look at the sign of the cos((m+n)θ) "
                    "term."
                ),
            ),
        ),
        _task(
            "complex-radii",
            chapter="complex_solution",
            exercise="ex-complex-radii",
            prompt=(
                "With $p_m = (1 + 0.1m)(\\cos m\\theta, \\sin m\\theta)$ and "
                "$\\theta = 0.3$: $\\langle p_2, p_0\\rangle - \\langle p_5, "
                "p_3\\rangle$ (the same offset 2; a float, within about "
                "0.001)."
            ),
            starter="theta = 0.3\nanswer = ...",
            hint=(
                "⟨p_m, p_n⟩ = (1 + 0.1m)(1 + 0.1n) cos((m − n)θ): the "
                "radii multiply the cosine of the angle between the two "
                "points."
            ),
            kind="number",
            tolerance=0.001,
            near=frozenset(
                [
                    "5d67d73448f9a0450f0cd183fe7ba859b142bf345fb56abc14f431b6f274a53b",
                    "93c3ac55fdc9ef3792590800cb43e2b0d4aea4fa7ca5ccbf1a38ee1f5abaee01",
                    "f01c11768a919efc5afe095d70dae485106212dbbd5116b872c38d99567d89df",
                ]
            ),
            digests=frozenset(
                [
                    "91c78890fe4688b11aa085139c49688debaa48fe2c4c7c4834273afdc14f9c6f",
                    "c0e81be33754211081e8b502fb0a28ea89568c9ff41082a9f133aeafc2d1251e",
                    "d07432b623b7465c93e37319e3b4f12c9329ad9465388dcf338efce85df6b355",
                ]
            ),
        ),
        _task(
            "complex-clockwise",
            chapter="complex_solution",
            exercise="ex-complex-clockwise",
            prompt=(
                "The orthogonal $2\\times 2$ matrix $O$ that maps $(\\cos "
                "m\\theta, \\sin m\\theta)$ to the clockwise hands $(\\cos "
                "m\\theta, -\\sin m\\theta)$ for every $m$ and $\\theta$ (a "
                "nested list or an array)."
            ),
            starter="answer = ...",
            hint=(
                "The clockwise hands are the counter-clockwise ones "
                "reflected in one axis: which coordinate changes sign?"
            ),
            kind="property",
            test=_clockwise_map,
        ),
        _task(
            "decay-half",
            chapter="decay_integral",
            exercise="ex-decay-half",
            prompt=(
                "For base $10^5$: the offset $\\Delta$ at which $I(\\Delta) "
                "= 1/2$ (`posenc.decay_integral`; a float, within about "
                "0.05)."
            ),
            starter="from scipy.optimize import brentq\n\nanswer = ...",
            hint=(
                "Find the root of I(Δ) − 1/2 between 10 and 1000, with "
                "base=1e5 passed to posenc.decay_integral."
            ),
            kind="number",
            tolerance=0.05,
            near=frozenset(
                [
                    "9577098da7a04110d7f9e5d080c2cae02144b1bec97183ef226bb84fecb1630f",
                    "bf2264e0da30cbc67ead1e1677e647855ef6f6ff52dad6cf23e1aa6f7a062f63",
                    "c4366d3043c603a448117d03e2555401b03640de8d18350142c217536c9eba57",
                ]
            ),
            digests=frozenset(
                [
                    "a0eb8af091e72b0967ce9690d7c97cfeea15b988b173616566d5aada7edfb2bf",
                    "b4f9b094b1f5d794f207beac04d2041d31443f1e5b8d786d70fb65c647a1de0a",
                    "fd9bd0a19470b7cc7c695971d575f27ea207702f9dae583f46bcc01afb016446",
                ]
            ),
            slips=dict.fromkeys(
                [
                    "5fe6c263df9891e651f60553698441ac52907f6278baa133d397b71fc269e3fc",
                    "c7ec40b0a05d1e9c62534d33e3c6250abf4058333ab80948c76d00cebacf1c65",
                    "ce97a518f5cf7ad561991fe0cfb6afc7f29051cca6e09a200971038db78b0ff6",
                    "d0315f9a40dd85d10fed15a64d7e5b2d9b97775efa2f40bc60ed292853db2af3",
                ],
                (
                    "That is the log law's prediction e^(−γ)√base; the "
                    "exercise asks where the exact integral I(Δ) equals 1/2 "
                    "(solve with a root finder, e.g. scipy.optimize.brentq)."
                ),
            ),
        ),
        _task(
            "decay-cube-exponent",
            chapter="decay_integral",
            exercise="ex-decay-cube",
            prompt=(
                "$\\int_0^1\\cos(\\Delta\\tau^3)\\,d\\tau$ decays like "
                "$C\\,\\Delta^{a}$ for large $\\Delta$. The exponent $a$ (a "
                "float, within about 0.001)."
            ),
            starter="answer = ...",
            hint=(
                "Where does Δτ³ stay below about 1? The integral is "
                "dominated by that stretch of τ near 0."
            ),
            kind="number",
            tolerance=0.001,
            near=frozenset(
                [
                    "326ab6871688b8564263a8efd9c0052888fc7dd0749489db2f8b235a66f413e0",
                    "b6619b1cd1ce71a0ba9c4d71b590d660e20d3ea133af27f6cdf968faf79dffa3",
                    "c5f2fa193a27c281decc22a26adfb5ec72fbec842d44b29522da1e7f2c5b3679",
                ]
            ),
            digests=frozenset(
                [
                    "7650e98b4c60318d272a48175b9b44565b2521b7efcae21fcf180048b92ad220",
                    "e1a5dc7ab903d6b6841a9b76a9ec70138a83339be1bd42d85062a41d1e650a1a",
                    "efabaf022e6df70218e341b62320711a43e4a04b7f7a02a5c063e9142182185e",
                ]
            ),
            slips=dict.fromkeys(
                [
                    "26ab9326e9d01fac006be3c7beb8e9720312e66c73a569ec19948815db608480",
                    "e99b57446451b54945d7b8a000ce8b5e84694c4d9d79fccaf48d194f72ce2326",
                    "f43ad889cd1cf43277186d6c5b7c8cc017feb82da7d8b29d88ca052bccc1b955",
                ],
                (
                    "No: the integrand stops oscillating near τ = 0, where "
                    "Δτ³ stays below about 1, that is for τ up to about "
                    "Δ^(−1/3); that stretch sets the rate."
                ),
            ),
        ),
        _task(
            "decay-cube-constant",
            chapter="decay_integral",
            exercise="ex-decay-cube",
            prompt=(
                "The leading constant $C$ of the same law (a float, "
                "within about 0.001). Check it numerically at a few large "
                "$\\Delta$."
            ),
            starter="answer = ...",
            hint=(
                "Use the hint of the exercise: the integral from 0 to "
                "infinity is Γ(4/3) cos(π/6) Δ^(−1/3); the part beyond τ "
                "= 1 only oscillates and shrinks."
            ),
            kind="number",
            tolerance=0.001,
            near=frozenset(
                [
                    "0d7cef58687f4917c676c94362847439a78ec471c8109261e206cdc4412e211e",
                    "21ba40db227fca973b827adcc6d4f2242dd4ec8e09779b9af08abe87d67cc6cc",
                    "2c3583bbfd8bf9ab4e73875fdbf8d215447ed0b69e33bc712f2266724e010ddf",
                ]
            ),
            digests=frozenset(
                [
                    "1fa36f106896446bfa1ab00ef794e246daca73376095fa7f4a2b9a01db1a3a6c",
                    "3c112a8d9ea50c74e5ac1eeeea193a81dfe43a3d997c9363d16f228aca58a730",
                    "f3847440fa39ecbaaf34a4ca8816d9498b2bd4013c5e26eb337e302e86fd5504",
                ]
            ),
        ),
        _task(
            "decay-rope-threshold",
            chapter="decay_finite_d",
            exercise="ex-decay-rope-head",
            prompt=(
                "$\\Delta_1$ for a rotary head, $d = 128$ and base $10^4$ "
                "(a float, within about 0.005)."
            ),
            starter="answer = ...",
            hint="Δ₁ = πd / ln(base).",
            kind="number",
            tolerance=0.005,
            near=frozenset(
                [
                    "5c80b830d1b574bd4f3c30054dc3907418a8bf47f826e6337369fe50610fa669",
                    "a12d7b360b2a20e6b1712d4132171fdf8e8176a9745ead65b41f59492a1aab62",
                    "f0da0a2833b360085cd697280a7d707bf15f3c00e95b6967ddf5729011aadaaa",
                ]
            ),
            digests=frozenset(
                [
                    "0f9b10748d82c26aebab08012d80a45f606f85e5f114dde1ed16ccad8dc97afd",
                    "4fbc03281462a512a1a5235b5d3817d8fa7ae7b59c1eed6b67cdad21ea463e8c",
                    "cc257ffbdde2db1dba8758909fb01bffb4ad962d46fa6813d04a21d17d8fecf7",
                ]
            ),
        ),
        _task(
            "decay-double-nyquist",
            chapter="decay_finite_d",
            exercise="ex-decay-threshold",
            prompt=(
                "For $d = 512$ and base $10^4$: the offset $2\\Delta^*$ at "
                "which $\\Delta\\theta_0 - \\Delta\\theta_1 = 2\\pi$ exactly "
                "(a float, within about 0.005)."
            ),
            starter="theta = posenc.frequencies(512)\nanswer = ...",
            hint=("Solve Δ(θ₀ − θ₁) = 2π for Δ, with θ₀ = 1 and θ₁ = base^(−2/d)."),
            kind="number",
            tolerance=0.005,
            near=frozenset(
                [
                    "75f5beb5e568082d8dcc0a340b8602d8236eefe65bc9f204f0f66b347482728d",
                    "d98df73bd5723fae3522607da2c42178203b91c5c7bea0834d9f8b909c6c69da",
                    "f742165a19c00d8fab6d93449baa2f9afdae5ba3c714c0720486b01daebea082",
                ]
            ),
            digests=frozenset(
                [
                    "8d99699e205b8507d03c435f1d450c320fcd756103651d08ef9435ee01c15dbb",
                    "a15ef5a6cec2cb8c94d5691dd39931ef591d169cd9844d4f5bf899c45fd321c6",
                    "a7609fec42abd8dead62042edcb31fab57598a68e9a0161aba38e4fa4e699aa4",
                ]
            ),
            slips=dict.fromkeys(
                [
                    "01c29a53e7dc7754e147f7db72ceaed2921b94fa5653db58072e6e3659ca4359",
                    "08028210313aa449f8ed3bc16611984c2c5be010dc92f7bdce887e4cd4a1a92f",
                    "0a5fdac2956fa3a9f993db5294a8c4218ca2c448b879c622aee58bf855c5a6c1",
                    "4c1208bfa5bdef7cbab30b606fc72ae9fa6bf909309aa373b44279d76a3fedd9",
                    "75f24f0d35839f5c7ce8a7db2d66d55bf0b752666409c1025306e79abfc5ebb0",
                    "77f02000c48e5f5a8389ba73c312d4ee4ac688b1a6d0979d8043cf1621b963c6",
                    "8ef6928d5aba0189f94c5300c9489006313762c76389de0a896069f8d7c2369b",
                    "9cd7dbfcd855bb60be998193a6c3dcd0ad82c007d9ae0e1b94c5991c3c8c7886",
                    "c43ae545effe35f6586ddc7685dc2bd1ab6f58a97c11228983ce3c3fbdecafe9",
                ],
                (
                    "That is close to Δ₁ = πd/ln(base), an approximation; 2Δ* "
                    "solves Δ(θ₀ − θ₁) = 2π exactly."
                ),
            ),
        ),
        _task(
            "decay-rms-break",
            chapter="decay_finite_d",
            exercise="ex-decay-rms-proof",
            prompt=(
                "Two frequencies $(\\theta_0, \\theta_1)$ for which the "
                "long-run mean of $g(\\Delta)^2 = (\\cos\\Delta\\theta_0 + "
                "\\cos\\Delta\\theta_1)^2$ is *not* $N/2 = 1$ (a tuple of "
                "two floats). The check decides it for the mean over all "
                "integer offsets, not over a finite stretch, taking your "
                "floats as the exact numbers they hold; since no float is "
                "a nonzero multiple of $2\\pi$, a value within $10^{-9}$ of "
                "one (such as `2 * np.pi`) counts as that multiple."
            ),
            starter="answer = ...",
            hint=(
                "The bounds on the averages of the four cosines need θ₀ ± "
                "θ₁ and 2θ₀, 2θ₁ away from multiples of 2π. Break one: "
                "what if the two frequencies are equal, or one is 0?"
            ),
            kind="property",
            test=_breaks_rms_law,
        ),
        _task(
            "decay-linear-zero",
            chapter="decay_finite_d",
            exercise="ex-decay-linear-zero",
            prompt=(
                "For the schedule $\\theta(\\tau) = \\tau$: the first "
                "positive zero of the integral "
                "$\\int_0^1\\cos(\\Delta\\tau)\\,d\\tau$ (a float, within about "
                "0.001)."
            ),
            starter="answer = ...",
            hint="The integral is sin(Δ)/Δ.",
            kind="number",
            tolerance=0.001,
            near=frozenset(
                [
                    "149c5b70f1cc52e2d6c5864b0c3edbc7c566f1a1f514cd0717582d34e547cbbb",
                    "19c221aa92549997d2eb100d59b13c044f29d2f5cba769b9bfbff51ea5994dff",
                    "44ebda601cf8aa8484d0dc63fe70fe679522d7fbe7d20f9e20edb199d89bcdd2",
                ]
            ),
            digests=frozenset(
                [
                    "37bb5aa90833eeccfa926c23cace685cf10547793038a8ff01fd0c23e86fd341",
                    "adef9dcc453306a20bd208a46862ce6cf11786cf74fce8c57bd35d542fa10261",
                    "d36d3578780054d2f2266eda5da52f920859620527fef41819c37ad7f660a35a",
                ]
            ),
        ),
        _task(
            "decay-linear-period",
            chapter="decay_finite_d",
            exercise="ex-decay-linear-zero",
            prompt=(
                "For $\\theta_i = 2i/d$ with $d = 64$: the period in "
                "$\\Delta$ of the exact sum $\\sum_i\\cos(\\Delta\\theta_i)$ "
                "(a float, within about 0.01)."
            ),
            starter="answer = ...",
            hint=(
                "Every angle Δ·2i/d must advance by a whole number of "
                "turns: for which smallest Δ is 2Δ/d a multiple of 2π?"
            ),
            kind="number",
            tolerance=0.01,
            near=frozenset(
                [
                    "656d44182d35c99d9c0f8ec55d316b2a5c49c072ec116748bdfd02ca70878efd",
                    "6c0a96f5371f1698b9470c70de1efbdf1b4678a2553a376c2fce7a5d34c34ab9",
                    "7575456f4c3bd060d563b22cfecd849463aa25f466f2e6c6b966d7e49961dc8f",
                ]
            ),
            digests=frozenset(
                [
                    "3d22de3e9490ebf1d31134292561dbfd9120339ca3e52f7b768d3ce08c942f5e",
                    "645cfcab38bcfa7a9c336831855a3c20f59c04a15d27db51974aadc289f8dea0",
                    "ca8762d7d52e7bf33b547fc73942910945804de678730bd35ecd6a4a32a6d9d4",
                ]
            ),
        ),
    ]
}


def tasks_of(chapter: str) -> list[Task]:
    """The tasks of a chapter, in the order of its exercises."""
    return [task for task in TASKS.values() if task.chapter == chapter]


def verdict(task: str, answer: object) -> tuple[str, str]:
    """(``CORRECT`` | ``NOT_YET`` | ``NOT_ATTEMPTED``, message) for
    ``answer`` to ``task``; the message never contains the right answer."""
    spec: Task = TASKS[check_choice(task, "task", tuple(TASKS))]
    if answer is ... or answer is None:
        return NOT_ATTEMPTED, "not attempted: replace the ... with your answer."
    if isinstance(answer, np.ma.MaskedArray) and np.ma.is_masked(answer):
        return NOT_YET, "not yet: the answer is masked in places; give plain values."
    if spec.kind == "property":
        try:
            ok = spec.test(answer)
        except AnswerForm as form:
            return NOT_YET, f"not yet: {form}"
        except NearMiss as near:
            return NOT_YET, f"not yet, but {near}"
        return (CORRECT, "correct.") if ok else (NOT_YET, f"not yet. {spec.hint}")
    text = canonical(spec.kind, answer, spec.tolerance)
    if text is None or not _has_form(spec, text):
        return NOT_YET, f"not yet: {_expected(spec, answer)}"
    key = digest(spec.name, text)
    if key in spec.digests:
        return CORRECT, "correct."
    if key in spec.slips:
        return NOT_YET, "not yet. " + spec.slips[key]
    if spec.kind == "number":
        coarse = _bin(_finite_real(answer), NEAR * spec.tolerance)
        if digest(spec.name, f"near:{coarse}") in spec.near:
            return NOT_YET, (
                f"not yet, but close: the check wants the value to within "
                f"{spec.tolerance:g}. If you rounded, give more digits; "
                "if not, recheck your computation."
            )
    return NOT_YET, f"not yet. {spec.hint}"


def _has_form(spec: Task, text: str) -> bool:
    """For "integers": the tuple's length and order, if the task sets them."""
    if spec.kind != "integers":
        return True
    values = [int(v) for v in text.split(",")] if text else []
    if spec.length is not None and len(values) != spec.length:
        return False
    return not spec.increasing or values == sorted(set(values))


def _expected(spec: Task, answer: object) -> str:
    if spec.kind == "integers":
        size = "" if spec.length is None else f"{spec.length} "
        order = ", smaller first" if spec.increasing else ""
        return f"the answer is a tuple of {size}integers (ints){order}."
    if spec.kind == "number" and isinstance(_scalar(answer), numbers.Real):
        return (
            "the answer is a finite number (a float or an int within the "
            "floats' range), not nan or inf."
        )
    return {
        "integer": "the answer is an integer (an int, not a float or a string).",
        "boolean": "the answer is True or False.",
        "number": (
            "the answer is a number (a float or an int; an array holding "
            "one number counts as that number), not a string or a list."
        ),
    }[spec.kind]


def check(task: str, answer: object) -> bool:
    """Print whether ``answer`` to ``task`` is right (with a hint if not);
    True if it is. See the module docstring."""
    status, message = verdict(task, answer)
    print(f"{task}: {message}")
    return status == CORRECT
