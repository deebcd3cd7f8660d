"""The in-class code activities (``_ext/activities.py``, ``book/activities/``).

Each activity runs from a clean kernel twice: with its starter code, where
the first cell that needs the student's code stops with a message that says
what to write (not a NameError or a TypeError deeper down), and with the
reference answer (``<name>_answers.py``) in place of the cells tagged
``edit-me``, where every cell and the self-check pass. The self-check
catches the common bugs, each with its own message. In the built site
(``POSENC_SITE``, else ``_build/html``), the notebook is published, linked
from its chapter and in ``notebooks.zip``.
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "scripts"))

import activities  # noqa: E402  (_ext/activities.py)
import sitetools  # noqa: E402
from notebook_bundle import BUNDLE, FOLDER  # noqa: E402

ACTIVITIES = activities.activities()
ROPE = activities.SOURCES / "rope_offset.md"


def answers(path: Path) -> list[str]:
    """The reference answer's cells (``# %%`` cells of the answers file)."""
    text = (path.parent / f"{path.stem}_answers.py").read_text()
    cells = re.split(r"^# %%.*\n", text, flags=re.MULTILINE)[1:]
    return [cell.strip() for cell in cells]


def edit_me(notebook) -> list[int]:
    return [
        i
        for i, c in enumerate(notebook.cells)
        if "edit-me" in c.metadata.get("tags", [])
    ]


def with_answers(path: Path) -> nbformat.NotebookNode:
    notebook = activities.activity_notebook(path)
    for index, answer in zip(edit_me(notebook), answers(path), strict=True):
        notebook.cells[index].source = answer
    return notebook


def execute(notebook, folder: Path):
    """Run ``notebook`` in a clean kernel; the notebook, and the first
    error (or None)."""
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(folder)}},
    )
    try:
        client.execute()
    except CellExecutionError:
        pass
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output["output_type"] == "error":
                return notebook, (index, output["ename"], output["evalue"])
            if output["output_type"] == "stream" and output["name"] == "stderr":
                return notebook, (index, "stderr", output["text"])
    return notebook, None


def test_there_is_an_activity_on_rope():
    assert ROPE in ACTIVITIES
    assert activities.chapter_of(ROPE) == "book/rope"


@pytest.mark.parametrize("path", ACTIVITIES, ids=lambda p: p.stem)
def test_each_cell_to_write_in_has_an_answer_and_the_starter_is_short(path):
    notebook = activities.activity_notebook(path)
    cells = edit_me(notebook)
    assert len(cells) == len(answers(path)) >= 1
    starter = notebook.cells[cells[0]].source
    assert len([line for line in starter.splitlines() if line.strip()]) <= 10
    for source in answers(path):
        assert all(len(line) <= 72 for line in source.splitlines())
    assert all(
        len(line) <= 72
        for c in notebook.cells
        for line in c.source.splitlines()
        if c.cell_type == "code"
    )


@pytest.mark.parametrize("path", ACTIVITIES, ids=lambda p: p.stem)
def test_the_starter_stops_with_a_message_that_says_what_to_write(path, tmp_path):
    notebook, error = execute(activities.activity_notebook(path), tmp_path)
    assert error is not None, "the starter code passed the self-check"
    index, name, message = error
    starter = edit_me(notebook)[0]
    first_use = next(  # the first code cell after the starter
        i for i, c in enumerate(notebook.cells) if i > starter and c.cell_type == "code"
    )
    assert (index, name) == (first_use, "NotImplementedError"), error
    assert "write score(m, n)" in message


@pytest.mark.parametrize("path", ACTIVITIES, ids=lambda p: p.stem)
def test_the_reference_answer_passes_every_cell(path, tmp_path):
    notebook, error = execute(with_answers(path), tmp_path)
    assert error is None, error
    last = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
    assert last.startswith("All checks passed"), last


# ------------------------------------------------------------ the self-check

#: The common bugs of the RoPE activity: a wrong score (or mixed score),
#: and the words the self-check's message must say.
BUGS = {
    "only q rotated": (
        "def score(m, n):\n    return posenc.rotate(q, m) @ k",
        "Rotate q to m and k to n",
    ),
    "k turned the wrong way": (
        "def score(m, n):\n    return posenc.rotate(q, m) @ posenc.rotate(k, -n)",
        "Rotate q to m and k to n",
    ),
    "element-wise product": (
        "def score(m, n):\n    return posenc.rotate(q, m) * posenc.rotate(k, n)",
        "use @, not *",
    ),
    "q alone turned by the offset, the wrong way": (
        "def score(m, n):\n    return posenc.rotate(q, n - m) @ k",
        "the angles turn the wrong way",
    ),
    "a position shifted by one": (
        "def score(m, n):\n    return posenc.rotate(q, m + 1) @ posenc.rotate(k, n)",
        "score(m, m) must be q @ k",
    ),
    "step 2's swap not swapped": (
        "swapped = np.array([posenc.rotate(q, m) @ posenc.rotate(k, m - 3)\n"
        "                    for m in positions])",
        "swapped should equal the scores at offset -3",
    ),
    "the same pairing twice": (
        "def mixed_score(m, n):\n    return posenc.rotate(q, m) @ posenc.rotate(k, n)",
        "mixed_score should depend on m",
    ),
}


def rope_cells() -> list[str]:
    notebook = with_answers(ROPE)
    return [c.source for c in notebook.cells if c.cell_type == "code"]


def run_in_process(cells: list[str]) -> dict:
    namespace: dict = {}
    for source in cells:
        exec(compile(source, "<activity>", "exec"), namespace)
    return namespace


def test_the_numbers_the_guide_quotes():
    """book/instructor/guide.md, "What to look for": step 1's scores agree
    to about 1e-12 at -8.45, step 2's at -13.05 (and so does the swap),
    step 3's spread is about 24."""
    seen = run_in_process(rope_cells()[:-1])  # before the self-check
    assert 1e-13 < np.ptp(seen["scores"]) < 1e-11
    assert f"{seen['scores'][0]:.2f}" == "-8.45"
    assert f"{seen['behind'][0]:.2f}" == "-13.05"
    assert np.ptp(seen["swapped"] - seen["behind"]) < 1e-9
    assert round(np.ptp(seen["mixed"])) == 24
    guide = (ROOT / "book" / "instructor" / "guide.md").read_text()
    starter = activities.activity_notebook(ROPE).cells[1].source
    assert len([line for line in starter.splitlines() if line.strip()]) == 7
    for quoted in (
        "$-13.05$",
        "$-8.45$",
        "about\n  24",
        "about $10^{-12}$",
        "starter of seven\nlines",
    ):
        assert quoted in guide, quoted


def test_the_size_of_a_score_step_1_quotes():
    """Step 1: a score is at most |q||k| = 58 in size (Cauchy-Schwarz), and
    for random q, k of width 64 typically about sqrt(64) = 8: the root
    mean square of q.k over many draws is within 2% of 8, and the scores
    of steps 1 and 2 are of that size, far below the bound."""
    seen = run_in_process(rope_cells()[:-1])
    bound = np.linalg.norm(seen["q"]) * np.linalg.norm(seen["k"])
    assert round(bound) == 58
    scores = np.concatenate([seen["scores"], seen["behind"]])
    assert np.all(np.abs(scores) < 2 * 8) and np.all(np.abs(scores) > 8 / 2)
    draws = np.random.default_rng(1).standard_normal((2, 20_000, 64))
    typical = np.sqrt(np.mean(np.sum(draws[0] * draws[1], axis=1) ** 2))
    assert abs(typical / 8 - 1) < 0.02
    step_1 = ROPE.read_text().split("## Step 1")[1].split("```")[0]
    text = " ".join(step_1.split())
    assert r"at most $|q|\,|k| \approx 58$" in text
    assert r"typically about $\sqrt{64} = 8$" in text


def test_the_guide_names_the_sections_the_steps_assume():
    """The guide says which sections of the RoPE chapter the steps need
    (step 3 the half-split pairing), by their titles in the chapter."""
    chapter = (ROOT / "book" / "rope.md").read_text()
    guide = (ROOT / "book" / "instructor" / "guide.md").read_text()
    sentence = " ".join(guide.split()).split("Steps 1 and 2 assume")[1]
    sentence = sentence.split(". ")[0]
    first, third = (
        "Rotate the query and the key",
        "Two pairings, and the bug of mixing them",
    )
    for title in (first, third):
        assert f"\n## {title}\n" in chapter, title
    before, _, after = sentence.partition("step 3")
    assert f'"{first}"' in before and f'"{third}"' in after, sentence


@pytest.mark.parametrize("bug", BUGS)
def test_the_self_check_names_each_common_bug(bug):
    wrong, words = BUGS[bug]
    cells = rope_cells()
    # the bug replaces the right definition just before the self-check
    cells.insert(len(cells) - 1, wrong)
    with pytest.raises(AssertionError) as caught:
        run_in_process(cells)
    assert words in str(caught.value), str(caught.value)


# ------------------------------------------------------------ in the site


def test_the_site_publishes_and_links_the_activity():
    site = sitetools.site_dir()
    page = site / "book" / "rope.html"
    if not page.is_file():
        pytest.skip(f"no rope chapter built in {site}")
    published = site / activities.FOLDER / f"{ROPE.stem}.ipynb"
    assert published.read_bytes() == activities.notebook_bytes(ROPE)
    assert f'href="../{activities.FOLDER}/{ROPE.stem}.ipynb"' in page.read_text()
    with zipfile.ZipFile(site / BUNDLE) as bundle:
        name = f"{FOLDER}/{activities.FOLDER}/{ROPE.stem}.ipynb"
        assert bundle.read(name) == published.read_bytes()
