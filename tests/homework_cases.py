"""What the homework tests answer: the answer key's cells, wrong answers,
and wrong functions and proof steps (``test_homework.py``,
``test_homework_notebooks.py``).

The reference answers are the cells of the answer-key page
(``book/instructor/homework_answers.md``), one a task, each headed by a
comment that starts with the task's name.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import jupytext
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
KEY = ROOT / "book" / "instructor" / "homework_answers.md"


def answer_key() -> dict[str, str]:
    """The code of the answer key by task."""
    cells = {}
    for cell in jupytext.read(KEY).cells:
        first = cell.source.splitlines()[0] if cell.source else ""
        if cell.cell_type == "code" and first.startswith("# "):
            (name,) = re.findall(r"[a-z]+(?:-[a-z]+)+", first.split(":")[0])
            cells[name] = cell.source
    return cells


def key_imports() -> str:
    """The answer key's first code cell: its imports."""
    return next(c.source for c in jupytext.read(KEY).cells if c.cell_type == "code")


KEY_CELLS = answer_key()


def run_key(name: str) -> tuple[str, dict]:
    """Run the answer-key cell of ``name`` after the key's imports; what
    it printed, and its namespace."""
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(key_imports(), namespace)
        exec(KEY_CELLS[name], namespace)
    return out.getvalue(), namespace


#: For each value task, answers that are wrong (a near miss where one
#: exists; some of another form).
WRONG = {
    "encoding-slowest-period": [62832, 60612, 60611.0, "60611"],
    "encoding-max-distance": [11.3137, 9.52, 9.54],
    "encoding-inverse-permutation": [[0, 1, 2, 3, 4, 5, 6, 7], [0, 2, 4, 6, 1, 3]],
    "symmetry-maxpool": [False, 1],
    "symmetry-causal": [(1, 1), (6, 1), (2, 2)],
    "symmetry-repeated": [(0, 1), (0, 2), (2, 1)],
    "taylor-rank": [511, 64, 512.0],
    "taylor-cosines": [-4.67733, 4.69, 0.0],
    "complex-radii": [0.619, -0.60, -0.6212],
    "complex-clockwise": [[[0, 1], [1, 0]], [[1, 0], [0, 1]], [[2, 0], [0, -2]]],
    "decay-half": [177.549, 178.5, float("nan")],
    "decay-cube-exponent": [-1.0, -0.5, -0.3],
    "decay-cube-constant": [0.80, 0.76],
    "decay-rope-threshold": [43.7, 21.83],
    "decay-double-nyquist": [174.6, 177.78, 177.83],
    "decay-rms-break": [
        (1.0, 2.0),
        (0.3, 0.7),
        "0.5, 0.5",
        (1.0, 1.0000001),
        (1e13, 0.3),  # 2e13 is 0.586 from the nearest multiple of 2 pi
        ("0.5", "0.5"),
        (True, True),
    ],
    "decay-linear-zero": [np.pi / 2, 3.15],
    "decay-linear-period": [64.0, 2 * np.pi * 64, 201.08],
    "rope-mix-leakage": [0.0, 0.8323, 0.96, 1.0],
}

#: Wrong proof steps: (source defining ``answer``, words of the message).
#: The first of each is the goal restated, or equal but of the wrong form.
_M_N = 'm, n, theta = sp.symbols("m n theta", real=True)\n'
WRONG_PROOFS = {
    "taylor-product-to-sum": [
        (_M_N + "answer = sp.cos(m * theta) * sp.cos(n * theta)", "multiplies"),
        (_M_N + "answer = sp.cos((m - n) * theta) / 2", "not equal"),
        (
            _M_N + "answer = (sp.cos((m - n) * theta) - sp.cos((m + n) * theta)) / 2",
            "not equal",
        ),
    ],
    "taylor-sum-part": [
        (_M_N + "answer = sp.cos(m * theta) * sp.cos(n * theta)", "not written"),
        (
            _M_N + "answer = sp.cos(m * theta) * sp.cos(n * theta)"
            " - sp.cos((m - n) * theta) / 2",
            "not written",
        ),
        (_M_N + "answer = sp.cos((m + n) * theta)", "changes when both"),
        (_M_N + "answer = sp.Integer(3)", "does not change"),
    ],
    "complex-clockwise-product": [
        (
            _M_N + "answer = sp.cos(m * theta) * sp.cos(n * theta)"
            " + sp.sin(m * theta) * sp.sin(n * theta)",
            "not written",
        ),
        (_M_N + "answer = sp.cos((m + n) * theta)", "not ⟨p_m, p_n⟩"),
    ],
    "decay-log-drop": [
        (
            'delta, c, base = sp.symbols("delta c base", positive=True)\n'
            "answer = (sp.log(c * delta) - sp.log(delta)) / sp.log(base)",
            "still written with Δ",
        ),
        (
            'delta, c, base = sp.symbols("delta c base", positive=True)\n'
            "answer = sp.log(c)",
            "not the drop",
        ),
    ],
    "decay-rms-expansion": [
        (
            'delta, theta0, theta1 = sp.symbols("delta theta0 theta1")\n'
            "answer = (sp.cos(delta * theta0) + sp.cos(delta * theta1)) ** 2",
            "multiplies",
        ),
        (
            'delta, theta0, theta1 = sp.symbols("delta theta0 theta1")\n'
            "answer = 1 + sp.cos(delta * (theta0 - theta1))",
            "not equal",
        ),
    ],
    "rope-sine-coefficient": [
        (
            'q0, q1, k0, k1 = sp.symbols("q0 q1 k0 k1", real=True)\n'
            "answer = q1 * k0 - q0 * k1",
            "not the score",
        ),
        (
            'q0, q1, k0, k1, m = sp.symbols("q0 q1 k0 k1 m")\nanswer = m * q0 * k1',
            "symbols are",
        ),
    ],
}

#: For each function task, wrong functions: (source defining ``answer``,
#: the index in the task's ``hidden`` of the first test it must fail).
#: Together they make every hidden test fail once.
_DISTANCE = """\
def distance(delta, d, base=1e4):
    g = posenc.inner_product(delta, d, base)
    return {}
answer = distance
"""
_SWAPS = """\
def invisible_swaps(table):
    n = len(table)
    same = lambda i, j: {}
    return {{(i, j) for i in range(n) for j in range(i + 1, n) if same(i, j)}}
answer = invisible_swaps
"""
_POINTS = """\
def points(g0, g1, phi0, count, sign=1):
    step = np.arccos(g1 / g0)
    angles = {}
    radii = {}
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return {}
answer = points
"""
_REALIGN = """\
def realignment(d, base=1e4):
    theta = posenc.frequencies(d, base)
    return {}
answer = realignment
"""
_ROPE = """\
def rope(x, t, base=1e4):
    {}
    frequencies = {}
    angles = np.{}(t * frequencies, 2)
    swapped = np.stack([{}], axis=-1).reshape(-1)
    return {}
answer = rope
"""


def _rope(
    before="pass",
    frequencies="posenc.frequencies(len(x), base)",
    spread="repeat",
    turned="-x[1::2], x[0::2]",
    result="x * np.cos(angles) + swapped * np.sin(angles)",
):
    return _ROPE.format(before, frequencies, spread, turned, result)


_HALF = """\
def rope_half(x, t, base=1e4):
    {}
    half = len(x) // 2
    angles = np.{}(t * posenc.frequencies(len(x), {}), 2)
    turned = np.concatenate([{}])
    return {}
answer = rope_half
"""


def _half(
    before="pass",
    spread="tile",
    base="base",
    turned="-x[half:], x[:half]",
    result="x * np.cos(angles) + turned * np.sin(angles)",
):
    return _HALF.format(before, spread, base, turned, result)


_SCORE = """\
def score(q, k, delta):
    return {}
answer = score
"""
_ORBIT = """\
def orbit(d):
    return {}, {}
answer = orbit
"""
_SWAP_PAIRS = "np.arange(d).reshape(-1, 2)[:, ::-1].reshape(-1)"

_BATCH = """\
def rope_batch(x, positions, pairing="interleaved", base=1e4):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    {check}
    if pairing == "interleaved":
        first, second = x[..., 0::2], x[..., 1::2]
    else:
        first, second = x[..., : d // 2], x[..., d // 2 :]
    t = {positions}
    angles = t * posenc.frequencies(d, {base})
    cos, sin = np.cos(angles), np.sin(angles)
    turned = [first * cos - second * sin, first * sin + second * cos]
    if pairing == "interleaved":
        return {interleaved}
    return {halves}
answer = rope_batch
"""
_REFUSE = """if d % 2 or pairing not in ("interleaved", "half-split"):
        raise ValueError("an even width and a known pairing")"""
_EACH = "np.broadcast_to(positions, x.shape[:-1])[..., None]"


def _batch(
    check=_REFUSE,
    positions=_EACH,
    base="base",
    interleaved="np.stack(turned, axis=-1).reshape(x.shape)",
    halves="np.concatenate(turned, axis=-1)",
):
    return _BATCH.format(
        check=check,
        positions=positions,
        base=base,
        interleaved=interleaved,
        halves=halves,
    )


_COMPLEX = """\
def rope_complex(x, positions, pairing="interleaved", base=1e4):
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    {check}
    if pairing == "interleaved":
        pairs = {interleaved}
    else:
        pairs = {halves}
    t = {positions}
    return {result}
answer = rope_complex
"""


def _complex(
    check=_REFUSE,
    interleaved="x[..., 0::2] + 1j * x[..., 1::2]",
    halves="x[..., : d // 2] + 1j * x[..., d // 2 :]",
    positions=_EACH,
    result="pairs * np.exp(1j * t * posenc.frequencies(d, base))",
):
    return _COMPLEX.format(
        check=check,
        interleaved=interleaved,
        halves=halves,
        positions=positions,
        result=result,
    )


BUGS = {
    "encoding-distance": [
        (_DISTANCE.format("float(np.sum(d - 2 * g))"), 0),
        (_DISTANCE.format("np.sqrt(d - 2 * g) + 1"), 1),
        (_DISTANCE.format("np.sqrt(np.maximum(d - 2 * g, 0)) / 2"), 2),
        (_DISTANCE.format("np.sign(delta) * np.sqrt(np.maximum(d - 2 * g, 0))"), 3),
        (
            _DISTANCE.format(
                "np.sqrt(np.maximum(d - 2 * posenc.inner_product(delta, d), 0))"
            ),
            4,
        ),
        (
            _DISTANCE.format(
                "np.sqrt(np.maximum(d - 2 * posenc.inner_product("
                "np.round(delta), d, base), 0))"
            ),
            5,
        ),
    ],
    "symmetry-invisible-swaps": [
        (
            "def invisible_swaps(table):\n"
            "    return {(2, 1)}\n"
            "answer = invisible_swaps",
            0,
        ),
        (_SWAPS.format("True"), 1),
        (_SWAPS.format("False"), 2),
        (_SWAPS.format("j == i + 1 and np.allclose(table[i], table[j])"), 3),
        (
            # only the rows equal to the first row that has a twin
            "def invisible_swaps(table):\n"
            "    n = len(table)\n"
            "    twins = [(i, j) for i in range(n) for j in range(i + 1, n)\n"
            "             if np.allclose(table[i], table[j], atol=1e-12)]\n"
            "    if not twins:\n"
            "        return set()\n"
            "    first = table[twins[0][0]]\n"
            "    return {(i, j) for i, j in twins\n"
            "            if np.allclose(table[i], first, atol=1e-12)}\n"
            "answer = invisible_swaps",
            4,
        ),
        (_SWAPS.format("np.array_equal(table[i], table[j])"), 5),
        (_SWAPS.format("np.allclose(table[i], table[j], rtol=0, atol=1e-6)"), 6),
        (
            "def invisible_swaps(table):\n"
            "    assert len(table) > 1, 'needs two rows'\n"
            "    n = len(table)\n"
            "    return {(i, j) for i in range(n) for j in range(i + 1, n)\n"
            "            if np.allclose(table[i], table[j], rtol=0, atol=1e-12)}\n"
            "answer = invisible_swaps",
            7,
        ),
    ],
    "complex-from-g": [
        (
            _POINTS.format(
                "phi0 + sign * step * np.arange(count)",
                "np.sqrt(g0)",
                "(radii * unit).T",
            ),
            0,
        ),
        (
            _POINTS.format(
                "sign * step * np.arange(count)", "np.sqrt(g0)", "radii * unit"
            ),
            1,
        ),
        (
            _POINTS.format(
                "phi0 + sign * step * np.arange(count)",
                "np.sqrt(g0) * (1 + 0.01 * np.arange(count))[:, None]",
                "radii * unit",
            ),
            2,
        ),
        (
            _POINTS.format(
                "phi0 + sign * step / 2 * np.arange(count)",
                "np.sqrt(g0)",
                "radii * unit",
            ),
            3,
        ),
        (
            _POINTS.format(
                "phi0 + sign * step * np.r_[0:5, 3:-1:-1][:count]",
                "np.sqrt(g0)",
                "radii * unit",
            ),
            4,
        ),
        (
            _POINTS.format(
                "phi0 - sign * step * np.arange(count)", "np.sqrt(g0)", "radii * unit"
            ),
            5,
        ),
        (
            _POINTS.format(
                "phi0 + step * np.arange(count)", "np.sqrt(g0)", "radii * unit"
            ),
            6,
        ),
    ],
    "decay-realignment": [
        (_REALIGN.format("2 * np.pi / (theta[1] - theta[0])"), 0),
        (_REALIGN.format("np.pi * d / np.log(base)"), 1),
        (
            _REALIGN.format("2 * np.pi / (1 - posenc.frequencies(d)[1])"),
            2,
        ),
        (_REALIGN.format("2 * np.pi / (theta[0] - theta[1])"), 3),
    ],
    "rope-rotate": [
        (_rope(result="(x * np.cos(angles) + swapped * np.sin(angles))[:-1]"), 0),
        (
            _rope(
                result="np.copyto(x, x * np.cos(angles) + swapped * np.sin(angles))"
                " or x"
            ),
            1,
        ),
        (_rope(before="t = t + 1"), 2),
        (_rope(spread="tile"), 3),
        (_rope(before="t = abs(t)"), 4),
        (
            # the half-split pairing under the interleaved name
            "def rope(x, t, base=1e4):\n"
            "    half = len(x) // 2\n"
            "    angles = np.tile(t * posenc.frequencies(len(x), base), 2)\n"
            "    turned = np.concatenate([-x[half:], x[:half]])\n"
            "    return x * np.cos(angles) + turned * np.sin(angles)\n"
            "answer = rope",
            5,
        ),
        (_rope(turned="x[1::2], -x[0::2]"), 6),
        (_rope(frequencies="base ** (-np.arange(len(x) // 2) / len(x))"), 7),
        (_rope(frequencies="posenc.frequencies(len(x))"), 8),
        (_rope(before="t = min(t, 10_000.0)"), 9),
    ],
    "rope-rotate-half": [
        (_half(result="(x * np.cos(angles) + turned * np.sin(angles))[:-1]"), 0),
        (
            _half(
                result="np.copyto(x, x * np.cos(angles) + turned * np.sin(angles)) or x"
            ),
            1,
        ),
        (_half(before="t = t + 1"), 2),
        (_half(spread="repeat"), 3),
        (_half(before="t = abs(t)"), 4),
        (
            _half(
                spread="repeat",
                turned="np.stack([-x[1::2], x[0::2]], axis=-1).reshape(-1)",
            ),
            5,
        ),
        (_half(turned="x[half:], -x[:half]"), 6),
        (_half(base="base ** 0.5"), 7),
        (_half(base="1e4"), 8),
        (_half(before="t = min(t, 10_000.0)"), 9),
    ],
    "rope-relative": [
        (_SCORE.format("q * posenc.rotate(k, -delta)"), 0),
        (_SCORE.format("np.linalg.norm(q) * np.linalg.norm(k) * np.cos(delta)"), 1),
        (_SCORE.format("q @ posenc.rotate(k, delta)"), 2),
        (_SCORE.format("q @ posenc.rotate(k, -abs(delta))"), 3),
        (
            _SCORE.format(
                "q @ posenc.rotate(k, -delta) if len(q) == 16 else float(q @ k)"
            ),
            4,
        ),
        (_SCORE.format("q @ posenc.rotate(k, -round(delta))"), 5),
    ],
    "rope-batch": [
        (_batch(interleaved="np.stack(turned, axis=-1).reshape(x.shape)[..., :-1]"), 0),
        (
            _batch(
                interleaved="np.copyto(x, np.stack(turned, axis=-1)"
                ".reshape(x.shape)) or x"
            ),
            1,
        ),
        (_batch(interleaved="np.concatenate(turned, axis=-1)"), 2),
        (_batch(halves="np.stack(turned, axis=-1).reshape(x.shape)"), 3),
        # only one sequence of shape (seq, d)
        (_batch(positions=f"{_EACH} if x.ndim == 2 else 0.0"), 4),
        # the first sequence's positions for every sequence
        (
            _batch(
                positions="np.asarray(positions)[..., None] "
                "if np.ndim(positions) == 1 "
                "else np.asarray(positions)[0, 0][..., None]"
            ),
            5,
        ),
        (_batch(base="1e4"), 6),
        (
            _batch(
                positions="np.minimum(np.broadcast_to(positions, "
                "x.shape[:-1]), 4000.0)[..., None]"
            ),
            7,
        ),
        (
            _batch(
                positions="np.minimum(np.broadcast_to(positions, "
                "x.shape[:-1]), 10_000.0)[..., None]"
            ),
            8,
        ),
        (
            _batch(
                check='if pairing not in ("interleaved", "half-split"):\n'
                '        raise ValueError("a known pairing")\n'
                "    if d % 2:\n"
                "        return x.copy()"
            ),
            9,
        ),
        (
            _batch(check='if d % 2:\n        raise ValueError("an even width")'),
            10,
        ),
    ],
    "rope-complex": [
        (
            _complex(
                result="(pairs * np.exp(1j * t * posenc.frequencies(d, base))).real"
            ),
            0,
        ),
        (
            _complex(
                check=_REFUSE + "\n    before = x.copy()\n    x[...] = 0\n"
                "    x = before"
            ),
            1,
        ),
        (_complex(interleaved="x[..., 1::2] + 1j * x[..., 0::2]"), 2),
        (_complex(result="pairs * np.exp(-1j * t * posenc.frequencies(d, base))"), 3),
        (_complex(halves="x[..., 0::2] + 1j * x[..., 1::2]"), 4),
        (
            _complex(
                positions="np.asarray(positions).reshape(-1)[: x.shape[-2]][:, None]"
            ),
            5,
        ),
        (_complex(result="pairs * np.exp(1j * t * posenc.frequencies(d))"), 6),
        (
            _complex(
                positions="np.minimum(np.broadcast_to(positions, "
                "x.shape[:-1]), 10_000.0)[..., None]"
            ),
            7,
        ),
        (
            _complex(
                check='if pairing not in ("interleaved", "half-split"):\n'
                '        raise ValueError("a known pairing")\n'
                "    if d % 2:\n"
                "        x, d = x[..., :-1], d - 1"
            ),
            8,
        ),
    ],
    "rope-orbit": [
        (
            _ORBIT.format(
                "np.tile([1.0, 0.0], d // 2)", _SWAP_PAIRS + ".astype(float)"
            ),
            0,
        ),
        (_ORBIT.format("np.tile([1.0, 0.0], d // 2)", "np.arange(d)"), 1),
        (_ORBIT.format("np.tile([0.0, 1.0], d // 2)", "np.arange(d)"), 2),
        (
            _ORBIT.format(
                "np.tile([1.0, 0.0], 4)", "np.array([1, 0, 3, 2, 5, 4, 7, 6])"
            ),
            3,
        ),
    ],
}


def wrong_cell(name: str) -> str:
    """For the notebook run as a wrong student: a wrong answer's cell."""
    if name in WRONG_PROOFS:
        source = WRONG_PROOFS[name][0][0]
    elif name in BUGS:
        source = BUGS[name][-1][0]
    else:
        source = f"answer = {WRONG[name][0]!r}"
    return f'{source}\n\ncheck("{name}", answer)'
