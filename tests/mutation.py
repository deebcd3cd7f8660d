"""The one mutation runner: plant a bug in a copy of ``posenc``, run tests on it.

A mutant is one plausible bug planted in a copy of ``posenc``: the exact text
``original`` in one module is replaced by ``replacement``. The run of the
module's tests against the copy must fail (exit code 1: a test ran and
failed; 2 would be an error in collection). The mutation site must occur
exactly once, so that a grown module can never make a mutant silently
mutate something else.

Used by the mutation suites ``test_mutants.py`` and
``test_conventions_mutants.py`` (marked ``mutants``: ``pytest -m mutants -n
2`` runs them in parallel, ``-m "not mutants"`` leaves them out) and by
``scripts/mutate_static.py``, which reports which tests catch each mutant.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]


class Mutant(NamedTuple):
    """One bug: ``original`` replaced by ``replacement`` in ``posenc/<module>``."""

    module: str
    original: str
    replacement: str


class Run(NamedTuple):
    """pytest's exit code, and the names of the tests that failed."""

    returncode: int
    failed: frozenset[str]


def plant(package: Path, mutant: Mutant) -> None:
    """Apply ``mutant`` to the copy of posenc in ``package``."""
    source = package / mutant.module
    text = source.read_text()
    count = text.count(mutant.original)
    if count != 1:
        raise AssertionError(
            f"mutation site {mutant.original!r} found {count} times in "
            f"{mutant.module}, not exactly once"
        )
    source.write_text(text.replace(mutant.original, mutant.replacement))


def run_tests_against(
    workdir: Path,
    test_file: str,
    mutant: Mutant | None = None,
    test: str | None = None,
    *,
    first_failure: bool = True,
) -> Run:
    """Copy posenc and ``tests/<test_file>`` to the empty or new directory
    ``workdir``, plant ``mutant``, run the tests (or the one named ``test``),
    and return pytest's exit code and the failed tests. ``first_failure``
    stops at the first failure (enough to know the mutant is caught)."""
    shutil.copytree(ROOT / "posenc", workdir / "posenc")
    shutil.copy(ROOT / "tests" / test_file, workdir / test_file)
    if mutant is not None:
        plant(workdir / "posenc", mutant)
    # `python -m pytest` puts the working directory first on sys.path, so the
    # copy shadows the installed package. Loading the environment's pytest
    # plugins (notebooks, browsers, xdist) would triple the time of each run;
    # hypothesis works without its plugin.
    environment = os.environ | {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    target = test_file if test is None else f"{test_file}::{test}"
    stop = ["-x"] if first_failure else []
    # A test that hangs has its stack dumped after 120 s (faulthandler), so
    # a run that overstays its 300 s says where it was stuck.
    command = [sys.executable, "-m", "pytest", *stop, "-q", "-rf"]
    command += ["-p", "no:cacheprovider", "-o", "faulthandler_timeout=120", target]
    try:
        result = subprocess.run(
            command,
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=300,
            env=environment,
        )
    except subprocess.TimeoutExpired as stuck:
        output = "\n".join(
            (text if isinstance(text, str) else text.decode(errors="replace"))[-4000:]
            for text in (stuck.stdout, stuck.stderr)
            if text
        )
        message = f"{target} ran over 300 s; its output:\n{output}"
        raise AssertionError(message) from None
    pattern = rf"^FAILED {re.escape(test_file)}::(\w+)"
    failed = frozenset(re.findall(pattern, result.stdout, re.M))
    return Run(result.returncode, failed)
