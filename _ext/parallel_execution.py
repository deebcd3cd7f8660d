"""Execute the outdated chapters side by side, before Sphinx reads them.

With ``execute_notebooks: cache``, myst-nb executes each outdated notebook
when Sphinx reads it, one after the other: a cold build of a dozen chapters
spends most of a minute waiting for one kernel at a time (starting it,
importing numpy, sympy and matplotlib). This extension runs first, when
Sphinx knows which documents it will read (``env-before-read-docs``). It adds
the chapters to myst-nb's jupyter-cache project and lets jupyter-cache's own
parallel executor (``local-parallel``, one process a core) run those the
cache has no outputs for. myst-nb then finds every chapter in the cache
("Using cached notebook") and renders its outputs as usual; stderr output
still fails the build.

The chapters are MyST Markdown notebooks; jupyter-cache reads them with
jupytext, myst-nb with its own reader. Both give the same code cells, and the
cache matches notebooks by their code cells and kernel, so each finds the
other's results. A chapter that fails here is left out of the cache: myst-nb
executes it again and reports the failure (chapter and cell) as it always
does. ``POSENC_EXECUTION_WORKERS=1`` leaves all execution to myst-nb.

When every page has been read, so every chapter is in the cache, the build
writes the file named by ``POSENC_READ_MARKER`` if that is set: ``make
test`` starts the student edition's build then, beside this build's
writing of its pages (scripts/student_edition.py ``--after``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: jupyter-cache's reader for text notebooks (an entry point it ships).
JUPYTEXT = {"name": "jupytext", "type": "plugin"}


def worker_count() -> int:
    return int(os.environ.get("POSENC_EXECUTION_WORKERS") or os.cpu_count() or 1)


def is_text_notebook(path: Path) -> bool:
    """A MyST Markdown notebook: a ``.md`` file with a jupytext header."""
    if path.suffix != ".md":
        return False
    head = path.read_text(encoding="utf-8")[:400]
    return head.startswith("---") and "jupytext:" in head and "kernelspec:" in head


def outdated(app: Sphinx, docnames: list[str], cache, config) -> list[Path]:
    """Chapters about to be read that the cache has no outputs for."""
    import jupytext

    paths = []
    for docname in docnames:
        path = Path(app.env.doc2path(docname))
        if not is_text_notebook(path):
            continue
        if any(path.match(p) for p in config.execution_excludepatterns):
            continue
        try:
            cache.match_cache_notebook(jupytext.read(path))
        except KeyError:
            paths.append(path)
    return paths


def execute_ahead(app: Sphinx, env, docnames: list[str]) -> None:
    config = getattr(env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache" or worker_count() < 2:
        return
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    cache = get_cache(config.execution_cache_path)
    todo = outdated(app, docnames, cache, config)
    if len(todo) < 2:
        return  # nothing to run side by side
    start = time.perf_counter()
    for path in todo:
        cache.add_nb_to_project(str(path), read_data=JUPYTEXT)
    executor = load_executor("local-parallel", cache)
    result = executor.run_and_cache(
        filter_uris=[str(path) for path in todo],
        timeout=config.execution_timeout,
        allow_errors=config.execution_allow_errors,
    )
    failed = [Path(uri).name for uri in result.excepted + result.errored]
    logger.info(
        f"executed {len(result.succeeded)} chapters, {worker_count()} at a time, "
        f"in {time.perf_counter() - start:.1f} s"
        + (f"; left to myst-nb: {', '.join(failed)}" if failed else "")
    )


def mark_read(app: Sphinx, env) -> None:
    """Every page is read: the execution cache holds every chapter."""
    marker = os.environ.get("POSENC_READ_MARKER")
    if marker:
        Path(marker).parent.mkdir(parents=True, exist_ok=True)
        Path(marker).touch()


def setup(app: Sphinx) -> dict:
    app.connect("env-before-read-docs", execute_ahead)
    # after explorer_frames has put the frames in the cache (priority 400)
    app.connect("env-updated", mark_read, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
