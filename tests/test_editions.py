"""The student edition holds no solution anywhere, and no instructor page.

The text of every solution is read from the chapters (``book/*.md``: the
body of each ``{solution}`` and gated ``{solution-start}`` block, prose and
code). Every file of the student build (``POSENC_STUDENT_SITE``, else
``_build/student/html``; ``make student``) is searched for it: the pages,
their hidden elements, the scripts, the notebook downloads
(``_sources/*.ipynb``), the Markdown copies and every member of
``notebooks.zip``, each as text with tags removed and entities decoded. The
search index holds stemmed words, not sentences, so it is searched for the
words that occur in solutions and nowhere else in the book.

Instructor-only material (``instructor-only``, ``_ext/editions.py``) is
searched for the same way, and the rope chapter's in-class activity in
particular: its answers (figure, numbers, computed by running the activity)
are on the default site (``POSENC_SITE``) and in no file of the student
one, whose RoPE deck keeps the slide's number with a placeholder.

The pure-Python tests of the stripping (``_ext/editions.py``) and of the
student table of contents run without a build.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import zipfile
from pathlib import Path

import jupytext
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "scripts"))

import editions  # noqa: E402
import slide_comments  # noqa: E402
from student_edition import student_toc, wait_for  # noqa: E402

#: The chapters that are notebooks (a plain page, such as the notation
#: appendix, has no cells to strip).
CHAPTERS = sorted(
    p for p in (ROOT / "book").glob("*.md") if p.read_text().startswith("---\njupytext")
)
STUDENT = Path(
    os.environ.get("POSENC_STUDENT_SITE") or ROOT / "_build" / "student" / "html"
)
#: Shortest run of words (and code line) searched for: shorter runs also
#: occur in the chapters' own text.
RUN = 6


def solution_bodies(text: str) -> list[str]:
    """The text of each solution of a chapter."""
    return editions.solution_texts(text)


def plain(text: str, markup: bool = False) -> str:
    """The lower-case words of ``text``, single-spaced; with ``markup``
    (HTML), its tags dropped and its entities decoded first."""
    if markup:
        text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def fragments(body: str) -> list[str]:
    """Runs of words of a solution that must not appear in the student
    edition: from each prose line, its longest stretch of plain words
    (no maths, roles or code); each code line of 25 characters or more."""
    found = []
    in_code = False
    for line in body.splitlines():
        if line.startswith("```"):
            in_code = line.startswith("```{code-cell")
            continue
        if in_code:
            if len(line.strip()) >= 25 and not line.strip().startswith("#"):
                found.append(plain(line))
            continue
        for stretch in re.split(r"\$[^$]*\$|\{[^}]*\}`[^`]*`|`[^`]*`", line):
            words = plain(stretch).split()
            if len(words) >= RUN:
                found.append(" ".join(words))
    return [each for each in found if len(each.split()) >= 3]


SOLUTIONS = {
    f"{path.stem}:{number}": body
    for path in CHAPTERS
    for number, body in enumerate(solution_bodies(path.read_text()), start=1)
}


def instructor_bodies(text: str) -> list[str]:
    """The text of each piece of instructor-only material of a chapter
    (slide comments aside: their shown text is on the student deck)."""
    lines = text.splitlines(keepends=True)
    bodies = ["".join(lines[a:b]) for a, b in editions.instructor_spans(lines)]
    return [body for body in bodies if not editions.SLIDE_OPEN.match(body)]


def instructor_slide_notes(path: Path) -> list[str]:
    """The speaker notes of the chapter's ``edition: instructor`` slides."""
    found = slide_comments.slides_of(path.read_text(), path.stem)
    return [s.notes for s in found if s.edition == "instructor"]


INSTRUCTOR = {
    f"{path.stem}:{number}": body
    for path in CHAPTERS
    for number, body in enumerate(
        instructor_bodies(path.read_text()) + instructor_slide_notes(path), start=1
    )
}
ROPE = ROOT / "book" / "rope.md"


# ------------------------------------------------------------ no build needed


def test_every_chapter_with_exercises_has_solutions_to_search_for():
    chapters = {key.split(":")[0] for key in SOLUTIONS}
    with_exercises = {p.stem for p in CHAPTERS if "{exercise}" in p.read_text()}
    assert with_exercises <= chapters
    assert all(fragments(body) for body in SOLUTIONS.values()), [
        key for key, body in SOLUTIONS.items() if not fragments(body)
    ]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_stripping_removes_every_solution_and_keeps_every_exercise(path):
    text = path.read_text()
    stripped = editions.strip_markdown(text)
    assert "{solution" not in stripped
    assert stripped.count("{exercise}") == text.count("{exercise}")
    assert stripped.count("{code-cell}") == text.count("{code-cell}") - sum(
        body.count("{code-cell}")
        for body in solution_bodies(text) + instructor_bodies(text)
    )
    left = plain(stripped)
    for body in solution_bodies(text):
        for fragment in fragments(body):
            assert fragment not in left or fragment in plain(text.replace(body, "")), (
                fragment
            )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_notebook_stripping_matches_the_markdown(path):
    def cells(notebook) -> str:
        return plain(" ".join(cell.source for cell in notebook.cells))

    stripped = editions.strip_notebook(jupytext.read(path))
    expected = jupytext.reads(editions.strip_markdown(path.read_text()), fmt="md")
    assert cells(stripped) == cells(expected)
    assert [c.cell_type for c in stripped.cells if c.cell_type == "code"] == [
        c.cell_type for c in expected.cells if c.cell_type == "code"
    ]


def test_stripping_a_plain_solution_and_a_gated_one():
    text = (
        "Before.\n\n```{solution} ex-a\n:class: dropdown\n\nSecret one.\n```\n\n"
        "Middle.\n\n````{solution-start} ex-b\n````\n\nSecret two.\n\n"
        "```{code-cell} ipython3\nsecret = 3\n```\n\n````{solution-end}\n````\n"
        "\nAfter.\n"
    )
    assert editions.strip_markdown(text) == "Before.\n\n\nMiddle.\n\n\nAfter.\n"
    with pytest.raises(ValueError, match="solution-end"):
        editions.strip_markdown("```{solution-start} x\n```\nSecret\n")


def test_stripping_instructor_only_material():
    """A dropdown, a {div} and a code cell marked instructor-only go, with
    every slide comment; student-only text and other cells stay."""
    text = (
        "Before.\n\n::::{dropdown} For instructors: answers\n"
        ":class-container: instructor-only\n:::{note}\nInner.\n:::\n"
        "Secret one.\n::::\n\n"
        ":::{div} student-only\nDiscussed in class.\n:::\n\n"
        "```{code-cell} ipython3\n---\nmystnb:\n  figure:\n    name: fig-x\n"
        "tags: [hide-input, instructor-only]\n---\nsecret = 3\n```\n\n"
        "```{code-cell} ipython3\n:tags: [instructor-only]\nsecret = 4\n```\n\n"
        "```{code-cell} ipython3\n:tags: [not-instructor-only]\nkept = 5\n```\n\n"
        ":::{div} instructor-only\nSecret two.\n:::\n\n"
        "<!-- slide: A slide\nnotes: |\n  Secret three.\n-->\n\nAfter.\n"
    )
    stripped = editions.strip_markdown(text)
    assert "ecret" not in stripped and "slide" not in stripped, stripped
    for kept in ("Before.", "Discussed in class.", "kept = 5", "After."):
        assert kept in stripped
    notebook = editions.strip_notebook(jupytext.reads(text, fmt="md"))
    sources = [cell.source for cell in notebook.cells]
    assert not [source for source in sources if "ecret" in source], sources
    assert any("kept = 5" in source for source in sources)


def test_the_rope_activitys_answers_are_instructor_only():
    """The rope chapter's activity answers (its dropdown, its figure's cell,
    its slide) are marked, so the student copies have none of them."""
    text = ROPE.read_text()
    stripped = editions.strip_markdown(text)
    assert "fig-rope-activity" in text and "fig-rope-activity" not in stripped
    assert "What it finds is discussed in class" in stripped
    assert "For instructors:" in "".join(instructor_bodies(text))
    (notes,) = instructor_slide_notes(ROPE)  # "What the activity finds"
    assert "$-8.45$" in notes  # checked against the activity in test_kit_figures
    notebook = editions.strip_notebook(jupytext.read(ROPE))
    assert not [c for c in notebook.cells if "act_score" in c.source]


def test_student_toc_leaves_out_the_instructor_section():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    instructor = [f for f in files if f.startswith("book/instructor/")]
    assert instructor, "the default edition has an instructor section"
    student = student_toc(toc)
    left = [c["file"] for part in student["parts"] for c in part["chapters"]]
    assert left == [f for f in files if f not in instructor]
    assert student["root"] == toc["root"]


def test_student_build_waits_for_the_books_reading(tmp_path):
    """make test starts the student edition once the book's build has read
    every page (its marker), and fails it if that build ends first."""
    import subprocess
    import threading
    import time

    marker = tmp_path / "read"
    book = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        threading.Timer(0.5, marker.write_text, ["1"]).start()
        wait_for(marker, book.pid)  # returns when the marker appears
        assert marker.exists() and book.poll() is None
    finally:
        book.kill()
        book.wait()

    def outcome(pid: int) -> str:
        """What wait_for says of an ended build (within 10 s)."""
        said = []

        def wait() -> None:
            try:
                wait_for(tmp_path / "never", pid)
                said.append("returned")
            except SystemExit as error:
                said.append(str(error))

        waiting = threading.Thread(target=wait, daemon=True)
        waiting.start()
        waiting.join(timeout=10)
        return said[0] if said else "still waiting"

    failed = subprocess.Popen([sys.executable, "-c", "raise SystemExit(1)"])
    failed.wait()
    assert "ended before it had read every page" in outcome(failed.pid)
    # a build that ended but is not yet waited for (a zombie) has ended too
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        time.sleep(0.5)  # ended by now
        assert "ended before it had read every page" in outcome(zombie.pid)
    finally:
        zombie.wait()


# ------------------------------------------------------------ the build


def site_texts(site: Path):
    """(name, plain text) of every file of ``site``, zip members included."""
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        name = path.relative_to(site).as_posix()
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as bundle:
                for member in bundle.namelist():
                    yield f"{name}/{member}", _readable(member, bundle.read(member))
        else:
            yield name, _readable(name, path.read_bytes())


def _readable(name: str, data: bytes) -> str:
    if name.endswith((".png", ".woff", ".woff2", ".ttf", ".ico", ".gif")):
        return ""
    text = data.decode("utf-8", errors="replace")
    if name.endswith(".ipynb"):
        cells = json.loads(text)["cells"]
        text = "\n".join("".join(cell["source"]) for cell in cells)
    return plain(text, markup=name.endswith((".html", ".js", ".xml", ".svg")))


@pytest.fixture(scope="module")
def student_site() -> Path:
    if not (STUDENT / "index.html").exists():
        pytest.fail(f"no student edition at {STUDENT}: make student")
    return STUDENT


@pytest.fixture(scope="module")
def student_texts(student_site):
    return dict(site_texts(student_site))


def test_student_decks_carry_no_speaker_notes(student_site):
    """The speaker notes hold the plans' answers (what to say after the
    question, the numbers an activity finds, the board work deriving them):
    the student edition's decks have none (_ext/slides.py write_all)."""
    decks = sorted((student_site / "slides").glob("*.html"))
    assert decks, "the student edition has no decks"
    for deck in decks:
        text = deck.read_text(encoding="utf-8")
        assert 'data-kind="motivation"' in text, deck.name
        for leak in ('class="notes"', "posenc-ask", "posenc-board", "Expected answer"):
            assert leak not in text, f"{deck.name}: {leak}"


def test_the_student_edition_has_the_chapters_and_their_downloads(student_texts):
    for path in CHAPTERS:
        if path.stem in {"bibliography"}:
            continue
        assert f"book/{path.stem}.html" in student_texts
    for key in SOLUTIONS:
        assert f"_sources/book/{key.split(':')[0]}.ipynb" in student_texts
    assert any(name.startswith("notebooks.zip/") for name in student_texts)


def public_text() -> str:
    """What the student edition may hold: every chapter without its
    solutions, and posenc's code (it ships in notebooks.zip)."""
    texts = [editions.strip_markdown(path.read_text()) for path in CHAPTERS]
    texts += [path.read_text() for path in sorted((ROOT / "posenc").glob("*.py"))]
    return plain("\n".join(texts))


@pytest.fixture(scope="module")
def public():
    return public_text()


@pytest.mark.parametrize("key", sorted(SOLUTIONS))
def test_no_solution_text_in_any_file(student_texts, public, key):
    leaks = [
        (fragment, name)
        for fragment in fragments(SOLUTIONS[key])
        # a run of words (a common line of code) that the book also has
        # outside its solutions is not evidence of a leak
        if fragment not in public
        for name, text in student_texts.items()
        if fragment in text
    ]
    assert not leaks, leaks[:5]


@pytest.mark.parametrize("key", sorted(INSTRUCTOR))
def test_no_instructor_only_text_in_any_file(student_texts, public, key):
    leaks = [
        (fragment, name)
        for fragment in fragments(INSTRUCTOR[key])
        if fragment not in public
        for name, text in student_texts.items()
        if fragment in text
    ]
    assert not leaks, leaks[:5]


@pytest.fixture(scope="module")
def activity_answers() -> list[str]:
    """The rope activity's results as its answer computes them: the scores
    at offsets +3 and -3 (to 2 decimals) and the mixed pairings' spread."""
    import numpy as np
    import test_activity

    seen = test_activity.run_in_process(test_activity.rope_cells()[:-1])
    one, two = (f"{abs(np.mean(seen[k])):.2f}" for k in ("scores", "behind"))
    return [one, two, f"spread by {round(float(np.ptp(seen['mixed'])))}"]


def number_in(number: str, text: str) -> bool:
    """Whether ``number`` (as "8.45", or a phrase) stands in raw ``text``
    as a number of its own (not inside 18.456)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None


#: Third-party files whose own data happen to hold such digits (an icon
#: font's paths, its source map): not built from the book.
VENDORED = ("_static/scripts/fontawesome.js",)


def test_the_activitys_answers_are_on_the_default_site(site, activity_answers):
    page = (site / "book" / "rope.html").read_text(encoding="utf-8")
    assert 'id="fig-rope-activity"' in page
    assert "For instructors: the in-class activity" in page
    assert "discussed in class" not in page  # the student edition's sentence
    text = html.unescape(re.sub(r"<[^>]+>", " ", page))
    text = " ".join(text.split())
    for answer in activity_answers:
        assert number_in(answer, text), answer
    deck = (site / "slides" / "rope.html").read_text(encoding="utf-8")
    assert deck.count("fig-rope-activity") == 1


def test_the_activitys_answers_are_in_no_student_file(student_site, activity_answers):
    """Not the figure, not its name, not a number it finds, in any file
    (pages, search index, decks, handouts, notebooks, zip members), in
    the rendered maths (MathML) or the HTML's comments."""
    leaks = []
    for name, raw in student_files(student_site):
        if name.startswith(VENDORED) or name.endswith(".map"):
            continue
        text = " ".join(html.unescape(raw).split())
        # posenc's code ships in the zip: its docstrings may name the figure
        names = [] if "/posenc/" in name else ["fig-rope-activity"]
        leaks += [
            (name, answer)
            for answer in [*names, "<!-- slide:", *activity_answers]
            if answer in text
            and (answer.startswith(("fig", "<")) or number_in(answer, text))
        ]
    assert not leaks, leaks[:10]
    page = (student_site / "book" / "rope.html").read_text(encoding="utf-8")
    assert "What it finds is discussed in class" in page
    assert "For instructors" not in page


def test_the_student_deck_keeps_the_activity_slides_number(site, student_site):
    """RoPE's "What the activity finds" is slide N in both decks (the plans
    name it by number); the student's shows the placeholder, no figure."""
    from bs4 import BeautifulSoup

    def slide(root: Path):
        soup = BeautifulSoup((root / "slides" / "rope.html").read_text(), "html.parser")
        sections = soup.select(".slides > section")
        titles = [s.h2.get_text() if s.h2 else "" for s in sections]
        return len(sections), titles.index("What the activity finds"), sections

    total, number, _ = slide(site)
    student_total, student_number, sections = slide(student_site)
    assert (student_total, student_number) == (total, number)
    shown = sections[student_number]
    assert not shown.find(["img", "figure"])
    assert "Discussed in class." in shown.get_text()
    assert "offset" in shown.get_text()  # the activity's question


def solution_only_words() -> set[str]:
    """Words of the solutions that the rest of the book never uses."""
    solutions = set(plain(" ".join(SOLUTIONS.values())).split())
    rest = set()
    for path in CHAPTERS:
        rest |= set(plain(editions.strip_markdown(path.read_text())).split())
    for page in (ROOT / "book").rglob("*.md"):
        if page not in CHAPTERS:
            rest |= set(plain(page.read_text()).split())
    return {w for w in solutions - rest if w.isalpha() and len(w) > 3}


def index_terms(site: Path) -> set[str]:
    text = (site / "searchindex.js").read_text()
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    # A term that leads to no page finds nothing: Sphinx keeps a word whose
    # pages all dropped it (the default edition's solutions) with an empty
    # list.
    return {term for term, pages in index["terms"].items() if pages != []}


def test_search_index_has_no_word_only_solutions_use(student_site):
    from sphinx.search.en import SearchEnglish

    stem = SearchEnglish({}).stem
    words = solution_only_words()
    assert len(words) > 20  # enough to tell
    # a stem shared with another word of the book is not evidence
    others = set()
    for page in (ROOT / "book").rglob("*.md"):
        text = page.read_text()
        if page in CHAPTERS:
            text = editions.strip_markdown(text)
        others |= {stem(w) for w in plain(text).split()}
    stems = {stem(w) for w in words} - others
    leaked = stems & index_terms(student_site)
    assert not leaked, sorted(leaked)[:20]


def test_instructor_pages_are_absent(student_site, student_texts):
    assert not (student_site / "book" / "instructor").exists()
    for name, text in student_texts.items():
        if name.endswith(".html"):
            assert "instructor s guide" not in text, name


# ------------------------------------------------------------ exam questions

#: The exam questions of the instructor section: no question, solution,
#: link or search-index entry of this page may reach the student edition.
EXAM = ROOT / "book" / "instructor" / "exam_questions.md"


def exam_questions(text: str) -> dict[str, tuple[str, str]]:
    """(question, solution) of each exam question, by its number: the
    question is the text under its heading ("### Question 1.1 ...") up to
    its solution's dropdown; the solution is the dropdown and the check
    cells after it, up to the next question's label or the next chapter."""
    found = {}
    for part in re.split(r"^### Question ", text, flags=re.MULTILINE)[1:]:
        number = part.split(" ", 1)[0]
        question, _, solution = part.partition(":::{dropdown}")
        solution = re.split(r"^(?:\(exam-|## )", solution, flags=re.MULTILINE)[0]
        found[number] = (question.split("\n", 1)[1], solution)
    return found


EXAM_MARKUP = re.compile(r"\*\*[^*]*\*\*|\*\([^)]*\)\*|\(\*[^)]*\)|\*\d+ marks?[^*]*\*")


def exam_strings(public: str) -> dict[str, list[str]]:
    """What the student edition must not hold, by question: the first
    sentence of the question (its longest run of plain words), every run of
    six plain words of the question and of the solution (each line of a
    check of 25 characters or more), less those the book also has outside
    the instructor section."""
    strings = {}
    for number, (question, solution) in exam_questions(EXAM.read_text()).items():
        # part labels and marks, "**(a)**", "*(2 marks)*", "(*1 mark*)",
        # end a run of words as maths does
        question, solution = (EXAM_MARKUP.sub("$ $", s) for s in (question, solution))
        first = re.split(r"[.?](?:\s|$)", question.strip(), maxsplit=1)[0]
        stretches = re.split(r"\$[^$]*\$|\{[^}]*\}`[^`]*`|`[^`]*`", first)
        longest = max((plain(s) for s in stretches), key=lambda s: len(s.split()))
        runs = [longest] + fragments(question) + fragments(solution)
        strings[number] = [s for s in runs if len(s.split()) >= 4 and s not in public]
    return strings


def test_every_exam_question_has_text_to_search_for(public):
    strings = exam_strings(public)
    assert len(strings) >= 21  # three for each derivation chapter and RoPE
    sources = exam_questions(EXAM.read_text())
    for number, runs in strings.items():
        question, solution = sources[number]
        assert any(run in plain(question) for run in runs), number
        assert any(run in plain(solution) for run in runs), number


def student_files(site: Path):
    """(name, raw text) of every text file of ``site``, zip members
    included: links and file names, which plain text drops."""
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.suffix in {".png", ".woff", ".woff2"}:
            continue
        name = path.relative_to(site).as_posix()
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as bundle:
                for member in bundle.namelist():
                    data = bundle.read(member).decode("utf-8", errors="replace")
                    yield f"{name}/{member}", data
        else:
            yield name, path.read_bytes().decode("utf-8", errors="replace")


def test_exam_questions_do_not_leak_into_the_student_edition(
    student_site, student_texts, public
):
    # no page, and no link to one (its file name or a label of the page)
    assert not list(student_site.rglob("*exam_questions*"))
    labels = set(re.findall(r"^\((exam[-\w]*)\)=", EXAM.read_text(), re.MULTILINE))
    assert "exam-questions" in labels
    links = [
        (name, target)
        for name, text in student_files(student_site)
        for target in ["exam_questions", *(f"#{label}" for label in labels)]
        if target in text
    ]
    assert not links, links[:5]
    # nor a target for a link from elsewhere (intersphinx reads objects.inv)
    from sphinx.util.inventory import InventoryFile

    with (student_site / "objects.inv").open("rb") as stream:
        inventory = InventoryFile.load(stream, "", lambda *parts: "/".join(parts))
    targets = {name for entries in inventory.values() for name in entries}
    assert not targets & (labels | {"book/instructor/exam_questions"})
    # no text of any question or solution in any file
    leaks = [
        (number, run, name)
        for number, runs in exam_strings(public).items()
        for run in runs
        for name, text in student_texts.items()
        if run in text
    ]
    assert not leaks, leaks[:5]
    # no search-index entry: no page, and no word only the exam page uses
    text = (student_site / "searchindex.js").read_text()
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    assert not [n for n in index["docnames"] if "instructor" in n or "exam" in n]
    assert "Exam questions" not in index["titles"]
    from sphinx.search.en import SearchEnglish

    stem = SearchEnglish({}).stem
    others = set()  # the book's other pages and its bibliography
    for page in (ROOT / "book").rglob("*"):
        if page.suffix in {".md", ".bib"} and page != EXAM:
            others |= {stem(w) for w in plain(page.read_text()).split()}
    exam_only = {
        stem(w) for w in plain(EXAM.read_text()).split() if w.isalpha() and len(w) > 3
    } - others
    assert len(exam_only) > 10  # enough to tell
    leaked = exam_only & index_terms(student_site)
    assert not leaked, sorted(leaked)[:20]


def test_only_the_books_chapters_point_to_speaker_notes(site, student_site):
    """A chapter's link to its deck mentions the speaker notes (key S) in
    the book; the student edition's decks have none, so its links do not."""
    for root, expected in ((site, 1), (student_site, 0)):
        page = (root / "book" / "rope.html").read_text(encoding="utf-8")
        assert page.count("press S for the speaker notes") == expected, root
