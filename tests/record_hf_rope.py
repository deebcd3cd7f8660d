"""Record what Hugging Face's Llama rotary code computes in float32 (writes
``tests/data/hf_rope_float32.json``).

PyTorch is not a dependency of the book. Run this once in a separate virtual
environment that has torch and numpy (no transformers or posenc needed)::

    python tests/record_hf_rope.py > tests/data/hf_rope_float32.json

and commit the result; ``tests/test_scaling_precision.py`` checks
``posenc.hf_rope_frequencies`` (a numpy restatement) against the recorded
frequencies (bit for bit, except one frequency in each of the last three
configurations, where PyTorch's float32 power is not correctly rounded), the
float32 angles made from it bit for bit (by their SHA-256), and PyTorch's
cos and sin against the bound of the chapter "How far the encoding
reaches". The torch code below is that of transformers 5.x,
``LlamaRotaryEmbedding``: ``compute_default_rope_parameters`` for the
frequencies and ``forward`` for the angles, cos and sin (attention scaling
1.0, autocast off), for one sequence of positions.
"""

from __future__ import annotations

import hashlib
import json
import platform

import numpy as np
import torch

#: (d, base) of the recorded frequencies; the table is recorded for the first.
#: The last three are cases where PyTorch's float32 power is not correctly
#: rounded for one frequency, so posenc.hf_rope_frequencies differs there.
CONFIGS = (
    (128, 500000.0),
    (128, 10000.0),
    (64, 10000.0),
    (256, 500000.0),
    (128, 1000000.0),
    (512, 10000.0),
    (96, 10000.0),
)
POSITIONS = (131040, 131072)  # far positions (end excluded), t = 131,045 among them


def inv_freq(d: int, base: float) -> torch.Tensor:
    # compute_default_rope_parameters (transformers 5.x), device cpu
    return 1.0 / (
        base ** (torch.arange(0, d, 2, dtype=torch.int64).to(dtype=torch.float) / d)
    )


def forward(frequencies: torch.Tensor, position_ids: torch.Tensor):
    # LlamaRotaryEmbedding.forward (transformers 5.x), x on the cpu
    inv_freq_expanded = (
        frequencies[None, :, None].float().expand(position_ids.shape[0], -1, 1)
    )
    position_ids_expanded = position_ids[:, None, :].float()
    with torch.autocast(device_type="cpu", enabled=False):
        product = inv_freq_expanded.float() @ position_ids_expanded.float()
        freqs = product.transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos() * 1.0
        sin = emb.sin() * 1.0
    return freqs, cos, sin


def words(array: np.ndarray) -> str | list[str]:
    """float32 values as the hex strings of their bit patterns, space
    separated (a list of such rows for a 2-D array)."""
    assert array.dtype == np.float32
    if array.ndim == 2:
        return [words(row) for row in array]
    return " ".join(f"{int(w):08x}" for w in array.view(np.uint32))


def main() -> None:
    record = {
        "torch": torch.__version__,
        "numpy": np.__version__,
        "platform": f"{platform.system()} {platform.machine()}",
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "command": "python tests/record_hf_rope.py > tests/data/hf_rope_float32.json",
        "frequencies": {},
    }
    for d, base in CONFIGS:
        theta = inv_freq(d, base)
        assert theta.dtype == torch.float32
        record["frequencies"][f"{d} {base:g}"] = words(theta.numpy())
    d, base = CONFIGS[0]
    positions = torch.arange(*POSITIONS)[None, :]
    freqs, cos, sin = forward(inv_freq(d, base), positions)
    half = d // 2  # emb repeats the angles: keep the first half
    record["table"] = {
        "d": d,
        "base": base,
        "positions": list(POSITIONS),
        "angles_sha256": hashlib.sha256(freqs[0].numpy().tobytes()).hexdigest(),
        "cos": words(cos[0, :, :half].contiguous().numpy()),
        "sin": words(sin[0, :, :half].contiguous().numpy()),
    }
    assert torch.equal(cos[0, :, :half], cos[0, :, half:])
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
