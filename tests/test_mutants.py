"""The tests of posenc.core must fail against wrong implementations.

Each mutant below plants one plausible bug, or removes one validation rule,
in a copy of ``posenc`` (several are bugs that shipped in public code:
multiplying instead of dividing by the frequency term, sine and cosine
swapped, an untransposed rotation) and runs ``test_core.py`` against the
copy. A mutant that survives means a test that cannot fail. The unmutated
copy must pass, which also proves the copy, not the installed package, is
what the run imports.
"""

from __future__ import annotations

import pytest
from mutation import run_tests_against

MUTANTS = {
    "frequencies multiply instead of divide": ("base**-exponents", "base**exponents"),
    "frequencies use i/d instead of 2i/d": (
        "exponents = np.arange(d // 2, dtype=np.float64) * (2.0 / d)",
        "exponents = np.arange(d // 2, dtype=np.float64) * (1.0 / d)",
    ),
    "sine and cosine swapped": (
        "np.stack([sines, cosines]",
        "np.stack([cosines, sines]",
    ),
    "halves in the wrong order": (
        "concatenate([sines, cosines]",
        "concatenate([cosines, sines]",
    ),
    "inner product uses half the angle": (
        "np.cos(delta[..., None] * theta)",
        "np.cos(delta[..., None] * theta / 2)",
    ),
    "integral drops its lower limit": ("(cin(x) - cin(x / base))", "cin(x)"),
    "integral divides by log10": (
        "cin(x / base)) / math.log(base)",
        "cin(x / base)) / math.log10(base)",
    ),
    "Cin series with the wrong sign": ("(-1) ** (k + 1)", "(-1) ** k"),
    "Cin forgets Euler's constant": ("np.euler_gamma + np.log(zl)", "np.log(zl)"),
    "shift block not transposed": (
        "matrix[even, even + 1] = sin",
        "matrix[even, even + 1] = -sin",
    ),
    "RoPE rotates clockwise": ("even * cos - odd * sin", "even * cos + odd * sin"),
    "RoPE second component sign": ("even * sin + odd * cos", "even * sin - odd * cos"),
    "odd d accepted": ("if d <= 0 or d % 2:", "if d <= 0:"),
    "base 1 accepted": ("value <= 1.0", "value < 1.0"),
    "non-finite values accepted": ("if not np.all(np.isfinite(array)):", "if False:"),
    "unknown layout accepted": ("if layout not in LAYOUTS:", "if False:"),
    "odd last axis of x accepted": (
        "x.shape[-1] == 0 or x.shape[-1] % 2:",
        "x.shape[-1] == 0:",
    ),
    "array offset k accepted": (
        "if offset.ndim != 0:\n        raise ValueError(\n",
        "if False:\n        raise ValueError(\n",
    ),
    "Fresnel integral with the wrong argument": (
        "special.fresnel(np.sqrt(2 * safe / np.pi))",
        "special.fresnel(np.sqrt(safe / np.pi))",
    ),
    "sqrt schedule series with a wrong term": ("+ x**4 / 72", "+ x**4 / 24"),
    "sqrt schedule closed form with a wrong sign": (
        "(np.cos(safe) - 1) / safe**2",
        "(1 - np.cos(safe)) / safe**2",
    ),
    "unknown schedule accepted": ("if schedule not in SCHEDULES:", "if False:"),
    "log law without Euler's constant": (
        "(np.log(delta) + np.euler_gamma) / math.log(base)",
        "np.log(delta) / math.log(base)",
    ),
    "envelope with log10": ("(delta * math.log(base))", "(delta * math.log10(base))"),
    "aliasing offset with 1/d": ("base ** (-2.0 / d))", "base ** (-1.0 / d))"),
    "cross terms with H transposed": (
        "return table @ h @ table.T",
        "return table @ h.T @ table.T",
    ),
    "leakage against the overall mean": (
        "np.sum((c - along_offset) ** 2) / total",
        "np.sum((c - c.mean()) ** 2) / total",
    ),
    "column fit R^2 not squared": (
        "r_squared = covariance**2 /",
        "r_squared = np.abs(covariance) * np.sqrt(variance_later) /",
    ),
    "RoPE bound averages from S_0": (
        "np.abs(sums[..., 1:]).mean",
        "np.abs(sums[..., :-1]).mean",
    ),
}


def test_unmutated_copy_passes(tmp_path):
    assert run_tests_against(tmp_path, "core.py", "test_core.py") == 0


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught(tmp_path, name):
    assert run_tests_against(tmp_path, "core.py", "test_core.py", MUTANTS[name]) == 1, (
        f"mutant survived: {name}"
    )
