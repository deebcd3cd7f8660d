"""The chapters are MyST Markdown notebooks, stored as jupytext writes them.

nbval executes them (``make test`` generates plain notebooks from them with
``scripts/chapter_notebooks.py`` and runs ``pytest --nbval-lax`` on those).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import jupytext
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import chapter_notebooks  # noqa: E402

CHAPTERS = chapter_notebooks.chapters()
MYST = {"extension": ".md", "format_name": "myst"}
#: What a running kernel tells JupyterLab, and jupytext writes as the
#: language of every code cell: ```{code-cell} ipython3.
KERNEL_LANGUAGE = {"name": "python", "pygments_lexer": "ipython3"}


def toc_files() -> set[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = {toc["root"]}
    for part in toc.get("parts", []):
        files.update(chapter["file"] for chapter in part["chapters"])
    return files


def test_there_are_chapters():
    assert len(CHAPTERS) >= 12


def test_no_ipynb_is_stored_in_the_book():
    assert not list((ROOT / "book").rglob("*.ipynb"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_is_stored_as_jupytext_writes_it(path):
    """A save from JupyterLab (jupytext) rewrites the file byte for byte: the
    diff of an edit shows only the edit. No outputs and no cell ids."""
    text = path.read_text(encoding="utf-8")
    notebook = jupytext.reads(text, fmt=MYST)
    notebook.metadata["language_info"] = KERNEL_LANGUAGE
    assert jupytext.writes(notebook, fmt=MYST) == text, (
        f"{path.name} is not as jupytext writes it: open and save it in "
        "JupyterLab (make lab)"
    )
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    assert "id:" not in text.split("\n---\n", 1)[0]


@pytest.mark.parametrize("path", sorted((ROOT / "book").glob("*.md")), ids=str)
def test_page_is_in_the_table_of_contents(path):
    if path.name in ("README.md",):
        return
    assert f"book/{path.stem}" in toc_files()


@pytest.mark.parametrize("entry", sorted(toc_files()))
def test_table_of_contents_entry_exists(entry):
    assert (ROOT / f"{entry}.md").exists(), f"{entry} listed in _toc.yml, no file"


# The page's content column shows about 72 characters of code; longer lines
# scroll sideways, which is unreadable when projected in a classroom.
CODE_WIDTH = 72
# Mathematical notation in the chapters: one-line lambdas named like the
# functions of the text (E731), I for the integral (E741); zip over arrays
# of equal length by construction (B905); integrands defined inside a loop
# and used at once (B023).
NOTEBOOK_STYLE = ("E731", "E741", "B905", "B023")


def test_code_cells_pass_ruff(tmp_path):
    """ruff (the project's rules) on every code cell, lines at most 72 wide."""
    chapter_notebooks.main(str(tmp_path))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--output-format=concise",
            f"--line-length={CODE_WIDTH}",
            f"--extend-ignore={','.join(NOTEBOOK_STYLE)}",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
