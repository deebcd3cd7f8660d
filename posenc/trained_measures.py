"""What the trained models do with the encoding, measured with numpy.

The chapter "What trained models do with the encoding" calls these
functions on the models of :mod:`posenc.trained`. Every measurement comes
with the baseline it is read against: the same model at its initialisation
(:func:`initial_model`), text shuffled within each window
(:func:`shuffle_windows`), uniform causal attention (:func:`uniform_profile`),
random matrices with the same singular values (:func:`same_spectrum`), or
the loss of a model that knows only how often each byte occurs
(:func:`frequency_loss`, from byte counts of the training split).

Conventions (those of :mod:`posenc.trained`): the code stores vectors as
rows, the formulas (``p_m^T H p_n``) write them as columns; query position m,
key position n, offset ``Delta = m - n >= 0`` (causal); heads of ``d_k`` =
16 dimensions with frequency pairs (2i, 2i + 1), pair 0 the fastest
(``theta_0 = 1``) and pair 7 the slowest. The measures:

* **Is p small?** :func:`embedding_norms`: mean ``|p_t|`` against mean
  ``|sqrt(d) E[token]|``, the two parts of the first residual stream.
* **Is p_m^T H p_n a function of m - n?** :func:`relative_share`: with
  ``H`` the first layer's matrix of one head (:func:`posenc.trained.h_matrices`)
  and the table ``p`` centred over its coordinates as LayerNorm centres it,
  ``1 - cross_leakage(P H P^T)``: the share of the variation of the cross
  terms (m != n) that their means along each offset explain, 1 when they
  depend on ``m - n`` alone. Its baseline: :func:`relative_share_baseline`.
* **Attention by offset.** :func:`offset_profiles` (mean weight at each
  offset), :func:`peaks`, :func:`positional_heads`, :func:`distance_ratios`.
* **RoPE's pairs.** :func:`head_pair_norms` (Barbero et al.'s measurement)
  and :func:`pair_margins` (which pairs lift the key a head attends to).
* **Loss by context.** :func:`loss_table`, from the manifest.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import trained
from .toy import cross_leakage
from .validate import check_choice, check_count

__all__ = [
    "CONTEXTS",
    "PEAK_OFFSETS",
    "POSITIONAL_FACTOR",
    "NEAR",
    "FAR",
    "initial_model",
    "sample_text",
    "shuffle_windows",
    "embedding_norms",
    "centred_table",
    "relative_share",
    "same_spectrum",
    "same_spectrum_draws",
    "relative_share_baseline",
    "head_relative_shares",
    "diagonal_share",
    "uniform_profile",
    "offset_profiles",
    "peaks",
    "positional_heads",
    "distance_ratios",
    "uniform_attention",
    "window_share",
    "first_attention_at_stream_scale",
    "head_pair_norms",
    "pair_margins",
    "loss_table",
    "unigram_loss",
    "frequency_loss",
    "byte_baseline",
]

#: The byte-frequency baseline's data (``scripts/byte_baseline.py``).
BYTE_BASELINE = trained.MODELS_DIR / "byte_baseline.npz"
#: The contexts the loss is reported at: the trained one, twice and four times.
CONTEXTS = (128, 256, 512)
#: The offsets a positional head may prefer (the copy task's reach is 16).
PEAK_OFFSETS = tuple(range(1, 17))
#: A head is positional when its peak is this many times the largest peak of
#: any head of the initialised models (see :func:`positional_heads`).
POSITIONAL_FACTOR = 4.0
#: Offsets counted as near and far by :func:`distance_ratios` (inclusive).
NEAR = (1, 8)
FAR = (64, 127)


# ------------------------------------------------------------ inputs


def initial_model(model: trained.Model) -> trained.Model:
    """The same variant and seed at the start of training (float64 weights
    from :func:`posenc.trained.initial_weights`), with no statistics."""
    start = trained.initial_weights(model.config, model.seed)
    weights = {name: value.astype(np.float64) for name, value in start.items()}
    return trained.Model(model.variant, model.seed, model.config, weights, {}, {})


def sample_text(windows: int = 8, length: int = 128) -> NDArray[np.int64]:
    """The first ``windows`` windows of the shipped validation sample, cut to
    their first ``length`` bytes (at most 16 and 512)."""
    text = trained.load_sample()["text"]
    windows = check_count(windows, "windows")
    length = check_count(length, "length")
    if windows > text.shape[0] or length > text.shape[1]:
        raise ValueError(f"the sample holds {text.shape} bytes")
    return text[:windows, :length].astype(np.int64)


def shuffle_windows(tokens: ArrayLike, seed: int) -> NDArray[np.int64]:
    """Each row of ``tokens`` (B, T) with its bytes in a random order: the
    same bytes at the same positions on average, no order of content. A
    head whose preference for an offset survives this is led by position."""
    tokens = np.asarray(tokens)
    if tokens.ndim != 2:
        raise ValueError(f"tokens must have shape (B, T), got {tokens.shape}")
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(row) for row in tokens])


# ------------------------------------------------------------ step 1


def embedding_norms(model: trained.Model, tokens: ArrayLike) -> dict[str, float]:
    """The two parts of the first residual stream, ``sqrt(d) E[token] + p_t``.

    Returns ``token`` (mean ``|sqrt(d) E[token]|`` over the bytes of
    ``tokens``, so frequent bytes weigh more), ``position`` (mean ``|p_t|``
    over the positions of ``tokens``; 0 for the variants that add nothing)
    and ``ratio``, position over token.
    """
    tokens = trained.check_tokens(model, tokens)
    d = model.config["d_model"]
    token = np.linalg.norm(model.weights["tok_emb"][tokens] * math.sqrt(d), axis=-1)
    table = trained.position_vectors(model, tokens.shape[-1])
    position = np.linalg.norm(table, axis=-1).mean()
    return {
        "token": float(token.mean()),
        "position": float(position),
        "ratio": float(position / token.mean()),
    }


# ------------------------------------------------------------ steps 2 and 3


def centred_table(model: trained.Model, length: int = 128) -> NDArray[np.float64]:
    """``p_t`` for t < ``length`` less its mean over the d coordinates, as the
    first LayerNorm centres the stream (its division by the stream's spread,
    which depends on the tokens too, is left out)."""
    table = trained.position_vectors(model, check_count(length, "length"))
    return table - table.mean(axis=1, keepdims=True)


def relative_share(
    h: ArrayLike, table: ArrayLike, causal: bool = False
) -> float | NDArray:
    """``1 - cross_leakage(P H P^T)``: the share of the variation of the cross
    terms ``p_m^T H p_n`` (m != n, ``P`` the rows ``p_t``) that a function of
    ``m - n`` explains. 1 for cross terms in the offset alone (H = I on the
    sinusoidal table); noise in an L x L matrix gives about 2/(L + 1).

    With ``causal`` only the terms a causal head reads count, key before
    query (n < m, query m on the left of H): the same share over them.
    ``h`` may be a stack (..., d, d) of matrices: one share each, shape
    (...) (a float for one matrix).
    """
    h, table = np.asarray(h, dtype=np.float64), np.asarray(table, dtype=np.float64)
    if (
        h.ndim < 2
        or h.shape[-1] != h.shape[-2]
        or table.ndim != 2
        or table.shape[-1] != h.shape[-1]
        or table.shape[0] < 2
    ):
        raise ValueError(
            f"need H (..., d, d) and a table (L, d), L >= 2, "
            f"got {h.shape}, {table.shape}"
        )
    crosses = table @ h.reshape(-1, *h.shape[-2:]) @ table.T
    shares = np.array([_explained_share(cross, causal) for cross in crosses])
    return float(shares[0]) if h.ndim == 2 else shares.reshape(h.shape[:-2])


def _explained_share(cross: NDArray, causal: bool) -> float:
    """:func:`relative_share` of one matrix of cross terms (L, L)."""
    if not causal:
        return 1.0 - cross_leakage(cross)
    size = cross.shape[0]
    offsets = np.subtract.outer(np.arange(size), np.arange(size))
    read = offsets > 0
    values, classes = cross[read], offsets[read]
    sums = np.bincount(classes, weights=values)
    counts = np.maximum(np.bincount(classes), 1)
    residual = values - (sums / counts)[classes]
    return 1.0 - float(np.sum(residual**2) / np.sum((values - values.mean()) ** 2))


def _haar(size: int, rng: np.random.Generator, count: int = 1) -> NDArray[np.float64]:
    """``count`` random orthogonal matrices (count, size, size), uniform (Haar)
    over the orthogonal group: the QR factor of a Gaussian matrix, its
    columns' signs fixed by R's diagonal."""
    q, r = np.linalg.qr(rng.standard_normal((count, size, size)))
    return q * np.sign(np.diagonal(r, axis1=-2, axis2=-1))[:, None, :]


def same_spectrum(h: ArrayLike, rng: np.random.Generator) -> NDArray[np.float64]:
    """A random matrix with the singular values of ``h``: ``U diag(s) V^T``
    with ``U``, ``V`` independent and uniform over the orthogonal group. It
    has the size and rank of ``h`` and no reason to favour any offset."""
    h = np.asarray(h, dtype=np.float64)
    singular = np.linalg.svd(h, compute_uv=False)
    u, v = _haar(h.shape[0], rng, 2)
    return (u * singular) @ v.T


def same_spectrum_draws(h: ArrayLike, samples: int, seed: int) -> NDArray[np.float64]:
    """``samples`` draws of :func:`same_spectrum` of ``h`` from
    ``np.random.default_rng(seed)``, in one pass: shape (samples, d, d),
    the same matrices as ``samples`` calls in a row on that generator."""
    h = np.asarray(h, dtype=np.float64)
    samples = check_count(samples, "samples")
    singular = np.linalg.svd(h, compute_uv=False)
    pairs = _haar(h.shape[0], np.random.default_rng(seed), 2 * samples)
    return (pairs[0::2] * singular) @ np.swapaxes(pairs[1::2], -1, -2)


def relative_share_baseline(
    h: ArrayLike,
    table: ArrayLike,
    samples: int = 200,
    seed: int = 0,
    causal: bool = False,
) -> NDArray[np.float64]:
    """:func:`relative_share` of ``samples`` draws of :func:`same_spectrum`
    of ``h`` on the same table, from ``np.random.default_rng(seed)``
    (:func:`same_spectrum_draws`)."""
    return relative_share(same_spectrum_draws(h, samples, seed), table, causal)


def head_relative_shares(
    model: trained.Model, length: int = 128, causal: bool = False
) -> NDArray:
    """:func:`relative_share` of each head's first-layer H on
    :func:`centred_table`, shape (heads,). Only for the variants that add a
    table (sinusoidal, learned)."""
    check_choice(model.variant, "variant", ("sinusoidal", "learned"))
    return relative_share(
        trained.h_matrices(model, 0), centred_table(model, length), causal
    )


def diagonal_share(h: ArrayLike) -> float:
    """The share of ``|H|^2`` (squared Frobenius norm) on the main diagonal:
    1 for any nonzero multiple of the identity, step 3's ``H = I``; about
    1/d for a random d x d matrix."""
    h = np.asarray(h, dtype=np.float64)
    if h.ndim != 2 or h.shape[0] != h.shape[1] or not np.any(h):
        raise ValueError("h must be a nonzero square matrix")
    return float(np.sum(np.diag(h) ** 2) / np.sum(h**2))


# ------------------------------------------------------------ attention


def uniform_profile(length: int) -> NDArray[np.float64]:
    """:func:`posenc.trained.attention_by_offset` of uniform causal attention
    (query m gives 1/(m + 1) to each key): the profile a head with no
    preference shows, which falls with the offset by itself."""
    return trained.attention_by_offset(uniform_attention(length))


def uniform_attention(length: int) -> NDArray[np.float64]:
    """The weights of uniform causal attention, (T, T): query m gives
    1/(m + 1) to each key n <= m."""
    length = check_count(length, "length")
    rows = 1.0 / np.arange(1, length + 1)
    return np.tril(np.broadcast_to(rows[:, None], (length,) * 2))


def window_share(
    attention: ArrayLike, low: int, high: int, first_query: int = 64
) -> NDArray[np.float64]:
    """The share of each query's weight on the keys at offsets ``low`` to
    ``high`` (inclusive; offset 0 is the query's own position), averaged
    over the queries ``m >= first_query``, which all have every key up to
    that offset: shape (...) for attention (..., T, T).

    Unlike :func:`distance_ratios` the windows may hold offset 0, and the
    shares of windows that cover 0 to m - 1 add up to 1 for each query.
    """
    attention = np.asarray(attention, dtype=np.float64)
    length = attention.shape[-1]
    if not 0 <= low <= high or not 0 <= first_query < length:
        raise ValueError("need 0 <= low <= high and 0 <= first_query < T")
    offsets = np.subtract.outer(np.arange(length), np.arange(length))
    inside = (offsets >= low) & (offsets <= high)
    rows = (attention * inside).sum(axis=-1)
    return rows[..., first_query:].mean(axis=-1)


def offset_profiles(run: trained.Forward) -> NDArray[np.float64]:
    """Mean attention weight at each offset, for every layer and head, over
    the windows of ``run`` (a :func:`posenc.trained.forward` on (B, T)
    tokens): shape (layers, heads, T)."""
    attention = run.attention
    if attention.ndim != 5:
        raise ValueError("run must be a forward pass over (B, T) tokens")
    return trained.attention_by_offset(attention).mean(axis=1)


def peaks(profiles: ArrayLike) -> tuple[NDArray, NDArray]:
    """For profiles (..., T), the largest mean weight at one offset of
    :data:`PEAK_OFFSETS` and that offset: two arrays of shape (...)."""
    profiles = np.asarray(profiles, dtype=np.float64)
    window = profiles[..., PEAK_OFFSETS[0] : PEAK_OFFSETS[-1] + 1]
    return window.max(axis=-1), window.argmax(axis=-1) + PEAK_OFFSETS[0]


def positional_heads(
    profiles: ArrayLike, shuffled: ArrayLike, initial_peak: float
) -> NDArray[np.bool_]:
    """Which heads are positional, shape (...) for profiles (..., T).

    A head is positional when its peak (:func:`peaks`) is at least
    :data:`POSITIONAL_FACTOR` times ``initial_peak`` (the largest peak of
    any head of the initialised models) on the text *and* on the same text
    shuffled within each window (``shuffled``), at the same offset: its
    preference for one offset is the model's, and it is led by position,
    not by the bytes it finds there.
    """
    threshold = POSITIONAL_FACTOR * float(initial_peak)
    value, offset = peaks(profiles)
    value_shuffled, offset_shuffled = peaks(shuffled)
    return (
        (value >= threshold)
        & (value_shuffled >= threshold)
        & (offset == offset_shuffled)
    )


def distance_ratios(profiles: ArrayLike) -> tuple[NDArray, NDArray]:
    """Mean weight at the near offsets (:data:`NEAR`) and at the far ones
    (:data:`FAR`), each over the same mean of :func:`uniform_profile`:
    1 and 1 for a head with no preference; a head whose attention falls
    with distance faster than uniform attention's has near > 1 > far."""
    profiles = np.asarray(profiles, dtype=np.float64)
    length = profiles.shape[-1]
    if length <= FAR[1]:
        raise ValueError(f"profiles must reach offset {FAR[1]}")
    uniform = uniform_profile(length)

    def ratio(span: tuple[int, int]) -> NDArray:
        window = slice(span[0], span[1] + 1)
        return profiles[..., window].mean(axis=-1) / uniform[window].mean()

    return ratio(NEAR), ratio(FAR)


# ------------------------------------------------------------ RoPE's pairs


def head_pair_norms(run: trained.Forward, layer: int) -> tuple[NDArray, NDArray]:
    """Mean norm of each frequency pair of the queries and of the keys of
    every head of ``layer``, averaged over windows and positions: two arrays
    (heads, d_k/2), pair 0 the fastest. Barbero et al. (2024) measured this
    on Gemma 7B."""
    q = trained.pair_norms(run.q[layer]).mean(axis=0)
    k = trained.pair_norms(run.k[layer]).mean(axis=0)
    return q, k


def pair_margins(
    run: trained.Forward,
    layer: int,
    head: int,
    offset: int,
    against: str = "average",
) -> NDArray:
    """What each frequency pair adds to the score of the key at ``offset``
    above other keys, in one head: shape (d_k/2,).

    The score ``q_m . k_n / sqrt(d_k)`` (after rotation) is a sum over
    pairs. For pair i: its mean part at ``n = m - offset`` (over the
    queries m >= offset of every window) less its mean part over the other
    causal keys of those queries (``against="average"``: what lifts the
    key above the average key, the near/far fall), or over the two
    neighbouring keys at ``offset - 1`` and ``offset + 1`` (queries
    m > offset; ``against="neighbours"``: what makes the head sharp).
    The margins sum to the whole score's.
    """
    check_choice(against, "against", ("average", "neighbours"))
    q, k = run.q_rot[layer][:, head], run.k_rot[layer][:, head]  # (B, T, d_k)
    batch, length, d_k = q.shape
    if not 1 <= offset < length:
        raise ValueError(f"offset must be from 1 to {length - 1}")
    qp = q.reshape(batch, length, d_k // 2, 2)
    kp = k.reshape(batch, length, d_k // 2, 2)
    parts = np.einsum("bmip,bnip->imn", qp, kp, optimize=True)
    parts /= batch * math.sqrt(d_k)
    if against == "neighbours":
        queries = np.arange(offset + 1, length)
        attended = parts[:, queries, queries - offset].mean(axis=1)
        before = parts[:, queries, queries - offset - 1].mean(axis=1)
        after = parts[:, queries, queries - offset + 1].mean(axis=1)
        return attended - (before + after) / 2
    queries = np.arange(offset, length)
    attended = parts[:, queries, queries - offset].mean(axis=1)
    others = np.tril(np.ones((length, length), dtype=bool))
    others[queries, queries - offset] = False
    others[:offset] = False
    rest = (parts * others).sum(axis=(1, 2)) / others.sum()
    return attended - rest


# ------------------------------------------------------------ loss


def loss_table(variant: str, manifest: dict | None = None) -> NDArray[np.float64]:
    """Validation loss (nats a byte) at the contexts :data:`CONTEXTS`, one row
    per seed, as the manifest recorded it: shape (seeds, 3); NaN where the
    learned table has no row."""
    variant = check_choice(variant, "variant", trained.VARIANTS)
    runs = (manifest or trained.manifest())["runs"]
    rows = sorted(
        (r["seed"], r["val_loss_at"]) for r in runs if r["variant"] == variant
    )
    return np.array(
        [
            [np.nan if at[str(c)] is None else at[str(c)] for c in CONTEXTS]
            for _, at in rows
        ]
    )


def unigram_loss(tokens: ArrayLike) -> float:
    """The entropy (nats) of the bytes' frequencies in ``tokens``: the loss
    of the best model that ignores context, on those bytes."""
    counts = np.bincount(np.asarray(tokens).ravel(), minlength=256)
    share = counts[counts > 0] / counts.sum()
    return float(-(share * np.log(share)).sum())


def frequency_loss(counts: ArrayLike, tokens: ArrayLike) -> float:
    """The mean loss (nats) on ``tokens`` of a model that predicts every
    byte with the frequencies ``counts`` (256,), measured elsewhere (on the
    training split): ``-mean(log(counts[t] / sum(counts)))``."""
    counts = np.asarray(counts, dtype=np.float64)
    tokens = np.asarray(tokens)
    if counts.shape != (256,) or np.any(counts[tokens] <= 0):
        raise ValueError("counts must be (256,), nonzero at every token")
    return float(-np.mean(np.log(counts[tokens] / counts.sum())))


def byte_baseline() -> dict[str, NDArray]:
    """The shipped data of the byte-frequency baseline: ``train_counts``
    (256,), each byte's count in the training split, and ``loss_windows``
    (48, 513), the validation windows the models' losses were recorded on;
    ``meta`` holds the corpus hash. Written by ``scripts/byte_baseline.py``
    from the standard library the models were trained on, so a reader's
    Python need not have the same one."""
    import json

    with np.load(BYTE_BASELINE, allow_pickle=False) as data:
        baseline = {name: data[name] for name in data.files}
    baseline["meta"] = json.loads(str(baseline["meta"]))
    return baseline


def first_attention_at_stream_scale(
    model: trained.Model, tokens: ArrayLike, part: str
) -> NDArray[np.float64]:
    """The first layer's attention (batch, heads, T, T) when only ``part``
    ("position" or "token") reaches it, but divided by the whole stream's
    LayerNorm scale: the other part is removed after the normalisation's
    spread is taken, so the part kept is not rescaled to the stream's size
    (as :func:`trained.forward` with ``parts`` alone does)."""
    part = check_choice(part, "part", ("position", "token"))
    tokens = trained.check_tokens(model, tokens)
    tokens = tokens[None] if tokens.ndim == 1 else tokens
    config, w = model.config, model.weights
    heads, d_k, length = config["heads"], model.d_k, tokens.shape[1]
    embed_token = w["tok_emb"][tokens] * math.sqrt(config["d_model"])
    embed_position = np.broadcast_to(
        trained.position_vectors(model, length), embed_token.shape
    )
    both = embed_token + embed_position
    scale = np.sqrt(both.var(axis=-1, keepdims=True) + config["ln_eps"])
    kept = embed_position if part == "position" else embed_token
    h = (kept - kept.mean(axis=-1, keepdims=True)) / scale
    h = h * w["blocks.0.ln1.weight"] + w["blocks.0.ln1.bias"]

    def split(m: NDArray) -> NDArray:  # (B, T, d) -> (B, heads, T, d_k)
        return m.reshape(m.shape[0], length, heads, d_k).transpose(0, 2, 1, 3)

    positions = np.arange(length)
    q, k = (
        trained.rotate_heads(split(h @ w["blocks.0." + name]), positions, config)
        for name in ("w_q", "w_k")
    )
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d_k)
    causal = np.triu(np.ones((length, length), dtype=bool), 1)
    return trained.softmax(np.where(causal, -np.inf, scores))
