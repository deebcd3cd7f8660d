"""pytest: a failing chapter cell names its chapter and line.

nbval (``make chapter NAME=<name>``) runs a chapter as a notebook generated
from ``book/<name>.md`` (``scripts/chapter_notebooks.py``), and names a
failure by notebook and cell number. Each generated cell records its place
in the chapter; this hook adds it to the report: ``book/rope.md:212``, which
an editor opens at that line.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    cell = getattr(item, "cell", None)
    if report.failed and cell is not None:
        source = cell.get("metadata", {}).get("posenc", {}).get("source")
        if source:
            report.sections.append(("chapter cell", f"this cell is at {source}"))
            report.longrepr = f"{source}: chapter cell failed\n{report.longrepr}"
