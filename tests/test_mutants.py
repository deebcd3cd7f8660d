"""The tests of posenc.core, posenc.validate and posenc.experiments must fail
against wrong implementations.

Each mutant below plants one plausible bug, or removes one validation rule,
in a copy of ``posenc`` (several are bugs that shipped in public code:
multiplying instead of dividing by the frequency term, sine and cosine
swapped, an untransposed rotation) and runs the test file of its module
(:data:`TESTS`) against the copy. A mutant that survives means a test that
cannot fail. The unmutated copy must pass, which also proves the copy, not
the installed package, is what the run imports. Marked ``mutants``: ``pytest
-m mutants -n 2`` runs them in parallel, ``pytest -m "not mutants"`` skips
them.
"""

from __future__ import annotations

import pytest
from mutation import Mutant, run_tests_against

pytestmark = pytest.mark.mutants

#: The test file (or files) that must catch a mutant of each module.
TESTS = {
    "core.py": ("test_core.py", "test_core_decay.py"),
    "validate.py": "test_core.py",
    "experiments.py": "test_experiments.py",
    "scaling.py": ("test_scaling.py", "test_scaling_precision.py"),
    "figure_style.py": "test_plots.py",
}

MUTANTS = {
    "figures at the design resolution, not twice it": Mutant(
        "figure_style.py", "dpi=DESIGN_DPI * PIXEL_DENSITY,", "dpi=DESIGN_DPI,"
    ),
    "figures wider than the page's figure width": Mutant(
        "figure_style.py", "width: float = FIGURE_WIDTH,", "width: float = 7.0,"
    ),
    "legends in matplotlib's small size": Mutant(
        "figure_style.py",
        '"legend.fontsize": TEXT["legend"],',
        '"legend.fontsize": 8,',
    ),
    "frequencies multiply instead of divide": Mutant(
        "core.py", "base**-exponents", "base**exponents"
    ),
    "frequencies use i/d instead of 2i/d": Mutant(
        "core.py",
        "exponents = np.arange(d // 2, dtype=np.float64) * (2.0 / d)",
        "exponents = np.arange(d // 2, dtype=np.float64) * (1.0 / d)",
    ),
    "sine and cosine swapped": Mutant(
        "core.py",
        "return interleave(sines, cosines)",
        "return interleave(cosines, sines)",
    ),
    "halves in the wrong order": Mutant(
        "core.py", "concatenate([sines, cosines]", "concatenate([cosines, sines]"
    ),
    "inner product uses half the angle": Mutant(
        "core.py",
        "np.cos(delta[..., None] * theta)",
        "np.cos(delta[..., None] * theta / 2)",
    ),
    "integral drops its lower limit": Mutant(
        "core.py", "(cin(x) - cin(x / base))", "cin(x)"
    ),
    "integral divides by log10": Mutant(
        "core.py",
        "cin(x / base)) / math.log(base)",
        "cin(x / base)) / math.log10(base)",
    ),
    "Cin series with the wrong sign": Mutant("core.py", "(-1) ** (k + 1)", "(-1) ** k"),
    "Cin forgets Euler's constant": Mutant(
        "core.py", "np.euler_gamma + np.log(zl)", "np.log(zl)"
    ),
    "shift block not transposed": Mutant(
        "core.py", "matrix[even, even + 1] = sin", "matrix[even, even + 1] = -sin"
    ),
    "RoPE rotates clockwise": Mutant(
        "core.py", "first * cos - second * sin", "first * cos + second * sin"
    ),
    "RoPE second component sign": Mutant(
        "core.py", "first * sin + second * cos", "first * sin - second * cos"
    ),
    "unknown layout accepted": Mutant(
        "core.py",
        "theta = frequencies(d, base)\n"
        '    layout = check_choice(layout, "layout", LAYOUTS)',
        "theta = frequencies(d, base)\n    layout = layout",
    ),
    "odd last axis of x accepted": Mutant(
        "core.py", "x.shape[-1] == 0 or x.shape[-1] % 2:", "x.shape[-1] == 0:"
    ),
    "Fresnel integral with the wrong argument": Mutant(
        "core.py",
        "special.fresnel(np.sqrt(2 * safe / np.pi))",
        "special.fresnel(np.sqrt(safe / np.pi))",
    ),
    "sqrt schedule series with a wrong term": Mutant(
        "core.py", "+ x**4 / 72", "+ x**4 / 24"
    ),
    "sqrt schedule closed form with a wrong sign": Mutant(
        "core.py", "(np.cos(big) - 1) / big**2", "(1 - np.cos(big)) / big**2"
    ),
    "unknown schedule accepted": Mutant(
        "core.py",
        'd = check_dimension(d)\n    schedule = check_choice(schedule, "schedule", DE',
        "d = check_dimension(d)\n    schedule = str(schedule)  # DE",
    ),
    "log law without Euler's constant": Mutant(
        "core.py",
        "(np.log(delta) + np.euler_gamma) / math.log(base)",
        "np.log(delta) / math.log(base)",
    ),
    "envelope with log10": Mutant(
        "core.py", "(delta * math.log(base))", "(delta * math.log10(base))"
    ),
    "aliasing offset with 1/d": Mutant(
        "core.py", "base ** (-2.0 / d))", "base ** (-1.0 / d))"
    ),
    "alias threshold at the Nyquist offset": Mutant(
        "core.py",
        "return math.pi * d / math.log(base)",
        "return math.pi * d / (2 * math.log(base))",
    ),
    "alias error without the endpoint term": Mutant(
        "core.py", "- (np.cos(delta) - np.cos(delta / base)) / d", "- 0.0"
    ),
    "alias error with the endpoint term of the last sample": Mutant(
        "core.py",
        "- (np.cos(delta) - np.cos(delta / base)) / d",
        "- (np.cos(delta) - np.cos(delta * base ** (-1 + 2 / d))) / d",
    ),
    "cotangent series with a wrong term": Mutant(
        "core.py", "- x**3 / 45", "- x**3 / 15"
    ),
    "alias error below the threshold without the slow end": Mutant(
        "core.py", "return (fast - slow) / d", "return fast / d"
    ),
    "alias error below the threshold odd in the offset": Mutant(
        "core.py",
        "fast = np.sin(size) * _cot_minus_inverse",
        "fast = np.sin(delta) * _cot_minus_inverse",
    ),
    "harmonic numbers off by one": Mutant(
        "core.py",
        "special.digamma(k + 1) + np.euler_gamma",
        "special.digamma(k + 2) + np.euler_gamma - 1",
    ),
    "alias count keeps the aliases beyond base": Mutant(
        "core.py", "harmonic(np.maximum(np.ceil(r / base) - 1, 0))", "0.0"
    ),
    "cross terms with H transposed": Mutant(
        "core.py", "return table @ h @ table.T", "return table @ h.T @ table.T"
    ),
    "leakage against the overall mean": Mutant(
        "core.py",
        "np.sum((c - along_offset) ** 2) / total",
        "np.sum((c - c.mean()) ** 2) / total",
    ),
    "column fit R^2 not squared": Mutant(
        "core.py",
        "r_squared = covariance**2 /",
        "r_squared = np.abs(covariance) * np.sqrt(variance_later) /",
    ),
    "RoPE bound averages from S_0": Mutant(
        "core.py", "np.abs(sums[..., 1:]).mean", "np.abs(sums[..., :-1]).mean"
    ),
    "unknown pairing accepted": Mutant(
        "core.py",
        'pairing = check_choice(pairing, "pairing", PAIRINGS)',
        "pairing = str(pairing)",
    ),
    "half-split pairs the wrong coordinates": Mutant(
        "core.py",
        "first, second = x[..., : d // 2], x[..., d // 2 :]",
        "first, second = x[..., 0::2], x[..., 1::2]",
    ),
    "half-split result with its halves swapped": Mutant(
        "core.py",
        "np.concatenate([turned, partner], axis=-1)",
        "np.concatenate([partner, turned], axis=-1)",
    ),
    "RoPE positions not broadcast": Mutant(
        "core.py",
        "shape = np.broadcast_shapes(t.shape, x.shape[:-1])",
        "shape = x.shape[:-1]",
    ),
    "halves permutation in the wrong order": Mutant(
        "core.py",
        'np.concatenate(pair_columns(d, "interleaved"))',
        'np.concatenate(pair_columns(d, "interleaved")[::-1])',
    ),
    "halves layout paired as interleaved": Mutant(
        "core.py",
        "return np.arange(d // 2), np.arange(d // 2, d)",
        "return np.arange(0, d, 2), np.arange(1, d, 2)",
    ),
    "interleave puts the second first": Mutant(
        "core.py",
        "np.stack([first, second], axis=-1)",
        "np.stack([second, first], axis=-1)",
    ),
    "interleaved tables flattened to 2-D": Mutant(
        "core.py",
        "shape = first.shape[:-1] + (2 * first.shape[-1],)",
        "shape = (first.shape[0], 2 * first.shape[-1])",
    ),
    "diagonal means without the counts": Mutant(
        "core.py", "(sums / counts)[offsets]", "sums[offsets]"
    ),
    "odd d accepted": Mutant("validate.py", "if d <= 0 or d % 2:", "if d <= 0:"),
    "smallest d ignored": Mutant("validate.py", "if d < at_least:", "if False:"),
    "booleans taken for integers": Mutant(
        "validate.py",
        "return isinstance(value, numbers.Integral) and not isinstance(value, bool)",
        "return isinstance(value, numbers.Integral)",
    ),
    "base 1 accepted": Mutant("validate.py", "value <= 1.0", "value < 1.0"),
    "non-finite values accepted": Mutant(
        "validate.py", "if not np.all(np.isfinite(array)):", "if False:"
    ),
    "array offset k accepted": Mutant(
        "validate.py", "if array.ndim != 0:", "if False:"
    ),
    "fractions taken for integers": Mutant(
        "validate.py", "np.any(array != np.round(array))", "False"
    ),
    "counts one below the minimum accepted": Mutant(
        "validate.py", "if value < at_least:", "if value < at_least - 1:"
    ),
    "unknown option accepted": Mutant(
        "validate.py", "if value not in options:", "if False:"
    ),
    "zero tolerance accepted": Mutant(
        "validate.py",
        "allowed = value >= 0 if zero else value > 0",
        "allowed = value >= 0",
    ),
    "non-square matrices accepted": Mutant(
        "validate.py",
        "if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:",
        "if matrix.ndim != 2:",
    ),
    "two rows accepted": Mutant(
        "validate.py", "if table.shape[0] < 3:", "if table.shape[0] < 2:"
    ),
    "perturbation not scaled to the identity's norm": Mutant(
        "experiments.py",
        "strength * e * np.sqrt(d) / np.linalg.norm(e)",
        "strength * e",
    ),
    "rotation blocks with a symmetric J": Mutant(
        "experiments.py",
        "turn = np.array([[0.0, -1.0], [1.0, 0.0]])",
        "turn = np.array([[0.0, 1.0], [1.0, 0.0]])",
    ),
    "leakage of one seed only": Mutant(
        "experiments.py", "for seed in range(seeds)", "for seed in range(1)"
    ),
    "log law drawn up to base excluded": Mutant(
        "experiments.py", "near = delta[delta <= base]", "near = delta[delta < base]"
    ),
    "schedule integrals at the default base": Mutant(
        "experiments.py",
        "schedule_integral(delta, schedule, base or 1e4)",
        "schedule_integral(delta, schedule)",
    ),
    "alias rms of the law's values, not its square": Mutant(
        "experiments.py",
        '"law": {d: rms(lambda x, d=d: rms_law(x, d, base)) for d in dims}',
        '"law": {d: rms(lambda x, d=d: np.sqrt(rms_law(x, d, base))) for d in dims}',
    ),
    "alias rms of the integral at the default base": Mutant(
        "experiments.py",
        '"integral": rms(lambda x: decay_integral(x, base))',
        '"integral": rms(lambda x: decay_integral(x))',
    ),
    "aliasing error scaled by sqrt(d) only": Mutant(
        "experiments.py",
        '"scaled": binned(error**2) * np.sqrt(d * np.log(base))',
        '"scaled": binned(error**2) * np.sqrt(d)',
    ),
    "aliasing law from the rms of the count": Mutant(
        "experiments.py", '"law": binned(count)', '"law": binned(count**2)'
    ),
    "expected RoPE score off by 2": Mutant(
        "experiments.py", "2 * waves.sum(axis=1) / d", "waves.sum(axis=1) / d"
    ),
    "scaled variance not scaled": Mutant(
        "experiments.py", "(logits / np.sqrt(d)).var()", "logits.var()"
    ),
    "softmax weights not normalised": Mutant(
        "experiments.py",
        "weights /= weights.sum(axis=1, keepdims=True)",
        "weights = weights",
    ),
    "YaRN rounds its correction range instead of floor and ceil": Mutant(
        "scaling.py",
        'low = max(math.floor(pair_turning(beta_fast, "beta_fast")), 0)',
        'low = max(round(pair_turning(beta_fast, "beta_fast")), 0)',
    ),
    "YaRN attention factor with log10": Mutant(
        "scaling.py",
        "0.1 * math.log(factor) + 1.0",
        "0.1 * math.log10(factor) + 1.0",
    ),
    "NTK base raised by the factor, not factor^(d/(d-2))": Mutant(
        "scaling.py",
        "base * growth ** (d / (d - 2))",
        "base * growth",
    ),
    "dynamic NTK scales below the original length": Mutant(
        "scaling.py",
        "length = max(context, original_context)",
        "length = context",
    ),
    "Llama 3.1 divides from the high-frequency wavelength": Mutant(
        "scaling.py",
        "slow = wavelength > original_context / low_freq_factor",
        "slow = wavelength > original_context / high_freq_factor",
    ),
    "factor below 1 accepted": Mutant(
        "scaling.py",
        'factor = check_minimum(factor, "factor", 1.0)',
        "factor = float(factor)",
    ),
    "min_base steps twice as far as proved": Mutant(
        "scaling.py",
        "u += step * (1 - 1e-9)",
        "u += 2 * step",
    ),
    "min_base decides unsure sums by their float64 allowance": Mutant(
        "scaling.py",
        "unsure = np.flatnonzero(np.abs(sums) <= error)",
        "unsure = np.flatnonzero(np.abs(sums) < 0)",
    ),
    "min_base's slope bound without the factor x": Mutant(
        "scaling.py",
        "(weights * x * np.minimum(1.0, x))",
        "(weights * np.minimum(1.0, x))",
    ),
    "bfloat16 truncates instead of rounding": Mutant(
        "scaling.py",
        "rounded = np.rint(array / spacing) * spacing",
        "rounded = np.trunc(array / spacing) * spacing",
    ),
    "mixed pairing not mixed": Mutant(
        "experiments.py",
        '"mixed": (turn("interleaved"), turn("half-split"))',
        '"mixed": (turn("interleaved"), turn("interleaved"))',
    ),
}


@pytest.mark.parametrize("test_file", sorted(set(TESTS.values()), key=str))
def test_unmutated_copy_passes(tmp_path, test_file):
    assert run_tests_against(tmp_path, test_file).returncode == 0


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught(tmp_path, name):
    mutant = MUTANTS[name]
    # exit code 1: a test ran and failed (2 would be an error in collection)
    run = run_tests_against(tmp_path, TESTS[mutant.module], mutant)
    assert run.returncode == 1, f"mutant survived: {name}"
