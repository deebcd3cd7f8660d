"""Write each chapter (``book/<name>.md``) as a plain notebook, for the tests.

    python scripts/chapter_notebooks.py _build/notebooks

writes ``_build/notebooks/<name>.ipynb`` for every MyST Markdown notebook in
``book/``, without outputs. ``make test`` runs nbval on them (every chapter
from a clean kernel) and ruff on their code cells. Each code cell records
where it comes from (``metadata.posenc.source``: ``book/<name>.md:<line>``),
so a failure names the chapter and the line of the cell (``conftest.py``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import jupytext
import nbformat

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CODE_CELL = "```{code-cell}"

sys.path.insert(0, str(ROOT / "_ext"))
from parallel_execution import is_text_notebook  # noqa: E402


def chapters() -> list[Path]:
    """The chapters: the MyST Markdown notebooks of ``book/``."""
    return sorted(path for path in BOOK.glob("*.md") if is_text_notebook(path))


def code_cell_lines(path: Path) -> list[int]:
    """The line (1-based) of each code cell's opening fence, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(lines, 1) if line.startswith(CODE_CELL)]


def chapter_notebook(path: Path) -> nbformat.NotebookNode:
    """The chapter as a notebook, each code cell tagged with its line."""
    notebook = jupytext.read(path)
    notebook.metadata.pop("jupytext", None)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    lines = code_cell_lines(path)
    if len(lines) != len(code_cells):
        raise ValueError(
            f"{path.name}: {len(code_cells)} code cells but {len(lines)} "
            f"lines starting with {CODE_CELL!r}"
        )
    where = path.relative_to(ROOT).as_posix()
    for cell, line in zip(code_cells, lines, strict=True):
        cell.metadata["posenc"] = {"source": f"{where}:{line}"}
    return notebook


def main(target: str) -> None:
    folder = Path(target)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.ipynb"):
        stale.unlink()
    for path in chapters():
        nbformat.write(chapter_notebook(path), folder / f"{path.stem}.ipynb")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "_build/notebooks")
