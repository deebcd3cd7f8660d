"""Record what PyTorch computes for two code bases' frequencies (writes
``posenc/torch_recorded.py``).

PyTorch is not a dependency of the book. Run this once in a separate
virtual environment that has torch and numpy (no posenc needed)::

    python tests/record_torch_frequencies.py > posenc/torch_recorded.py

and commit the result; ``tests/test_conventions_recorded.py`` checks the recording
against the expressions it claims to record. The script also builds the
PyTorch tutorial's whole table (``torch.sin`` and ``torch.cos`` of its
float32 angles) at the 20,000 positions the precision chapter samples, and
records how many of its entries exceed the float32 bound of that chapter:
the chapter computes the sines and cosines with numpy instead, and a test
checks that this gives the same share and ratio.
"""

from __future__ import annotations

import json
import math
import platform

import numpy as np
import torch

BASE = 10000.0
WIDTHS = (64, 512)
EXPRESSIONS = {
    # beginner_source/transformer_tutorial.py, PositionalEncoding (the
    # Annotated Transformer's is the same expression)
    "PyTorch tutorial": "torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))",
    # transformers/models/gptj/modeling_gptj.py, create_sinusoidal_positions
    "GPT-J": "1.0 / (10000 ** (torch.arange(0, d, 2, dtype=torch.int64) / d))",
}


def frequencies(name: str, d: int) -> np.ndarray:
    theta = eval(EXPRESSIONS[name], {"torch": torch, "math": math, "d": d})
    assert theta.dtype == torch.float32
    return theta.numpy()


def table_check(d: int, where: np.ndarray) -> tuple[float, float]:
    """The tutorial's table in torch at ``where``: the share of entries above
    the precision chapter's bound (float32 bound plus the float64 reference's)
    and the largest ratio of error to bound."""
    div_term = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
    position = torch.from_numpy(where.astype(np.int64)).unsqueeze(1)
    pe = torch.zeros(len(where), d)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    table = pe.numpy().astype(np.float64)
    # the float64 reference, as posenc.encoding computes it
    theta = BASE ** -(np.arange(d // 2, dtype=np.float64) * (2.0 / d))
    angles = where[:, None] * theta
    exact = np.empty((len(where), d))
    exact[:, 0::2], exact[:, 1::2] = np.sin(angles), np.cos(angles)
    # posenc.entry_error_bound, methods "float32" plus "float64"
    bound = np.zeros((len(where), d // 2))
    for u in (2.0**-24, 2.0**-53):
        angle = (2 * u + u * u) * where[:, None] * theta
        angle[:, 0] = 0.0
        bound += angle + 2 * u
    bound = np.repeat(bound, 2, axis=1)
    excess = np.abs(table - exact) / bound
    return float(np.mean(excess > 1)), float(excess.max())


def main() -> None:
    lines = [
        '"""Frequencies as PyTorch computed them, recorded once (a generated file).',
        "",
        "PyTorch is not a dependency of the book. What the expressions in",
        ":data:`EXPRESSIONS` give in float32, for base 10^4 and the widths in",
        ":data:`FREQUENCIES`, was recorded with",
        "",
        "    python tests/record_torch_frequencies.py > posenc/torch_recorded.py",
        "",
        f"with torch {torch.__version__} and numpy {np.__version__} on "
        f"{platform.system()} {platform.machine()}",
        f"(CPU capability {torch.backends.cpu.get_cpu_capability()}). Each "
        "entry holds the float32 bit",
        "patterns, in hex, of the frequencies theta_0, theta_1, ... Other",
        "platforms may round some of them differently. Read them with",
        ":func:`posenc.torch_frequencies`.",
        "",
        ":data:`TABLE_CHECK` holds, for the PyTorch tutorial's whole table",
        "(torch.sin and torch.cos of its float32 angles) at the 20,000 positions",
        "of the precision chapter, the share of entries above the chapter's",
        "float32 bound and the largest ratio of error to bound.",
        '"""',
        "",
        f"TORCH_VERSION = {json.dumps(torch.__version__)}",
        "",
        "EXPRESSIONS = {",
    ]
    lines += [
        f"    {json.dumps(name)}: {json.dumps(code)},"
        for name, code in EXPRESSIONS.items()
    ]
    lines += ["}", "", "FREQUENCIES = {"]
    for name in EXPRESSIONS:
        for d in WIDTHS:
            bits = frequencies(name, d).view(np.uint32)
            words = [f"{int(word):08x}" for word in bits]
            lines.append(f"    ({json.dumps(name)}, {d}): (")
            for start in range(0, len(words), 8):
                lines.append(f'        "{" ".join(words[start : start + 8])} "')
            lines.append("    ),")
    lines += ["}", "", "TABLE_CHECK = {"]
    rng = np.random.default_rng(5)  # the chapter's positions, d = 64 first
    for d in WIDTHS:
        where = np.round(rng.uniform(1, 2**24, 20_000))
        share, worst = table_check(d, where)
        lines.append(f"    {d}: ({share!r}, {worst!r}),")
    lines += ["}"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
