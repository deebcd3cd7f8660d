"""Show that tests/test_static.py can fail: run it against wrong players.

Each mutant plants one bug in a copy of ``posenc/static.py`` and runs
``tests/test_static.py`` against the copy, with the runner of the mutation
suites (``tests/mutation.py``); the report lists which tests caught it.
Every mutant must be caught, and every test must catch at least one mutant
(a test that never fails proves nothing). The unmutated copy must pass. Not
part of ``make test`` (it takes about a minute); run
``.venv/bin/python scripts/mutate_static.py``.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from mutation import Mutant, run_tests_against  # noqa: E402  (the one runner)

TESTS = "test_static.py"

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


def main() -> int:
    problems, caught_by = 0, set()
    with tempfile.TemporaryDirectory() as tmp:
        unmutated = run_tests_against(Path(tmp) / "copy", TESTS, first_failure=False)
    print(
        f"{'unmutated copy':<40} {'passes' if unmutated.returncode == 0 else 'FAILS'}"
    )
    problems += unmutated.returncode != 0
    for name, (original, replacement) in MUTANTS.items():
        mutant = Mutant("static.py", original, replacement)
        with tempfile.TemporaryDirectory() as tmp:
            try:
                run = run_tests_against(Path(tmp), TESTS, mutant, first_failure=False)
            except AssertionError as missing:  # the site moved: say so, go on
                print(f"{name:<40} NOT PLANTED: {missing}")
                problems += 1
                continue
        caught_by |= run.failed
        verdict = ", ".join(sorted(run.failed)) if run.returncode else "SURVIVED"
        problems += run.returncode == 0
        print(f"{name:<40} {verdict}")
    tests = set(
        re.findall(r"^def (test_\w+)", (ROOT / "tests" / TESTS).read_text(), re.M)
    )
    for idle in sorted(tests - caught_by):
        print(f"test that caught no mutant: {idle}")
    return 1 if problems or tests - caught_by else 0


if __name__ == "__main__":
    sys.exit(main())
