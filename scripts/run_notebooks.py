"""Run notebooks top to bottom in clean kernels, as a student would.

    <venv>/bin/python scripts/run_notebooks.py FOLDER [--jobs N]

runs every ``*.ipynb`` of FOLDER (the unzipped ``notebooks.zip``), each in
a new kernel of the Python that runs this script, with FOLDER as working
directory (as JupyterLab started in FOLDER does), N notebooks at a time.
It prints one JSON object per notebook, one a line: its file name, the
seconds it took, the ``sys.prefix`` and ``posenc.__file__`` its kernel saw
(a last cell, not saved, asks), and ``failure``: null, or the first cell
that raised or wrote to stderr (its index among all cells, and the error or
the text). The exit status is 1 if any notebook failed.

It needs only the standard library, nbformat and nbclient (JupyterLab
brings both), so it runs in the bundle's environment, not the book's:
``tests/test_bundle.py`` runs it there.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

#: The last cell, not saved: where the kernel's Python and posenc come from.
PROBE = (
    "import json as _json, sys as _sys, posenc as _posenc\n"
    "print(_json.dumps({'prefix': _sys.prefix, 'posenc': _posenc.__file__}))"
)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: Seconds a cell may run (the slowest chapter cell takes a few seconds).
CELL_TIMEOUT = 600


def first_failure(notebook) -> dict | None:
    """The first cell with an error, or that wrote to stderr."""
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                trace = ANSI.sub("", "\n".join(output.get("traceback", [])))
                return {
                    "cell": index,
                    "error": f"{output['ename']}: {output['evalue']}",
                    "traceback": trace[-3000:],
                }
            if output.get("output_type") == "stream" and output["name"] == "stderr":
                return {
                    "cell": index,
                    "error": "wrote to stderr",
                    "traceback": output["text"][-3000:],
                }
    return None


def probed(cell) -> dict:
    """What the PROBE cell printed ({} if nothing). Its line may come in
    more than one stream message (under load, its newline alone in the
    second): they are joined before it is read."""
    stdout = "".join(
        output["text"]
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output["name"] == "stdout"
    )
    lines = [line for line in stdout.splitlines() if line.strip()]
    return json.loads(lines[-1]) if lines else {}


def run(path: str) -> dict:
    """Execute the notebook at ``path`` in its folder; what happened."""
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_code_cell(PROBE))
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        startup_timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(Path(path).parent)}},
    )
    start = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError:
        pass  # the failing cell holds the error: first_failure finds it
    except Exception as error:  # the kernel died or would not start
        return {
            "notebook": Path(path).name,
            "seconds": time.perf_counter() - start,
            "failure": {"cell": None, "error": repr(error), "traceback": ""},
        }
    seconds = time.perf_counter() - start
    probe = notebook.cells.pop()
    seen = probed(probe)
    return {
        "notebook": Path(path).name,
        "seconds": round(seconds, 1),
        "prefix": seen.get("prefix"),
        "posenc": seen.get("posenc"),
        "failure": first_failure(notebook),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    notebooks = sorted(str(p) for p in args.folder.glob("*.ipynb"))
    if not notebooks:
        print(f"no notebooks in {args.folder}", file=sys.stderr)
        return 1
    failed = False
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(run, notebooks):
            failed |= result["failure"] is not None
            print(json.dumps(result), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
