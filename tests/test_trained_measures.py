"""posenc.trained_measures: each measure on a case whose answer is known.

Each test was seen failing once against a planted bug (the report of
session 10 lists them): the centring dropped, the leakage taken with its
diagonal, the spectrum's U reused as V, the shuffled condition or the
offset match dropped, the near and far spans swapped, the margin taken
before rotation, the seeds' order lost.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import posenc
from posenc import trained
from posenc import trained_measures as tm


@pytest.fixture(scope="module")
def text():
    return tm.sample_text(4, 128)


def zero_scores_model(variant: str = "nope") -> trained.Model:
    """The initial model with W_Q = 0 in every layer: every score is 0, so
    attention is uniform over the causal keys."""
    model = tm.initial_model(trained.load(variant, 0))
    for layer in range(model.config["layers"]):
        model.weights[f"blocks.{layer}.w_q"][:] = 0.0
    return model


# ------------------------------------------------------------ inputs


def test_initial_model_is_where_training_started():
    model = trained.load("learned", 1)
    start = tm.initial_model(model)
    assert trained.weights_digest(start.weights) == model.meta["init_digest"]
    assert start.variant == "learned" and start.seed == 1


def test_shuffle_keeps_each_windows_bytes(text):
    shuffled = tm.shuffle_windows(text, seed=0)
    assert not np.array_equal(shuffled, text)
    for row, other in zip(text, shuffled, strict=True):
        np.testing.assert_array_equal(np.sort(row), np.sort(other))
    np.testing.assert_array_equal(shuffled, tm.shuffle_windows(text, seed=0))


# ------------------------------------------------------------ step 1


def test_embedding_norms_of_the_sinusoidal_table(text):
    model = trained.load("sinusoidal", 0)
    norms = tm.embedding_norms(model, text)
    # every row of the table has length sqrt(d/2) = sqrt(32)
    assert abs(norms["position"] - math.sqrt(32)) < 1e-12
    by_hand = np.linalg.norm(model.weights["tok_emb"][text] * 8, axis=-1).mean()
    assert abs(norms["token"] - by_hand) < 1e-12
    assert abs(norms["ratio"] - math.sqrt(32) / by_hand) < 1e-12
    assert tm.embedding_norms(trained.load("rope", 0), text)["position"] == 0


# ------------------------------------------------------------ steps 2 and 3


def test_identity_on_the_sinusoidal_table_is_wholly_relative():
    # p_m . p_n = g(m - n): Toeplitz, share 1 (to rounding)
    table = posenc.encoding(np.arange(128), 64)
    assert abs(tm.relative_share(np.eye(64), table) - 1) < 1e-12


def test_rotation_blocks_are_wholly_relative_and_noise_is_not():
    # a_i I + b_i J in each pair: p_m^T H p_n depends on m - n alone
    rng = np.random.default_rng(3)
    table = posenc.encoding(np.arange(64), 16)
    h = np.zeros((16, 16))
    for i, (a, b) in enumerate(rng.normal(size=(8, 2))):
        h[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[a, -b], [b, a]]
    assert abs(tm.relative_share(h, table) - 1) < 1e-12
    # on a table of noise, a random H explains little: about 2/(L + 1)
    noise = rng.normal(size=(64, 16))
    assert tm.relative_share(rng.normal(size=(16, 16)), noise) < 0.1


def test_the_diagonal_is_left_out():
    # a matrix that differs from Toeplitz only on its diagonal
    table = np.eye(6)
    h = np.diag([5.0, -3, 0, 1, 2, 7])
    assert abs(tm.relative_share(h, table) - 1) < 1e-12


def test_centred_table_is_centred_over_coordinates():
    model = trained.load("sinusoidal", 0)
    table = tm.centred_table(model, 20)
    np.testing.assert_allclose(table.mean(axis=1), 0, atol=1e-12)
    raw = posenc.encoding(np.arange(20), 64)
    np.testing.assert_allclose(table, raw - raw.mean(axis=1, keepdims=True))


def test_same_spectrum_keeps_singular_values_and_nothing_else():
    rng = np.random.default_rng(0)
    h = rng.normal(size=(12, 4)) @ rng.normal(size=(4, 12))  # rank 4
    draw = tm.same_spectrum(h, np.random.default_rng(1))
    np.testing.assert_allclose(
        np.linalg.svd(draw, compute_uv=False),
        np.linalg.svd(h, compute_uv=False),
        atol=1e-10,
    )
    other = tm.same_spectrum(h, np.random.default_rng(2))
    assert np.abs(draw - other).max() > 0.1
    # U and V independent: a draw is not symmetric as U diag(s) U^T is
    assert np.abs(draw - draw.T).max() > 0.1


def test_baseline_is_seeded_and_centred_near_chance():
    table = posenc.encoding(np.arange(32), 8)
    h = np.eye(8)
    first = tm.relative_share_baseline(h, table, samples=50, seed=4)
    np.testing.assert_array_equal(
        first, tm.relative_share_baseline(h, table, samples=50, seed=4)
    )
    # the identity is wholly relative; orthogonal matrices mostly are not
    assert first.shape == (50,) and np.median(first) < 0.9


def test_draws_in_one_pass_are_the_draws_one_at_a_time():
    # same_spectrum_draws gives the matrices that same_spectrum gives in
    # a row on one generator, so a baseline's numbers do not depend on it
    rng = np.random.default_rng(5)
    h = rng.normal(size=(10, 10))
    one_by_one = np.random.default_rng(9)
    expected = [tm.same_spectrum(h, one_by_one) for _ in range(7)]
    np.testing.assert_allclose(
        tm.same_spectrum_draws(h, 7, seed=9), expected, rtol=0, atol=1e-12
    )


def test_a_stack_of_matrices_gives_each_its_share():
    rng = np.random.default_rng(6)
    table = rng.normal(size=(20, 8))
    stack = rng.normal(size=(2, 3, 8, 8))
    for causal in (False, True):
        shares = tm.relative_share(stack, table, causal)
        assert shares.shape == (2, 3)
        for index in np.ndindex(2, 3):
            one = tm.relative_share(stack[index], table, causal)
            assert isinstance(one, float) and shares[index] == one
    with pytest.raises(ValueError, match="table"):
        tm.relative_share(np.eye(8), table[:1])


def test_head_relative_shares_only_where_a_table_is_added():
    shares = tm.head_relative_shares(trained.load("learned", 0), 32)
    assert shares.shape == (4,) and np.all((shares >= 0) & (shares <= 1))
    with pytest.raises(ValueError, match="variant"):
        tm.head_relative_shares(trained.load("rope", 0))


# ------------------------------------------------------------ attention


def test_uniform_profile_by_hand():
    # T = 3: offset 0 averages 1, 1/2, 1/3; offset 1 averages 1/2, 1/3
    np.testing.assert_allclose(
        tm.uniform_profile(3), [(1 + 1 / 2 + 1 / 3) / 3, (1 / 2 + 1 / 3) / 2, 1 / 3]
    )


def test_zero_scores_give_the_uniform_profile(text):
    run = trained.forward(zero_scores_model(), text)
    profiles = tm.offset_profiles(run)
    assert profiles.shape == (2, 4, 128)
    np.testing.assert_allclose(
        profiles, np.broadcast_to(tm.uniform_profile(128), profiles.shape), atol=1e-12
    )
    near, far = tm.distance_ratios(profiles)
    np.testing.assert_allclose(near, 1, atol=1e-12)
    np.testing.assert_allclose(far, 1, atol=1e-12)


def test_distance_ratios_see_a_recent_head():
    length = 128
    previous = np.zeros(length)
    previous[1] = 1.0  # all weight at offset 1
    near, far = tm.distance_ratios(previous)
    uniform = tm.uniform_profile(length)
    assert abs(near - (1 / 8) / uniform[1:9].mean()) < 1e-12 and far == 0


def test_positional_heads_need_the_text_and_the_shuffle():
    uniform = tm.uniform_profile(64)
    sharp = uniform.copy()
    sharp[3] = 0.5
    elsewhere = uniform.copy()
    elsewhere[5] = 0.5
    weak = uniform.copy()
    weak[3] = 0.1  # the same offset, below the threshold 4 x 0.05
    profiles = np.array([sharp, sharp, uniform, sharp, sharp])
    shuffled = np.array([sharp, uniform, sharp, elsewhere, weak])
    found = tm.positional_heads(profiles, shuffled, initial_peak=0.05)
    np.testing.assert_array_equal(found, [True, False, False, False, False])
    value, offset = tm.peaks(sharp)
    assert value == 0.5 and offset == 3
    # the factor is a threshold, not a guess: just below it, none
    assert not tm.positional_heads(sharp, sharp, 0.5 / tm.POSITIONAL_FACTOR + 1e-9)


# ------------------------------------------------------------ RoPE's pairs


def test_pair_norms_are_barbero_and_kept_by_the_rotation(text):
    run = trained.forward(trained.load("rope", 0), text)
    q, k = tm.head_pair_norms(run, 0)
    assert q.shape == k.shape == (4, 8)
    # head 2, pair 3: coordinates 6 and 7, over windows and positions
    pooled = np.linalg.norm(run.q[0][:, 2, :, 6:8], axis=-1).mean()
    assert abs(q[2, 3] - pooled) < 1e-12
    rotated = trained.pair_norms(run.q_rot[0]).mean(axis=0)
    np.testing.assert_allclose(rotated, q, rtol=1e-12)


def test_pair_margins_sum_to_the_score_and_sit_where_q_and_k_are(text):
    model = trained.load("rope", 0)
    for layer in range(2):
        pre = f"blocks.{layer}."
        for name in ("w_q", "w_k"):  # head 1 keeps pair 0 only
            keep = np.zeros(64, dtype=bool)
            keep[16:18] = True
            model.weights[pre + name][:, ~keep] = 0.0
    run = trained.forward(model, text)
    margins = tm.pair_margins(run, 0, 1, 1)
    assert np.abs(margins[1:]).max() == 0 and margins[0] != 0
    # the margins of the trained head sum to the score's margin
    run = trained.forward(trained.load("rope", 0), text)
    scores = run.q_rot[0][:, 3] @ run.k_rot[0][:, 3].transpose(0, 2, 1) / 4
    queries = np.arange(2, 128)
    attended = scores[:, queries, queries - 2].mean()
    others = np.tril(np.ones((128, 128), dtype=bool))
    others[queries, queries - 2] = False
    others[:2] = False
    rest = scores[:, others].mean()
    assert abs(tm.pair_margins(run, 0, 3, 2).sum() - (attended - rest)) < 1e-9


# ------------------------------------------------------------ loss


def test_loss_table_reads_the_manifest_by_seed():
    table = tm.loss_table("rope")
    for run in trained.manifest()["runs"]:
        if run["variant"] == "rope":
            assert table[run["seed"], 0] == run["val_loss_at"]["128"]
            assert table[run["seed"], 2] == run["val_loss_at"]["512"]
    learned = tm.loss_table("learned")
    assert learned.shape == (3, 3) and np.isnan(learned[:, 1:]).all()


def test_unigram_loss_by_hand():
    assert abs(tm.unigram_loss([1, 1, 2, 2]) - math.log(2)) < 1e-12
    assert tm.unigram_loss([7, 7, 7]) == 0


# ------------------------------------------------------------ added in review


def test_frequency_loss_by_hand():
    counts = np.zeros(256)
    counts[[3, 5]] = [3, 1]  # frequencies 3/4 and 1/4
    expected = -(2 * math.log(0.75) + math.log(0.25)) / 3
    assert abs(tm.frequency_loss(counts, [3, 3, 5]) - expected) < 1e-12
    with pytest.raises(ValueError):
        tm.frequency_loss(counts, [4])  # a byte the counts never saw


def test_window_share_of_uniform_attention_by_hand():
    flat = tm.uniform_attention(128)
    # query m gives (high - low + 1)/(m + 1) to a window it fully sees
    queries = np.arange(64, 128)
    assert abs(tm.window_share(flat, 0, 8) - np.mean(9 / (queries + 1))) < 1e-12
    far = np.mean((queries - 63) / (queries + 1))  # offsets 64 to m
    assert abs(tm.window_share(flat, 64, 127) - far) < 1e-12
    # a head on the previous key: all in offset 1, none at offset 0
    previous = np.eye(128, k=-1)
    previous[0, 0] = 1
    assert tm.window_share(previous, 1, 1) == 1
    assert tm.window_share(previous, 0, 0) == 0
    assert tm.window_share(previous, 0, 8) == 1


def test_diagonal_share_by_hand():
    assert tm.diagonal_share(3 * np.eye(5)) == 1
    assert tm.diagonal_share(np.ones((4, 4))) == 0.25
    assert tm.diagonal_share(np.array([[0.0, 1.0], [1.0, 0.0]])) == 0


def test_causal_relative_share_reads_only_keys_before_queries():
    table = posenc.encoding(np.arange(32), 64)
    assert abs(tm.relative_share(np.eye(64), table, causal=True) - 1) < 1e-12
    # cross terms relative below the diagonal, noise above it: the
    # causal share is 1, the share over m != n is not
    rng = np.random.default_rng(0)
    h = rng.normal(size=(64, 64))
    size = 32
    lower = np.subtract.outer(np.arange(size), np.arange(size)) > 0
    offsets = np.subtract.outer(np.arange(size), np.arange(size))
    cross = np.where(lower, np.cos(offsets), rng.normal(size=(size, size)))
    identity_table = np.eye(size)
    assert abs(tm.relative_share(cross, identity_table, causal=True) - 1) < 1e-12
    assert tm.relative_share(cross, identity_table) < 0.9
    assert tm.relative_share(h, table, causal=True) < 1


def test_pair_margins_against_neighbours_sum_to_the_score(text):
    run = trained.forward(trained.load("rope", 0), text)
    scores = run.q_rot[0][:, 3] @ run.k_rot[0][:, 3].transpose(0, 2, 1) / 4
    queries = np.arange(3, 128)
    attended = scores[:, queries, queries - 2].mean()
    neighbours = (
        scores[:, queries, queries - 1].mean() + scores[:, queries, queries - 3].mean()
    ) / 2
    margins = tm.pair_margins(run, 0, 3, 2, against="neighbours")
    assert abs(margins.sum() - (attended - neighbours)) < 1e-9


def test_the_shipped_byte_baseline_is_the_training_corpus():
    """byte_baseline.npz holds the training split's byte counts and the
    windows train.py records the losses on: rebuilt here from this
    Python's stdlib (skipped where it is not the models' stdlib)."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "byte_baseline", root / "scripts" / "byte_baseline.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    corpus = __import__("corpus")  # training/, put on the path by the script
    if corpus.load_corpus().sha256 != trained.load_sample()["meta"]["corpus_sha256"]:
        pytest.skip("this Python's stdlib is not the one the models were trained on")
    fresh, shipped = script.build(), tm.byte_baseline()
    assert np.array_equal(fresh["train_counts"], shipped["train_counts"])
    assert np.array_equal(fresh["loss_windows"], shipped["loss_windows"])
    # train.py's own windows: same count and length as it records losses on
    train = (root / "training" / "train.py").read_text()
    assert f"VAL_WINDOWS = {script.WINDOWS}\n" in train


def test_stream_scale_attention_is_forward_when_the_other_part_is_zero(text):
    """With the token embedding zeroed the stream is the table, so keeping
    the stream's scale changes nothing: the same attention as forward's;
    with the tokens present, the table is no longer rescaled (differs)."""
    import dataclasses

    model = trained.load("sinusoidal", 0)
    zeroed = dataclasses.replace(
        model, weights={**model.weights, "tok_emb": 0 * model.weights["tok_emb"]}
    )
    ours = tm.first_attention_at_stream_scale(zeroed, text[:2], "position")
    theirs = trained.forward(zeroed, text[:2], parts=("position",)).attention[0]
    assert np.allclose(ours, theirs, atol=1e-12)
    kept = tm.first_attention_at_stream_scale(model, text[:2], "position")
    rescaled = trained.forward(model, text[:2], parts=("position",)).attention[0]
    assert not np.allclose(kept, rescaled, atol=1e-3)
    with pytest.raises(ValueError):
        tm.first_attention_at_stream_scale(model, text[:2], "both")
