# The reference answer of the in-class activity on RoPE
# (book/activities/rope_offset.md): one cell for each cell tagged
# `edit-me` there, in order (tests/test_activity.py runs the activity
# with these cells in their place). Shown on the instructor's guide.
# Not a module: `positions` comes from the notebook's step 1.

# %% The first cell: score
import numpy as np
import posenc

rng = np.random.default_rng(0)
q, k = rng.standard_normal((2, 64))  # a query and a key, d = 64


def score(m, n):
    """The RoPE score of q at position m and k at position n."""
    return posenc.rotate(q, m) @ posenc.rotate(k, n)


# %% Step 2: negative offsets
behind = np.array([score(m, m + 3) for m in positions])
print("offset -3:", behind, "spread:", np.ptp(behind))
swapped = np.array([posenc.rotate(k, m) @ posenc.rotate(q, m - 3)
                    for m in positions])
print("k at m, q at m - 3:", swapped)
assert np.allclose(swapped, behind, rtol=0, atol=1e-9)


# %% Step 3: mixing the two pairings
def mixed_score(m, n):
    """q rotated in the interleaved pairing, k in the half-split one."""
    k_half_split = posenc.rotate(k, n, pairing="half-split")
    return posenc.rotate(q, m) @ k_half_split


mixed = np.array([mixed_score(m, m - 3) for m in positions])
print("mixed pairings, offset 3:", mixed, "spread:", np.ptp(mixed))
