"""Build the student edition: the book without solutions or instructor pages.

    python scripts/student_edition.py [BUILT]      (make student)

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
  other, not at the same time.
"""

from __future__ import annotations

import sys
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


def main(built: Path) -> int:
    from jupyter_book.sphinx import build_sphinx

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
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build"))
