"""The tests of the website's static player (tests/test_static.py) must fail
against wrong players.

Each mutant plants one plausible bug in a copy of ``posenc/static.py`` (or of
the explorer's side of the player in ``posenc/explorer.py``) and runs
``tests/test_static.py`` against the copy, with the one runner of the
mutation suites (``tests/mutation.py``). Marked ``mutants``: ``make mutants``
runs them.
"""

from __future__ import annotations

import pytest
from mutation import Mutant, run_tests_against

pytestmark = pytest.mark.mutants

TESTS = "test_static.py"

MUTANTS = {
    "frames named with dashes": Mutant(
        "static.py", '"_".join(str(int', '"-".join(str(int'
    ),
    "negative indices accepted": Mutant(
        "static.py", "if not indices or any", "if False and any"
    ),
    "last option of every slider left out": Mutant(
        "static.py", "range(len(c.options)) for c", "range(len(c.options) - 1) for c"
    ),
    "player starts at the defaults": Mutant(
        "explorer.py",
        "choice.options.index(self.values[choice.name])",
        "choice.options.index(choice.default)",
    ),
    "no alt text": Mutant("static.py", 'alt="{_attribute(description)}"', 'alt=""'),
    "width and height swapped": Mutant(
        "static.py", "width, height = _png_size", "height, width = _png_size"
    ),
    "wrong explorer name": Mutant(
        "static.py",
        'posenc-player" data-explorer="{name}"',
        'posenc-player" data-explorer="{name.lower()}"',
    ),
    "slider one step too long": Mutant(
        "static.py",
        'max="{len(slider.labels) - 1}"',
        'max="{len(slider.labels)}"',
    ),
    "raw values instead of formatted": Mutant(
        "explorer.py",
        "tuple(choice.format(option) for option in choice.options)",
        "tuple(str(option) for option in choice.options)",
    ),
    "controls shown without the script": Mutant(
        "static.py",
        '<div class="posenc-controls" hidden>',
        '<div class="posenc-controls">',
    ),
    "live note shown without the script": Mutant(
        "static.py", 'posenc-note-live" hidden>', 'posenc-note-live">'
    ),
    "sliders for explorers without frames": Mutant(
        "explorer.py", "listed = type(self) in LISTED", "listed = True"
    ),
    "labels not escaped": Mutant(
        "static.py",
        "{html.escape(slider.label)}</span>",
        "{slider.label}</span>",
    ),
    "frames all at the default": Mutant(
        "static.py", "explorer.update(**values_at(explorer_class, index))", "pass"
    ),
    "cache key ignores the code": Mutant("static.py", "ast.dump(tree).encode()", 'b""'),
    "cache key reads every file": Mutant("static.py", '.glob("*.py"))', '.glob("*"))'),
    "cache key counts docstrings": Mutant(
        "static.py", "node.body = node.body[1:] or [ast.Pass()]", "pass"
    ),
    "cache key ignores the libraries": Mutant(
        "static.py", "for library in libraries:", "for library in ():"
    ),
    "print note names the defaults": Mutant(
        "static.py",
        'f"{s.label} = {s.labels[s.index]}"',
        'f"{s.label} = {s.labels[0]}"',
    ),
    "no cap on frames": Mutant("static.py", "MAX_FRAMES = 200", "MAX_FRAMES = 10**9"),
    "the player imports the explorers": Mutant(
        "static.py",
        "from typing import Any\n",
        "from typing import Any\n\nfrom . import validate  # noqa: F401\n",
    ),
}


def test_unmutated_copy_passes(tmp_path):
    assert run_tests_against(tmp_path, TESTS).returncode == 0


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_is_caught(tmp_path, name):
    # exit code 1: a test ran and failed (2 would be an error in collection)
    run = run_tests_against(tmp_path, TESTS, MUTANTS[name])
    assert run.returncode == 1, f"mutant survived: {name}"
