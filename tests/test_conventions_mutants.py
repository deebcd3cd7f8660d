"""The tests of the real-code modules must fail against wrong implementations.

Each mutant plants one bug, or removes one rule, in a copy of
``posenc/codebases.py``, ``posenc/measure.py`` or ``posenc/bugchecks.py`` and
runs the test of ``test_conventions.py`` named beside it against the copy (the
way ``test_mutants.py`` does for ``posenc.core``); that test must fail.
Several mutants are the slips of the chapter "The encoding in real code":
multiplying by the frequency term, the exponent i/d, one exponent per column,
the sine and cosine swapped, fairseq's start forgotten. Between them the
mutants make every test of ``test_conventions.py`` fail at least once
(checked when the mutants were written); naming one catching test per mutant
keeps this run short. The unmutated copy must pass the whole file. Marked
``mutants``, like ``test_mutants.py``.
"""

from __future__ import annotations

import pytest
from mutation import Mutant, run_tests_against

pytestmark = pytest.mark.mutants

TESTS = "test_conventions.py"

MUTANTS = {
    "paper multiplies by the frequency term": (
        Mutant(
            "codebases.py",
            "t[..., None] / base ** (np.arange(0, d, 2) / d)",
            "t[..., None] * base ** (np.arange(0, d, 2) / d)",
        ),
        "test_each_convention_matches_its_description",
    ),
    "tutorial exponent i/d": (
        Mutant(
            "codebases.py",
            "np.arange(0, d, 2) * (-math.log(base) / d)",
            "np.arange(d // 2) * (-math.log(base) / d)",
        ),
        "test_same_columns_and_permuted_columns",
    ),
    "one exponent per column": (
        Mutant(
            "codebases.py",
            "base ** (2 * (column // 2) / d)",
            "base ** (2 * column / d)",
        ),
        "test_each_convention_matches_its_description",
    ),
    "Marian cosines first": (
        Mutant(
            "codebases.py",
            "[np.sin(angles[..., 0::2]), np.cos(angles[..., 1::2])]",
            "[np.cos(angles[..., 1::2]), np.sin(angles[..., 0::2])]",
        ),
        "test_measured_table_agrees_with_the_registry",
    ),
    "GPT-J exponent over d - 2": (
        Mutant(
            "codebases.py",
            "(1.0 / base ** (np.arange(0, d, 2) / d))",
            "(1.0 / base ** (np.arange(0, d, 2) / (d - 2)))",
        ),
        "test_same_columns_and_permuted_columns",
    ),
    "tensor2tensor schedule is the paper's": (
        Mutant(
            "codebases.py",
            "(math.log(base) / (d // 2 - 1))",
            "(math.log(base) / (d // 2))",
        ),
        "test_other_schedule_is_no_permutation_of_the_paper",
    ),
    "registry puts fairseq's first token at 0": (
        Mutant(
            "codebases.py",
            '"tensor2tensor",\n        2,',
            '"tensor2tensor",\n        0,',
        ),
        "test_registry_records_the_rosetta_stone",
    ),
    "positions not validated": (
        Mutant(
            "codebases.py",
            '    base = check_base(base)\n    t = check_finite(positions, "positions")',
            "    base = check_base(base)\n    t = np.asarray(positions, dtype=float)",
        ),
        "test_tables_reject_bad_input",
    ),
    "tensor2tensor halves interleaved": (
        Mutant(
            "codebases.py",
            "t2t_frequencies(d, base)\n"
            "    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)",
            "t2t_frequencies(d, base)\n"
            "    return interleave(np.sin(angles), np.cos(angles))",
        ),
        "test_measured_table_agrees_with_the_registry",
    ),
    "fairseq forgets the padding offset": (
        Mutant("codebases.py", "t + (padding_idx + 1)", "t + padding_idx"),
        "test_fairseq_starts_after_the_padding_index",
    ),
    "fairseq at position 0": (
        Mutant(
            "codebases.py",
            "_t2t_halves(t + (padding_idx + 1), d, base)",
            "_t2t_halves(t, d, base)",
        ),
        "test_fairseq_is_a_row_shift_not_a_column_permutation_of_t2t",
    ),
    "negative padding index accepted": (
        Mutant(
            "codebases.py",
            'check_count(padding_idx, "padding_idx", at_least=0)',
            'check_count(padding_idx, "padding_idx", at_least=-9)',
        ),
        "test_fairseq_rejects_bad_padding_index",
    ),
    "schedule ratio inverted": (
        Mutant(
            "codebases.py",
            "return t2t_frequencies(d, base) / paper_frequencies(d, base)",
            "return paper_frequencies(d, base) / t2t_frequencies(d, base)",
        ),
        "test_schedule_ratio_is_tensor2tensor_over_the_paper",
    ),
    "paper table with sine and cosine swapped": (
        Mutant(
            "codebases.py",
            "angles = t[..., None] / base ** (np.arange(0, d, 2) / d)\n"
            "    return interleave(np.sin(angles), np.cos(angles))",
            "angles = t[..., None] / base ** (np.arange(0, d, 2) / d)\n"
            "    return interleave(np.cos(angles), np.sin(angles))",
        ),
        "test_the_paper_is_posenc_encoding",
    ),
    "tensor2tensor accepts one pair": (
        Mutant(
            "codebases.py",
            "d = check_dimension(d, at_least=4)",
            "d = check_dimension(d)",
        ),
        "test_other_schedule_needs_two_pairs",
    ),
    "permutation returned inverted": (
        Mutant("measure.py", "    return perm\n", "    return np.argsort(perm)\n"),
        "test_find_column_permutation_recovers_a_random_permutation",
    ),
    "unknown schedules reported as the paper's": (
        Mutant("measure.py", 'schedule = "other"', 'schedule = "paper"'),
        "test_measure_table_reports_what_it_does_not_know",
    ),
    "permutation search reuses columns": (
        Mutant("measure.py", "if np.unique(perm).size != perm.size:", "if False:"),
        "test_find_column_permutation_refuses_near_misses_and_reuse",
    ),
    "column frequency off by a factor 2": (
        Mutant("measure.py", "/ (2 * energy)", "/ energy"),
        "test_column_frequencies_recover_sinusoids_and_follow_permutations",
    ),
    "halves layout not recognised": (
        Mutant(
            "measure.py",
            "elif np.array_equal(partner, (columns + d // 2) % d):",
            "elif np.array_equal(partner, (columns + 1) % d):",
        ),
        "test_measured_table_agrees_with_the_registry",
    ),
    "order read backwards": (
        Mutant("measure.py", "if np.all(steps > 0):", "if np.all(steps < 0):"),
        "test_measure_table_reads_cosine_first_and_a_start",
    ),
    "start of cosine-first tables": (
        Mutant(
            "measure.py",
            '(angle if first == "sin" else math.pi / 2 - angle)',
            '(angle if first == "sin" else -angle)',
        ),
        "test_measure_table_reads_cosine_first_and_a_start",
    ),
    "offset profiles not normalised": (
        Mutant(
            "measure.py",
            "table[anchor + offsets] @ table[anchor] / (d / 2)",
            "table[anchor + offsets] @ table[anchor] / d",
        ),
        "test_offset_profiles_are_normalised_inner_products_from_each_anchor",
    ),
    "column distances without the square root": (
        Mutant(
            "measure.py",
            "return np.sqrt(np.mean(gaps**2, axis=0))",
            "return np.mean(gaps**2, axis=0)",
        ),
        "test_column_distances_are_root_mean_squares_and_find_exact_matches",
    ),
    "other pairings accepted": (
        Mutant(
            "bugchecks.py",
            '    raise ValueError(\n        "rotate_fn pairs coordinates neither',
            '    return "other"\n    raise ValueError(\n        "rotate_fn pairs',
        ),
        "test_rope_pairing_rejects_other_functions",
    ),
    "norm check too lax": (
        Mutant(
            "bugchecks.py",
            "abs(squares[worst] - d / 2) > atol * d",
            "abs(squares[worst] - d / 2) > 10.0 * d",
        ),
        "test_a_scaled_table_leaves_the_circle",
    ),
    "offset check removed": (
        Mutant("bugchecks.py", "if abs(drift[m, n]) > atol * d:", "if False:"),
        "test_a_single_corrupted_entry_breaks_the_offsets",
    ),
    "pair check ignores uneven steps": (
        Mutant(
            "bugchecks.py",
            "badness = np.maximum(off_circle, uneven)",
            "badness = off_circle",
        ),
        "test_a_chirp_stays_on_the_circle_but_turns_unevenly",
    ),
    "frequency check too lax": (
        Mutant("bugchecks.py", "if error[i] > atol:", "if error[i] > 1.0:"),
        "test_exponent_i_over_d_is_caught_by_the_frequencies",
    ),
    "no hint for swapped pairs": (
        Mutant(
            "bugchecks.py",
            "np.allclose(measured, -expected, atol=atol)",
            "np.allclose(measured, expected, atol=atol)",
        ),
        "test_swapped_sine_and_cosine_turn_backwards",
    ),
    "start check with cosines": (
        Mutant(
            "bugchecks.py",
            "expected_row[first_of_pair] = np.sin(angles)",
            "expected_row[first_of_pair] = np.cos(angles)",
        ),
        "test_correct_tables_pass",
    ),
    "pairing probed at position 0": (
        Mutant(
            "bugchecks.py",
            "rotate_fn(np.eye(d), 1.0, base)",
            "rotate_fn(np.eye(d), 0.0, base)",
        ),
        "test_rope_pairing_tells_the_pairings_apart",
    ),
    "pairing check removed": (
        Mutant("bugchecks.py", "if found != expected:", "if False:"),
        "test_rope_pairing_tells_the_pairings_apart",
    ),
    "relative check too lax": (
        Mutant(
            "bugchecks.py",
            "> atol * np.linalg.norm(q) * np.linalg.norm(k)",
            "> 1e3 * np.linalg.norm(q) * np.linalg.norm(k)",
        ),
        "test_relative_scores_hold_for_one_pairing_and_fail_for_two",
    ),
    "zero trials accepted": (
        Mutant(
            "bugchecks.py",
            'trials = check_count(trials, "trials", at_least=1)',
            'trials = check_count(trials, "trials", at_least=0)',
        ),
        "test_rope_tools_reject_bad_input",
    ),
    "pairings probed with one pair": (
        Mutant(
            "bugchecks.py",
            "d = check_dimension(d, at_least=4)",
            "d = check_dimension(d)",
        ),
        "test_rope_tools_reject_bad_input",
    ),
}


def test_unmutated_copy_passes(tmp_path):
    assert run_tests_against(tmp_path, TESTS).returncode == 0


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught(tmp_path, name):
    mutant, test = MUTANTS[name]
    # exit code 1: the test ran and failed (2 would be an error in collection)
    run = run_tests_against(tmp_path, TESTS, mutant, test)
    assert run.returncode == 1, f"mutant {name!r} survived {test}"
