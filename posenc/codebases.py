"""The sinusoidal encoding as the paper and eight public code bases write it.

Each function below restates, in our own numpy, how one public code base
builds its table of position encodings; the original is named in
:data:`CONVENTIONS`. Every table function has the signature
``(positions, d, base=10000.0) -> array`` and returns float64 of shape
``positions.shape + (d,)``. ``positions`` are token indices counted from 0
(the first token of a sequence is 0); a code base whose first token sits at
another position (fairseq) adds that offset itself. The two frequency
schedules in use are :data:`CODEBASE_SCHEDULES`. These restatements compute
in float64; what PyTorch's float32 arithmetic gives for the frequencies of
two of them was recorded once (:func:`torch_frequencies`). Six restatements
are checked against tables their original code computed
(``tests/record_codebases.py``); the PyTorch tutorial and tensor2tensor
only against their descriptions.

Reading a table of numbers is :mod:`posenc.measure`; checks for the slips
that shipped are :mod:`posenc.bugchecks`. Derived in the chapter "The
encoding in real code". Every function validates its parameters first
(:mod:`posenc.validate`) and names the one it rejects.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import torch_recorded
from .core import frequencies, interleave
from .validate import check_base, check_count, check_dimension, check_finite

__all__ = [
    "vaswani2017",
    "pytorch_tutorial",
    "distilbert",
    "marian",
    "gptj",
    "tensor2tensor",
    "fairseq",
    "whisper",
    "CODEBASE_SCHEDULES",
    "paper_frequencies",
    "t2t_frequencies",
    "schedule_ratio",
    "torch_frequencies",
    "Convention",
    "CONVENTIONS",
]


def _table_inputs(
    positions: ArrayLike, d: object, base: object, at_least: int = 2
) -> tuple[NDArray[np.float64], int, float]:
    """The validated arguments of a table function (``at_least``: smallest d)."""
    d = check_dimension(d, at_least=at_least)
    base = check_base(base)
    t = check_finite(positions, "positions")
    return t, d, base


# ------------------------------------------------------ frequency schedules


def paper_frequencies(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The paper's frequencies :math:`\theta_i = \mathrm{base}^{-2i/d}`.

    The same as :func:`posenc.frequencies`: from 1 down to
    :math:`\mathrm{base}^{-(1 - 2/d)}`, which is *not* ``1/base``.
    """
    return frequencies(d, base)


def t2t_frequencies(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""The frequencies of tensor2tensor, fairseq and Whisper.

    .. math:: \theta_i = \mathrm{base}^{-i/(d/2 - 1)}, \qquad i = 0, \dots, d/2-1,

    from 1 down to exactly ``1/base``. It is a different set of numbers from
    :func:`paper_frequencies` (only :math:`\theta_0 = 1` is shared), so no
    permutation of columns turns one table into the other. Needs ``d >= 4``.
    """
    d = check_dimension(d, at_least=4)
    base = check_base(base)
    return np.exp(-np.arange(d // 2) * (math.log(base) / (d // 2 - 1)))


def schedule_ratio(d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""tensor2tensor's frequencies over the paper's, pair by pair.

    .. math:: \frac{\mathrm{base}^{-i/(d/2-1)}}{\mathrm{base}^{-2i/d}}
        = \mathrm{base}^{-i/(N(N-1))}, \qquad N = d/2,

    1 for the first pair only, then falling to :math:`\mathrm{base}^{-1/N}`
    at the last. Needs ``d >= 4``.
    """
    return t2t_frequencies(d, base) / paper_frequencies(d, base)


def torch_frequencies(name: str, d: int) -> NDArray[np.float32]:
    r"""The float32 frequencies that PyTorch computed for a code base (recorded).

    PyTorch is not a dependency of the book, so what its float32 arithmetic
    gives for ``name``'s frequencies at width ``d`` (base :math:`10^4`) was
    recorded once (:mod:`posenc.torch_recorded` says with which PyTorch, on
    which platform, and with which command). ``name`` is ``"PyTorch
    tutorial"`` (also the Annotated Transformer's expression),
    :math:`\exp(-2i\ln(10^4)/d)` in float32, or ``"GPT-J"``,
    :math:`1/10^{4\cdot 2i/d}` in float32; ``d`` is 64 or 512. Used in the
    chapter "Precision"; ``tests/test_conventions_recorded.py`` checks the recording
    against the expressions.
    """
    recorded = torch_recorded.FREQUENCIES
    if (name, d) not in recorded:
        raise ValueError(
            f"no recording for ({name!r}, {d}); recorded: {sorted(recorded)}"
        )
    words = recorded[name, d].split()
    return np.array([int(word, 16) for word in words], dtype=np.uint32).view(np.float32)


#: The frequency schedules of real code, by name: the paper's, and the one of
#: tensor2tensor (also fairseq's and Whisper's). (The continuous schedules
#: theta(tau) of the chapter on the decay integral are ``core.DECAY_SCHEDULES``.)
CODEBASE_SCHEDULES: dict[str, Callable[..., NDArray[np.float64]]] = {
    "paper": paper_frequencies,
    "tensor2tensor": t2t_frequencies,
}

# -------------------------------------------------------------- conventions


def vaswani2017(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The paper's table (Vaswani et al. 2017, section 3.5).

    .. math:: p_{t,2i} = \sin(t/\mathrm{base}^{2i/d}), \qquad
              p_{t,2i+1} = \cos(t/\mathrm{base}^{2i/d}).

    Interleaved, sine first, first token at position 0.
    """
    t, d, base = _table_inputs(positions, d, base)
    angles = t[..., None] / base ** (np.arange(0, d, 2) / d)
    return interleave(np.sin(angles), np.cos(angles))


def pytorch_tutorial(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""The PyTorch tutorial's and the Annotated Transformer's table.

    The paper's table, with the frequencies computed in log space,
    :math:`\theta_i = \exp(-2i\ln(\mathrm{base})/d)`. Equal to
    :func:`vaswani2017` up to rounding. (The originals work in float32.)
    """
    t, d, base = _table_inputs(positions, d, base)
    theta = np.exp(np.arange(0, d, 2) * (-math.log(base) / d))
    angles = t[..., None] * theta
    return interleave(np.sin(angles), np.cos(angles))


def _per_column_angles(t: NDArray, d: int, base: float) -> NDArray[np.float64]:
    """One angle per column c, with the exponent of its pair, 2 (c // 2) / d."""
    column = np.arange(d)
    return t[..., None] / base ** (2 * (column // 2) / d)


def distilbert(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""Hugging Face DistilBERT's table (``create_sinusoidal_embeddings``).

    An angle for every column :math:`c`, :math:`t/\mathrm{base}^{2\lfloor c/2
    \rfloor/d}`, then the sine of the even columns and the cosine of the odd
    ones: the paper's table. The original computes it in float64 numpy and
    rounds the finished table to float32.
    """
    t, d, base = _table_inputs(positions, d, base)
    angles = _per_column_angles(t, d, base)
    return np.where(np.arange(d) % 2 == 0, np.sin(angles), np.cos(angles))


def marian(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""Hugging Face Marian's table (``MarianSinusoidalPositionalEmbedding``).

    The paper's angles, but the layout is *halves*: column :math:`i` holds
    :math:`\sin t\theta_i` and column :math:`d/2 + i` holds
    :math:`\cos t\theta_i`. A permutation of the paper's columns
    (:func:`posenc.interleaved_to_halves`). Computed in float64, stored in float32.
    """
    t, d, base = _table_inputs(positions, d, base)
    angles = _per_column_angles(t, d, base)
    return np.concatenate([np.sin(angles[..., 0::2]), np.cos(angles[..., 1::2])], -1)


def gptj(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""Hugging Face GPT-J's table (``create_sinusoidal_positions``).

    Sines of all pairs, then cosines (halves), with the paper's frequencies
    computed as :math:`1/\mathrm{base}^{2i/d}`. GPT-J uses it for rotary
    embeddings: it splits the table into its sine and cosine halves and
    rotates *interleaved* pairs of q and k with them.
    """
    t, d, base = _table_inputs(positions, d, base)
    angles = t[..., None] * (1.0 / base ** (np.arange(0, d, 2) / d))
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


def _t2t_halves(t: NDArray, d: int, base: float) -> NDArray[np.float64]:
    angles = t[..., None] * t2t_frequencies(d, base)
    return np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)


def tensor2tensor(
    positions: ArrayLike, d: int, base: float = 10000.0
) -> NDArray[np.float64]:
    r"""tensor2tensor's timing signal (``get_timing_signal_1d``).

    Halves (sines, then cosines) with the frequencies of
    :func:`t2t_frequencies`, :math:`\mathrm{base}^{-i/(d/2-1)}`; first token
    at position 0 (the ``start_index`` default). Needs ``d >= 4``.
    """
    t, d, base = _table_inputs(positions, d, base, at_least=4)
    return _t2t_halves(t, d, base)


def fairseq(
    positions: ArrayLike, d: int, base: float = 10000.0, padding_idx: int = 1
) -> NDArray[np.float64]:
    r"""fairseq's ``SinusoidalPositionalEmbedding``.

    tensor2tensor's table, but the first real token reads the row of position
    ``padding_idx + 1`` (row ``padding_idx`` is zeroed for padding). With
    fairseq's default dictionary the padding index is 1, so the first token
    is at position 2. Needs ``d >= 4``.
    """
    t, d, base = _table_inputs(positions, d, base, at_least=4)
    padding_idx = check_count(padding_idx, "padding_idx", at_least=0)
    return _t2t_halves(t + (padding_idx + 1), d, base)


def whisper(positions: ArrayLike, d: int, base: float = 10000.0) -> NDArray[np.float64]:
    r"""Whisper's audio-encoder table (``sinusoids`` in ``whisper/model.py``).

    The same numbers as :func:`tensor2tensor`: halves, frequencies
    :math:`\mathrm{base}^{-i/(d/2-1)}`, first frame at position 0. (Whisper's
    text decoder learns its position embeddings instead.) Needs ``d >= 4``.
    """
    t, d, base = _table_inputs(positions, d, base, at_least=4)
    return _t2t_halves(t, d, base)


@dataclass(frozen=True)
class Convention:
    """What one code base does, as the chapter's Rosetta-stone table states it.

    ``layout`` is ``"interleaved"`` or ``"halves"``; ``first`` is the function
    that comes first in each pair or half (``"sin"`` everywhere we looked);
    ``schedule`` names an entry of :data:`CODEBASE_SCHEDULES`; ``start`` is the
    position of the first token with default arguments; ``source`` says
    where the original is.
    """

    table: Callable[..., NDArray[np.float64]]
    layout: str
    first: str
    schedule: str
    start: int
    source: str


_HF = "huggingface/transformers, src/transformers/models/"

#: The conventions of the chapter's Rosetta stone, by name.
CONVENTIONS: dict[str, Convention] = {
    "paper": Convention(
        vaswani2017,
        "interleaved",
        "sin",
        "paper",
        0,
        "Vaswani et al. (2017), section 3.5",
    ),
    "PyTorch tutorial": Convention(
        pytorch_tutorial,
        "interleaved",
        "sin",
        "paper",
        0,
        "pytorch/tutorials, beginner_source/transformer_tutorial.py, "
        "PositionalEncoding",
    ),
    "Annotated Transformer": Convention(
        pytorch_tutorial,
        "interleaved",
        "sin",
        "paper",
        0,
        "harvardnlp/annotated-transformer, the_annotated_transformer.py, "
        "PositionalEncoding",
    ),
    "DistilBERT": Convention(
        distilbert,
        "interleaved",
        "sin",
        "paper",
        0,
        _HF + "distilbert/modeling_distilbert.py, create_sinusoidal_embeddings",
    ),
    "Marian": Convention(
        marian,
        "halves",
        "sin",
        "paper",
        0,
        _HF + "marian/modeling_marian.py, MarianSinusoidalPositionalEmbedding",
    ),
    "GPT-J": Convention(
        gptj,
        "halves",
        "sin",
        "paper",
        0,
        _HF + "gptj/modeling_gptj.py, create_sinusoidal_positions",
    ),
    "tensor2tensor": Convention(
        tensor2tensor,
        "halves",
        "sin",
        "tensor2tensor",
        0,
        "tensorflow/tensor2tensor, tensor2tensor/layers/common_attention.py, "
        "get_timing_signal_1d",
    ),
    "fairseq": Convention(
        fairseq,
        "halves",
        "sin",
        "tensor2tensor",
        2,
        "facebookresearch/fairseq, fairseq/modules/"
        "sinusoidal_positional_embedding.py, SinusoidalPositionalEmbedding",
    ),
    "Whisper": Convention(
        whisper,
        "halves",
        "sin",
        "tensor2tensor",
        0,
        "openai/whisper, whisper/model.py, sinusoids",
    ),
}
