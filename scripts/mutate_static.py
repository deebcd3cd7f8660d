"""Show that tests/test_static.py can fail: run it against wrong players.

Each mutant plants one bug in a copy of ``posenc/static.py`` and runs
``tests/test_static.py`` against the copy; the report lists which tests
caught it. Every mutant must be caught, and every test must catch at least
one mutant (a test that never fails proves nothing). The unmutated copy must
pass. Not part of ``make test`` (it takes about a minute); run
``.venv/bin/python scripts/mutate_static.py``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MUTANTS = {
    "frames named with dashes": ('"_".join(str(int', '"-".join(str(int'),
    "negative indices accepted": ("if not indices or any", "if False and any"),
    "last option of every slider left out": (
        "range(len(c.options)) for c",
        "range(len(c.options) - 1) for c",
    ),
    "player starts at the defaults": (
        "c.options.index(explorer.values[c.name])",
        "c.options.index(c.default)",
    ),
    "no alt text": ('alt="{_attribute(explorer.description)}"', 'alt=""'),
    "width and height swapped": (
        "width, height = _png_size",
        "height, width = _png_size",
    ),
    "wrong explorer name": (
        'posenc-player" data-explorer="{name}"',
        'posenc-player" data-explorer="{name.lower()}"',
    ),
    "slider one step too long": ('max="{len(labels) - 1}"', 'max="{len(labels)}"'),
    "raw values instead of formatted": (
        "current = _attribute(labels[index])",
        "current = _attribute(str(choice.options[index]))",
    ),
    "controls shown without the script": (
        '<div class="posenc-controls" hidden>',
        '<div class="posenc-controls">',
    ),
    "live note shown without the script": (
        'posenc-note-live" hidden>',
        'posenc-note-live">',
    ),
    "sliders for explorers without frames": (
        "if type(explorer) not in EXPLORERS:",
        "if False:",
    ),
    "labels not escaped": (
        "{html.escape(choice.label)}</span>",
        "{choice.label}</span>",
    ),
    "frames all at the default": (
        "explorer.update(**values_at(explorer_class, index))",
        "pass",
    ),
    "cache key ignores the sources": ("path.read_bytes()", 'b""'),
    "cache key reads every file": ('.glob("*.py")', '.glob("*")'),
    "print note names the defaults": (
        "{c.format(explorer.values[c.name])}",
        "{c.format(c.default)}",
    ),
}


def run(workdir: Path, mutation: tuple[str, str] | None) -> tuple[int, set[str]]:
    """Run the tests against a (mutated) copy; return code and failed tests."""
    shutil.rmtree(workdir, ignore_errors=True)
    shutil.copytree(ROOT / "posenc", workdir / "posenc")
    shutil.copy(ROOT / "tests" / "test_static.py", workdir / "test_static.py")
    if mutation is not None:
        source = workdir / "posenc" / "static.py"
        original, replacement = mutation
        text = source.read_text()
        if text.count(original) != 1:
            raise SystemExit(f"mutation site {original!r} not found exactly once")
        source.write_text(text.replace(original, replacement))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"]
        + ["test_static.py"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=300,
    )
    failed = set(re.findall(r"^FAILED test_static\.py::(\w+)", result.stdout, re.M))
    return result.returncode, failed


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "copy"
        code, failed = run(workdir, None)
        print(f"{'unmutated copy':<40} {'passes' if code == 0 else 'FAILS'}")
        problems = int(code != 0)
        caught_by: set[str] = set()
        for name, mutation in MUTANTS.items():
            code, failed = run(workdir, mutation)
            caught_by |= failed
            verdict = ", ".join(sorted(failed)) if code else "SURVIVED"
            problems += code == 0
            print(f"{name:<40} {verdict}")
        tests = set(re.findall(r"^def (test_\w+)", _test_source(), re.M))
        for idle in sorted(tests - caught_by):
            print(f"test that caught no mutant: {idle}")
        return 1 if problems or tests - caught_by else 0


def _test_source() -> str:
    return (ROOT / "tests" / "test_static.py").read_text()


if __name__ == "__main__":
    sys.exit(main())
