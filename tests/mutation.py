"""Shared machinery of the mutation tests (test_mutants.py for posenc.core,
test_conventions_mutants.py for posenc.conventions).

A mutant is one plausible bug planted in a copy of ``posenc``: the exact text
``original`` in one module is replaced by ``replacement``. The run of the
module's tests against the copy must fail (exit code 1: a test ran and
failed; 2 would be an error in collection). The mutation site must occur
exactly once, so that a grown module can never make a mutant silently
mutate something else.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_tests_against(
    tmp_path: Path,
    module: str,
    test_file: str,
    mutation: tuple[str, str] | None = None,
    test: str | None = None,
) -> int:
    """Copy posenc and ``tests/<test_file>`` to ``tmp_path``, plant ``mutation``
    in ``posenc/<module>``, run the tests (or the one named ``test``), and
    return pytest's exit code."""
    shutil.copytree(ROOT / "posenc", tmp_path / "posenc")
    shutil.copy(ROOT / "tests" / test_file, tmp_path / test_file)
    if mutation is not None:
        source = tmp_path / "posenc" / module
        original, replacement = mutation
        text = source.read_text()
        assert text.count(original) == 1, (
            f"mutation site {original!r} not found exactly once in {module}"
        )
        source.write_text(text.replace(original, replacement))
    # `python -m pytest` puts the working directory first on sys.path, so the
    # copy shadows the installed package. Loading the environment's pytest
    # plugins (notebooks, browsers) would triple the time of each run;
    # hypothesis works without its plugin.
    environment = os.environ | {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    target = test_file if test is None else f"{test_file}::{test}"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", target],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
    )
    return result.returncode
