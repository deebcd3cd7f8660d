"""All benchmarks of the book; `make bench` runs this. Measurements, not tests.

Prints one table: a cold build (empty caches, into a temporary folder), a
rebuild with nothing changed, the frame rendering of the static players, the
test suite (``--skip-tests`` leaves it out: it takes minutes), the slider
latency of every explorer (kernel side), the bytes a browser transfers to
open each page, and the time until MathJax has typeset a page. Each row shows
its target; nothing here fails. The numbers are also written to
``benchmarks/results/latest.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pages  # noqa: E402  (benchmarks/pages.py)
import widgets  # noqa: E402  (benchmarks/widgets.py)

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RESULTS = ROOT / "benchmarks" / "results"
BUILD = ["build", str(ROOT), "-W", "-n", "--keep-going"]
MB = 1e6


def run(command: list[str], **kwargs) -> float:
    """Run ``command`` (it must succeed); return its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, **kwargs)
    return time.perf_counter() - start


def builds(output: Path) -> dict:
    """Cold build into ``output`` (empty), then a rebuild with nothing changed."""
    build = [str(BIN / "jupyter-book"), *BUILD, "--path-output", str(output)]
    cold = run(build)
    rebuild = run(build)
    (stats,) = (output / "_build" / ".posenc-frames").glob("*/stats.json")
    return {"cold": cold, "rebuild": rebuild, "frames": json.loads(stats.read_text())}


def test_suite(site: Path) -> float:
    """`pytest tests book --nbval-lax` against the site just built."""
    environment = dict(os.environ, POSENC_SITE=str(site))
    command = [str(BIN / "pytest"), "-q", "tests", "book", "--nbval-lax"]
    return run(command, cwd=ROOT, env=environment)


def slider_rows() -> list[tuple[str, float, float]]:
    """(explorer.slider, p50 ms, p95 ms) for every slider of every explorer."""
    rows = []
    for explorer_class in widgets.EXPLORERS:
        for name, samples in widgets.slider_latencies(explorer_class).items():
            p50, p95 = np.percentile(samples, [50, 95])
            rows.append((f"{explorer_class.__name__}.{name}", p50, p95))
    return rows


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "OVER"


def table(results: dict) -> list[tuple[str, str, str, str]]:
    """Rows of (measure, value, target, verdict)."""
    rows = []
    if "cold" in results:
        frames = results["frames"]
        rows += [
            ("cold build (empty caches)", f"{results['cold']:.1f} s", "<= 60 s"),
            ("rebuild, nothing changed", f"{results['rebuild']:.1f} s", "<= 10 s"),
            (
                f"frames: {frames['frames']} PNGs, {frames['bytes'] / MB:.1f} MB",
                f"{frames['wall_seconds']:.1f} s",
                f"({frames['workers']} processes, overlaps the build)",
            ),
        ]
        rows[0] += (verdict(results["cold"], 60),)
        rows[1] += (verdict(results["rebuild"], 10),)
        rows[2] += ("",)
    if "tests" in results:
        rows.append(
            ("test suite (pytest tests book)", f"{results['tests']:.0f} s", "", "")
        )
    for name, p50, p95 in results["sliders"]:
        rows.append(
            (f"slider {name} p50 / p95", f"{p50:.0f} / {p95:.0f} ms", "p95 <= 50 ms")
            + (verdict(p95, 50),)
        )
    if results.get("pages"):
        rows += page_rows(results["pages"])
    return rows


def page_rows(pages: list[dict]) -> list[tuple[str, str, str, str]]:
    heaviest = max(pages, key=lambda p: p["bytes"])
    total = sum(p["bytes"] for p in pages)
    typeset = [p for p in pages if p["typeset_ms"] is not None]
    slowest = max(typeset, key=lambda p: p["typeset_ms"])
    return [
        (
            f"first load, heaviest page ({heaviest['page']})",
            f"{heaviest['bytes'] / MB:.2f} MB",
            "<= 1.5 MB",
            verdict(heaviest["bytes"] / MB, 1.5),
        ),
        (f"first load, all {len(pages)} pages", f"{total / MB:.2f} MB", "", ""),
        (
            f"maths typeset, slowest page ({slowest['page']})",
            f"{slowest['typeset_ms']:.0f} ms",
            "",
            "",
        ),
        (
            f"maths typeset, median of {len(typeset)} pages",
            f"{np.median([p['typeset_ms'] for p in typeset]):.0f} ms",
            "",
            "",
        ),
    ]


def print_table(rows: list[tuple[str, str, str, str]]) -> None:
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'value':>16}  {'target':<14} ")
    for measure, value, target, mark in rows:
        print(f"{measure:<{width}}  {value:>16}  {target:<14} {mark}")


def main() -> dict:
    parser = argparse.ArgumentParser(description="The book's benchmarks.")
    parser.add_argument("--skip-tests", action="store_true", help="no test timing")
    parser.add_argument("--skip-build", action="store_true", help="no build timing")
    args = parser.parse_args()
    results: dict = {
        "date": datetime.datetime.now().isoformat(timespec="minutes"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
    }
    with tempfile.TemporaryDirectory(prefix="posenc-bench-") as tmp:
        output = Path(tmp)
        site = output / "_build" / "html"
        if not args.skip_build:
            print("building the book twice (cold, then unchanged)...", flush=True)
            results.update(builds(output))
            print("measuring the pages in Chromium...", flush=True)
            results["pages"] = [vars(load) for load in pages.measure(site)]
            if not args.skip_tests:
                print("running the test suite...", flush=True)
                results["tests"] = test_suite(site)
    print("measuring the sliders...", flush=True)
    results["sliders"] = slider_rows()
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(results, indent=1))
    print(f"\n{results['date']}, {results['machine']}\n")
    print_table(table(results))
    return results


if __name__ == "__main__":
    main()
