"""Build the student edition: the book without solutions or instructor pages.

    python scripts/student_edition.py [BUILT]      (make student)
    python scripts/student_edition.py BUILT --after MARKER --build-pid PID

BUILT is the default edition's build folder (``_build``, where ``make
book`` writes ``html``); the student edition is written to
``BUILT/student/html``. It is the book's own build (``_config.yml``) with

* ``posenc_edition = "student"``: ``_ext/editions.py`` removes every
  solution from the pages, the search index, the notebook downloads,
  notebooks.zip and the Markdown copies;
* a table of contents without the instructor section (``_toc.yml`` minus
  every page under ``book/instructor/``), written to ``OUTPUT/_toc.yml``;
* the default edition's execution cache (``BUILT/.jupyter_cache``) and
  explorer frames (``BUILT/.posenc-frames``): the chapters are not
  executed again when the book was built first (``make book``), and the
  two editions never disagree on an output. Build them one after the
  other, not at the same time, with one exception:

``--after MARKER --build-pid PID`` (``make test``) waits until the book's
build, process PID, has read every page (it then writes MARKER:
``POSENC_READ_MARKER``, _ext/parallel_execution.py), when every chapter is
in the execution cache and every frame rendered; the two builds then write
their pages side by side (Sphinx writes on one core). If PID ends first,
the book's build failed, and so does this one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))

from editions import INSTRUCTOR_DIR  # noqa: E402


def student_toc(toc: dict) -> dict:
    """``toc`` (_toc.yml) without the pages of the instructor section; a
    part left with no chapter goes too."""

    def keep(entry: dict) -> bool:
        return not entry.get("file", "").startswith(INSTRUCTOR_DIR + "/")

    parts = []
    for part in toc.get("parts", []):
        chapters = [entry for entry in part["chapters"] if keep(entry)]
        if chapters:
            parts.append({**part, "chapters": chapters})
    if not keep({"file": toc["root"]}):
        raise ValueError("the root page cannot be an instructor page")
    return {**toc, "parts": parts}


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, ended but not yet
    waited for, counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"


def wait_for(marker: Path, pid: int) -> None:
    """Return once ``marker`` exists; exit if process ``pid`` ends first."""
    while not marker.exists():
        if not alive(pid):
            if marker.exists():
                return
            raise SystemExit(
                "the book's build ended before it had read every page: no student "
                "edition (the book's build says why)"
            )
        time.sleep(0.2)


def main(built: Path, after: Path | None = None, build_pid: int = 0) -> int:
    from jupyter_book.sphinx import build_sphinx

    if after is not None:
        wait_for(after, build_pid)
    shared = built.resolve()
    output = shared / "student"
    output.mkdir(parents=True, exist_ok=True)
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    toc_path = output / "_toc.yml"
    toc_path.write_text(yaml.safe_dump(student_toc(toc), sort_keys=False))
    shared.joinpath(".posenc-frames").mkdir(parents=True, exist_ok=True)
    frames = output / ".posenc-frames"  # explorer_frames: outdir/../
    if not frames.is_symlink():
        if frames.exists():
            raise SystemExit(f"{frames} exists and is not the shared cache")
        frames.symlink_to(shared / ".posenc-frames")
    result = build_sphinx(
        ROOT,
        output / "html",
        use_external_toc=True,
        noconfig=True,
        path_config=str(ROOT / "_config.yml"),
        confoverrides={
            "external_toc_path": toc_path.as_posix(),
            "latex_individualpages": False,  # jupyter-book expects it
            "nitpicky": True,
            "posenc_edition": "student",
            "nb_execution_cache_path": str(shared / ".jupyter_cache"),
        },
        doctreedir=output / ".doctrees",
        warningiserror=True,
        keep_going=True,
    )
    if result:
        return 1
    print(f"\nThe student edition: file://{output / 'html' / 'index.html'}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("built", nargs="?", type=Path, default=ROOT / "_build")
    parser.add_argument("--after", type=Path, help="wait for this file")
    parser.add_argument("--build-pid", type=int, default=0, help="the book's build")
    args = parser.parse_args()
    if (args.after is None) != (args.build_pid == 0):
        parser.error("--after and --build-pid go together")
    sys.exit(main(args.built, args.after, args.build_pid))
