"""Small Transformers trained here, read with numpy alone.

``make models`` trains a decoder-only Transformer on the bytes of the Python
standard library's source (plus a copy-the-token-k-back task) in five
variants that differ only in how position enters (:data:`VARIANTS`), three
seeds each, and writes one ``posenc/models/<variant>-seed<s>.npz`` per run.
This module loads them and runs them with numpy alone: no training framework
is needed to read, run or measure them. The chapter "What trained models do
with the encoding" measures them.

Conventions (the training code, ``training/model.py``, follows the same):

* **Row vectors.** A sequence is ``x`` of shape (T, d) (or (B, T, d)); a
  weight ``W`` maps ``x @ W`` and is stored as (in, out).
* **Embedding.** ``x_t = sqrt(d) * E[token_t] + p_t``: the token embedding
  ``E`` (256 x d) is scaled by sqrt(d) as in the paper and tied to the
  output, ``logits = LN_f(x) @ E.T``. ``p_t`` is the paper's table
  ``posenc.encoding(t, d)`` (variant ``sinusoidal``, interleaved sin/cos),
  a trained table ``P[t]`` (``learned``, rows t < 128 only), or 0.
* **Pre-LN blocks.** ``x += Attn(LN1(x))``, then ``x += MLP(LN2(x))``; a
  final ``LN_f``. ``LN(x) = g * (x - mean(x)) / sqrt(var(x) + 1e-5) + b``
  over the last axis. The MLP is ``gelu(h @ W_in) @ W_out`` (d -> 4d -> d,
  GELU in its tanh form); no linear map has a bias.
* **Heads.** Head ``h`` owns columns ``h*d_k : (h+1)*d_k`` of ``W_Q``,
  ``W_K``, ``W_V`` and rows ``h*d_k : (h+1)*d_k`` of ``W_O``. Scores are
  ``q_m . k_n / sqrt(d_k)`` for ``n <= m`` (causal), softmax over ``n``.
* **Rotation.** ``rope``: q and k of every head are turned by
  :func:`posenc.rotate` (interleaved pairs (2i, 2i+1), angle ``t*theta_i``,
  ``theta_i = 10000**(-2i/d_k)``), at their own position ``t``.
  ``p-rope``: the ``int(0.75 * d_k/2)`` highest-frequency pairs turn as in
  RoPE, the lowest quarter not at all (Barbero et al. 2024, arXiv:2410.06205,
  their 0.75-RoPE).

Everything here works in float64; the weights are stored as float16 and the
statistics stored with them were measured on those rounded weights.
"""

from __future__ import annotations

import json
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .core import encoding as sinusoid_table
from .core import rotate
from .validate import check_choice

#: The five ways position enters, the seeds trained, where the files are.
VARIANTS = ("sinusoidal", "rope", "p-rope", "learned", "nope")
SEEDS = (0, 1, 2)
MODELS_DIR = Path(__file__).resolve().parent / "models"
#: The copy task's offsets and the fraction of RoPE pairs p-RoPE rotates.
COPY_OFFSETS = (1, 2, 4, 8, 16)
P_ROPE_FRACTION = 0.75


def model_config(variant: str) -> dict:
    """The architecture and its initialisation, as stored in every npz.

    2 layers, width 64, 4 heads of 16 dimensions (8 frequency pairs each),
    MLP width 256, trained at context 128 and evaluated up to 512, a
    vocabulary of the 256 byte values.
    """
    variant = check_choice(variant, "variant", VARIANTS)
    rope_fraction = {"rope": 1.0, "p-rope": P_ROPE_FRACTION}.get(variant)
    return {
        "variant": variant,
        "vocab": 256,
        "d_model": 64,
        "heads": 4,
        "layers": 2,
        "d_mlp": 256,
        "context": 128,
        "max_eval_length": 512,
        "ln_eps": 1e-5,
        "rope_base": 10000.0,
        "rope_fraction": rope_fraction,
    }


def rotation_frequencies(config: dict) -> NDArray[np.float64] | None:
    """theta_i of each pair of a head, shape (d_k/2,), 0 where a pair is not
    turned (p-RoPE's lowest quarter); None for the variants that do not
    rotate."""
    if config["rope_fraction"] is None:
        return None
    d_k = config["d_model"] // config["heads"]
    theta = config["rope_base"] ** (-np.arange(d_k // 2) * 2.0 / d_k)
    turned = int(config["rope_fraction"] * d_k // 2)
    theta[turned:] = 0.0
    return theta


def rotate_heads(x: ArrayLike, positions: ArrayLike, config: dict) -> NDArray:
    """Rotate q or k of shape (..., T, d_k) at ``positions`` (T,), by
    :func:`posenc.rotate` (interleaved pairing).

    p-RoPE turns the first ``r`` pairs with the frequencies of RoPE on d_k,
    ``base**(-2i/d_k)``. On the first ``2r`` coordinates alone that is RoPE
    of dimension 2r with the base ``base**(2r/d_k)``, since
    ``(base**(2r/d_k))**(-2i/(2r)) = base**(-2i/d_k)``: for d_k = 16, r = 6,
    the base 10000**0.75 = 1000. The remaining coordinates are left as
    they are.
    """
    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(positions, dtype=np.float64)
    fraction = config["rope_fraction"]
    if fraction is None:
        return x
    d_k = x.shape[-1]
    turned = int(fraction * d_k // 2)
    base = config["rope_base"] ** (2 * turned / d_k)
    head = rotate(x[..., : 2 * turned], t, base=base)
    return np.concatenate([head, x[..., 2 * turned :]], axis=-1)


# ------------------------------------------------------------ initialisation


def initial_weights(config: dict, seed: int) -> dict[str, NDArray[np.float32]]:
    """The weights before training, from numpy alone (training starts here).

    Each array is drawn from its own generator, seeded with ``(seed,
    crc32(name))``: for one seed every variant starts from the same token
    embedding and blocks. Token embedding, W_Q, W_K, W_V, W_in: normal with
    standard deviation 1/sqrt(fan-in) (1/sqrt(d) for E, so sqrt(d) E has unit
    entries); W_O and W_out the same divided by sqrt(2 * layers) (GPT-2's
    residual scaling); the learned table P: 1/sqrt(2), the root mean square
    of an entry of the sinusoidal table, so both start with norm sqrt(d/2);
    LayerNorm gains 1 and biases 0.
    """
    d, hidden, layers = config["d_model"], config["d_mlp"], config["layers"]
    residual = 1 / math.sqrt(2 * layers)

    def normal(name: str, shape: tuple, std: float) -> NDArray[np.float32]:
        rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
        return (rng.standard_normal(shape) * std).astype(np.float32)

    weights = {"tok_emb": normal("tok_emb", (config["vocab"], d), d**-0.5)}
    if config["variant"] == "learned":
        weights["pos_emb"] = normal("pos_emb", (config["context"], d), 0.5**0.5)
    for layer in range(layers):
        pre = f"blocks.{layer}."
        for ln in ("ln1", "ln2"):
            weights[pre + ln + ".weight"] = np.ones(d, np.float32)
            weights[pre + ln + ".bias"] = np.zeros(d, np.float32)
        for w in ("w_q", "w_k", "w_v"):
            weights[pre + w] = normal(pre + w, (d, d), d**-0.5)
        weights[pre + "w_o"] = normal(pre + "w_o", (d, d), d**-0.5 * residual)
        weights[pre + "w_in"] = normal(pre + "w_in", (d, hidden), d**-0.5)
        std = hidden**-0.5 * residual
        weights[pre + "w_out"] = normal(pre + "w_out", (hidden, d), std)
    weights["ln_f.weight"] = np.ones(d, np.float32)
    weights["ln_f.bias"] = np.zeros(d, np.float32)
    return weights


def weights_digest(weights: dict[str, ArrayLike]) -> str:
    """SHA-256 of the weights as float32, by sorted name (stored as
    ``init_digest``: the test checks :func:`initial_weights` still gives
    the start the shipped models were trained from)."""
    import hashlib

    digest = hashlib.sha256()
    for name in sorted(weights):
        digest.update(name.encode() + b"\0")
        digest.update(np.ascontiguousarray(weights[name], np.float32).tobytes())
    return digest.hexdigest()


# ------------------------------------------------------------ loading


@dataclass
class Model:
    """A trained model: its weights (float64), config and what was measured.

    ``meta`` holds the provenance and the statistics (JSON in the npz):
    ``code_sha256`` (the training files), ``corpus_sha256``,
    ``python_version``, ``seed``, ``steps``, ``train_loss``, ``val_loss``
    (context 128) and ``val_loss_at`` {"128", "256", "512"} (None where the
    learned table has no row), ``copy_accuracy`` and ``copy_loss`` by offset
    (within and beyond the trained context), ``check`` (the statistics at
    the step the slow test retrains to), ``init_digest``, the timings.
    ``arrays`` holds the recorded arrays: ``val_loss_by_position`` (512,),
    ``history_*`` (the training curve), ``probe_*`` (torch's logits and
    attention rows on ``probe_tokens``, to check :func:`forward` against).
    """

    variant: str
    seed: int
    config: dict
    weights: dict[str, NDArray[np.float64]]
    meta: dict
    arrays: dict[str, NDArray] = field(repr=False)

    @property
    def d_k(self) -> int:
        return self.config["d_model"] // self.config["heads"]


def model_path(variant: str, seed: int, directory: Path | None = None) -> Path:
    variant = check_choice(variant, "variant", VARIANTS)
    seed = check_choice(seed, "seed", SEEDS)
    return (directory or MODELS_DIR) / f"{variant}-seed{seed}.npz"


def load(variant: str, seed: int = 0, directory: Path | None = None) -> Model:
    """The trained model of ``variant`` and ``seed`` (weights as float64)."""
    path = model_path(variant, seed, directory)
    if not path.exists():
        raise ValueError(f"no trained model at {path}: run make models")
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        weights, arrays = {}, {}
        for name in data.files:
            if name.startswith("w:"):
                weights[name[2:]] = data[name].astype(np.float64)
            elif name != "meta":
                arrays[name] = data[name]
    config = meta["config"]
    return Model(variant, seed, config, weights, meta, arrays)


def load_sample(directory: Path | None = None) -> dict[str, NDArray]:
    """The shipped validation sample every model is measured on: ``text``
    (16 windows of 512 bytes from the validation files), ``copy_tokens``
    (4 copy-task sequences of 512 bytes per offset) with ``copy_offsets``,
    and ``meta`` (corpus hash, Python version), so that measurements need
    no stdlib of the same version."""
    path = (directory or MODELS_DIR) / "sample.npz"
    with np.load(path, allow_pickle=False) as data:
        sample = {name: data[name] for name in data.files}
    sample["meta"] = json.loads(str(sample["meta"]))
    return sample


def manifest(directory: Path | None = None) -> dict:
    """``manifest.json``: every run's key statistics and the timings."""
    return json.loads(((directory or MODELS_DIR) / "manifest.json").read_text())


# ------------------------------------------------------------ forward pass


@dataclass
class Forward:
    """Everything :func:`forward` computes, for tokens of shape (T,) or
    (B, T) (the batch axis ``...`` is absent for one sequence).

    ``embed_token`` and ``embed_position`` (..., T, d): the two parts of the
    embedding, ``sqrt(d) E[token]`` and ``p_t`` (zeros for rope, p-rope and
    nope), as computed whichever of them entered the stream; ``residual``
    (layers + 1, ..., T, d): the stream before each layer and after the
    last; ``q``, ``k`` (layers, ..., heads, T, d_k) before rotation and
    ``q_rot``, ``k_rot`` after (equal to them for the variants that do not
    rotate);
    ``attention`` (layers, ..., heads, T, T), row m the weights over keys n;
    ``logits`` (..., T, 256), row t the scores of the byte after t.
    """

    embed_token: NDArray
    embed_position: NDArray
    residual: NDArray
    q: NDArray
    k: NDArray
    q_rot: NDArray
    k_rot: NDArray
    attention: NDArray
    logits: NDArray


def layer_norm(x: NDArray, gain: NDArray, bias: NDArray, eps: float) -> NDArray:
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = (centred**2).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * gain + bias


def gelu(x: NDArray) -> NDArray:
    """GELU in its tanh form, as torch's ``gelu(approximate="tanh")``."""
    # x * x * x, not x**3: numpy's float power is about 80 times slower
    # (half of a forward pass's time)
    cube = x * x * x
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * cube)))


def softmax(scores: NDArray) -> NDArray:
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def check_tokens(model: Model, tokens: ArrayLike, spare: int = 0) -> NDArray[np.int64]:
    """Bytes 0..255, shape (T,) or (B, T), T >= 1; T <= 128 + spare for
    learned (``spare`` = 1 for a sequence whose last byte is only a target).
    """
    array = np.asarray(tokens)
    if array.ndim not in (1, 2) or array.shape[-1] == 0 or array.size == 0:
        raise ValueError(f"tokens must have shape (T,) or (B, T), got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"tokens must be integers (bytes), got {array.dtype}")
    if array.min() < 0 or array.max() >= model.config["vocab"]:
        raise ValueError("tokens must be bytes, 0 to 255")
    limit = model.config["context"] + spare
    if model.variant == "learned" and array.shape[-1] > limit:
        raise ValueError(
            f"tokens: the learned table has {limit} rows, got T = {array.shape[-1]}"
        )
    return array.astype(np.int64)


def position_vectors(model: Model, length: int) -> NDArray[np.float64]:
    """``p_t`` for t = 0 .. length-1, shape (length, d): what the variant
    adds to the token embedding (zeros for rope, p-rope and nope)."""
    d = model.config["d_model"]
    if model.variant == "sinusoidal":
        return sinusoid_table(np.arange(length), d)
    if model.variant == "learned":
        if length > model.config["context"]:
            raise ValueError(f"length must be at most {model.config['context']}")
        return model.weights["pos_emb"][:length]
    return np.zeros((length, d))


#: What :func:`forward` may put in the stream at the start.
PARTS = ("token", "position")


def forward(model: Model, tokens: ArrayLike, parts: tuple = PARTS) -> Forward:
    """The model on ``tokens``, in float64, at positions 0 .. T-1.

    ``parts`` names what enters the residual stream at the start: both parts
    (the model as trained), ``("position",)`` alone (the encoding's own
    attention, content removed: every token's part set to zero) or
    ``("token",)`` alone. ``embed_token`` and ``embed_position`` report the
    parts as computed, whichever entered. Rotation (rope, p-rope) is not
    part of the stream and always applies.
    """
    tokens = check_tokens(model, tokens)
    if not isinstance(parts, tuple) or not parts or not set(parts) <= set(PARTS):
        raise ValueError(f"parts must be a non-empty tuple from {PARTS}, got {parts!r}")
    single = tokens.ndim == 1
    tokens = tokens[None] if single else tokens
    config, w = model.config, model.weights
    d, heads, d_k = config["d_model"], config["heads"], model.d_k
    length = tokens.shape[1]
    positions = np.arange(length)
    embed_token = w["tok_emb"][tokens] * math.sqrt(d)
    embed_position = np.broadcast_to(position_vectors(model, length), embed_token.shape)
    x = embed_token * ("token" in parts) + embed_position * ("position" in parts)
    causal = np.triu(np.ones((length, length), dtype=bool), 1)
    streams, qs, ks, q_rots, k_rots, attentions = [x], [], [], [], [], []
    for layer in range(config["layers"]):
        pre = f"blocks.{layer}."
        h = layer_norm(x, w[pre + "ln1.weight"], w[pre + "ln1.bias"], config["ln_eps"])

        def split(m: NDArray) -> NDArray:  # (B, T, d) -> (B, heads, T, d_k)
            return m.reshape(m.shape[0], length, heads, d_k).transpose(0, 2, 1, 3)

        q, k, v = (split(h @ w[pre + name]) for name in ("w_q", "w_k", "w_v"))
        q_rot = rotate_heads(q, positions, config)
        k_rot = rotate_heads(k, positions, config)
        scores = q_rot @ k_rot.transpose(0, 1, 3, 2) / math.sqrt(d_k)
        weights = softmax(np.where(causal, -np.inf, scores))
        mixed = (weights @ v).transpose(0, 2, 1, 3).reshape(x.shape)
        x = x + mixed @ w[pre + "w_o"]
        h = layer_norm(x, w[pre + "ln2.weight"], w[pre + "ln2.bias"], config["ln_eps"])
        x = x + gelu(h @ w[pre + "w_in"]) @ w[pre + "w_out"]
        streams.append(x)
        qs.append(q), ks.append(k), q_rots.append(q_rot), k_rots.append(k_rot)
        attentions.append(weights)
    logits = layer_norm(x, w["ln_f.weight"], w["ln_f.bias"], config["ln_eps"])
    logits = logits @ w["tok_emb"].T
    parts = [embed_token, np.array(embed_position), np.stack(streams)]
    parts += [np.stack(a) for a in (qs, ks, q_rots, k_rots, attentions)]
    parts.append(logits)
    if single:
        parts = [parts[0][0], parts[1][0]] + [p[:, 0] for p in parts[2:8]]
        parts.append(logits[0])
    return Forward(*parts)


def next_byte_loss(model: Model, tokens: ArrayLike) -> NDArray[np.float64]:
    """Cross-entropy (nats) of predicting ``tokens[..., t+1]`` at each
    position t, shape (..., T-1)."""
    tokens = check_tokens(model, tokens, spare=1)
    if tokens.shape[-1] < 2:
        raise ValueError("tokens must hold at least 2 bytes to predict one")
    logits = forward(model, tokens[..., :-1]).logits
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_z = np.log(np.exp(shifted).sum(axis=-1))
    target = np.take_along_axis(shifted, tokens[..., 1:, None], axis=-1)[..., 0]
    return log_z - target


# ------------------------------------------------------------ measurements


def h_matrices(model: Model, layer: int = 0) -> NDArray[np.float64]:
    """Per head, ``H = diag(g) W_Q^h (W_K^h)^T diag(g) / sqrt(d_k)``, shape
    (heads, d, d), with ``g`` the gain of the layer's first LayerNorm.

    Before rotation, the score of query m and key n is ``u_m H u_n^T`` plus
    terms linear in ``u_m`` or ``u_n`` from the LayerNorm's bias ``b`` (and
    a constant), where ``u = (x - mean x) / sqrt(var x + eps)`` is the
    normalised stream. In layer 0 the stream is ``sqrt(d) E[token] + p``,
    so ``H`` is the matrix of the derivation's step "p_m^T H p_n" as it acts
    on the (normalised) encoding; the normalisation divides by the norm of
    the whole stream, tokens included. For rope and p-rope the rotation
    comes after ``W_Q`` and ``W_K``: H is then the score at offset 0 only.
    """
    layers = model.config["layers"]
    if not isinstance(layer, int | np.integer) or not 0 <= layer < layers:
        raise ValueError(f"layer must be an integer from 0 to {layers - 1}")
    pre = f"blocks.{layer}."
    gain = model.weights[pre + "ln1.weight"]
    d, heads, d_k = model.config["d_model"], model.config["heads"], model.d_k
    q = (gain[:, None] * model.weights[pre + "w_q"]).reshape(d, heads, d_k)
    k = (gain[:, None] * model.weights[pre + "w_k"]).reshape(d, heads, d_k)
    return np.einsum("ahj,bhj->hab", q, k) / math.sqrt(d_k)


def attention_by_offset(attention: ArrayLike) -> NDArray[np.float64]:
    """Mean attention weight at each offset ``Delta = m - n`` (query m, key
    n), over the queries that have such a key (m >= Delta).

    ``attention`` has shape (..., T, T); returns (..., T), entry Delta the
    mean of ``attention[..., m, m - Delta]`` over m = Delta .. T-1. (Summed
    over Delta it is not 1: each query's weights sum to 1 over its own
    m + 1 keys, and late offsets are averaged over fewer queries.) Even
    uniform causal attention, weight 1/(m + 1), falls with the offset here:
    compare with that baseline, ``attention_by_offset(np.tril(1 / (m + 1)))``,
    before reading a fall as the model's.
    """
    a = np.asarray(attention, dtype=np.float64)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or a.shape[-1] == 0:
        raise ValueError(f"attention must have shape (..., T, T), got {a.shape}")
    size = a.shape[-1]
    return np.stack(
        [np.diagonal(a, -delta, -2, -1).mean(-1) for delta in range(size)], axis=-1
    )


def pair_norms(x: ArrayLike) -> NDArray[np.float64]:
    """Mean norm of each frequency pair ``(x_2i, x_2i+1)`` over positions.

    ``x`` holds queries or keys of shape (..., T, d_k) (as ``Forward.q``);
    returns (..., d_k/2), pair i first (the highest frequency, theta_0 = 1)
    to last (the lowest). A rotation keeps each pair's norm, so q and
    q_rot give the same: this is Barbero et al.'s measurement of which
    frequencies a head uses.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim < 2 or x.shape[-1] % 2 or x.shape[-1] == 0:
        raise ValueError(f"x must have shape (..., T, d_k), d_k even, got {x.shape}")
    pairs = x.reshape(*x.shape[:-1], x.shape[-1] // 2, 2)
    return np.sqrt((pairs**2).sum(-1)).mean(axis=-2)
