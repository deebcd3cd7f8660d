"""All benchmarks of the book; `make bench` runs this. Measurements, not tests."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import widgets  # noqa: E402  (benchmarks/widgets.py)

if __name__ == "__main__":
    print("Widget update latency (kernel side: update + PNG render)")
    widgets.main()
