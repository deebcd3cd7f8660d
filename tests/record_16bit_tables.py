"""Record the PyTorch tutorial's encoding computed in a 16-bit format
(writes ``tests/data/tutorial_16bit_tables.json``).

The precision chapter emulates a table computed entirely in bfloat16 or
float16 with numpy, every operation rounded to the format. This script runs
the tutorial's own expression (``beginner_source/transformer_tutorial.py``,
``PositionalEncoding``) with every tensor in the 16-bit format, for d = 512
and base 10^4::

    position = torch.arange(n, dtype=dt).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2, dtype=dt)
                         * torch.tensor(-math.log(10000.0) / d, dtype=dt))
    pe[:, 0::2] = torch.sin(position * div_term)   # pe of dtype dt
    pe[:, 1::2] = torch.cos(position * div_term)

and records, per format, the frequencies it computed (the 16-bit patterns,
in hex), the first position at which an entry errs by more than 0.3 and by
more than 1.99 against the float64 encoding, and the SHA-256 of the table
(as float32 bytes). PyTorch is not a dependency of the book. Run this once
in a separate virtual environment with torch and numpy::

    python tests/record_16bit_tables.py > tests/data/tutorial_16bit_tables.json

and commit the result; the precision chapter checks its emulation against
it (the first crossings, from the recorded frequencies).
"""

from __future__ import annotations

import hashlib
import json
import math
import platform

import numpy as np
import torch

D, BASE = 512, 10000.0
LENGTHS = {"bfloat16": 1000, "float16": 10000}  # positions 0 ... n - 1


def table(dtype: torch.dtype, n: int) -> tuple[torch.Tensor, torch.Tensor]:
    position = torch.arange(n, dtype=dtype).unsqueeze(1)
    div_term = torch.exp(
        torch.arange(0, D, 2, dtype=dtype)
        * torch.tensor(-math.log(BASE) / D, dtype=dtype)
    )
    pe = torch.zeros(n, D, dtype=dtype)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return div_term, pe


def main() -> None:
    record = {
        "torch": torch.__version__,
        "numpy": np.__version__,
        "platform": f"{platform.system()} {platform.machine()}",
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "command": "python tests/record_16bit_tables.py"
        " > tests/data/tutorial_16bit_tables.json",
        "d": D,
        "base": BASE,
    }
    for name, n in LENGTHS.items():
        dtype = getattr(torch, name)
        div_term, pe = table(dtype, n)
        # the float64 reference, as posenc.encoding computes it
        theta = BASE ** -(np.arange(D // 2, dtype=np.float64) * (2.0 / D))
        angles = np.arange(n, dtype=np.float64)[:, None] * theta
        exact = np.empty((n, D))
        exact[:, 0::2], exact[:, 1::2] = np.sin(angles), np.cos(angles)
        values = pe.float().numpy()
        worst = np.abs(values.astype(np.float64) - exact).max(axis=1)
        bits = div_term.view(torch.int16).numpy().view(np.uint16)
        record[name] = {
            "positions": n,
            "frequencies": " ".join(f"{int(word):04x}" for word in bits),
            "first_above_0.3": int(np.argmax(worst > 0.3)),
            "first_above_1.99": int(np.argmax(worst > 1.99)),
            "table_float32_sha256": hashlib.sha256(values.tobytes()).hexdigest(),
        }
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
