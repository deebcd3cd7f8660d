"""posenc.scaling in low precision: bfloat16 against exact rounding, and
Hugging Face's float32 frequencies and angles against what PyTorch computed
(split from tests/test_scaling.py; the same references and tolerances).
"""

from __future__ import annotations

import hashlib
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import posenc
from posenc import scaling

# ------------------------------------------------------------- bfloat16


def exact_bfloat16(value: float) -> float:
    """Round to 8 significant bits, ties to even, in exact arithmetic."""
    if value == 0:
        return 0.0
    exact = Fraction(value)
    exponent = math.floor(math.log2(abs(value)))
    if Fraction(2) ** exponent > abs(exact):  # log2 rounded up
        exponent -= 1
    spacing = Fraction(2) ** (exponent - 7)
    return float(round(exact / spacing) * spacing)  # round(): ties to even


def test_bfloat16_matches_exact_rounding():
    rng = np.random.default_rng(11)
    values = np.concatenate(
        [
            np.arange(0, 70_000, 7, dtype=float),
            rng.uniform(-1e6, 1e6, 2000).astype(np.float32).astype(float),
            [256.0, 257.0, 258.0, 16385.0, 16448.0, 16576.0, 65535.0, 1e-3],
        ]
    )
    rounded = scaling.to_bfloat16(values)
    expected = [exact_bfloat16(v) for v in values]
    np.testing.assert_array_equal(rounded, expected)


def test_bfloat16_rounds_float64_once():
    # float64 values that float32 cannot hold: rounding to float32 first
    # would round twice (1 + 2^-8 + 2^-30 to 1 + 2^-8, a tie, then to 1)
    assert scaling.to_bfloat16([1 + 2.0**-8 + 2.0**-30])[0] == 1 + 2.0**-7
    assert scaling.to_bfloat16([1 + 2.0**-8])[0] == 1.0  # a true tie: to even
    rng = np.random.default_rng(12)
    values = np.concatenate(
        [
            rng.uniform(-1e6, 1e6, 2000),
            # just above and below ties, closer than float32 can resolve
            (1 + (2 * rng.integers(0, 128, 500) + 1) * 2.0**-8)
            * (1 + rng.choice([-1, 1], 500) * 2.0**-40)
            * 2.0 ** rng.integers(-100, 100, 500),
        ]
    )
    rounded = scaling.to_bfloat16(values)
    expected = [exact_bfloat16(v) for v in values]
    np.testing.assert_array_equal(rounded, expected)


def test_bfloat16_subnormals_and_overflow():
    tiny = 2.0**-133  # the smallest bfloat16 subnormal
    values = [tiny / 2, 3 * tiny / 2, 1.4 * tiny, 2.0**-127, -(2.0**-126)]
    expected = [0.0, 2 * tiny, tiny, 2.0**-127, -(2.0**-126)]
    np.testing.assert_array_equal(scaling.to_bfloat16(values), expected)
    largest = (2 - 2.0**-7) * 2.0**127
    below_tie = largest + 2.0**119 * (1 - 2.0**-20)
    np.testing.assert_array_equal(
        scaling.to_bfloat16([largest, below_tie, largest + 2.0**119, -1e39]),
        [largest, largest, np.inf, -np.inf],
    )


def test_bfloat16_spacing_of_positions():
    positions = np.arange(70_000.0)
    rounded = scaling.to_bfloat16(positions)
    np.testing.assert_array_equal(rounded[:257], positions[:257])
    assert rounded[257] == 256  # the first integer lost (a tie, to even)
    for low, spacing in [(16384, 128), (32768, 256)]:
        block = rounded[low : 2 * low]
        assert np.all(np.isin(np.diff(np.unique(block)), [spacing]))


BF16_ARANGE = Path(__file__).parent / "data" / "bf16_arange.json"


def test_bfloat16_arange_is_not_rounding_to_nearest():
    # the chapter "How far the encoding reaches": torch.arange(131072,
    # dtype=torch.bfloat16) on the CPU (PyTorch 2.13, recorded by
    # tests/record_bf16_arange.py) against rounding each position
    if not BF16_ARANGE.exists() and Path(__file__).parent.name != "tests":
        pytest.skip("the recording is in tests/data, not beside this copy")
    record = json.loads(BF16_ARANGE.read_text())
    arange = np.repeat(np.array(record["values"], dtype=np.float32), record["counts"])
    digest = hashlib.sha256(arange.tobytes()).hexdigest()
    assert digest == record["float32_sha256"]
    positions = np.arange(131072.0)
    nearest = scaling.to_bfloat16(positions)
    for rounded in (arange, nearest):  # what both share
        assert len(np.unique(rounded)) == 1409
        assert np.array_equal(rounded[:257], positions[:257])
        assert rounded[257] != 257

    def octave_errors(rounded):
        return [
            np.abs(rounded[2**e : 2 ** (e + 1)] - positions[2**e : 2 ** (e + 1)]).max()
            for e in range(10, 17)
        ]

    def group_sizes(rounded, start):
        # the groups inside [start, 2 start) (its ends cut by the octave)
        return set(np.unique(rounded[start : 2 * start], return_counts=True)[1][1:-1])

    assert octave_errors(nearest) == [4, 8, 16, 32, 64, 128, 256]
    assert octave_errors(arange) == [4, 8, 31, 47, 79, 143, 271]
    for start, spacing, sizes in [
        (4096, 32, {16, 48}),
        (8192, 64, {48, 80}),
        (16384, 128, {112, 144}),
        (32768, 256, {240, 272}),
        (65536, 512, {496, 528}),
    ]:
        assert group_sizes(nearest, start) == {spacing - 1, spacing + 1}
        assert group_sizes(arange, start) == sizes
        assert set(np.diff(np.unique(arange[start : 2 * start]))) == {spacing}
    assert set(arange[4096:4128]) == {4096}  # 4,096 ... 4,127 all become 4,096
    assert set(nearest[4096:4128]) == {4096, 4128}


# ------------------------------------ Hugging Face's float32 frequencies

RECORDING = Path(__file__).parent / "data" / "hf_rope_float32.json"


def recorded_words(text):
    """float32 values from the space-separated hex words of their bits."""
    words = [int(word, 16) for word in text.split()]
    return np.array(words, dtype=np.uint32).view(np.float32)


@pytest.fixture(scope="module")
def recording():
    if not RECORDING.exists() and Path(__file__).parent.name != "tests":
        # tests/mutation.py runs this file alone, in a copy without tests/data
        pytest.skip("the recording is in tests/data, not beside this copy")
    return json.loads(RECORDING.read_text())


#: Recorded (d, base) where PyTorch's float32 power is not correctly rounded
#: for one frequency: the index of the frequency that differs by one ulp.
HF_ROPE_MISMATCHES = {(128, 1e6): 37, (512, 1e4): 222, (96, 1e4): 20}


def test_hf_rope_frequencies_are_what_pytorch_computed(recording):
    # bit for bit where PyTorch's power is correctly rounded (the chapter's
    # d = 128, base 5e5 among them); off by one ulp in one frequency at the
    # three cases the chapter names
    assert len(recording["frequencies"]) == 7
    for key, text in recording["frequencies"].items():
        d, base = int(key.split()[0]), float(key.split()[1])
        theirs = recorded_words(text).view(np.uint32).astype(np.int64)
        ours = posenc.hf_rope_frequencies(d, base)
        assert ours.dtype == np.float32
        off = np.flatnonzero(ours.view(np.uint32) != theirs)
        if (d, base) in HF_ROPE_MISMATCHES:
            assert off.tolist() == [HF_ROPE_MISMATCHES[d, base]], key
            assert abs(ours.view(np.uint32)[off[0]] - theirs[off[0]]) == 1
        else:
            assert off.size == 0, key
    assert (128, 5e5) not in HF_ROPE_MISMATCHES


def test_hf_rope_frequencies_round_more_than_once():
    # pair 32 of d = 128, base 5e5 is off by 1.38 u (u = 2^-24), more than
    # one rounding; not every frequency is the correctly rounded one
    theta = posenc.hf_rope_frequencies(128, 5e5)
    exact = posenc.frequencies(128, 5e5)
    off = np.abs(theta / exact - 1) / 2.0**-24
    assert round(off.max(), 2) == 1.38 and np.argmax(off) == 32
    assert not np.array_equal(theta, exact.astype(np.float32))


def test_hf_rope_angles_are_what_pytorch_computed(recording):
    table = recording["table"]
    theta = posenc.hf_rope_frequencies(table["d"], table["base"])
    positions = np.arange(*table["positions"], dtype=np.float32)
    angles = positions[:, None] * theta  # float32: one rounding each
    assert hashlib.sha256(angles.tobytes()).hexdigest() == table["angles_sha256"]
    wrong = angles.copy()
    wrong[5, 33] = np.nextafter(wrong[5, 33], np.float32(0))
    assert hashlib.sha256(wrong.tobytes()).hexdigest() != table["angles_sha256"]


def hf_table_bound(positions, theta):
    """The chapter's bound on HF's float32 table (pairs 0..d/2-1): the angle
    errs by up to (1.2 t theta_i) 2^-23, cos and sin round by 2^-23."""
    return 1.2 * positions[:, None] * theta * 2.0**-23 + 2.0**-23


def test_pytorchs_own_table_keeps_the_chapter_bound(recording):
    table = recording["table"]
    d, base = table["d"], table["base"]
    positions = np.arange(*table["positions"], dtype=float)
    rows = len(positions)
    cos = np.array([recorded_words(row) for row in table["cos"]]).reshape(rows, -1)
    sin = np.array([recorded_words(row) for row in table["sin"]]).reshape(rows, -1)
    theta = posenc.frequencies(d, base)
    angles = positions[:, None] * theta
    error = np.maximum(np.abs(cos - np.cos(angles)), np.abs(sin - np.sin(angles)))
    assert np.all(error <= hf_table_bound(positions, theta))
    # the bound for frequencies rounded once does not hold: t = 131,045,
    # pair 33 errs by 1.92e-5, 6% above t theta 2^-23 + 2^-23
    once = positions[:, None] * theta * 2.0**-23 + 2.0**-23
    ratio = error / once
    assert round(ratio.max(), 2) == 1.06
    worst = np.unravel_index(np.argmax(ratio), ratio.shape)
    assert (positions[worst[0]], worst[1]) == (131045, 33)
    assert round(error[worst], 7) == 1.92e-5
    # PyTorch's cos and sin of its float32 angles are within one float32
    # ulp of the correctly rounded values (the allowance 2^-23 covers that)
    ours = positions.astype(np.float32)[:, None] * posenc.hf_rope_frequencies(d, base)
    for theirs, function in [(cos, np.cos), (sin, np.sin)]:
        rounded = function(ours.astype(float)).astype(np.float32)
        ulps = np.abs(theirs.astype(float) - rounded) / np.spacing(np.abs(rounded))
        assert ulps.max() <= 1
