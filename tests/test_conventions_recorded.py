"""Tests of the recordings behind the chapter "The encoding in real code":
what PyTorch computed (``posenc.torch_recorded``: the frequencies of the
PyTorch tutorial and GPT-J in float32, and the precision chapter's check of
the tutorial's table), and the tables the original code of six code bases
computed (``tests/data/codebase_tables.json``, recorded by
``tests/record_codebases.py``), each compared with its restatement in
``posenc.codebases``. Split from ``tests/test_conventions.py``, which
checks the restatements against their descriptions, with the tolerances its
docstring states.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import posenc

# ---------------------------------- what PyTorch computed (posenc.torch_recorded)

# The frequencies that PyTorch's float32 exponential rounds otherwise than a
# correctly rounded one would (found when they were recorded).
TORCH_EXP_NOT_NEAREST = {64: [3], 512: [24, 212]}


def _float32_ulp(value):
    """The spacing of float32 numbers at ``value`` (an mpmath number > 0)."""
    import mpmath

    return mpmath.mpf(2) ** (mpmath.floor(mpmath.log(value, 2)) - 23)


@pytest.mark.parametrize("d", [64, 512])
def test_recorded_tutorial_frequencies_are_its_float32_exponential(d):
    """The recording is exp of the tutorial's float32 argument, to within
    0.53 ulp; it is the correctly rounded value except where PyTorch's exp
    rounds otherwise (the chapter 'Precision' counts those)."""
    import mpmath

    recorded = posenc.torch_frequencies("PyTorch tutorial", d)
    assert recorded.dtype == np.float32 and recorded.shape == (d // 2,)
    # torch: int64 arange times a Python float -> float32, rounded once
    argument = np.arange(0, d, 2, dtype=np.float32) * np.float32(-math.log(1e4) / d)
    not_nearest = []
    with mpmath.workdps(40):
        for i, (theta, x) in enumerate(zip(recorded, argument, strict=True)):
            exact = mpmath.exp(mpmath.mpf(float(x)))
            ulps = abs(mpmath.mpf(float(theta)) - exact) / _float32_ulp(exact)
            assert ulps <= 0.53, (i, float(ulps))
            if ulps > 0.5:
                not_nearest.append(i)
    assert not_nearest == TORCH_EXP_NOT_NEAREST[d]


@pytest.mark.parametrize("d", [64, 512])
def test_recorded_gptj_frequencies_are_rounded_more_than_once(d):
    """1 / 10000**(2i/d) in float32: the exponent 2i/d is exact (d a power of
    two); the power and the division each round, so theta_i may be off by
    more than u (the chapter 'Precision' says by how much), but not by more
    than the two roundings and the power's error allow (2.2 u)."""
    recorded = posenc.torch_frequencies("GPT-J", d).astype(np.float64)
    off = np.abs(recorded / posenc.frequencies(d) - 1) / 2.0**-24
    assert recorded[0] == 1.0
    assert 1 < off.max() < 2.2


@pytest.mark.parametrize("d", [64, 512])
def test_tutorial_table_with_numpy_sines_matches_pytorchs_own(d):
    """The precision chapter builds the tutorial's table from the recorded
    frequencies with numpy's float32 sine and cosine; with PyTorch's own
    (recorded in TABLE_CHECK) the share of entries above the bound and the
    largest ratio agree to the digits the chapter states."""
    from posenc import torch_recorded

    rng = np.random.default_rng(5)  # the chapter's positions, d = 64 first
    for width in (64, 512):
        where = np.round(rng.uniform(1, 2**24, 20_000))
        if width == d:
            break
    angles = where.astype(np.float32)[:, None] * posenc.torch_frequencies(
        "PyTorch tutorial", d
    )
    table = posenc.interleave(np.sin(angles), np.cos(angles))
    excess = posenc.encoding_error(table, where, d) / (
        posenc.entry_error_bound(where, d, 1e4, "float32")
        + posenc.entry_error_bound(where, d, 1e4, "float64")
    )
    share, worst = torch_recorded.TABLE_CHECK[d]
    assert abs(np.mean(excess > 1) - share) < 1e-4
    assert abs(excess.max() - worst) < 1e-4


def test_torch_frequencies_names_what_was_recorded():
    with pytest.raises(ValueError, match="no recording for"):
        posenc.torch_frequencies("PyTorch tutorial", 128)
    with pytest.raises(ValueError, match="recorded:"):
        posenc.torch_frequencies("fairseq", 64)


# ------------------------- the original code's tables (recorded in float32)

CODEBASE_RECORDING = Path(__file__).parent / "data" / "codebase_tables.json"
RECORDED = {  # name -> restatement; recorded row t: the token at position t
    "Annotated Transformer": posenc.pytorch_tutorial,
    "DistilBERT": posenc.distilbert,
    "Marian": posenc.marian,
    "GPT-J": posenc.gptj,
    "fairseq": posenc.fairseq,  # its forward pass: make_positions, padding 1
    "Whisper": posenc.whisper,
}


@pytest.fixture(scope="module")
def codebase_recording():
    if not CODEBASE_RECORDING.exists() and Path(__file__).parent.name != "tests":
        # tests/mutation.py runs this file alone, in a copy without tests/data
        pytest.skip("the recording is in tests/data, not beside this copy")
    return json.loads(CODEBASE_RECORDING.read_text())


def _float32_rows(rows):
    """A float32 table from rows of space-separated hex bit patterns."""
    words = [[int(word, 16) for word in row.split()] for row in rows]
    return np.array(words, dtype=np.uint32).view(np.float32)


def float32_table_bound(positions, d, name):
    """How far a float32 table of the code base may lie from the exact one.

    The originals round the frequency theta_i in float32 with a relative
    error below (2 ln(base) + 3) u, u = 2**-24 (an argument of exp of size
    up to ln(base), itself a product of two rounded factors, then exp; or a
    power and a division, 2.2 u), the angle t theta_i once more (u), and
    the sine or cosine and its storage by at most 2 u absolute. So an entry
    is within u (2 + (2 ln(base) + 4) t theta_i) of the exact value, t the
    angle's multiplier (the position plus the convention's start); the
    float64 restatement adds nothing at this scale (< 1e-13).
    """
    convention = posenc.CONVENTIONS[name]
    theta = posenc.CODEBASE_SCHEDULES[convention.schedule](d)
    if convention.layout == "interleaved":
        column_theta = np.repeat(theta, 2)
    else:
        column_theta = np.concatenate([theta, theta])
    t = np.abs(np.asarray(positions, dtype=float) + convention.start)
    angle = t[:, None] * column_theta
    return 2.0**-24 * (2 + (2 * math.log(1e4) + 4) * angle)


def test_the_recording_covers_the_six_runnable_code_bases(codebase_recording):
    assert set(codebase_recording["tables"]) == set(RECORDED)
    assert set(codebase_recording["sources"]) == set(RECORDED)
    assert codebase_recording["dims"] == [8, 64]


@pytest.mark.parametrize("name", RECORDED)
def test_each_restatement_matches_what_the_original_code_computed(
    name, codebase_recording
):
    function = RECORDED[name]
    positions = np.array(codebase_recording["rows"])
    for d in codebase_recording["dims"]:
        theirs = _float32_rows(codebase_recording["tables"][name][str(d)])
        assert theirs.shape == (len(positions), d)
        ours = function(positions, d)
        excess = np.abs(ours - theirs) / float32_table_bound(positions, d, name)
        assert excess.max() <= 1, (name, d, excess.max())


def test_fairseq_start_and_padding_row_are_the_original_codes(codebase_recording):
    """fairseq's forward pass (make_positions, default dictionary) on a
    left-padded sentence: padding tokens read the zeroed row padding_idx,
    the first real token the row of position padding_idx + 1 = 2, as
    posenc.fairseq and the chapter say."""
    record = codebase_recording["fairseq_positions"]
    padding_idx, d = record["padding_idx"], record["d"]
    assert padding_idx == 1  # "padding index 1" of the default dictionary
    assert posenc.CONVENTIONS["fairseq"].start == padding_idx + 1 == 2
    theirs = _float32_rows(record["rows"])
    tokens = np.array(record["tokens"])
    assert np.all(theirs[tokens == padding_idx] == 0)
    real = theirs[tokens != padding_idx]
    positions = np.arange(len(real))  # the real tokens' positions 0, 1, ...
    ours = posenc.fairseq(positions, d, padding_idx=padding_idx)
    bound = float32_table_bound(positions, d, "fairseq")
    assert np.all(np.abs(ours - theirs[tokens != padding_idx]) <= bound)


def test_a_config_asking_for_the_table_got_it_only_with_the_guard_or_fix(
    codebase_recording,
):
    """DistilBERT's position embedding built for sinusoidal_pos_embds and
    initialised by each release's own _init_weights: with the 2019 guard
    (transformers 2.1.1) and after transformers#29813 (4.40.0, no guard,
    but _init_weights writes the table) row 1, column 0 is sin 1; without
    either (4.39.3) it is a random N(0, 0.02) draw; the weight is frozen in
    all three. So the table was kept not only while frozen weights were
    skipped: 4.40.0 keeps it without skipping them."""
    init = codebase_recording["distilbert_init"]
    value = {
        kind: _float32_rows([entry["row1_col0"]])[0, 0] for kind, entry in init.items()
    }
    assert set(value) == {"guarded", "unguarded", "fixed"}
    for kind in ("guarded", "fixed"):
        assert abs(value[kind] - math.sin(1)) <= 2.0**-24  # float32 rounding
    assert abs(value["unguarded"] - math.sin(1)) > 0.5
    assert abs(value["unguarded"]) < 0.1  # 5 standard deviations
    assert not any(entry["requires_grad"] for entry in init.values())
    skips = {kind: entry["init_skips_frozen"] for kind, entry in init.items()}
    writes = {kind: entry["init_writes_table"] for kind, entry in init.items()}
    assert skips == {"guarded": True, "unguarded": False, "fixed": False}
    assert writes == {"guarded": False, "unguarded": False, "fixed": True}


def test_the_chapter_names_what_the_recording_checks(codebase_recording):
    """real_code.md says which restatements are checked against a recording
    of the original code and which against the transcription only."""
    chapter = Path(__file__).parents[1] / "book" / "real_code.md"
    text = " ".join(chapter.read_text().split())
    start = text.index("Six of them are also compared")
    recorded, unrecorded = text[start:].split("The PyTorch tutorial's", 1)
    unrecorded = unrecorded[: unrecorded.index("transcription only.)")]
    names = set(posenc.CONVENTIONS) - {"paper"}
    assert {n for n in names if n in recorded} == set(codebase_recording["tables"])
    assert "tensor2tensor" in unrecorded
    assert (
        set(codebase_recording["tables"])
        | {
            "PyTorch tutorial",
            "tensor2tensor",
        }
        == names
    )
