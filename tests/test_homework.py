"""Homework checks: every check accepts its reference answer and rejects
wrong ones with a hint, never the answer; every hidden test of a function
task fails for some wrong function, naming itself; proof steps reject the
goal restated; a loop over ``check`` finds no answer; no hint contains an
answer or its formula. The notebooks: ``test_homework_notebooks.py``.

``judge`` is the verdict without the attempt budget (``verdict`` and
``check`` count); each test starts with a fresh budget.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
import sympy as sp
from homework_cases import BUGS, KEY_CELLS, ROOT, WRONG, WRONG_PROOFS, run_key

import posenc
from posenc import homework
from posenc.homework_judge import BUDGETS, NEAR, judge

TASKS = homework.TASKS
VALUE_KINDS = ("integer", "integers", "boolean", "number", "property")


@pytest.fixture(autouse=True)
def fresh_budget():
    homework._wrong.clear()
    yield
    homework._wrong.clear()


def judged(name: str, answer: object) -> tuple[str, str]:
    return judge(TASKS[name], answer)[:2]


def _exec(source: str) -> object:
    namespace = {"np": np, "sp": sp, "posenc": posenc}
    exec(source, namespace)
    return namespace["answer"]


def test_every_task_has_an_answer_key_and_wrong_answers():
    assert set(KEY_CELLS) == set(TASKS)
    values = {n for n, t in TASKS.items() if t.kind in VALUE_KINDS}
    assert set(WRONG) == values
    assert set(WRONG_PROOFS) == {n for n, t in TASKS.items() if t.kind == "proof"}
    assert set(BUGS) == {n for n, t in TASKS.items() if t.kind == "code"}


def test_every_chapter_with_homework_has_a_reasoning_task():
    """Item 1 of the issue: each derivation chapter and RoPE has tasks that
    ask for reasoning: a function run against hidden tests or a proof step
    checked by sympy."""
    chapters = {task.chapter for task in TASKS.values()}
    for chapter in chapters:
        kinds = {task.kind for task in homework.tasks_of(chapter)}
        assert kinds & {"code", "proof"}, chapter


@pytest.mark.parametrize("name", sorted(TASKS))
def test_check_accepts_the_reference_answer(name):
    printed, _ = run_key(name)  # the cell asserts check(...) is True
    assert f"{name}: correct." in printed


@pytest.mark.parametrize("name", sorted(WRONG))
def test_check_rejects_wrong_values_with_a_hint(name):
    for wrong in WRONG[name]:
        status, message = judged(name, wrong)
        assert status == homework.NOT_YET, wrong
        assert len(message) > 20  # a hint, not just "no"


@pytest.mark.parametrize("name", sorted(WRONG_PROOFS))
def test_proof_steps_reject_the_goal_restated_and_wrong_steps(name):
    """The first wrong step of each task is true but of the wrong form
    (the goal restated), the others false; each is told which."""
    for source, words in WRONG_PROOFS[name]:
        status, message = judged(name, _exec(source))
        assert status == homework.NOT_YET, source
        assert words in message, (source, message)


@pytest.mark.parametrize("name", sorted(WRONG_PROOFS))
def test_proof_steps_are_read_by_name_and_from_text(name):
    """The key's step, given as text, and with symbols made without the
    key's assumptions, is accepted all the same."""
    _, namespace = run_key(name)
    answer = namespace["answer"]
    plain = answer.xreplace({s: sp.Symbol(s.name) for s in answer.free_symbols})
    assert judged(name, plain)[0] == homework.CORRECT
    assert judged(name, str(answer))[0] == homework.CORRECT
    for odd in ("1 +", 0.5, [answer], sp.Eq(answer, 0), True):
        assert judged(name, odd)[0] == homework.NOT_YET, odd


@pytest.mark.parametrize("name", sorted(BUGS))
def test_every_hidden_test_fails_once_and_names_itself(name):
    """Each wrong function fails first at the hidden test it was written
    for; together they fail every hidden test of the task. The message
    names that test and shows no expected value."""
    hidden = TASKS[name].hidden
    failed = set()
    for source, index in BUGS[name]:
        status, message = judged(name, _exec(source))
        assert status == homework.NOT_YET, source
        first = next(i for i, test in enumerate(hidden) if test.says in message)
        assert first == index, (source, message)
        failed.add(index)
        without = message.replace(hidden[index].says, "")
        assert not re.search(r"\d\.\d{3}", without), message  # no value shown
    assert failed == set(range(len(hidden)))


def test_function_tasks_want_a_function_and_see_the_starter():
    for name in BUGS:
        status, message = judged(name, 3.0)
        assert status == homework.NOT_YET and "your function itself" in message
        assert judged(name, lambda *args: ...)[0] == homework.NOT_ATTEMPTED


def test_rotation_tasks_switch_posenc_rotate_off():
    """rope-rotate, rope-rotate-half, rope-batch and rope-complex want the
    student's own rotation; posenc.rotate is back once the check is done."""
    for name, pairing in [
        ("rope-rotate", "interleaved"),
        ("rope-rotate-half", "half-split"),
    ]:

        def lazy(x, t, base=1e4, pairing=pairing):
            return posenc.rotate(x, t, base, pairing=pairing)

        status, message = judged(name, lazy)
        assert status == homework.NOT_YET and "switched off" in message
    for name in ("rope-batch", "rope-complex"):

        def lazy_batch(x, positions, pairing="interleaved", base=1e4):
            return posenc.rotate(x, positions, base, pairing=pairing)

        status, message = judged(name, lazy_batch)
        assert status == homework.NOT_YET and "switched off" in message
    assert posenc.rotate(np.ones(4), 0.0).tolist() == [1.0] * 4
    assert posenc.core.rotate is posenc.rotate


# ------------------------------------------------------------ the budget


def _right_answer(name: str) -> object:
    return run_key(name)[1]["answer"]


@pytest.mark.parametrize("name", ["decay-half", "rope-rotate", "taylor-sum-part"])
def test_an_honest_student_is_judged(name):
    """The first right answer is accepted; so is the right answer after
    budget - 1 different wrong ones; after budget wrong ones every answer,
    right or wrong, gets the same "not judged"."""
    spec = TASKS[name]
    right = _right_answer(name)
    assert homework.verdict(name, right)[0] == homework.CORRECT
    wrongs = _different_wrong_answers(name, spec.budget + 1)
    for wrong in wrongs[: spec.budget - 1]:
        assert homework.verdict(name, wrong)[0] == homework.NOT_YET
    assert homework.verdict(name, right)[0] == homework.CORRECT
    status, message = homework.verdict(name, wrongs[spec.budget - 1])
    assert status == homework.NOT_YET and "last different wrong answer" in message
    locked = homework.verdict(name, right)
    assert locked[0] == homework.NOT_JUDGED and "restart the kernel" in locked[1]
    assert homework.verdict(name, wrongs[-1]) == locked


def _different_wrong_answers(name: str, count: int) -> list:
    spec = TASKS[name]
    if spec.kind == "number":
        return [1000.0 + 7 * i for i in range(count)]
    if spec.kind == "proof":
        m, n, theta = sp.symbols("m n theta", real=True)
        return [sp.cos((m + n) * theta) * (i + 2) for i in range(count)]
    source = BUGS[name][0][0]
    return [_exec(source.replace("[:-1]", f"[:-{i + 1}]")) for i in range(count)]


def test_repeats_form_errors_and_starters_cost_nothing():
    for count in range(3 * BUDGETS["number"]):
        assert homework.verdict("decay-half", 12.0)[0] == homework.NOT_YET
        assert homework.verdict("decay-half", str(count))[0] == homework.NOT_YET
        assert homework.verdict("decay-half", [count])[0] == homework.NOT_YET
        assert homework.verdict("decay-half", ...)[0] == homework.NOT_ATTEMPTED
    right = _right_answer("decay-half")
    assert homework.verdict("decay-half", right)[0] == homework.CORRECT


def test_the_budgets_are_the_ones_the_pages_state():
    module = homework.__doc__
    page = (ROOT / "book" / "instructor" / "homework_answers.md").read_text()
    stated = (
        "6 for a value, 8 for a value with a property, 12 for a proof\n"
        "step, 20 for a function"
    )
    assert stated in module
    assert [BUDGETS[k] for k in ("number", "property", "proof", "code")] == [
        6,
        8,
        12,
        20,
    ]
    assert "6 for a number, an integer, a tuple or a boolean, 8 for a value" in page
    assert "12 for a proof step and 20 for a function" in page
    assert {BUDGETS[k] for k in ("integer", "integers", "boolean", "number")} == {6}
    assert "within ten tolerances" in page and NEAR == 10


def _candidates(name: str, count: int = 10_000) -> list:
    """What a loop tries, in order: a grid that holds the answer (so that
    without the budget it finds it), starting far from it."""
    spec = TASKS[name]
    right = _right_answer(name)
    if spec.kind == "number":
        start = right - (count // 2) * spec.tolerance
        return [start + i * spec.tolerance for i in range(count)]
    if spec.kind == "integer":
        return list(
            range(max(0, right - count // 2), max(0, right - count // 2) + count)
        )
    if spec.kind == "boolean":
        return [False, True]
    if spec.kind == "integers":
        return list(itertools.product(range(7), repeat=2))
    if name == "encoding-inverse-permutation":
        return [
            list(p) for p in itertools.islice(itertools.permutations(range(8)), count)
        ]
    if name == "complex-clockwise":
        return [
            np.reshape(p, (2, 2)).tolist()
            for p in itertools.product((-1, 0, 1), repeat=4)
        ]
    grid = np.linspace(0, 4, 100)  # decay-rms-break: pairs of frequencies
    return list(itertools.product(grid, grid))[:count]


#: Value tasks whose answer a loop finds within 100 calls (without the
#: budget): few possible answers, or many right ones. The answer-key page
#: names them; their credit is in the written reason.
GUESSABLE = {
    "symmetry-maxpool",
    "symmetry-causal",
    "symmetry-repeated",
    "complex-clockwise",
    "decay-rms-break",
}


def _loop(name: str, candidates: list, judging) -> int | None:
    """The index of the first candidate judged right, or None."""
    for index, candidate in enumerate(candidates[:10_000]):
        if judging(name, candidate)[0] == homework.CORRECT:
            return index
    return None


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_loop_over_check_finds_no_answer(name):
    """10,000 calls over a grid that holds the answer: without the budget
    (judge) the loop finds it, through check it does not, except for the
    GUESSABLE tasks, which the loop finds within 100 calls even without a
    budget."""
    candidates = _candidates(name)
    found = _loop(name, candidates, judged)
    assert found is not None  # the loop works
    assert (found < 100) == (name in GUESSABLE), found
    if name not in GUESSABLE:
        assert _loop(name, candidates, homework.verdict) is None


@pytest.mark.parametrize(
    "name", sorted(n for n, t in TASKS.items() if t.kind == "number")
)
def test_a_loop_guided_by_close_finds_no_answer(name):
    """A scan in steps of NEAR tolerances until "close", then in steps of
    one: it finds the answer without the budget, not with it."""
    spec = TASKS[name]
    right = _right_answer(name)
    start = right - 4_000 * spec.tolerance

    def scan(judging) -> bool:
        calls, value = 0, start
        while calls < 10_000:
            status, message = judging(name, value)
            calls += 1
            if status == homework.CORRECT:
                return True
            if message.startswith("not yet, but close"):
                for step in range(-2 * NEAR, 2 * NEAR):
                    calls += 1
                    if (
                        judging(name, value + step * spec.tolerance)[0]
                        == homework.CORRECT
                    ):
                        return True
            value += NEAR * spec.tolerance
        return False

    assert scan(judged)
    assert not scan(homework.verdict)


# ------------------------------------------------------------ hints


def _normal(text: str) -> str:
    """Text as compared with a formula: case, spaces, brackets and the
    ways of writing a product, a minus, pi, a root or a power ignored."""
    text = text.lower()
    for old, new in [
        ("−", "-"),
        ("π", "pi"),
        ("√", "sqrt"),
        ("θ", "theta"),
        ("Δ".lower(), "delta"),
        ("γ", "gamma"),
        ("**", "^"),
        ("₀", "0"),
        ("₁", "1"),
        ("½", "1/2"),
        ("np.", ""),
    ]:
        text = text.replace(old, new)
    return re.sub(r"[\s·×*()\[\]{}]", "", text)


def contains_formula(text: str, formula: str) -> bool:
    return _normal(formula) in _normal(text)


#: Each task's answer and final formula, as a hint might write them: no
#: hint or slip message may contain one (after ``_normal``).
FORMULAS = {
    "encoding-slowest-period": ["2π/θ", "base^(−(d−2)/d)", "d/2 − 1", "10^(4·510/512)"],
    "encoding-max-distance": ["d − 2 g", "d - 2g(m − n)"],
    "encoding-inverse-permutation": ["d/2 + i", "argsort"],
    "symmetry-maxpool": ["True", "still blind", "symmetric function"],
    "symmetry-causal": ["(1, 6)", "one distinct", "1 distinct"],
    "symmetry-repeated": ["(1, 2)", "positions 1 and 2"],
    "taylor-rank": ["d_k ≥ d", "d_k = d", "at least d", "rank d"],
    "taylor-cosines": ["½[cos", "cos(a − b) + cos(a + b)", "m + n = 203"],
    "complex-radii": ["(1 + 0.1m)(1 + 0.1n)", "cos((m − n)θ)", "cos(0.6)"],
    "complex-clockwise": ["diag(1, −1)", "[[1, 0], [0, −1]]", "reflect"],
    "decay-half": ["brentq", "between 10 and 1000"],
    "decay-cube-exponent": ["−1/3", "Δ^(−1/3)"],
    "decay-cube-constant": ["Γ(4/3)", "cos(π/6)"],
    "decay-rope-threshold": ["πd / ln", "π·128/ln", "pi*d/log"],
    "decay-double-nyquist": ["2π/(1 − base^(−2/d))", "base^(−2/d)"],
    "decay-rms-break": ["equal", "θ₀ = θ₁", "one is 0", "(0.5, 0.5)", "θ₀ = π"],
    "decay-linear-zero": ["sin(Δ)/Δ", "sinΔ/Δ", "= π"],
    "decay-linear-period": ["πd", "64π", "2Δ/d a multiple of 2π"],
    "rope-mix-leakage": ["0.96"],
    "encoding-distance": ["d − 2g", "sqrt(d - 2"],
    "symmetry-invisible-swaps": ["p_i = p_j", "allclose(table[i], table[j]"],
    "complex-from-g": ["arccos(g(1)/g(0))", "√g(0)", "sqrt(g0)", "arccos"],
    "decay-realignment": ["2π/(θ₀ − θ₁)", "θ₀ − θ₁"],
    "taylor-product-to-sum": ["(cos(a − b) + cos(a + b))/2", "½[cos", "cos((m−n)θ)"],
    "taylor-sum-part": ["cos((m + n)θ)/2", "½cos((m+n)"],
    "complex-clockwise-product": ["cos((m − n)θ)", "cos(mθ − nθ)"],
    "decay-log-drop": ["ln c/ln base", "log(c)/log(base)", "ln(c)/"],
    "decay-rms-expansion": ["1 + ½cos", "cos(Δ(θ₀ − θ₁))", "cos(2Δθ"],
    "rope-sine-coefficient": ["q0k1 − q1k0", "q₀k₁ − q₁k₀", "q1k0 − q0k1"],
    "rope-rotate": ["np.repeat", "(-x[1::2]", "(−v_1, v_0"],
    "rope-relative": ["R_(n−m)", "R_{n-m}", "−delta", "rotate(k, -", "−Δ"],
    "rope-orbit": ["(1, 0, 1, 0", "tile([1", "[1, 0, 3, 2", "pair_swap"],
    "rope-rotate-half": ["np.tile", "concatenate([-x[half:]", "x[:half]]"],
    "rope-batch": [
        "x[..., 0::2]",
        "x[..., ::2]",
        "[..., None]",
        "broadcast_to(positions",
        "np.repeat",
        "np.tile",
    ],
    "rope-complex": ["exp(1j", "e^(itθ", "e^{itθ", "+ 1j *", "cos(tθ) + i sin"],
}


def _hint_texts(name: str) -> list[str]:
    task = TASKS[name]
    return [task.hint, *task.slips.values()]


def test_the_formula_detector_finds_the_old_hints():
    """The hints before issue 21 stated formulas; the detector sees them."""
    old = {
        "decay-rope-threshold": "Δ₁ = πd / ln(base).",
        "decay-linear-zero": "The integral is sin(Δ)/Δ.",
        "taylor-cosines": "cos a cos b = ½[cos(a − b) + cos(a + b)]: the part in m + n "
        "is the second half-sum, at m + n = 203.",
        "decay-double-nyquist": "Solve Δ(θ₀ − θ₁) = 2π for Δ, with θ₀ = 1 and θ₁ = "
        "base^(−2/d).",
        "complex-radii": "⟨p_m, p_n⟩ = (1 + 0.1m)(1 + 0.1n) cos((m − n)θ): the radii "
        "multiply the cosine of the angle between the two points.",
    }
    for name, hint in old.items():
        assert any(contains_formula(hint, f) for f in FORMULAS[name]), name


@pytest.mark.parametrize("name", sorted(TASKS))
def test_no_hint_states_the_formula(name):
    for text in _hint_texts(name):
        for formula in FORMULAS[name]:
            assert not contains_formula(text, formula), (text, formula)


NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@pytest.mark.parametrize("name", sorted(WRONG))
def test_no_hint_holds_a_number_the_check_accepts(name):
    """Every number written in a hint or a slip message (a minus sign as
    '−' too) is neither accepted nor called close, and no tuple of them is
    the answer."""
    for text in _hint_texts(name):
        plain = text.replace("−", "-")
        numbers = [float(x) for x in NUMBER.findall(plain)]
        candidates = [*numbers, *(int(x) for x in numbers if x == int(x))]
        candidates += list(itertools.permutations(candidates, 2))
        for candidate in candidates:
            status, message = judged(name, candidate)
            assert status != homework.CORRECT, (text, candidate)
            assert not message.startswith("not yet, but close"), (text, candidate)
