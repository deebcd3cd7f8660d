"""All benchmarks of the book; `make bench` runs this. Measurements, not tests.

Prints one table: a cold build (empty caches, of a snapshot of the working
tree, into a temporary folder), a rebuild with nothing changed, the frame
rendering of the static players, the test suite (``--skip-tests`` leaves it
out: it takes minutes), the slider latency of every explorer (kernel side),
the bytes a browser transfers to open each page, and the time until MathJax
has typeset a page, and the minutes each page takes to read as it shows
on load (``benchmarks/reading.py``). Each row shows its target; nothing here fails. The
numbers are also written to ``benchmarks/results/latest.json``. The load
average is printed too: on a busy machine every number is pessimistic.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pages  # noqa: E402  (benchmarks/pages.py)
import phone  # noqa: E402  (benchmarks/phone.py)
import reading  # noqa: E402  (benchmarks/reading.py)
import widgets  # noqa: E402  (benchmarks/widgets.py)

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RESULTS = ROOT / "benchmarks" / "results"
FLAGS = ["-W", "-n", "--keep-going"]
MB = 1e6


#: Not copied into the snapshot the benchmark builds.
NOT_SOURCES = shutil.ignore_patterns(
    ".venv", "_build", ".git", ".hypothesis", ".ruff_cache", "__pycache__", "*.egg-info"
)


def snapshot(target: Path) -> Path:
    """A copy of the working tree: edits made while the benchmark runs (the
    book is written while it is measured) cannot change what it measures."""
    shutil.copytree(ROOT, target, ignore=NOT_SOURCES)
    return target


def environment(source: Path, **extra: str) -> dict[str, str]:
    """Run against the snapshot's ``posenc``, not the installed working tree."""
    return dict(os.environ, PYTHONPATH=str(source), **extra)


def run(command: list[str], source: Path) -> float:
    """Run ``command`` in ``source`` (it must succeed); return its wall time."""
    start = time.perf_counter()
    subprocess.run(
        command, check=True, capture_output=True, cwd=source, env=environment(source)
    )
    return time.perf_counter() - start


#: The chapter whose prose the edit benchmark changes, and the edit.
EDITED = "book/the_encoding.md"


def edit_prose(source: Path) -> None:
    """Change one word of a paragraph of :data:`EDITED` (no code changes)."""
    path = source / EDITED
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    index = next(
        i
        for i, line in enumerate(lines)
        if i > 20 and line[:1].isalpha() and " the " in line and "`" not in line
    )
    lines[index] = lines[index].replace(" the ", " this ", 1)
    path.write_text("".join(lines))


def builds(source: Path, output: Path) -> dict:
    """Cold build into ``output`` (empty), a rebuild with nothing changed, and
    a rebuild after a one-line prose edit to one chapter."""
    build = [str(BIN / "jupyter-book"), "build", str(source), *FLAGS]
    build += ["--path-output", str(output)]
    cold = run(build, source)
    rebuild = run(build, source)
    edit_prose(source)
    edited = run(build, source)
    (stats,) = (output / "_build" / ".posenc-frames").glob("*/stats.json")
    return {
        "cold": cold,
        "rebuild": rebuild,
        "edited": edited,
        "frames": json.loads(stats.read_text()),
    }


def test_suite(source: Path, site: Path) -> dict:
    """The tests of `make test` after the build (pytest on every core, as
    the Makefile's XDIST schedules them, mutants and the fresh venv left
    out) against the site just built: the wall time and pytest's summary
    line (a failing test is reported)."""
    start = time.perf_counter()
    command = [str(BIN / "python"), "-m", "pytest", "-q", "-n", "auto"]
    command += ["--dist", "loadscope", "--no-loadscope-reorder"]
    command += ["-m", "not mutants and not fresh_venv", "tests"]
    command += ["-p", "no:cacheprovider"]
    done = subprocess.run(
        command,
        cwd=source,
        env=environment(source, POSENC_SITE=str(site)),
        capture_output=True,
    )
    seconds = time.perf_counter() - start
    lines = done.stdout.decode(errors="replace").strip().splitlines()
    return {"seconds": seconds, "summary": lines[-1].strip("= ") if lines else ""}


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
                f"frames: {frames['frames']} PNGs, {frames['bytes'] / MB:.1f} MB, "
                f"{frames['workers']} processes (within the cold build)",
                f"{frames['wall_seconds']:.1f} s",
                "",
            ),
        ]
        rows.insert(
            2,
            (
                "rebuild after a one-line prose edit to one chapter",
                f"{results['edited']:.1f} s",
                "<= 20 s",
            ),
        )
        rows[0] += (verdict(results["cold"], 60),)
        rows[1] += (verdict(results["rebuild"], 10),)
        rows[2] += (verdict(results["edited"], 20),)
        rows[3] += ("",)
    if "tests" in results:
        tests = results["tests"]
        rows.append(
            (
                "tests after the build (make test's pytest)",
                f"{tests['seconds']:.0f} s",
                "",
                "",
            )
        )
        rows.append((f"  {tests['summary']}", "", "", ""))
    for name, p50, p95 in results["sliders"]:
        rows.append(
            (f"slider {name} p50 / p95", f"{p50:.0f} / {p95:.0f} ms", "p95 <= 50 ms")
            + (verdict(p95, 50),)
        )
    if results.get("training"):
        timing = results["training"]
        load = max(timing.get("load_average_at_start") or [0.0])
        rows.append(
            (
                f"make models: train every variant and seed (recorded; CPU "
                f"{timing['cpu_s'] / 60:.1f} min, load {load:.1f} at its start)",
                f"{timing['wall_s'] / 60:.1f} min",
                "<= 15 min",
                verdict(timing["wall_s"] / 60, 15),
            )
        )
    if results.get("pages"):
        rows += page_rows(results["pages"])
    if results.get("phone"):
        rows += phone_rows(results["phone"], results.get("phone_empty_page_ms"))
    if results.get("reading"):
        rows += reading_rows(results["reading"])
    return rows


def reading_rows(pages: list[dict]) -> list[tuple[str, str, str, str]]:
    """Reading time on load, against the learner's-path targets."""
    readings = [
        reading.Reading(
            p["page"], p["words"], p["inline"], p["display"], p["code_lines"]
        )
        for p in pages
    ]
    return [
        (
            f"reading time on load: {what}",
            f"{minutes:.1f} min",
            f"<= {target} min",
            verdict(minutes, target),
        )
        for what, minutes, target in reading.targets(readings)
    ]


def page_rows(pages: list[dict]) -> list[tuple[str, str, str, str]]:
    heaviest = max(pages, key=lambda p: p["bytes"])
    raw = max(pages, key=lambda p: p["uncompressed"])
    typeset = [p for p in pages if p["typeset_ms"] is not None]
    slowest = max(typeset, key=lambda p: p["typeset_ms"])
    median = np.median([p["typeset_ms"] for p in typeset])
    return [
        (
            f"first load, heaviest page, gzip ({heaviest['page']})",
            f"{heaviest['bytes'] / MB:.2f} MB",
            "<= 1.5 MB",
            verdict(heaviest["bytes"] / MB, 1.5),
        ),
        (
            f"first load, heaviest page, uncompressed ({raw['page']})",
            f"{raw['uncompressed'] / MB:.2f} MB",
            "<= 1.5 MB",
            verdict(raw["uncompressed"] / MB, 1.5),
        ),
        (
            f"first load, all {len(pages)} pages, gzip / uncompressed",
            f"{sum(p['bytes'] for p in pages) / MB:.1f} / "
            f"{sum(p['uncompressed'] for p in pages) / MB:.1f} MB",
            "",
            "",
        ),
        (
            f"maths readable (fonts loaded), slowest page ({slowest['page']})",
            f"{slowest['typeset_ms']:.0f} ms",
            "",
            "",
        ),
        (
            f"maths readable, median of {len(typeset)} pages",
            f"{median:.0f} ms",
            "",
            "",
        ),
    ]


def phone_rows(
    loads: list[dict], empty_ms: float | None = None
) -> list[tuple[str, str, str, str]]:
    """The phone's targets (benchmarks/phone.py), each at its worst page, and
    the load of an empty page (this machine's floor) if measured."""
    loaded = [phone.PhoneLoad(**load) for load in loads]
    with_maths = [load for load in loaded if load.maths_ms is not None]
    slowest = max(with_maths, key=lambda load: load.maths_ms)
    ratio = max(with_maths, key=lambda load: load.maths_ms / load.load_no_js_ms)
    shift = max(loaded, key=lambda load: load.shift)
    heavy = max(loaded, key=lambda load: load.raw_bytes)
    worst = ratio.maths_ms / ratio.load_no_js_ms
    return [
        (
            f"phone, CPU 4x slower: maths readable, slowest ({slowest.page})",
            f"{slowest.maths_ms:.0f} ms",
            f"<= {phone.MATHS_MS} ms",
            verdict(slowest.maths_ms, phone.MATHS_MS),
        ),
        (
            f"phone: maths readable / load with JS off, worst ({ratio.page})",
            f"{worst:.2f}",
            f"<= {phone.FACTOR}",
            verdict(worst, phone.FACTOR),
        ),
        (
            f"phone: cumulative layout shift, worst ({shift.page})",
            f"{shift.shift:.3f}",
            f"<= {phone.SHIFT}",
            verdict(shift.shift, phone.SHIFT),
        ),
        (
            f"phone: raw bytes, heaviest ({heavy.page})",
            f"{heavy.raw_bytes / MB:.2f} MB",
            f"<= {phone.RAW_BYTES / 1e6:.1f} MB",
            verdict(heavy.raw_bytes, phone.RAW_BYTES),
        ),
        (
            "phone: pages meeting all four",
            f"{sum(load.ok() for load in loaded)} of {len(loaded)}",
            "",
            "",
        ),
    ] + (
        []
        if empty_ms is None
        else [
            (
                "phone: an empty page, JS off (this machine)",
                f"{empty_ms:.0f} ms",
                "",
                "",
            )
        ]
    )


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
        "load_before": os.getloadavg()[0],
    }
    with tempfile.TemporaryDirectory(prefix="posenc-bench-") as tmp:
        source = snapshot(Path(tmp) / "src")
        output = Path(tmp) / "out"
        site = output / "_build" / "html"
        if not args.skip_build:
            print("building the book twice (cold, then unchanged)...", flush=True)
            results.update(builds(source, output))
            print("measuring the pages in Chromium...", flush=True)
            results["pages"] = [vars(load) for load in pages.measure(site)]
            print("measuring every page on a slow phone...", flush=True)
            floor: list[float] = []
            results["phone"] = [vars(load) for load in phone.measure(site, floor=floor)]
            results["phone_empty_page_ms"] = floor[0]
            print("measuring the reading time of every page...", flush=True)
            results["reading"] = reading.as_dicts(reading.measure(site))
            if not args.skip_tests:
                print("running the test suite...", flush=True)
                results["tests"] = test_suite(source, site)
    print("measuring the sliders...", flush=True)
    results["sliders"] = slider_rows()
    # make models records its own time (training it again is not a
    # benchmark's job: 15 minutes of both cores).
    manifest = ROOT / "posenc" / "models" / "manifest.json"
    if manifest.exists():
        results["training"] = json.loads(manifest.read_text())["timing"]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(results, indent=1))
    print(
        f"\n{results['date']}, {results['machine']}; load average at the start "
        f"{results['load_before']:.1f} (above 0.5, something else was running: "
        "the numbers are pessimistic)\n"
    )
    print_table(table(results))
    return results


if __name__ == "__main__":
    main()
