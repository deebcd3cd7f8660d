"""Write ``posenc/models/byte_baseline.npz``: what the trained-models
chapter needs for its byte-frequency baseline, so that a reader's Python
need not have the standard library the models were trained on.

    python scripts/byte_baseline.py          # after make models

It holds ``train_counts`` (256,), how often each byte occurs in the
training split, and ``loss_windows`` (48, 513), the validation windows
the models' losses were recorded on (``training/train.py``'s
``validation_windows``), with the corpus hash in ``meta``. The corpus is
rebuilt from this Python's standard library; the script refuses to write
if its hash is not the one the models were trained on.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "training"))

import corpus  # noqa: E402  (training/corpus.py)

from posenc import trained, trained_measures  # noqa: E402

#: As in training/train.py (VAL_WINDOWS, max_eval_length + 1).
WINDOWS = 48


def build() -> dict[str, np.ndarray]:
    stdlib = corpus.load_corpus()
    expected = trained.load_sample()["meta"]["corpus_sha256"]
    if stdlib.sha256 != expected:
        raise SystemExit(
            f"this Python's stdlib gives corpus {stdlib.sha256[:12]}, the models "
            f"were trained on {expected[:12]}: run this with Python "
            f"{trained.load_sample()['meta']['python_version']}"
        )
    length = trained.model_config("nope")["max_eval_length"] + 1
    starts = corpus.evenly_spaced(stdlib.validation, WINDOWS, length)
    return {
        "train_counts": np.bincount(stdlib.train, minlength=256).astype(np.int64),
        "loss_windows": corpus.text_windows(stdlib.validation, starts, length).astype(
            np.uint8
        ),
        "meta": np.array(json.dumps({"corpus_sha256": stdlib.sha256})),
    }


def main() -> int:
    path = trained_measures.BYTE_BASELINE
    np.savez_compressed(path, **build())
    print(f"wrote {path} ({path.stat().st_size / 1e3:.1f} kB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
