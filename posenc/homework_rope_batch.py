"""Homework of the rotary-embedding chapter at the challenge level
(``book/rope.md``, exercise ``ex-rope-batch``): RoPE as a model applies
it, to arrays of shape ``(..., seq, d)`` at any positions, in either
pairing, and again with complex numbers.

A student who copies the chapter's one-vector code does not pass: the
hidden tests run whole batches with positions of their own for every
sequence, both pairings, other widths and bases, positions up to 10⁵, and
want an odd width and an unknown pairing refused with ``ValueError``; one
of them moves every position of a random batch by the same amount and
asks that every score stay. The reference is ``posenc.rotate``, which is
switched off while the tests run (``homework_rope._own_rotation``), so the
student writes the rotation. Conventions are the chapter's:
``posenc.rotate``'s pairs, counter-clockwise turns by ``t θ_i``.
"""

from __future__ import annotations

import numpy as np

from .homework_judge import NotAttempted, Property, call, close, code_task, shaped
from .homework_rope import _own_rotation, _rotate

PAIRINGS = ("interleaved", "half-split")


def _draw(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=shape)


def _positions(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Positions a cache or a chunk gives: offsets of thousands, some
    negative, some fractional (steps of a quarter)."""
    rng = np.random.default_rng(seed)
    return np.round(rng.uniform(-50, 3_000, size=shape) * 4) / 4


def _refuses(*args, **kwargs):
    """The function raises ValueError for these arguments."""

    def holds(f) -> bool:
        try:
            result = f(*args, **kwargs)
        except ValueError:
            return True
        except Exception:  # the student's code may raise anything else
            return False
        if result is ...:
            raise NotAttempted
        return False

    return holds


def _keeps_argument(f) -> bool:
    x = _draw((4, 8), 40)
    kept = x.copy()
    call(f, x, np.arange(4.0))
    return bool(np.array_equal(x, kept))


# ------------------------------------------------------------ the real one


def _turns_like(shape, positions, pairing=None, base=None):
    """The student's rotation of hidden x of ``shape`` at ``positions``
    equals posenc.rotate's (``pairing`` and ``base`` passed by name when
    given)."""

    def holds(f) -> bool:
        x = _draw(shape, sum(shape) + 7)
        options = {}
        if pairing is not None:
            options["pairing"] = pairing
        if base is not None:
            options["base"] = base
        want = _rotate(
            x, positions, options.get("base", 1e4), options.get("pairing", PAIRINGS[0])
        )
        return close(call(f, x.copy(), np.array(positions), **options), want)

    return holds


def _offset_free(f) -> bool:
    """Every score of a random batch stays when all its positions move by
    the same amount (both pairings)."""
    q, k = _draw((2, 2, 3, 12, 16), 41)
    at = _positions((2, 3, 12), 42) + 2_000.0
    for pairing in PAIRINGS:
        scores = []
        for shift in (0.0, 777.25, -1_234.0):
            queries = np.asarray(call(f, q.copy(), at + shift, pairing=pairing))
            keys = np.asarray(call(f, k.copy(), at + shift, pairing=pairing))
            if not shaped(queries, q.shape) or not shaped(keys, k.shape):
                return False
            scores.append(queries @ np.swapaxes(keys, -1, -2))
        if not all(close(s, scores[0], atol=1e-8) for s in scores[1:]):
            return False
    return True


_BATCH = [
    Property(
        "rope_batch(x, positions) returns an array of x's shape (seq, d)",
        lambda f: shaped(call(f, np.ones((5, 8)), np.arange(5.0)), (5, 8)),
    ),
    Property(
        "rope_batch(x, positions) leaves its argument x unchanged", _keeps_argument
    ),
    Property(
        "one sequence of shape (seq, d): row s turned as posenc.rotate turns it "
        "at positions[s], at hidden x and positions (interleaved, d = 16)",
        _turns_like((5, 16), [0.0, 1.0, 7.0, 250.0, 3.5]),
    ),
    Property(
        'the same in the half-split pairing, called with pairing="half-split"',
        _turns_like((5, 16), [0.0, 1.0, 7.0, 250.0, 3.5], "half-split"),
    ),
    Property(
        "a batch of shape (2, 3, seq, d) with one vector of positions (seq,) "
        "for every sequence",
        _turns_like((2, 3, 6, 16), [0.0, 2.0, 5.0, 9.0, 40.0, 41.5]),
    ),
    Property(
        "positions of shape x.shape[:-1]: each sequence at positions of its own "
        "(a cache, a chunk), negative and fractional ones included",
        lambda f: all(
            _turns_like((2, 3, 6, 16), _positions((2, 3, 6), 43), p)(f)
            for p in PAIRINGS
        ),
    ),
    Property(
        "other widths and bases, called with base=... (d = 2, 6 and 128)",
        lambda f: all(
            _turns_like((3, d), [4.0, -2.0, 0.5], p, base)(f)
            for d, base in [(2, 1e4), (6, 500.0), (128, 5e5)]
            for p in PAIRINGS
        ),
    ),
    Property(
        "scores depend only on offsets: moving every position of a random "
        "batch by the same amount leaves every score q·k of it (both pairings)",
        _offset_free,
    ),
    Property(
        "large positions (up to 10⁵)",
        _turns_like((3, 64), [9_999.0, 50_000.5, 100_000.0]),
    ),
    Property(
        "an odd width d (the last axis) raises ValueError",
        lambda f: (
            _refuses(np.ones((3, 7)), np.arange(3.0))(f)
            and _refuses(np.ones((3, 7)), np.arange(3.0), pairing="half-split")(f)
        ),
    ),
    Property(
        "a pairing other than the two raises ValueError",
        _refuses(np.ones((3, 8)), np.arange(3.0), pairing="halves"),
    ),
]


# ------------------------------------------------------------ complex


def _pairs_of(x: np.ndarray, pairing: str) -> np.ndarray:
    """Pair i of each vector as the complex number first + i·second."""
    d = x.shape[-1]
    if pairing == "interleaved":
        return x[..., 0::2] + 1j * x[..., 1::2]
    return x[..., : d // 2] + 1j * x[..., d // 2 :]


def _complex_like(shape, positions, pairing=None, base=None):
    """The student's complex pairs of hidden x at ``positions`` are the
    pairs of posenc.rotate's real rotation."""

    def holds(f) -> bool:
        x = _draw(shape, sum(shape) + 11)
        options = {}
        if pairing is not None:
            options["pairing"] = pairing
        if base is not None:
            options["base"] = base
        chosen = options.get("pairing", PAIRINGS[0])
        real = _rotate(x, positions, options.get("base", 1e4), chosen)
        result = call(f, x.copy(), np.array(positions), **options)
        return _complex_close(result, _pairs_of(real, chosen))

    return holds


def _complex_close(result, want: np.ndarray, atol: float = 1e-9) -> bool:
    try:
        raw = np.asarray(result)
    except (TypeError, ValueError):
        return False
    if raw.dtype.kind != "c" or raw.shape != want.shape:
        return False
    return bool(np.allclose(raw, want, rtol=0, atol=atol))


def _complex_shaped(f) -> bool:
    result = call(f, np.ones((5, 8)), np.arange(5.0))
    try:
        raw = np.asarray(result)
    except (TypeError, ValueError):
        return False
    return raw.dtype.kind == "c" and raw.shape == (5, 4)


_COMPLEX = [
    Property(
        "rope_complex(x, positions) returns a complex array of shape "
        "x.shape[:-1] + (d/2,): the d/2 pairs of each rotated vector",
        _complex_shaped,
    ),
    Property(
        "rope_complex(x, positions) leaves its argument x unchanged", _keeps_argument
    ),
    Property(
        "at position 0 each pair is its first coordinate + i × its second "
        "(interleaved: coordinates 2i and 2i + 1)",
        _complex_like((3, 8), [0.0, 0.0, 0.0]),
    ),
    Property(
        "its real and imaginary parts are the pairs of posenc.rotate's "
        "rotation, at hidden x and positions (interleaved, d = 16)",
        _complex_like((5, 16), [1.0, 2.0, 7.0, 250.0, 3.5]),
    ),
    Property(
        "the same in the half-split pairing (pair i is coordinates i and i + d/2), "
        'called with pairing="half-split"',
        _complex_like((5, 16), [0.0, 1.0, 7.0, 250.0, 3.5], "half-split"),
    ),
    Property(
        "a batch of shape (2, 3, seq, d) with positions of shape x.shape[:-1], "
        "negative and fractional ones included (both pairings)",
        lambda f: all(
            _complex_like((2, 3, 6, 16), _positions((2, 3, 6), 44), p)(f)
            for p in PAIRINGS
        ),
    ),
    Property(
        "other widths and bases, called with base=... (d = 2, 6 and 128)",
        lambda f: all(
            _complex_like((3, d), [4.0, -2.0, 0.5], p, base)(f)
            for d, base in [(2, 1e4), (6, 500.0), (128, 5e5)]
            for p in PAIRINGS
        ),
    ),
    Property(
        "large positions (up to 10⁵)",
        _complex_like((3, 64), [9_999.0, 50_000.5, 100_000.0]),
    ),
    Property(
        "an odd width d (the last axis) raises ValueError",
        _refuses(np.ones((3, 7)), np.arange(3.0)),
    ),
]

_USAGE_BATCH = "answer = rope_batch"
_USAGE_COMPLEX = "answer = rope_complex"

ROPE_BATCH_TASKS = [
    code_task(
        name="rope-batch",
        chapter="rope",
        exercise="ex-rope-batch",
        prompt=(
            'Write `rope_batch(x, positions, pairing="interleaved", '
            "base=1e4)`: RoPE of an array `x` of shape `(..., seq, d)` (any "
            "number of leading axes: batch, heads), each vector turned by its "
            "own position. `positions` has shape `(seq,)`, one position per "
            "place in the sequence for every sequence, or `x.shape[:-1]`, "
            "positions of its own for each sequence; positions may be "
            'negative or fractional. `pairing` is `"interleaved"` or '
            '`"half-split"`; anything else, and an odd width $d$, raise '
            "`ValueError`. Do not loop over vectors in Python. `posenc.rotate` "
            "is switched off while the hidden tests run: write the rotation."
        ),
        starter=(
            'def rope_batch(x, positions, pairing="interleaved", base=1e4):\n'
            "    return ...  # your code\n\n\n"
            "answer = rope_batch"
        ),
        hint=(
            "Work on the last axis only. Take each pair's two coordinates out "
            "of it in the pairing's order, give each vector its own angles by "
            "letting the positions broadcast against every axis but the last, "
            "and put the turned coordinates back where they came from. Check "
            "the width and the pairing before anything else."
        ),
        properties=_BATCH,
        usage=_USAGE_BATCH,
        guard=_own_rotation,
    ),
    code_task(
        name="rope-complex",
        chapter="rope",
        exercise="ex-rope-batch",
        prompt=(
            "Write RoPE again with complex numbers: `rope_complex(x, "
            'positions, pairing="interleaved", base=1e4)` takes `x` and '
            "`positions` as `rope_batch` does and returns a complex array of "
            "shape `x.shape[:-1] + (d // 2,)`: pair $i$ of each rotated "
            "vector as the complex number (its first coordinate) + "
            "$\\mathrm{i}$ (its second), the pairs in the pairing's order. "
            "It must agree with the real rotation (hidden tests compare "
            "them); an odd width raises `ValueError`. `posenc.rotate` is "
            "switched off here too. Then check with it that the score is "
            "$\\mathrm{Re}\\sum_i$ of the query's pairs times the conjugates "
            "of the key's."
        ),
        starter=(
            'def rope_complex(x, positions, pairing="interleaved", base=1e4):\n'
            "    return ...  # your code\n\n\n"
            "answer = rope_complex"
        ),
        hint=(
            "Make each pair one complex number, from the pairing's two "
            "coordinates. A turn of the plane is one multiplication by a "
            "complex number of length 1: which one turns by the angle of "
            "the pair at that position, counter-clockwise?"
        ),
        properties=_COMPLEX,
        usage=_USAGE_COMPLEX,
        guard=_own_rotation,
    ),
]
