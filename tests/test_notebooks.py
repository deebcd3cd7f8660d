"""Notebooks are stored without outputs, and every one is in the table of contents.

(nbval executes them: `pytest --nbval-lax book`, run by `make test`.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))


def toc_files() -> set[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = {toc["root"]}
    for part in toc.get("parts", []):
        files.update(chapter["file"] for chapter in part["chapters"])
    return files


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_without_outputs(path):
    notebook = json.loads(path.read_text())
    dirty = [
        index
        for index, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code"
        and (cell.get("outputs") or cell.get("execution_count"))
    ]
    assert not dirty, (
        f"{path.name}: cells {dirty} have outputs; clear them before committing"
    )
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_in_the_table_of_contents(path):
    assert f"book/{path.stem}" in toc_files()


# The page's content column shows about 72 characters of code; longer lines
# scroll sideways, which is unreadable when projected in a classroom.
CODE_WIDTH = 72


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_code_fits_the_page(path):
    notebook = json.loads(path.read_text())
    too_long = [
        line
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
        for line in "".join(cell["source"]).splitlines()
        if len(line) > CODE_WIDTH
    ]
    assert not too_long, f"{path.name}: lines over {CODE_WIDTH} chars: {too_long}"
