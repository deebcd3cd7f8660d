"""Execute the outdated chapters side by side, before Sphinx reads them.

With ``execute_notebooks: cache``, myst-nb executes each outdated notebook
when Sphinx reads it, one after the other: a cold build of a dozen chapters
spends most of a minute waiting for one kernel at a time (starting it,
importing numpy, sympy and matplotlib). This extension runs first, when
Sphinx knows which documents it will read (``env-before-read-docs``). It adds
the chapters to myst-nb's jupyter-cache project and executes those the cache
has no outputs for, one process a core (``POSENC_EXECUTION_WORKERS``, else
every core), each with jupyter-cache's own worker, which stores the
executed notebook in the cache. myst-nb then finds every chapter in the
cache ("Using cached notebook") and renders its outputs as usual; stderr
output still fails the build.

**Progress.** Each chapter that finishes is reported as it finishes, in
Sphinx's status output: how many of how many, the chapter, its time, and
the chapter that starts in its place::

    executing chapters... 16 to run, 2 at a time: book/intro, book/rope
    executing chapters... [ 1/16] book/intro (6.1 s); next: book/precision

**The kernels talk over IPC sockets, not TCP** (:func:`kernel_config`).
jupyter_client starts a kernel on TCP by default, and ipykernel 7 then
logs, to the terminal the build runs in, "Kernel is running over TCP
without encryption ... susceptible to eavesdropping": sixteen times in a
cold build. It was harmless here (the kernels listen on 127.0.0.1 only,
live for one chapter and are reached by this process alone) but alarming
to read, and the warning's own remedy is the right one: over IPC a
kernel's sockets are files in Jupyter's runtime folder, which only their
owner can open (mode 0700), and no port is opened at all, so two kernels
starting at the same moment can no longer draw the same port (which once
in eight cold builds killed one with "Address already in use"). Nothing
is filtered: the warning is not written because its cause is gone.

The chapters are MyST Markdown notebooks; jupyter-cache reads them with
jupytext, myst-nb with its own reader. Both give the same code cells, and the
cache matches notebooks by their code cells and kernel, so each finds the
other's results. A chapter that fails here is left out of the cache: myst-nb
executes it again and reports the failure (chapter and cell) as it always
does (that one run uses myst-nb's kernel, on TCP, so its warning appears
beside the error).

When every page has been read, so every chapter is in the cache, the build
writes the file named by ``POSENC_READ_MARKER`` if that is set: ``make
test`` starts the student edition's build then, beside this build's
writing of its pages (scripts/student_edition.py ``--after``).
"""

from __future__ import annotations

import contextlib
import logging as pylogging
import multiprocessing
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from jupyter_cache.executors.basic import ExecutionWorkerLocalMProc, ProcessData
from jupyter_cache.executors.utils import single_nb_execution
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.console import bold, darkgreen
from traitlets.config import Config

logger = logging.getLogger(__name__)

#: jupyter-cache's reader for text notebooks (an entry point it ships).
JUPYTEXT = {"name": "jupytext", "type": "plugin"}


def worker_count() -> int:
    return int(os.environ.get("POSENC_EXECUTION_WORKERS") or os.cpu_count() or 1)


#: The longest parent folder for the kernels' sockets: a socket's path is
#: the folder (+ 24 characters of mkdtemp's name) + "/ipc-<port>" (about
#: 12), under the 103 bytes macOS allows.
SOCKET_PARENT_MAX = 60


@contextlib.contextmanager
def kernel_config() -> Iterator[Config]:
    """The configuration of one kernel: where the system has Unix sockets
    (Linux, macOS), IPC transport, its sockets in a folder of its own that
    only this user can open (mode 0700, removed afterwards), so that no
    kernel opens a TCP port or warns that it runs over TCP without
    encryption (the module's docstring). The folder must be the kernel's
    own: jupyter_client's default, ``kernel-ipc-1`` ... in the working
    folder, numbers the sockets by which files exist yet, and two kernels
    starting at once in ``book/`` took the same ones (each then rejected
    the other's messages: "Invalid Signature")."""
    config = Config()
    if os.name != "posix":
        yield config
        return
    # A Unix socket's path holds at most 107 bytes (Linux; 103 on macOS):
    # a long temporary folder (TMPDIR, a test's tmp_path) falls back to /tmp.
    parent = tempfile.gettempdir()
    if len(parent) > SOCKET_PARENT_MAX and os.path.isdir("/tmp"):
        parent = "/tmp"
    folder = tempfile.mkdtemp(prefix="posenc-kernel-", dir=parent)
    try:
        config.KernelManager.transport = "ipc"
        config.KernelManager.ip = os.path.join(folder, "ipc")
        yield config
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _Recorder(pylogging.Handler):
    """Keeps what a worker logs at warning level or above."""

    def __init__(self) -> None:
        super().__init__(pylogging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: pylogging.LogRecord) -> None:
        self.lines.append(self.format(record))


_WORKER_LOG = pylogging.getLogger("posenc.chapter_worker")
_WORKER_LOG.propagate = False
_WORKER_LOG.setLevel(pylogging.INFO)


#: Shared by the workers of one run (:func:`_share_lock`).
_STORE_LOCK = contextlib.nullcontext()


def _share_lock(lock) -> None:
    global _STORE_LOCK
    _STORE_LOCK = lock


class ChapterWorker(ExecutionWorkerLocalMProc):
    """jupyter-cache's worker (execute in the notebook's folder, store the
    result in the cache), with the kernel on :func:`kernel_config` and one
    BLAS thread: the workers already run a kernel per core, and two kernels
    each with a BLAS thread per core fought over two cores (the trained
    models' chapter took 88-117 s under load, about 40 s with one thread).
    A reader's own ``OPENBLAS_NUM_THREADS`` is kept.

    A failure comes back with its reason (jupyter-cache's worker logs it to
    multiprocessing's logger, which no one reads): the lines the worker
    logged at warning level or above, else the notebook's path."""

    @property
    def logger(self) -> pylogging.Logger:
        return _WORKER_LOG

    def __call__(self, data: ProcessData) -> tuple[int, str]:
        # The forked worker holds a copy of the parent's database pool:
        # SQLAlchemy's rule for a fork is to start the child's own pool,
        # leaving the parent's connections alone (close=False).
        if data.cache._db is not None:
            data.cache._db.dispose(close=False)
        # One worker at a time stores its notebook: jupyter-cache's
        # truncate_caches, run after each store, reads the records to keep
        # and then those not among them in two queries, and a record another
        # worker committed in between was taken for one over the limit and
        # removed before its notebook was written ("Notebook file does not
        # exist for cache record PK: 2", once in about 30 runs under load).
        store = data.cache.cache_notebook_bundle

        def store_alone(*args, **kwargs):
            with _STORE_LOCK:
                return store(*args, **kwargs)

        data.cache.cache_notebook_bundle = store_alone
        _WORKER_LOG.handlers[:] = [recorder := _Recorder()]
        status, uri = super().__call__(data)
        return status, "\n".join(recorder.lines) if status and recorder.lines else uri

    @staticmethod
    def execute(project_nb, data: ProcessData):
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the kernel inherits it
        with kernel_config() as config:
            return single_nb_execution(
                project_nb.nb,
                cwd=str(Path(project_nb.uri).parent),
                timeout=data.timeout,
                allow_errors=data.allow_errors,
                config=config,
            )


def is_text_notebook(path: Path) -> bool:
    """A MyST Markdown notebook: a ``.md`` file with a jupytext header."""
    if path.suffix != ".md":
        return False
    head = path.read_text(encoding="utf-8")[:400]
    return head.startswith("---") and "jupytext:" in head and "kernelspec:" in head


def outdated(app: Sphinx, docnames: list[str], cache, config) -> list[str]:
    """Chapters about to be read that the cache has no outputs for."""
    import jupytext

    todo = []
    for docname in docnames:
        path = Path(app.env.doc2path(docname))
        if not is_text_notebook(path):
            continue
        if any(path.match(p) for p in config.execution_excludepatterns):
            continue
        try:
            cache.match_cache_notebook(jupytext.read(path))
        except KeyError:
            todo.append(docname)
    return todo


def execute_chapters(
    cache,
    chapters: dict[str, Path],
    *,
    workers: int,
    timeout: int | None,
    allow_errors: bool,
    report: Callable[[str], None],
) -> list[str]:
    """Execute ``chapters`` (name: path) into ``cache``, ``workers`` at a
    time, in the order given; ``report`` gets a line when they start and
    one as each finishes. Returns the names of those that failed."""
    records = {
        name: cache.add_nb_to_project(str(path), read_data=JUPYTEXT)
        for name, path in chapters.items()
    }
    waiting = list(chapters)
    total, finished, failed = len(waiting), 0, []
    running: dict[Future, tuple[str, float]] = {}
    workers = max(1, min(workers, total))
    # Forked, as jupyter-cache's own executor did: a spawned worker would
    # import nbformat and jupyter-cache again, 2 to 5 s here (jsonschema's
    # rfc3987_syntax builds a grammar on import) before its first chapter.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_share_lock, initargs=(context.Lock(),)
    )
    with pool:

        def start(name: str) -> None:
            record = records[name]
            data = ProcessData(record.pk, record.uri, cache, timeout, allow_errors)
            running[pool.submit(ChapterWorker(), data)] = (name, time.perf_counter())

        first = [waiting.pop(0) for _ in range(workers)]
        for name in first:
            start(name)
        report(f"{total} to run, {workers} at a time: {', '.join(first)}")
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                name, started = running.pop(future)
                status, reason = future.result()
                finished += 1
                line = f"[{finished:>{len(str(total))}}/{total}] {name}"
                line += f" ({time.perf_counter() - started:.1f} s)"
                if status != 0:
                    failed.append(name)
                    line += f" failed ({reason.strip().splitlines()[-1]}):"
                    line += " myst-nb runs it again to report where"
                if waiting:
                    start(waiting[0])
                    line += f"; next: {waiting.pop(0)}"
                report(line)
    return failed


def execute_ahead(app: Sphinx, env, docnames: list[str]) -> None:
    config = getattr(env, "mystnb_config", None)
    if config is None or config.execution_mode != "cache":
        return
    from jupyter_cache import get_cache

    cache = get_cache(config.execution_cache_path)
    todo = outdated(app, docnames, cache, config)
    if not todo:
        return
    start = time.perf_counter()
    failed = execute_chapters(
        cache,
        {name: Path(app.env.doc2path(name)) for name in todo},
        workers=worker_count(),
        timeout=config.execution_timeout,
        allow_errors=config.execution_allow_errors,
        report=lambda line: logger.info(bold("executing chapters... ") + line),
    )
    logger.info(
        bold("executing chapters... ")
        + darkgreen(f"{len(todo) - len(failed)} of {len(todo)} executed")
        + f" in {time.perf_counter() - start:.1f} s"
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
