"""posenc.scaled_frequencies against Hugging Face transformers itself (issue 11).

Not run by CI: transformers and torch are not dependencies of the project.
Run once, in a scratch environment, from the repository's root:

    python3 -m venv /tmp/lc-venv
    /tmp/lc-venv/bin/pip install torch==2.13.0 'transformers>=5,<6' scipy
    /tmp/lc-venv/bin/python docs/research/issue11/compare_transformers.py

It builds a Llama configuration for each case, calls the library's own
``ROPE_INIT_FUNCTIONS[rope_type]`` (``transformers.modeling_rope_utils``),
and compares the inverse frequencies (float32 in the library) and the
attention factor with posenc's float64 values. The output is committed
beside this file as ``compare_transformers.txt``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch
import transformers
from transformers import LlamaConfig
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import posenc  # noqa: E402
from posenc import scaling  # noqa: E402

transformers.logging.set_verbosity_error()  # the configs' advice is not ours

#: float32 rounds each frequency once or a few times: relative 2^-24 each.
#: The library's float32 power base ** (j/d) errs by up to |ln(base ** (j/d))|
#: units of 2^-24 (an exponent of up to ln(1e6) ~ 14), so allow 32 units.
FLOAT32_RTOL = 32 * 2.0**-24


def library(rope_type, d, base, max_positions, seq_len=None, **parameters):
    config = LlamaConfig(
        hidden_size=d * 4,
        num_attention_heads=4,
        head_dim=d,
        max_position_embeddings=max_positions,
        rope_parameters={"rope_type": rope_type, "rope_theta": base, **parameters},
    )
    inv_freq, attention = ROPE_INIT_FUNCTIONS[rope_type](config, "cpu", seq_len=seq_len)
    return inv_freq.double().numpy(), float(attention)


def compare(name, ours, theirs):
    theta, attention = ours
    inv_freq, their_attention = theirs
    relative = np.abs(theta / inv_freq - 1).max()
    attention_gap = abs(attention - their_attention)
    verdict = "ok" if relative <= FLOAT32_RTOL and attention_gap < 1e-6 else "DIFFER"
    print(
        f"{name:<58} max rel diff {relative:.2e} (<= {FLOAT32_RTOL:.1e})"
        f"  attention {attention:.6f} vs {their_attention:.6f}  {verdict}"
    )
    return verdict == "ok"


def main() -> int:
    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    results = []
    for d, base in [(64, 1e4), (128, 1e4), (128, 5e5), (128, 1e6), (256, 1e4)]:
        for factor in [2.0, 8.0, 16.0, 40.0]:
            results.append(
                compare(
                    f"linear   d={d} base={base:g} s={factor:g}",
                    posenc.scaled_frequencies(d, base, "linear", factor),
                    library("linear", d, base, 4096, factor=factor),
                )
            )
            # static NTK-aware: the library's dynamic method, factor 1, at s L
            results.append(
                compare(
                    f"ntk      d={d} base={base:g} s={factor:g}",
                    posenc.scaled_frequencies(d, base, "ntk", factor),
                    library("dynamic", d, base, 4096, int(factor * 4096), factor=1.0),
                )
            )
            for length in [2048, 4096, 6000, 65536]:
                results.append(
                    compare(
                        f"dynamic  d={d} base={base:g} s={factor:g} len={length}",
                        posenc.scaled_frequencies(
                            d, base, "dynamic", factor, 4096, context=length
                        ),
                        library("dynamic", d, base, 4096, length, factor=factor),
                    )
                )
            for original, betas in [(4096, (32.0, 1.0)), (8192, (16.0, 2.0))]:
                results.append(
                    compare(
                        f"yarn     d={d} base={base:g} s={factor:g} L={original}"
                        f" beta={betas}",
                        posenc.scaled_frequencies(
                            d,
                            base,
                            "yarn",
                            factor,
                            original,
                            beta_fast=betas[0],
                            beta_slow=betas[1],
                        ),
                        library(
                            "yarn",
                            d,
                            base,
                            int(factor * original),
                            factor=factor,
                            original_max_position_embeddings=original,
                            beta_fast=betas[0],
                            beta_slow=betas[1],
                        ),
                    )
                )
            for original, low, high in [(8192, 1.0, 4.0), (4096, 2.0, 8.0)]:
                results.append(
                    compare(
                        f"llama3   d={d} base={base:g} s={factor:g} L={original}"
                        f" low={low:g} high={high:g}",
                        posenc.scaled_frequencies(
                            d,
                            base,
                            "llama3",
                            factor,
                            original,
                            low_freq_factor=low,
                            high_freq_factor=high,
                        ),
                        library(
                            "llama3",
                            d,
                            base,
                            int(factor * original),
                            factor=factor,
                            original_max_position_embeddings=original,
                            low_freq_factor=low,
                            high_freq_factor=high,
                        ),
                    )
                )
    # bfloat16: posenc's rounding against torch's conversion
    values = np.concatenate(
        [
            np.arange(0, 200_000, dtype=np.float64),
            np.random.default_rng(0).uniform(-1e6, 1e6, 100_000),
        ]
    ).astype(np.float32)
    torch_bf16 = torch.from_numpy(values).to(torch.bfloat16).double().numpy()
    same = np.array_equal(scaling.to_bfloat16(values), torch_bf16)
    print(f"to_bfloat16 against torch.bfloat16 on {values.size} float32 values: "
          f"{'identical' if same else 'DIFFER'}")
    results.append(same)
    print(f"{sum(results)} of {len(results)} comparisons agree")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
