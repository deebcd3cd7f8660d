"""The decoder-only Transformer trained here, in PyTorch, in five variants
that differ only in how position enters.

The numpy forward pass of ``posenc.trained`` is the reference reading of
this file; the conventions are stated there and repeated here briefly:

* row vectors: ``x`` has shape (batch, T, d) and a weight maps ``x @ W``;
  the npz stores every matrix as (in, out);
* the token embedding ``E`` (256 x d) is multiplied by sqrt(d) on the way
  in (as in the paper) and tied to the output: logits = LN_f(x) @ E^T;
* pre-LN blocks: ``x = x + Attn(LN1(x)); x = x + MLP(LN2(x))``, then a
  final LayerNorm; LayerNorms have a gain and a bias, eps 1e-5; the linear
  maps have no bias; the MLP is d -> 4d -> d with GELU (tanh form);
* heads: columns ``h*d_k:(h+1)*d_k`` of W_Q, W_K, W_V are head h;
  scores q.k/sqrt(d_k), causal, softmax over keys;
* ``sinusoidal``: x += posenc.encoding(t, d) (the paper's table, interleaved
  sin/cos columns); ``learned``: x += P[t], P (128 x d) trained, defined for
  t < 128 only; ``rope``: q and k of each head rotated by posenc.rotate's
  convention (pairs (2i, 2i+1), angle t*theta_i, theta_i = 10000^(-2i/d_k));
  ``p-rope``: the same with the lowest-frequency quarter of the pairs left
  unrotated (theta set to 0: Barbero et al. 2024's 0.75-RoPE);
  ``nope``: nothing.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import posenc  # noqa: E402  (the book's module: its tables and conventions)
from posenc import trained  # noqa: E402


def rope_angles(config: dict, positions: torch.Tensor) -> torch.Tensor | None:
    """The rotation angles t*theta_i, shape (T, d_k/2), or None."""
    theta = trained.rotation_frequencies(config)
    if theta is None:
        return None
    return positions[:, None].double() * torch.from_numpy(theta)[None, :]


def rotate(x: torch.Tensor, angles: torch.Tensor) -> torch.Tensor:
    """posenc.rotate's interleaved convention on the last axis of ``x``
    (shape (..., T, d_k)); ``angles`` has shape (T, d_k/2)."""
    cos = torch.cos(angles).to(x.dtype)
    sin = torch.sin(angles).to(x.dtype)
    first, second = x[..., 0::2], x[..., 1::2]
    turned = first * cos - second * sin
    partner = first * sin + second * cos
    return torch.stack([turned, partner], dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, config: dict):
        super().__init__()
        d, hidden = config["d_model"], config["d_mlp"]
        self.heads = config["heads"]
        self.ln1 = nn.LayerNorm(d, eps=config["ln_eps"])
        self.w_q = nn.Parameter(torch.empty(d, d))
        self.w_k = nn.Parameter(torch.empty(d, d))
        self.w_v = nn.Parameter(torch.empty(d, d))
        self.w_o = nn.Parameter(torch.empty(d, d))
        self.ln2 = nn.LayerNorm(d, eps=config["ln_eps"])
        self.w_in = nn.Parameter(torch.empty(d, hidden))
        self.w_out = nn.Parameter(torch.empty(hidden, d))

    def split(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, d = x.shape
        return x.view(batch, length, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x, angles, mask, record=None):
        h = self.ln1(x)
        q, k, v = (self.split(h @ w) for w in (self.w_q, self.w_k, self.w_v))
        if angles is not None:
            q, k = rotate(q, angles), rotate(k, angles)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        weights = torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        if record is not None:
            record.append(weights.detach())
        mixed = (weights @ v).transpose(1, 2).reshape(x.shape)
        x = x + mixed @ self.w_o
        h = F.gelu(self.ln2(x) @ self.w_in, approximate="tanh")
        return x + h @ self.w_out


class Model(nn.Module):
    def __init__(self, config: dict):
        super().__init__()
        self.config = config
        d = config["d_model"]
        self.tok_emb = nn.Parameter(torch.empty(config["vocab"], d))
        variant = config["variant"]
        if variant == "learned":
            self.pos_emb = nn.Parameter(torch.empty(config["context"], d))
        if variant == "sinusoidal":
            table = posenc.encoding(np.arange(config["max_eval_length"]), d)
            self.register_buffer("sinusoid", torch.from_numpy(table).float())
        self.blocks = nn.ModuleList(Block(config) for _ in range(config["layers"]))
        self.ln_f = nn.LayerNorm(d, eps=config["ln_eps"])

    def load_numpy(self, weights: dict[str, np.ndarray]) -> None:
        """Set every parameter from arrays named as in the npz."""
        named = dict(self.named_parameters())
        if set(named) != set(weights):
            raise ValueError(f"weights {sorted(set(weights) ^ set(named))} differ")
        with torch.no_grad():
            for name, value in weights.items():
                named[name].copy_(torch.from_numpy(np.asarray(value, np.float32)))

    def numpy_weights(self) -> dict[str, np.ndarray]:
        return {n: p.detach().numpy().copy() for n, p in self.named_parameters()}

    def forward(self, tokens: torch.Tensor, record: list | None = None):
        """Logits (batch, T, vocab); ``record`` collects each layer's
        attention weights (batch, heads, T, T)."""
        length = tokens.shape[1]
        config = self.config
        if config["variant"] == "learned" and length > config["context"]:
            raise ValueError("the learned table has no row beyond the context")
        x = self.tok_emb[tokens] * math.sqrt(config["d_model"])
        if config["variant"] == "learned":
            x = x + self.pos_emb[:length]
        if config["variant"] == "sinusoidal":
            x = x + self.sinusoid[:length]
        angles = rope_angles(config, torch.arange(length))
        mask = torch.ones(length, length, dtype=torch.bool).triu(1)
        for block in self.blocks:
            x = block(x, angles, mask, record)
        return self.ln_f(x) @ self.tok_emb.T


def check_rotation_convention() -> None:
    """The torch rotation is posenc.rotate's, for RoPE and p-RoPE: checked
    each time training starts (float32 against float64: 1e-5)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 37, 16))
    t = np.arange(37)
    for variant in ("rope", "p-rope"):
        config = trained.model_config(variant)  # d_k = 16
        got = rotate(torch.from_numpy(x).float(), rope_angles(config, torch.arange(37)))
        want = trained.rotate_heads(x, t, config)
        if not np.allclose(got.numpy(), want, atol=1e-5):
            raise AssertionError(f"{variant}: torch rotation is not posenc's")
