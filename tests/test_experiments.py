"""Tests of posenc.experiments: each sweep or sample returns what it claims."""

from __future__ import annotations

import numpy as np
import pytest

import posenc


def test_perturbation_has_the_scale_and_the_structure_of_its_kind():
    for kind in posenc.PERTURBATIONS:
        h = posenc.perturbation(kind, 0.5, 16, seed=3)
        assert np.linalg.norm(h - np.eye(16)) == pytest.approx(0.5 * 4, rel=1e-12)
    diagonal = posenc.perturbation("diagonal", 1.0, 8)
    assert np.array_equal(diagonal, np.diag(np.diag(diagonal)))
    blocks = posenc.perturbation("rotation blocks", 1.0, 8) - np.eye(8)
    for i in range(0, 8, 2):
        a, b = blocks[i, i], blocks[i + 1, i]
        np.testing.assert_allclose(blocks[i : i + 2, i : i + 2], [[a, -b], [b, a]])
        assert np.all(blocks[i : i + 2, i + 2 :] == 0)
    np.testing.assert_array_equal(
        posenc.perturbation("full", 0.3, 8, 1), posenc.perturbation("full", 0.3, 8, 1)
    )
    with pytest.raises(ValueError, match="^kind must be one of"):
        posenc.perturbation("dense", 0.3, 8)
    with pytest.raises(ValueError, match="^d must be a positive even integer"):
        posenc.perturbation("full", 0.3, 7)


def test_leakage_curves_average_the_leakage_over_seeds():
    strengths = np.array([0.1, 1.0])
    curves = posenc.leakage_curves(strengths, d=8, length=10, seeds=3)
    assert set(curves) == set(posenc.PERTURBATIONS)
    for kind, values in curves.items():
        expected = [
            np.mean(
                [
                    posenc.offset_leakage(
                        posenc.cross_terms(
                            posenc.perturbation(kind, s, 8, seed), np.arange(10)
                        )
                    )
                    for seed in range(3)
                ]
            )
            for s in strengths
        ]
        np.testing.assert_allclose(values, expected, rtol=1e-12)
    assert curves["rotation blocks"].max() < 1e-20
    assert np.all(curves["full"] > 1e-4)


def test_decay_regimes_evaluate_the_integral_and_its_two_laws():
    delta = np.array([1.0, 50.0, 1e3, 1e4, 1e5])
    regimes = posenc.decay_regimes(1e4, delta)
    np.testing.assert_array_equal(regimes["integral"], posenc.decay_integral(delta))
    np.testing.assert_array_equal(regimes["near"], delta[:4])
    np.testing.assert_array_equal(regimes["log_law"], posenc.log_law(delta[:4]))
    np.testing.assert_array_equal(regimes["far"], delta[3:])
    np.testing.assert_array_equal(
        regimes["envelope"], posenc.integral_envelope(delta[3:])
    )
    assert "first_zero" not in regimes  # the chapter computes it


def test_schedule_integrals_cover_every_case():
    x = np.linspace(0, 50, 11)
    curves = posenc.schedule_integrals(x)
    assert list(curves) == list(posenc.SCHEDULE_CASES)
    for (schedule, base), values in curves.items():
        np.testing.assert_array_equal(
            values, posenc.schedule_integral(x, schedule, base or 1e4)
        )


def test_alias_rms_is_the_binned_rms_of_error_law_and_integral():
    edges = np.array([1.0, 100.0, 1e4, 1e6])
    rms = posenc.alias_rms((16, 64), 100.0, edges, samples=300, seed=1)
    np.testing.assert_allclose(rms["centres"], [10.0, 1e3, 1e5], rtol=1e-12)
    rng = np.random.default_rng(1)  # the same draws, in the same order
    bins = zip(edges[:-1], edges[1:], strict=True)
    offsets = [np.round(rng.uniform(lo, hi, 300)) for lo, hi in bins]
    for d in (16, 64):
        error = [np.sqrt(np.mean(posenc.alias_error(x, d, 100) ** 2)) for x in offsets]
        law = [np.sqrt(np.mean(posenc.rms_law(x, d, 100) ** 2)) for x in offsets]
        np.testing.assert_allclose(rms["error"][d], error, rtol=1e-12)
        np.testing.assert_allclose(rms["law"][d], law, rtol=1e-12)
    integral = [np.sqrt(np.mean(posenc.decay_integral(x, 100) ** 2)) for x in offsets]
    np.testing.assert_allclose(rms["integral"], integral, rtol=1e-12)


def test_alias_rms_rises_to_one_over_root_d():
    rms = posenc.alias_rms(dims=(16, 64), samples=300, seed=1)
    centres = rms["centres"]
    assert centres.shape == (40,)
    far = centres > 1e6
    for d, error in rms["error"].items():
        np.testing.assert_allclose(error[far] * np.sqrt(d), 1, atol=0.15)
        assert error[0] < 0.5 / d  # offsets near 1: below the threshold
    assert rms["integral"][-1] < 1e-4


def test_aliasing_error_is_the_binned_rms_of_the_corrected_error():
    d, base = 64, 1e4
    binned = posenc.aliasing_error(d, base, reach=30.0, bins=35)
    ratio, scaled, law = binned["ratio"], binned["scaled"], binned["law"]
    threshold = posenc.alias_threshold(d, base)
    offsets = np.arange(1, int(30 * threshold) + 1)
    error = (
        posenc.inner_product(offsets, d, base) / (d / 2)
        - posenc.decay_integral(offsets, base)
        - (np.cos(offsets) - np.cos(offsets / base)) / d
    )
    edges = np.logspace(0, np.log10(offsets[-1] + 1), 36)
    last = (offsets >= edges[-2]) & (offsets < edges[-1])  # np.digitize's bins
    assert scaled[-1] == pytest.approx(
        np.sqrt(np.mean(error[last] ** 2) * d * np.log(base))
    )
    harmonic = [
        sum(1 / k for k in range(1, int(r) + 1)) for r in offsets[last] / threshold
    ]
    assert law[-1] == pytest.approx(np.sqrt(np.mean(harmonic)))
    np.testing.assert_allclose(ratio * threshold, np.sqrt(edges[:-1] * edges[1:]))
    empty = [
        not np.any((offsets >= low) & (offsets < high))
        for low, high in zip(edges[:-1], edges[1:], strict=True)
    ]
    np.testing.assert_array_equal(np.isnan(scaled), empty)
    np.testing.assert_array_equal(np.isnan(law), empty)
    assert np.nanmax(scaled[ratio < 0.8]) < 0.3 < 0.8 < np.nanmin(scaled[ratio > 1.5])


def test_rope_scores_follow_their_expectation_and_the_bound():
    delta = np.arange(0, 301, 3)
    scores = posenc.rope_scores(delta, d=32, samples=2000, seed=4)
    np.testing.assert_array_equal(scores["bound"], posenc.rope_bound(delta, 32))
    np.testing.assert_allclose(
        scores["expected"], posenc.inner_product(delta, 32) / 16, rtol=1e-12
    )
    assert np.abs(scores["aligned"] - scores["expected"]).max() < 0.05
    assert scores["aligned"][0] == pytest.approx(1, abs=0.05)
    independent = scores["independent"]
    assert independent.shape == (2000, delta.size)
    assert np.abs(independent.mean(axis=0)).max() < 0.02
    # E<q, k>^2 = d for independent q, k, so the spread of <q, k>/d is 1/sqrt(d)
    np.testing.assert_allclose(independent.std(axis=0), 1 / np.sqrt(32), rtol=0.1)


def test_score_scaling_measures_variance_d_and_saturation():
    dims = (4, 64, 1024)
    scaling = posenc.score_scaling(dims, keys=32, samples=300, seed=2)
    np.testing.assert_allclose(scaling["variance"] / np.array(dims), 1, atol=0.1)
    np.testing.assert_allclose(scaling["scaled_variance"], 1, atol=0.1)
    assert np.all(np.diff(scaling["largest_weight"]) > 0)
    assert scaling["largest_weight"][-1] > 0.85
    assert np.ptp(scaling["scaled_largest_weight"]) < 0.05
    assert np.all(scaling["scaled_largest_weight"] > 1 / 32)


def test_pairing_scores_are_flat_for_one_pairing_and_wander_when_mixed():
    scores = posenc.pairing_scores(d=8)
    flat, other, wandering = (scores["fixed"][k] for k in scores["fixed"])
    assert np.ptp(flat) < 1e-9 and np.ptp(other) < 1e-9 and np.ptp(wandering) > 1e-3
    at_500 = scores["at_500"]
    assert at_500["interleaved"][0] == pytest.approx(at_500["half-split"][0])
    assert abs(at_500["interleaved"][1] - at_500["half-split"][1]) > 1e-3
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 8))
    assert flat[0] == pytest.approx(posenc.rotate(q, 3) @ posenc.rotate(k, 0))
