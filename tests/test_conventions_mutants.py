"""The tests of posenc.conventions must fail against wrong implementations.

Each mutant plants one bug, or removes one rule, in a copy of
``posenc/conventions.py`` and runs the test of ``test_conventions.py`` named
beside it against the copy (the way ``test_mutants.py`` does for
``posenc.core``); that test must fail. Several mutants are the slips of the
chapter "The encoding in real code": multiplying by the frequency term, the
exponent i/d, one exponent per column, the sine and cosine swapped,
fairseq's start forgotten. Between them the mutants make every test of
``test_conventions.py`` fail at least once (checked when the mutants were
written); naming one catching test per mutant keeps this run short. The
unmutated copy must pass the whole file.
"""

from __future__ import annotations

import pytest
from mutation import run_tests_against

MUTANTS = {
    "paper multiplies by the frequency term": (
        "t[..., None] / base ** (np.arange(0, d, 2) / d)",
        "t[..., None] * base ** (np.arange(0, d, 2) / d)",
        "test_each_convention_matches_its_description",
    ),
    "tutorial exponent i/d": (
        "np.arange(0, d, 2) * (-math.log(base) / d)",
        "np.arange(d // 2) * (-math.log(base) / d)",
        "test_same_columns_and_permuted_columns",
    ),
    "one exponent per column": (
        "base ** (2 * (column // 2) / d)",
        "base ** (2 * column / d)",
        "test_each_convention_matches_its_description",
    ),
    "Marian cosines first": (
        "[np.sin(angles[..., 0::2]), np.cos(angles[..., 1::2])]",
        "[np.cos(angles[..., 1::2]), np.sin(angles[..., 0::2])]",
        "test_measured_table_agrees_with_the_registry",
    ),
    "GPT-J exponent over d - 2": (
        "(1.0 / base ** (np.arange(0, d, 2) / d))",
        "(1.0 / base ** (np.arange(0, d, 2) / (d - 2)))",
        "test_same_columns_and_permuted_columns",
    ),
    "tensor2tensor schedule is the paper's": (
        "(math.log(base) / (d // 2 - 1))",
        "(math.log(base) / (d // 2))",
        "test_other_schedule_is_no_permutation_of_the_paper",
    ),
    "tensor2tensor halves interleaved": (
        "t2t_frequencies(d, base)\n"
        "    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)",
        "t2t_frequencies(d, base)\n"
        "    return _interleave(np.sin(angles), np.cos(angles))",
        "test_measured_table_agrees_with_the_registry",
    ),
    "fairseq forgets the padding offset": (
        "t + (int(padding_idx) + 1)",
        "t + int(padding_idx)",
        "test_fairseq_starts_after_the_padding_index",
    ),
    "interleaved tables swap sine and cosine": (
        "table[..., 0::2] = sines\n    table[..., 1::2] = cosines",
        "table[..., 0::2] = cosines\n    table[..., 1::2] = sines",
        "test_the_paper_is_posenc_encoding",
    ),
    "halves permutation in the wrong order": (
        "[np.arange(0, d, 2), np.arange(1, d, 2)]",
        "[np.arange(1, d, 2), np.arange(0, d, 2)]",
        "test_interleaved_to_halves_is_the_documented_permutation",
    ),
    "permutation returned inverted": (
        "    return perm\n",
        "    return np.argsort(perm)\n",
        "test_find_column_permutation_recovers_a_random_permutation",
    ),
    "fairseq at position 0": (
        "_t2t_halves(t + (int(padding_idx) + 1), d, base)",
        "_t2t_halves(t, d, base)",
        "test_fairseq_is_a_row_shift_not_a_column_permutation_of_t2t",
    ),
    "registry puts fairseq's first token at 0": (
        '"tensor2tensor",\n        2,',
        '"tensor2tensor",\n        0,',
        "test_registry_records_the_rosetta_stone",
    ),
    "unknown schedules reported as the paper's": (
        'schedule = "other"',
        'schedule = "paper"',
        "test_measure_table_reports_what_it_does_not_know",
    ),
    "other pairings accepted": (
        '    raise ValueError(\n        "rotate_fn pairs coordinates neither',
        '    return "other"\n    raise ValueError(\n        "rotate_fn pairs',
        "test_rope_pairing_rejects_other_functions",
    ),
    "half-split positions not broadcast": (
        "shape = np.broadcast_shapes(t.shape, x.shape[:-1])",
        "shape = x.shape[:-1]",
        "test_half_split_broadcasts_positions_like_rotate",
    ),
    "tables flattened to 2-D": (
        "np.empty(sines.shape[:-1] + (2 * sines.shape[-1],))",
        "np.empty((sines.shape[0], 2 * sines.shape[-1]))",
        "test_table_shapes_and_dtype",
    ),
    "positions not validated": (
        '    base = check_base(base)\n    t = check_finite(positions, "positions")',
        "    base = check_base(base)\n    t = np.asarray(positions, dtype=float)",
        "test_tables_reject_bad_input",
    ),
    "zero tolerance accepted": (
        "if not atol > 0:",
        "if atol < 0:",
        "test_table_checks_reject_bad_parameters",
    ),
    "permutation search reuses columns": (
        "if np.unique(perm).size != perm.size:",
        "if False:",
        "test_find_column_permutation_refuses_near_misses_and_reuse",
    ),
    "column frequency off by a factor 2": (
        "/ (2 * energy)",
        "/ energy",
        "test_column_frequencies_recover_sinusoids_and_follow_permutations",
    ),
    "halves layout not recognised": (
        "elif np.array_equal(partner, (columns + d // 2) % d):",
        "elif np.array_equal(partner, (columns + 1) % d):",
        "test_measured_table_agrees_with_the_registry",
    ),
    "order read backwards": (
        "if np.all(steps > 0):",
        "if np.all(steps < 0):",
        "test_measure_table_reads_cosine_first_and_a_start",
    ),
    "start of cosine-first tables": (
        '(angle if first == "sin" else math.pi / 2 - angle)',
        '(angle if first == "sin" else -angle)',
        "test_measure_table_reads_cosine_first_and_a_start",
    ),
    "norm check too lax": (
        "abs(squares[worst] - d / 2) > atol * d",
        "abs(squares[worst] - d / 2) > 10.0 * d",
        "test_a_scaled_table_leaves_the_circle",
    ),
    "offset check removed": (
        "if abs(drift[m, n]) > atol * d:",
        "if False:",
        "test_a_single_corrupted_entry_breaks_the_offsets",
    ),
    "pair check ignores uneven steps": (
        "badness = np.maximum(off_circle, uneven)",
        "badness = off_circle",
        "test_a_chirp_stays_on_the_circle_but_turns_unevenly",
    ),
    "frequency check too lax": (
        "if error[i] > atol:",
        "if error[i] > 1.0:",
        "test_exponent_i_over_d_is_caught_by_the_frequencies",
    ),
    "no hint for swapped pairs": (
        "np.allclose(measured, -expected, atol=atol)",
        "np.allclose(measured, expected, atol=atol)",
        "test_swapped_sine_and_cosine_turn_backwards",
    ),
    "start check with cosines": (
        "expected_row[first_of_pair] = np.sin(angles)",
        "expected_row[first_of_pair] = np.cos(angles)",
        "test_correct_tables_pass",
    ),
    "half-split rotates clockwise": (
        "first * cos - second * sin",
        "first * cos + second * sin",
        "test_half_split_rotation_matches_explicit_rotations",
    ),
    "half-split second component sign": (
        "first * sin + second * cos",
        "first * sin - second * cos",
        "test_half_split_is_interleaved_after_the_permutation",
    ),
    "pairing probed at position 0": (
        "rotate_fn(np.eye(d), 1.0, base)",
        "rotate_fn(np.eye(d), 0.0, base)",
        "test_rope_pairing_tells_the_pairings_apart",
    ),
    "pairing check removed": (
        "if found != expected:",
        "if False:",
        "test_rope_pairing_tells_the_pairings_apart",
    ),
    "relative check too lax": (
        "> atol * np.linalg.norm(q) * np.linalg.norm(k)",
        "> 1e3 * np.linalg.norm(q) * np.linalg.norm(k)",
        "test_relative_scores_hold_for_one_pairing_and_fail_for_two",
    ),
    "two-pair rule removed": (
        "if d < minimum_d:",
        "if False:",
        "test_other_schedule_needs_two_pairs",
    ),
    "negative padding index accepted": (
        "or padding_idx < 0\n",
        "or False\n",
        "test_fairseq_rejects_bad_padding_index",
    ),
    "two rows accepted": (
        "if table.shape[0] < 3:",
        "if table.shape[0] < 2:",
        "test_table_tools_reject_bad_tables",
    ),
    "zero trials accepted": (
        "if trials < 1:",
        "if trials < 0:",
        "test_rope_tools_reject_bad_input",
    ),
    "schedule ratio inverted": (
        "ratio = t2t_frequencies(d, base) / paper_frequencies(d, base)",
        "ratio = paper_frequencies(d, base) / t2t_frequencies(d, base)",
        "test_schedules_figure_plots_both_schedules",
    ),
    "column matches marked loosely": (
        "np.nonzero(distance < 1e-9)",
        "np.nonzero(distance < 1e-1)",
        "test_column_match_figure_marks_exact_matches",
    ),
    "offset figure not normalised": (
        "table[anchor + offsets] @ table[anchor] / (d / 2)",
        "table[anchor + offsets] @ table[anchor] / d",
        "test_offset_figure_and_rope_figure_draw_their_curves",
    ),
}


def test_unmutated_copy_passes(tmp_path):
    assert run_tests_against(tmp_path, "conventions.py", "test_conventions.py") == 0


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught(tmp_path, name):
    original, replacement, test = MUTANTS[name]
    # exit code 1: the test ran and failed (2 would be an error in collection)
    assert (
        run_tests_against(
            tmp_path,
            "conventions.py",
            "test_conventions.py",
            (original, replacement),
            test,
        )
        == 1
    ), f"mutant {name!r} survived {test}"
