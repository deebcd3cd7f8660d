"""The one mutation runner: plant a bug in a copy of ``posenc``, run tests on it.

A mutant is one plausible bug planted in a copy of ``posenc``: the exact text
``original`` in one module is replaced by ``replacement``. The run of the
module's tests against the copy must fail (exit code 1: a test ran and
failed; 2 would be an error in collection). The mutation site must occur
exactly once, so that a grown module can never make a mutant silently
mutate something else.

Used by the mutation suites ``test_mutants.py`` and
``test_conventions_mutants.py`` (marked ``mutants``: ``pytest -m mutants -n
2`` runs them in parallel, ``-m "not mutants"`` leaves them out) and
``test_static_mutants.py``.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import re
import shutil
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


# The libraries the tests import, loaded once per test process by a fork
# server: each run is a fork of that server, so it pays for importing
# posenc's copy and the tests but not for numpy, scipy, sympy and matplotlib
# (about 2.5 s of CPU per run, most of a run's cost). posenc itself is never
# preloaded: every run must import its own mutated copy.
PRELOAD = [
    "numpy",
    "scipy.special",
    "scipy.integrate",
    "scipy.linalg",
    "matplotlib.pyplot",
    "sympy",
    "mpmath",
    "hypothesis",
    "pytest",
    "PIL.Image",
]
TIMEOUT = 300  # seconds a run may take
_SERVER = None


def _server() -> multiprocessing.context.BaseContext:
    global _SERVER
    if _SERVER is None:
        os.environ.setdefault("MPLBACKEND", "Agg")
        # One BLAS thread: a fork of a process whose BLAS threads are running
        # can hang in the child.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        _SERVER = multiprocessing.get_context("forkserver")
        _SERVER.set_forkserver_preload(PRELOAD)
    return _SERVER


def _pytest_in(workdir: str, arguments: list[str], output: str) -> None:
    """The body of one run, in a fork of the server: pytest on the copy in
    ``workdir``, everything it prints written to ``output``."""
    os.chdir(workdir)
    sys.path.insert(0, workdir)  # the copy shadows the installed posenc
    # Loading the environment's pytest plugins (notebooks, browsers, xdist)
    # would triple the time of each run; hypothesis works without its plugin.
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    with open(output, "w") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
    import pytest

    code = pytest.main(arguments)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(int(code))


def run_tests_against(
    workdir: Path,
    test_file: str | tuple[str, ...],
    mutant: Mutant | None = None,
    test: str | None = None,
    *,
    first_failure: bool = True,
) -> Run:
    """Copy posenc and ``tests/<test_file>`` (one file, or a tuple of files
    that together test a module) to the empty or new directory ``workdir``,
    plant ``mutant``, run the tests (or the one named ``test``, in the first
    file), and return pytest's exit code and the failed tests.
    ``first_failure`` stops at the first failure (enough to know the mutant
    is caught)."""
    files = (test_file,) if isinstance(test_file, str) else tuple(test_file)
    shutil.copytree(ROOT / "posenc", workdir / "posenc")
    for name in files:
        shutil.copy(ROOT / "tests" / name, workdir / name)
    if mutant is not None:
        plant(workdir / "posenc", mutant)
    targets = list(files) if test is None else [f"{files[0]}::{test}"]
    arguments = ["-x"] if first_failure else []
    # A test that hangs has its stack dumped after 120 s (faulthandler), so
    # a run that overstays its time says where it was stuck.
    arguments += ["-q", "-rf", "-p", "no:cacheprovider"]
    arguments += ["-o", "faulthandler_timeout=120", *targets]
    output = workdir / "pytest-output.txt"
    run = _server().Process(
        target=_pytest_in, args=(str(workdir), arguments, str(output))
    )
    run.start()
    run.join(TIMEOUT)
    if run.exitcode is None:
        run.kill()
        run.join()
    printed = output.read_text(errors="replace") if output.exists() else ""
    if run.exitcode is None or run.exitcode < 0:
        ran = " ".join(targets)
        message = f"{ran} ran over {TIMEOUT} s or was killed; its output:\n"
        raise AssertionError(message + printed[-4000:])
    pattern = rf"^FAILED (?:{'|'.join(map(re.escape, files))})::(\w+)"
    failed = frozenset(re.findall(pattern, printed, re.M))
    return Run(run.exitcode, failed)
