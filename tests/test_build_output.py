"""The build's output: chapters executed with their progress reported and
no kernel warning among Sphinx's lines (issue 22, item 3).

``make book`` once printed "Kernel is running over TCP without encryption"
from every kernel (ipykernel's warning, written to the build's terminal);
the kernels now talk over IPC sockets (``_ext/parallel_execution.py``).
The first test executes small chapters the way the build does and reads
everything the kernels wrote; the second reads the logs of the suite's own
build (``make test`` keeps ``_build/book.log`` and ``_build/student.log``).
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

import jupytext
import pytest
from jupyter_cache import get_cache

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))

import parallel_execution  # noqa: E402

KERNEL_WARNING = "running over TCP without encryption"
LOGS = [ROOT / "_build" / "book.log", ROOT / "_build" / "student.log"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")

CHAPTER = """\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  name: python3
  display_name: Python 3
  language: python
---
# Chapter {n}

```{{code-cell}} ipython3
print({n} * 7)
```
"""


def test_chapters_execute_with_progress_and_no_kernel_warning(
    tmp_path, capfd, monkeypatch
):
    chapters = {}
    for n in (1, 2, 3):
        chapters[f"chapter{n}"] = tmp_path / f"chapter{n}.md"
        chapters[f"chapter{n}"].write_text(CHAPTER.format(n=n))
    # the workers are forked: they make their kernels' folders in here (a
    # short folder: a socket's path holds at most 107 bytes, and tmp_path
    # under pytest-xdist is longer than kernel_config's limit)
    sockets = Path(tempfile.mkdtemp(prefix="posenc-test-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(sockets))
    cache = get_cache(str(tmp_path / "cache"))
    lines: list[str] = []
    failed = parallel_execution.execute_chapters(
        cache,
        chapters,
        workers=2,
        timeout=60,
        allow_errors=False,
        report=lines.append,
    )
    written = capfd.readouterr()
    assert KERNEL_WARNING not in written.err + written.out
    assert failed == [], lines  # a failure's line says why
    assert lines[0] == "3 to run, 2 at a time: chapter1, chapter2"
    assert [line.split("]")[0] for line in lines[1:]] == ["[1/3", "[2/3", "[3/3"]
    assert "; next: chapter3" in lines[1]
    for path in chapters.values():  # executed, into the cache
        _, notebook = cache.merge_match_into_notebook(jupytext.read(path))
        (cell,) = notebook.cells[1:]
        assert cell.outputs[0]["text"] == f"{7 * int(path.stem[-1])}\n"
    assert list(sockets.iterdir()) == []  # each kernel's folder removed
    monkeypatch.undo()  # tempfile.tempdir back before the folder goes
    sockets.rmdir()


def test_a_failing_chapter_is_reported_with_its_reason(tmp_path):
    """A chapter whose cell raises is reported as failed, with the error
    (the line once said only "failed", and the reason was lost in the
    worker's process)."""
    good = tmp_path / "good.md"
    good.write_text(CHAPTER.format(n=1))
    bad = tmp_path / "bad.md"
    bad.write_text(CHAPTER.format(n=1).replace("print(1 * 7)", "1 / 0"))
    cache = get_cache(str(tmp_path / "cache"))
    lines: list[str] = []
    failed = parallel_execution.execute_chapters(
        cache,
        {"bad": bad, "good": good},
        workers=2,
        timeout=60,
        allow_errors=False,
        report=lines.append,
    )
    assert failed == ["bad"]
    (line,) = [line for line in lines if "] bad " in line]
    assert "failed (" in line and "ZeroDivisionError" in line, line
    assert "myst-nb runs it again" in line


def test_workers_finishing_together_keep_each_others_notebooks(tmp_path, monkeypatch):
    """jupyter-cache prunes the cache after each store by reading the
    records to keep and then the others, in two queries. A record another
    worker committed between them was pruned before its notebook was written,
    and that chapter failed (CI, once in about 30 runs under load). The gap
    is widened here to 1.5 s so that both workers store inside it: without
    the lock around the store, the test fails."""
    from jupyter_cache.cache import db

    record = db.NbCacheRecord

    def slow_prune(keep, engine):  # jupyter-cache's two queries, 1.5 s apart
        with db.session_context(engine) as session:
            kept = [pk for (pk,) in session.query(record.pk).limit(keep).all()]
            time.sleep(1.5)
            query = session.query(record.pk).filter(record.pk.notin_(kept))
            return [pk for (pk,) in query.all()]

    monkeypatch.setattr(db.NbCacheRecord, "records_to_delete", staticmethod(slow_prune))
    chapters = {}
    for n in (1, 2):
        chapters[f"chapter{n}"] = tmp_path / f"chapter{n}.md"
        chapters[f"chapter{n}"].write_text(CHAPTER.format(n=n))
    cache = get_cache(str(tmp_path / "cache"))
    lines: list[str] = []
    failed = parallel_execution.execute_chapters(
        cache, chapters, workers=2, timeout=60, allow_errors=False, report=lines.append
    )
    assert failed == [], lines
    assert len(cache.list_cache_records()) == 2


def test_a_long_temporary_folder_falls_back_to_a_short_one(tmp_path, monkeypatch):
    """A socket's path holds at most 107 bytes: under a long TMPDIR the
    kernels' sockets go to /tmp (they failed to start under xdist's tmp_path
    before)."""
    long = tmp_path / ("x" * 80)
    long.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    with parallel_execution.kernel_config() as config:
        folder = Path(config.KernelManager.ip).parent
        assert folder.parent == Path("/tmp")
        assert len(config.KernelManager.ip) + len("-65535") < 103


def test_kernels_use_ipc_in_a_folder_of_their_own():
    with parallel_execution.kernel_config() as config:
        folder = Path(config.KernelManager.ip).parent
        assert config.KernelManager.transport == "ipc"
        assert folder.stat().st_mode & 0o777 == 0o700
    assert not folder.exists()


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_the_suites_build_reports_progress_and_no_kernel_warning(log):
    if not log.exists():
        pytest.skip(f"{log.relative_to(ROOT)} is written by make test")
    text = ANSI.sub("", log.read_text(encoding="utf-8", errors="replace"))
    assert KERNEL_WARNING not in text
    done = re.findall(r"executing chapters\.\.\. \[ *(\d+)/(\d+)\]", text)
    if done:  # chapters were executed (the cache had not every one)
        total = int(done[0][1])
        assert sorted(int(k) for k, _ in done) == list(range(1, total + 1))
