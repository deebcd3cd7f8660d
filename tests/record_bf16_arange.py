"""Record what ``torch.arange`` gives for positions built in bfloat16
(writes ``tests/data/bf16_arange.json``).

Hugging Face's Llama code of 2023 (transformers 4.31) built the positions
of an input that outgrew its cached table as ``torch.arange(n,
dtype=x.dtype)``, in the model's 16-bit format. That is not the same as
rounding each exact position to the nearest bfloat16 (what
``posenc.to_bfloat16`` does): what it gives depends on the implementation,
the device, the length asked for and even the number of threads (recorded
here: ``torch.arange(131072)`` on the CPU with the default threads; with
``ATEN_CPU_CAPABILITY`` set to ``default``, ``avx2`` and ``avx512`` it gave
the same values, with ``torch.set_num_threads(3)`` other ones, and
``torch.arange(65537)`` departs from this one's start at 32,897).
PyTorch is not a dependency of the book. Run this once in a separate
virtual environment with torch and numpy::

    python tests/record_bf16_arange.py > tests/data/bf16_arange.json

and commit the result; ``tests/test_scaling_precision.py`` checks the chapter "How far
the encoding reaches" against it. The positions 0 ... 131,071 are
non-decreasing, so they are stored as runs: each distinct value and how many
positions have it (and the SHA-256 of the float32 array, to check the
decoding).
"""

from __future__ import annotations

import hashlib
import json
import platform

import numpy as np
import torch

COUNT = 131072  # a 128K context


def main() -> None:
    positions = torch.arange(COUNT, dtype=torch.bfloat16).float().numpy()
    assert np.all(np.diff(positions) >= 0)
    values, counts = np.unique(positions, return_counts=True)
    record = {
        "torch": torch.__version__,
        "numpy": np.__version__,
        "platform": f"{platform.system()} {platform.machine()}",
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "command": "python tests/record_bf16_arange.py > tests/data/bf16_arange.json",
        "call": f"torch.arange({COUNT}, dtype=torch.bfloat16), device cpu",
        "values": [int(v) for v in values],
        "counts": [int(c) for c in counts],
        "float32_sha256": hashlib.sha256(positions.tobytes()).hexdigest(),
    }
    print(json.dumps(record))


if __name__ == "__main__":
    main()
