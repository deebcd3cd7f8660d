"""Sliders with no kernel: precompute every frame of every explorer at build time.

A page of the website shows an explorer through :func:`posenc.static.player_html`:
the current frame inline, and range inputs that the script
``static/posenc-player.js`` reveals and turns into a player. The
player fetches the frame of each combination of slider values from
``_static/explorers/<ClassName>/<i>_<j>_<k>.png``. This extension renders
those frames, for every class in ``posenc.widgets.EXPLORERS`` and every
combination of its sliders' options:

* rendering starts when the builder starts (``builder-inited``), in worker
  processes (one for every two cores, at a lower priority), so it overlaps
  with executing the notebooks and takes the processor time that leaves;
* frames are cached beside the output folder, in
  ``<outdir>/../.posenc-frames/<key>/``. The key hashes the code of the
  modules of ``posenc`` that the explorers import (their syntax trees without
  docstrings, :func:`posenc.static.code_hash`) and the versions of
  matplotlib, numpy and Pillow: a rebuild with nothing changed renders
  nothing, and neither does an edit to a docstring, a comment or a module the
  explorers do not use; ``stats.json`` there records the rendering time;
* an explorer may have at most :data:`posenc.static.MAX_FRAMES` frames taking
  :data:`posenc.static.MAX_FRAME_BYTES` in all; more fails the build;
* when every page has been read, the build waits for the frames and moves
  them into the cache (so that a build started then, the student edition's
  in ``make test``, renders none); when the build has finished, they are
  copied into the site;
* when the code of ``posenc`` changed since the last build, every notebook is
  executed again (see :func:`track_sources`), so the figures in the pages and
  the frames come from the same code;
* the player's script and style sheet are added to the pages that have a
  player, and the ipywidgets state that myst-nb embeds in a page (of no use
  to a site that loads no widget JavaScript, and as heavy as a frame) is
  left out.

An explorer that raises on some combination of values fails the build.
"""

from __future__ import annotations

import ast
import functools
import json
import math
import multiprocessing
import os
import shutil
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from posenc import static
from posenc.static import FRAMES_DIR, all_indices, code_hash, render_frames
from posenc.widgets import EXPLORERS

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
CACHE_DIR = ".posenc-frames"
STATS = "stats.json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: Scheduling priority of the workers, lower than the build's: executing the
#: notebooks is the longer path of a cold build, and the frames fill the
#: processor time it leaves.
NICE = 10
#: Builders that get frames and the player script. The one-page build of
#: ``make pdf`` (singlehtml) is for print: its players show the static figure.
PLAYER_BUILDERS = {"html", "dirhtml"}


def worker_count() -> int:
    """Processes that render frames: ``POSENC_FRAME_WORKERS``, else one for
    every two cores. The chapters' kernels run at the same time, one a core
    and at a higher priority, and leave the frames little: on 2 cores one
    process renders them as fast as two (27 s) and the chapters finish 4 s
    sooner (cold build 75 s against 79 s)."""
    chosen = os.environ.get("POSENC_FRAME_WORKERS")
    return int(chosen) if chosen else max(1, (os.cpu_count() or 1) // 2)


def chunks(explorer_class: type, parts: int) -> list[list[tuple[int, ...]]]:
    """The class's frames in ``parts`` runs of consecutive combinations."""
    indices = list(all_indices(explorer_class))
    size = math.ceil(len(indices) / parts)
    return [indices[i : i + size] for i in range(0, len(indices), size)]


@dataclass
class FrameJob:
    """Frames of one build: found in the cache, or being rendered into it."""

    cache: Path
    key: str
    started: float = field(default_factory=time.perf_counter)
    done: float = 0.0  # when the last frame was written
    workers: int = 0
    pool: ProcessPoolExecutor | None = None
    futures: list[Future] = field(default_factory=list)
    stats: dict | None = None  # once finished

    @property
    def frames(self) -> Path:
        return self.cache / self.key

    @property
    def partial(self) -> Path:
        return self.cache / f"{self.key}.partial-{os.getpid()}"

    def start(self) -> None:
        """Start rendering, unless the cache already holds this key's frames."""
        check_frame_counts()
        if (self.frames / STATS).exists():
            return
        shutil.rmtree(self.partial, ignore_errors=True)
        workers = worker_count()
        tasks = [
            (explorer_class, chunk, self.partial / explorer_class.__name__)
            for explorer_class in EXPLORERS
            for chunk in chunks(explorer_class, workers)
        ]
        self.workers = min(workers, len(tasks))
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=os.nice, initargs=(NICE,)
        )
        self.futures = [self.pool.submit(render_frames, *task) for task in tasks]
        for future in self.futures:
            future.add_done_callback(self._note_done)

    def _note_done(self, future: Future) -> None:
        self.done = max(self.done, time.perf_counter())

    def finish(self) -> dict:
        """Wait for the workers, move the frames into the cache, return stats."""
        if self.stats is None:
            self.stats = self._finish()
        return self.stats

    def _finish(self) -> dict:
        if self.pool is None:
            return json.loads((self.frames / STATS).read_text())
        results = [future.result() for future in self.futures]
        self.pool.shutdown()
        stats = {
            "key": self.key,
            "frames": sum(count for count, _, _ in results),
            "bytes": sum(size for _, size, _ in results),
            "worker_seconds": round(sum(seconds for _, _, seconds in results), 2),
            "wall_seconds": round(self.done - self.started, 2),
            "workers": self.workers,
        }
        check_frame_bytes(self.partial)
        (self.partial / STATS).write_text(json.dumps(stats, indent=1))
        if self.frames.exists():  # a concurrent build got there first
            shutil.rmtree(self.partial)
        else:
            self.partial.rename(self.frames)
        for stale in self.cache.iterdir():  # frames of older sources
            if stale.is_dir() and not stale.name.startswith(self.key):
                shutil.rmtree(stale, ignore_errors=True)
        return stats

    def cancel(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        shutil.rmtree(self.partial, ignore_errors=True)

    def publish(self, outdir: Path) -> None:
        """Copy the frames into ``outdir/_static/explorers`` (if not there yet)."""
        target = outdir / "_static" / FRAMES_DIR
        stamp = target / ".key"
        if stamp.exists() and stamp.read_text() == self.key:
            return
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(self.frames, target, ignore=shutil.ignore_patterns(STATS))
        stamp.write_text(self.key)


_jobs: dict[int, FrameJob] = {}


class FrameCapError(Exception):
    """An explorer would put too many frames, or too many bytes, in the site."""


def check_frame_counts() -> None:
    for explorer_class in EXPLORERS:
        frames = math.prod(len(choice.options) for choice in explorer_class.choices)
        if frames > static.MAX_FRAMES:
            raise FrameCapError(
                f"{explorer_class.__name__} has {frames} frames, more than "
                f"posenc.static.MAX_FRAMES = {static.MAX_FRAMES}: offer fewer "
                "options or fewer sliders"
            )


def check_frame_bytes(frames: Path) -> None:
    for folder in sorted(p for p in frames.iterdir() if p.is_dir()):
        size = sum(path.stat().st_size for path in folder.glob("*.png"))
        if size > static.MAX_FRAME_BYTES:
            raise FrameCapError(
                f"the frames of {folder.name} take {size / 1e6:.1f} MB, more than "
                f"posenc.static.MAX_FRAME_BYTES = {static.MAX_FRAME_BYTES / 1e6:g} MB"
            )


def add_static_path(app: Sphinx, config) -> None:
    """Serve the player's script and style sheet from the site's ``_static``."""
    if str(STATIC) not in config.html_static_path:  # offline_site.py adds it too
        config.html_static_path.append(str(STATIC))


def track_sources(app: Sphinx, config) -> None:
    """Re-execute every notebook when ``posenc`` changed since the last build.

    The notebook outputs (the inline frames among them) come from ``posenc``,
    but jupyter-cache keys them on the notebooks' code only, and Sphinx
    re-reads only the pages whose source changed. So the hash of the code of
    ``posenc`` (every module: a chapter imports the whole package; docstrings
    and comments do not count) is a config value that rebuilds the
    environment when it changes, and the execution cache is emptied then.
    """
    key = code_hash()
    config.posenc_sources = key
    root = Path(app.outdir).parent
    cached = getattr(config, "nb_execution_cache_path", "")
    executions = Path(cached or root / ".jupyter_cache")
    stamp = root / CACHE_DIR / "executed-with"
    if stamp.exists() and stamp.read_text() == key:
        return
    if executions.exists():
        logger.info("posenc changed: emptying the execution cache %s", executions)
        shutil.rmtree(executions)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(key)


def start_rendering(app: Sphinx) -> None:
    if app.builder.name not in PLAYER_BUILDERS:
        return
    job = FrameJob(Path(app.outdir).parent / CACHE_DIR, frames_key())
    job.cache.mkdir(parents=True, exist_ok=True)
    job.start()
    _jobs[id(app)] = job


def frames_in_cache(app: Sphinx, env) -> None:
    """Every page is read: wait for the frames and move them into the cache."""
    job = _jobs.get(id(app))
    if job is not None:
        job.finish()


def finish_rendering(app: Sphinx, exception: Exception | None) -> None:
    job = _jobs.pop(id(app), None)
    if job is None:
        return
    if exception is not None:
        job.cancel()
        return
    rendered = job.pool is not None
    stats = job.finish()
    job.publish(Path(app.outdir))
    frames = f"{stats['frames']} frames ({stats['bytes'] / 1e6:.1f} MB)"
    if rendered:
        logger.info(
            f"explorer frames: rendered {frames} in {stats['wall_seconds']} s "
            f"with {stats['workers']} processes"
        )
    else:
        logger.info(f"explorer frames: {frames} from the cache {job.frames}")


def add_page_assets(app: Sphinx, pagename: str, templatename, context, doctree):
    """Player script and style on pages with a player; no widget state."""
    if app.builder.format != "html":
        return
    scripts = context.get("script_files")
    if scripts is not None:
        scripts[:] = [js for js in scripts if _attrs(js).get("type") != WIDGET_STATE]
    if "posenc-player" not in context.get("body", ""):
        return
    app.add_css_file("posenc-player.css")
    if app.builder.name in PLAYER_BUILDERS:
        app.add_js_file(
            "posenc-player.js", defer="defer", **{"data-frames-key": frames_key()}
        )


def imported_modules(start: str, package: Path) -> set[str]:
    """``start`` and the modules of ``package`` it imports, directly or not."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen or not (package / f"{name}.py").exists():
            continue
        seen.add(name)
        tree = ast.parse((package / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    todo.append(node.module.split(".")[0])
                else:
                    todo.extend(alias.name for alias in node.names)
    return seen


@functools.cache
def frames_key() -> str:
    """The cache key of the frames, also the version the player asks them by."""
    package = Path(static.__file__).parent
    return code_hash(modules=imported_modules("widgets", package))


def _attrs(script) -> dict:
    return getattr(script, "attributes", {}) or {}


def setup(app: Sphinx) -> dict:
    app.add_config_value("posenc_sources", "", "env")
    app.connect("config-inited", add_static_path)
    app.connect("config-inited", track_sources)
    app.connect("builder-inited", start_rendering)
    # before parallel_execution's mark_read (priority 900) says "read"
    app.connect("env-updated", frames_in_cache, priority=400)
    app.connect("html-page-context", add_page_assets, priority=900)
    app.connect("build-finished", finish_rendering)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
