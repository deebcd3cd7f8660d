"""The training data: the Python standard library's own source, as bytes,
and the synthetic copy task mixed into it.

Text. Every ``.py`` file under ``sysconfig.get_paths()["stdlib"]``, except
those under a folder named ``test``, ``tests``, ``idle_test``,
``site-packages``, ``dist-packages`` or ``__pycache__`` (test suites are
full of generated and repeated data; installed packages differ from one
machine to the next). The files are sorted by their path relative to the
stdlib folder (POSIX form) and split by file: a file goes to validation when
the first byte of the SHA-256 of its relative path is below 26 (26/256, about
10 %), so the split does not move when a file is added or removed. Each
split is the files' bytes concatenated in that order. The corpus hash is the
SHA-256 of every (path, length, bytes) in that order: another Python version
has another stdlib, hence another hash, and models trained there are not the
shipped ones (``tests/test_trained.py`` says so and skips the comparison).

Copy task. For each offset ``k`` of ``COPY_OFFSETS`` (the j-th), a
sequence of ``length`` bytes drawn uniformly from the block of 16 byte
values ``128 + 16 j`` to ``128 + 16 j + 15``: every byte names its
sequence's ``k``, so the task needs no marker and no memory of where the
sequence began, only a head that looks ``k`` back. The target at position
``t`` is the input at ``t - k``, for ``t >= k``; earlier positions have
no target. A uniform guess within the block costs ln 16 and is right one
time in 16. Text windows have the usual next-byte targets. A batch holds
both, at the fixed share ``COPY_SHARE`` of its sequences.
"""

from __future__ import annotations

import hashlib
import platform
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: Folders whose files are left out (anywhere below the stdlib folder).
EXCLUDED_FOLDERS = frozenset(
    {"test", "tests", "idle_test", "site-packages", "dist-packages", "__pycache__"}
)
#: A file is in the validation split when the first byte of the SHA-256 of
#: its relative path is below this (26/256 = 10.2 %).
VALIDATION_BELOW = 26
#: The offsets of the copy task (1 to 16, doubling: the previous byte up to
#: an eighth of the context), and its share of the sequences of a batch: at
#: 1/8, trial runs of 800 steps left the sinusoidal and learned variants at
#: chance on it; at 1/4 the sinusoidal one starts to copy, and text keeps
#: three quarters of the batch.
COPY_OFFSETS = (1, 2, 4, 8, 16)
COPY_SHARE = 0.25
#: The copy task's bytes: a block of COPY_BLOCK values from COPY_LOW per k.
COPY_LOW, COPY_BLOCK = 128, 16
#: Label of a position without a target.
IGNORE = -1


@dataclass(frozen=True)
class Corpus:
    train: np.ndarray  # uint8, the training files' bytes, concatenated
    validation: np.ndarray  # uint8, the validation files' bytes
    files: tuple[str, ...]  # every file used, sorted, relative POSIX paths
    validation_files: tuple[str, ...]
    sha256: str
    python_version: str
    stdlib: str


def stdlib_root() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def corpus_files(root: Path) -> list[str]:
    """The relative POSIX paths of the corpus's files, sorted."""
    found = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if EXCLUDED_FOLDERS.isdisjoint(relative.parts[:-1]) and path.is_file():
            found.append(relative.as_posix())
    return sorted(found)


def is_validation(relative: str) -> bool:
    return hashlib.sha256(relative.encode()).digest()[0] < VALIDATION_BELOW


def load_corpus(root: Path | None = None) -> Corpus:
    root = stdlib_root() if root is None else root
    files = corpus_files(root)
    if not files:
        raise SystemExit(f"no .py files under {root}: is this the stdlib folder?")
    digest = hashlib.sha256()
    parts: dict[bool, list[bytes]] = {False: [], True: []}
    for relative in files:
        data = (root / relative).read_bytes()
        digest.update(relative.encode() + b"\0" + str(len(data)).encode() + b"\0")
        digest.update(data)
        parts[is_validation(relative)].append(data)
    return Corpus(
        train=np.frombuffer(b"".join(parts[False]), dtype=np.uint8),
        validation=np.frombuffer(b"".join(parts[True]), dtype=np.uint8),
        files=tuple(files),
        validation_files=tuple(f for f in files if is_validation(f)),
        sha256=digest.hexdigest(),
        python_version=platform.python_version(),
        stdlib=str(root),
    )


def text_windows(data: np.ndarray, starts: np.ndarray, length: int) -> np.ndarray:
    """Windows ``data[s : s + length]``, one row per start (int64)."""
    index = starts[:, None] + np.arange(length)
    return data[index].astype(np.int64)


def evenly_spaced(data: np.ndarray, count: int, length: int) -> np.ndarray:
    """``count`` window starts spread evenly over ``data`` (deterministic)."""
    return np.linspace(0, len(data) - length, count).astype(np.int64)


def copy_sequences(
    rng: np.random.Generator, offsets: np.ndarray, length: int
) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and targets of the copy task, one row per offset in ``offsets``."""
    n = len(offsets)
    block = np.array([COPY_OFFSETS.index(k) for k in offsets])
    low = COPY_LOW + COPY_BLOCK * block[:, None]
    inputs = low + rng.integers(0, COPY_BLOCK, size=(n, length), dtype=np.int64)
    targets = np.full((n, length), IGNORE, dtype=np.int64)
    for row, k in enumerate(offsets):
        targets[row, k:] = inputs[row, : length - k]
    return inputs, targets


def copy_offset(inputs: np.ndarray) -> np.ndarray:
    """The offset k of each copy sequence (rows of ``inputs``), read from
    its first byte's block."""
    return np.array(COPY_OFFSETS)[(inputs[:, 0] - COPY_LOW) // COPY_BLOCK]


def training_batch(
    rng: np.random.Generator, train: np.ndarray, step: int, batch: int, length: int
) -> tuple[np.ndarray, np.ndarray]:
    """One batch: ``batch - n_copy`` text windows with next-byte targets, then
    ``n_copy = round(batch * COPY_SHARE)`` copy sequences whose offsets cycle
    through ``COPY_OFFSETS`` with the step (every offset equally often)."""
    n_copy = round(batch * COPY_SHARE)
    n_text = batch - n_copy
    starts = rng.integers(0, len(train) - length - 1, size=n_text)
    windows = text_windows(train, starts, length + 1)
    first = step * n_copy
    offsets = np.array(
        [COPY_OFFSETS[(first + i) % len(COPY_OFFSETS)] for i in range(n_copy)]
    )
    copy_in, copy_target = copy_sequences(rng, offsets, length)
    inputs = np.concatenate([windows[:, :-1], copy_in])
    targets = np.concatenate([windows[:, 1:], copy_target])
    return inputs, targets
