"""Execute the book's notebooks one per core, before Sphinx reads them.

With ``execute_notebooks: cache``, myst-nb executes each outdated notebook
when Sphinx reads it, one after the other: a cold build of a dozen chapters
spends a minute mostly waiting for one kernel at a time (starting it,
importing numpy, sympy and matplotlib). This extension runs first, when
Sphinx knows which documents it will read (``env-before-read-docs``): it
executes the notebooks that jupyter-cache has no outputs for, one per core,
exactly as myst-nb would (same kernel alias, working directory, timeout and
error setting), and stores the results in the same cache. myst-nb then finds
every notebook there ("Using cached notebook") and checks and renders its
outputs as usual; stderr output still fails the build.

A notebook that fails here is left out of the cache, so myst-nb executes it
again and reports the failure as it always does. Set
``POSENC_EXECUTION_WORKERS=1`` to leave all execution to myst-nb.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import nbformat
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)


def worker_count() -> int:
    return int(os.environ.get("POSENC_EXECUTION_WORKERS") or os.cpu_count() or 1)


def read_notebook(path: Path, aliases: dict[str, str]) -> nbformat.NotebookNode:
    """The notebook as myst-nb reads it, kernel alias applied."""
    notebook = nbformat.read(str(path), as_version=4)
    kernelspec = notebook.metadata.get("kernelspec", {})
    name = kernelspec.get("name")
    for pattern, alias in aliases.items():
        if name is not None and re.fullmatch(pattern, name):
            kernelspec["name"] = alias
            break
    return notebook


def execute(path: str, aliases: dict, timeout: int, allow_errors: bool) -> tuple:
    """Run in a worker: execute one notebook in its own folder.

    Returns the path, the executed notebook as JSON (None if it failed) and
    the seconds taken.
    """
    from jupyter_cache.executors.utils import single_nb_execution

    notebook = read_notebook(Path(path), aliases)
    result = single_nb_execution(
        notebook,
        cwd=str(Path(path).parent),
        timeout=timeout,
        allow_errors=allow_errors,
        meta_override=True,
    )
    if result.err is not None:
        return path, None, result.time
    return path, nbformat.writes(notebook), result.time


def _uses_cache(notebook: nbformat.NotebookNode, config) -> bool:
    overrides = notebook.metadata.get(config.metadata_key, {}) or {}
    return overrides.get("execution_mode", config.execution_mode) == "cache"


def outdated(app: Sphinx, docnames: list[str], cache, config) -> list[Path]:
    """Notebooks about to be read that the cache has no outputs for."""
    paths = []
    for docname in docnames:
        path = Path(app.env.doc2path(docname))
        if path.suffix != ".ipynb":
            continue
        if any(path.match(p) for p in config.execution_excludepatterns):
            continue
        notebook = read_notebook(path, config.kernel_rgx_aliases)
        if not _uses_cache(notebook, config):
            continue
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            paths.append(path)
    return paths


def store(cache, path: str, executed: str, seconds: float) -> None:
    """Put an executed notebook in the cache, as myst-nb does."""
    from jupyter_cache.base import CacheBundleIn

    cache.add_nb_to_project(path)
    cache.cache_notebook_bundle(
        CacheBundleIn(
            nbformat.reads(executed, as_version=4),
            path,
            data={"execution_seconds": seconds},
        ),
        check_validity=False,
        overwrite=True,
    )


def execute_ahead(app: Sphinx, env, docnames: list[str]) -> None:
    config = getattr(env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache" or worker_count() < 2:
        return
    from jupyter_cache import get_cache

    cache = get_cache(config.execution_cache_path)
    todo = outdated(app, docnames, cache, config)
    if len(todo) < 2:
        return  # nothing to run side by side
    start = time.perf_counter()
    arguments = (
        dict(config.kernel_rgx_aliases),
        config.execution_timeout,
        config.execution_allow_errors,
    )
    context = multiprocessing.get_context("spawn")
    workers = min(worker_count(), len(todo))
    failed = []
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        futures = [pool.submit(execute, str(path), *arguments) for path in todo]
        for future in as_completed(futures):
            path, executed, seconds = future.result()
            if executed is None:
                failed.append(Path(path).name)
            else:
                store(cache, path, executed, seconds)
    logger.info(
        f"executed {len(todo) - len(failed)} notebooks, {workers} at a time, in "
        f"{time.perf_counter() - start:.1f} s"
        + (f"; left to myst-nb: {json.dumps(failed)}" if failed else "")
    )


def setup(app: Sphinx) -> dict:
    app.connect("env-before-read-docs", execute_ahead)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
