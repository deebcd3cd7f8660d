"""Homework steps of proofs, checked by sympy ("proof" tasks).

The student states an identity or an intermediate step as a sympy
expression (or a string sympy can read) in the symbols the task names.
The check

* reads it with the task's symbols, matched by name (``sp.symbols("m n")``
  with or without assumptions), and refuses other symbols;
* decides equality with the target by evaluating the difference with
  sympy at hidden random points to 30 digits (an identity vanishes there;
  a false step between analytic expressions does not, but with
  probability 0);
* checks the form the step asks for, so that the goal restated is
  rejected: a product of cosines "turned into a sum" must contain no
  product or power of trigonometric functions, an inner product "as a
  function of m − n" must lose n when m = n + Δ is substituted (without
  simplifying), a "drop that does not depend on Δ" must not contain Δ.

A failure names what does not hold, never the expected expression. sympy
is imported when a proof is checked: it is in the notebooks' extra, not
among ``posenc``'s dependencies.
"""

from __future__ import annotations

import numbers

import numpy as np

from .homework_judge import AnswerForm, Task, Unmet


def _sympy():
    import sympy  # here, not at the top: only the proof tasks need it

    return sympy


def _symbols(names: tuple[str, ...], positive: tuple[str, ...] = ()) -> dict:
    sp = _sympy()
    return {
        name: sp.Symbol(name, positive=True)
        if name in positive
        else sp.Symbol(name, real=True)
        for name in names
    }


def _expression(answer: object, symbols: dict, example: str):
    """``answer`` as a sympy expression in ``symbols`` (matched by name)."""
    sp = _sympy()
    form = AnswerForm(
        f"the answer is a sympy expression in {', '.join(symbols)} (or a "
        f"string sympy can read), e.g. {example}."
    )
    if isinstance(answer, str):
        try:
            answer = sp.parse_expr(answer, local_dict=dict(symbols))
        except Exception:  # any text sympy cannot read
            raise form from None
    if isinstance(answer, (bool, np.bool_)):
        raise form
    if isinstance(answer, numbers.Real):
        answer = sp.sympify(answer)
    if isinstance(answer, sp.Equality):
        raise AnswerForm("give an expression, not an equation: the side asked for.")
    if not isinstance(answer, sp.Expr):
        raise form
    unknown = sorted({s.name for s in answer.free_symbols} - set(symbols))
    if unknown:
        raise AnswerForm(
            f"the expression uses {', '.join(unknown)}; this task's symbols "
            f"are {', '.join(symbols)}."
        )
    return answer.xreplace({s: symbols[s.name] for s in answer.free_symbols})


def _equal(expression, target) -> bool:
    """Whether ``expression`` equals ``target`` identically: their
    difference, evaluated by sympy with 30 digits at six hidden random
    points, vanishes at each (to 1e-20 of the target's size). An identity
    passes; two different analytic expressions agree at random points
    with probability 0, so a false step fails. (Simplifying the difference
    to 0 would prove more, but sympy cannot always, and it is slow.)"""
    sp = _sympy()
    difference = expression - target
    rng = np.random.default_rng(20_240_521)
    free = sorted(difference.free_symbols | target.free_symbols, key=str)
    for _ in range(6):
        point = {
            s: sp.Float(
                rng.uniform(1.5, 9.0) if s.is_positive else rng.uniform(-3, 3), 30
            )
            for s in free
        }
        value = difference.evalf(30, subs=point)
        scale = target.evalf(30, subs=point)
        try:
            gap, size = abs(complex(value)), abs(complex(scale))
        except (TypeError, ValueError):
            return False
        if not gap <= 1e-20 * (1 + size):
            return False
    return True


def _single_angles(expression, independent, linear_in) -> bool:
    """Whether ``expression`` is a sum of terms, each a constant or a
    constant times one sine or cosine of an angle linear in ``linear_in``:
    no product or power of trigonometric functions."""
    sp = _sympy()
    for term in sp.Add.make_args(sp.expand(expression)):
        _, rest = term.as_independent(*independent, as_Add=False)
        if rest == 1:
            continue
        if not isinstance(rest, (sp.cos, sp.sin)):
            return False
        angle = rest.args[0]
        if any(angle.diff(v).free_symbols & set(linear_in) for v in linear_in):
            return False
    return True


def _without(expression, symbol, substitution) -> bool:
    """Whether ``symbol`` disappears from ``expression`` after
    ``substitution`` (a dict) and expanding, without simplifying."""
    sp = _sympy()
    return symbol not in sp.expand(expression.subs(substitution)).free_symbols


_NOT_EQUAL = " (compared at random values of the symbols, to 30 digits)"


def product_to_sum(answer: object) -> None:
    sp = _sympy()
    s = _symbols(("m", "n", "theta"))
    m, n, theta = s.values()
    expression = _expression(answer, s, "sp.cos(m * theta) / 2")
    if not _equal(expression, sp.cos(m * theta) * sp.cos(n * theta)):
        raise Unmet(f"it is not equal to cos(mθ)·cos(nθ){_NOT_EQUAL}")
    if not _single_angles(expression, (m, n, theta), (m, n)):
        raise Unmet(
            "it still multiplies (or raises to a power) trigonometric "
            "functions; the step turns the product into a sum of sines or "
            "cosines of single angles"
        )


def sum_part(answer: object) -> None:
    sp = _sympy()
    s = _symbols(("m", "n", "theta"))
    m, n, theta = s.values()
    expression = _expression(answer, s, "sp.cos(m * theta) / 2")
    total = sp.cos(m * theta) * sp.cos(n * theta)
    if not expression.has(m) and not expression.has(n):
        raise Unmet("your part does not change with m + n")
    along_sum = sp.Symbol("S", real=True)
    if not _without(expression, n, {m: along_sum - n}):
        raise Unmet(
            "your part is not written as a function of m + n alone: with "
            "m = S − n, n is left in it"
        )
    shift = sp.Symbol("shift", real=True)
    rest = total - expression
    moved = rest.subs({m: m + shift, n: n + shift}, simultaneous=True)
    if not _equal(moved, rest):
        raise Unmet(
            "what is left, cos(mθ)·cos(nθ) minus your part, changes when both "
            "positions move by the same amount: it is not a function of m − n "
            "alone"
        )


def clockwise_product(answer: object) -> None:
    sp = _sympy()
    s = _symbols(("m", "n", "theta"))
    m, n, theta = s.values()
    expression = _expression(answer, s, "sp.cos(m * theta)")
    inner = sp.cos(m * theta) * sp.cos(n * theta) + sp.sin(m * theta) * sp.sin(
        n * theta
    )
    if not _equal(expression, inner):
        raise Unmet(f"it is not ⟨p_m, p_n⟩ for the clockwise hands{_NOT_EQUAL}")
    offset = sp.Symbol("Delta", real=True)
    if not _without(expression, n, {m: n + offset}):
        raise Unmet(
            "it is equal, but not written with m − n alone: with m = n + Δ, "
            "n is left in it"
        )


def log_drop(answer: object) -> None:
    sp = _sympy()
    s = _symbols(("c", "base", "delta"), positive=("c", "base", "delta"))
    c, base, delta = s.values()
    expression = _expression(answer, s, "sp.log(c) / 2")

    def law(x):
        return 1 - (sp.log(x) + sp.EulerGamma) / sp.log(base)

    if not _equal(expression, law(delta) - law(c * delta)):
        raise Unmet(
            "it is not the drop of the log law from offset Δ to offset cΔ" + _NOT_EQUAL
        )
    if delta in expression.free_symbols:
        raise Unmet(
            "it is right, but still written with Δ: simplify it until Δ is "
            "gone, which shows that the drop is the same at every offset"
        )


def rms_expansion(answer: object) -> None:
    sp = _sympy()
    s = _symbols(("delta", "theta0", "theta1"))
    delta, theta0, theta1 = s.values()
    expression = _expression(answer, s, "1 + sp.cos(2 * delta * theta0) / 2")
    square = (sp.cos(delta * theta0) + sp.cos(delta * theta1)) ** 2
    if not _equal(expression, square):
        raise Unmet(f"it is not equal to g(Δ)²{_NOT_EQUAL}")
    if not _single_angles(expression, (delta, theta0, theta1), (delta,)):
        raise Unmet(
            "it still multiplies (or squares) trigonometric functions; the "
            "expansion asks for a constant plus cosines of single angles"
        )


def sine_coefficient(answer: object) -> None:
    sp = _sympy()
    s = _symbols(("q0", "q1", "k0", "k1"))
    q0, q1, k0, k1 = s.values()
    m, n, theta = _symbols(("m", "n", "theta")).values()
    expression = _expression(answer, s, "q0 * k1")

    def turn(angle):
        return sp.Matrix(
            [[sp.cos(angle), -sp.sin(angle)], [sp.sin(angle), sp.cos(angle)]]
        )

    score = (
        (turn(m * theta) * sp.Matrix([q0, q1])).T
        * (turn(n * theta) * sp.Matrix([k0, k1]))
    )[0]
    a = q0 * k0 + q1 * k1
    offset = (m - n) * theta
    if not _equal(a * sp.cos(offset) + expression * sp.sin(offset), score):
        raise Unmet(
            "with your b, a·cos((m − n)θ) + b·sin((m − n)θ) is not the score "
            "⟨R(mθ)q, R(nθ)k⟩" + _NOT_EQUAL
        )


_SYMBOLS = 'm, n, theta = sp.symbols("m n theta", real=True)\n'

PROOF_TASKS = [
    Task(
        name="taylor-product-to-sum",
        chapter="taylor_expansion",
        exercise="ex-taylor-cosines",
        prompt=(
            "A step of the proof, checked by sympy: write $\\cos m\\theta\\,"
            "\\cos n\\theta$ as a sum of sines or cosines of single angles, "
            "with no product or power of trigonometric functions left (a "
            "sympy expression in `m`, `n`, `theta`). Restating the product "
            "is not accepted."
        ),
        starter=_SYMBOLS + "answer = ...",
        kind="proof",
        hint=(
            "Add the addition formulas for the cosine of a sum and of a "
            "difference of two angles, or write each cosine with complex "
            "exponentials and multiply out."
        ),
        test=product_to_sum,
    ),
    Task(
        name="taylor-sum-part",
        chapter="taylor_expansion",
        exercise="ex-taylor-cosines",
        prompt=(
            "For one frequency, split $\\cos m\\theta\\,\\cos n\\theta$ into a "
            "part that depends on the positions only through $m + n$ and a "
            "rest that depends only on $m - n$. Give the first part (a sympy "
            "expression written with `m + n`; a constant may go in either "
            "part). The check tests both halves of the split."
        ),
        starter=_SYMBOLS + "answer = ...",
        kind="proof",
        hint=(
            "Use the product-to-sum identity: one of its two terms has an "
            "angle in m + n."
        ),
        test=sum_part,
    ),
    Task(
        name="complex-clockwise-product",
        chapter="complex_solution",
        exercise="ex-complex-clockwise",
        prompt=(
            "For the clockwise hands $p_m = (\\cos m\\theta, -\\sin m\\theta)$: "
            "write $\\langle p_m, p_n\\rangle$ as a sympy expression in which "
            "the positions appear only through $m - n$. The check substitutes "
            "$m = n + \\Delta$ without simplifying, so the product written "
            "out is not accepted."
        ),
        starter=_SYMBOLS + "answer = ...",
        kind="proof",
        hint=(
            "Multiply the coordinates out, then use the addition formula "
            "for the cosine of a difference of two angles."
        ),
        test=clockwise_product,
    ),
    Task(
        name="decay-log-drop",
        chapter="decay_integral",
        exercise="ex-decay-half",
        prompt=(
            "By the log law, $I(\\Delta) \\approx 1 - (\\ln\\Delta + \\gamma)"
            "/\\ln\\mathrm{base}$ for $\\Delta > 0$: by how much does $I$ "
            "fall when the offset is multiplied by a factor $c$, from "
            "$\\Delta$ to $c\\Delta$? A sympy expression in `c` and `base`; "
            "it must not contain `delta`."
        ),
        starter=(
            'delta, c, base = sp.symbols("delta c base", positive=True)\nanswer = ...'
        ),
        kind="proof",
        hint=(
            "Subtract the law at cΔ from the law at Δ, and split the "
            "logarithm of a product."
        ),
        test=log_drop,
    ),
    Task(
        name="decay-rms-expansion",
        chapter="decay_finite_d",
        exercise="ex-decay-rms-proof",
        prompt=(
            "The first step of the proof: expand $g(\\Delta)^2 = (\\cos\\Delta"
            "\\theta_0 + \\cos\\Delta\\theta_1)^2$ into a constant and cosines "
            "of single angles, with no product or power of trigonometric "
            "functions left (a sympy expression in `delta`, `theta0`, "
            "`theta1`). The square written out is not accepted."
        ),
        starter=(
            "delta, theta0, theta1 = sp.symbols(\n"
            '    "delta theta0 theta1", real=True\n'
            ")\n"
            "answer = ..."
        ),
        kind="proof",
        hint=(
            "Square the sum, then turn each square into a cosine of a "
            "double angle and the cross product into a sum with the "
            "product-to-sum identity."
        ),
        test=rms_expansion,
    ),
    Task(
        name="rope-sine-coefficient",
        chapter="rope",
        exercise="ex-rope-direction",
        prompt=(
            "For $d = 2$ (one pair, one frequency $\\theta$) the RoPE score is "
            "$\\langle R(m\\theta)q, R(n\\theta)k\\rangle = a\\cos((m-n)\\theta) "
            "+ b\\sin((m-n)\\theta)$ with $a = q_0k_0 + q_1k_1$. Give $b$, a "
            "sympy expression in `q0`, `q1`, `k0`, `k1`: the coefficient "
            "that makes the score odd in $m - n$."
        ),
        starter=('q0, q1, k0, k1 = sp.symbols("q0 q1 k0 k1", real=True)\nanswer = ...'),
        kind="proof",
        hint=(
            "Move both rotations onto the key, R(mθ)ᵀR(nθ) = R((n − m)θ), "
            "multiply out qᵀR((n − m)θ)k and collect the terms of the sine; "
            "mind its sign."
        ),
        test=sine_coefficient,
    ),
]
