"""Widget update latency, kernel side: compute + redraw + PNG, per slider.

For every explorer and every slider, step the slider through all its values
(from every other slider at its default), several rounds, and time what a
slider move costs in Jupyter: ``update`` (recompute the data, move the
artists) plus rendering the PNG the live widget shows. Prints p50 and p95 in
milliseconds. A measurement, not a test: it never fails.

Run: ``make bench`` (or ``python benchmarks/widgets.py``).
"""

from __future__ import annotations

import time

import numpy as np

from posenc.widgets import EXPLORERS

ROUNDS = 5
TARGET_MS = 50.0


def slider_latencies(explorer_class, rounds: int = ROUNDS) -> dict[str, np.ndarray]:
    explorer = explorer_class()
    explorer.png(compress_level=1)  # first render caches the static background
    latencies = {}
    for choice in explorer_class.choices:
        samples = []
        for _ in range(rounds):
            for value in choice.options:
                start = time.perf_counter()
                explorer.update(**{choice.name: value})
                explorer.png(compress_level=1)
                samples.append(time.perf_counter() - start)
        explorer.update(**{choice.name: choice.default})
        latencies[choice.name] = np.array(samples) * 1000.0
    return latencies


def main() -> list[tuple[str, str, float, float]]:
    rows = []
    for explorer_class in EXPLORERS:
        for slider, samples in slider_latencies(explorer_class).items():
            p50, p95 = np.percentile(samples, [50, 95])
            rows.append((explorer_class.__name__, slider, p50, p95))
    print(f"{'explorer':<28} {'slider':<10} {'p50 ms':>8} {'p95 ms':>8}  target p95")
    for name, slider, p50, p95 in rows:
        verdict = "ok" if p95 <= TARGET_MS else "OVER"
        print(
            f"{name:<28} {slider:<10} {p50:8.1f} {p95:8.1f}  <= {TARGET_MS:.0f} "
            f"{verdict}"
        )
    return rows


if __name__ == "__main__":
    main()
