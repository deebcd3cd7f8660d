"""The problem bank: every exercise of every chapter is tagged by difficulty
and skill, as the title of its directive, in one exact form:

    ```{exercise} Standard · prove, code

a level (``Warm-up``: one step from the main text; ``Standard``: a few
steps, what a homework asks; ``Challenge``: needs an idea not in the
chapter), a middle dot between spaces, then one or two skills from
``compute``, ``prove``, ``explain``, ``code``, in that order, separated by
a comma and a space. The site shows the title after the number
("Exercise 3.1 (Warm-up · compute)"). The count of each level per chapter
is printed as a table with the tests' output.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "book").glob("*.md"))
LEVELS = ("Warm-up", "Standard", "Challenge")
SKILLS = ("compute", "prove", "explain", "code")

#: The opening line of an exercise, whatever follows the directive's name
#: (the homework generator's EXERCISE matches the same lines).
OPENING = re.compile(r"^```\{exercise\}([^\n]*)$", re.MULTILINE)
TAG = re.compile(
    r" (?P<level>{levels}) · (?P<skills>(?:{skills})(?:, (?:{skills}))?)".format(
        levels="|".join(LEVELS), skills="|".join(SKILLS)
    )
)


def tag_problem(title: str) -> str | None:
    """What is wrong with an exercise's title, or None if it is a valid tag."""
    match = TAG.fullmatch(title)
    if match is None:
        return f"not 'Level · skill[, skill]': {title!r}"
    skills = match["skills"].split(", ")
    if len(set(skills)) != len(skills):
        return f"a skill twice: {title!r}"
    if skills != sorted(skills, key=SKILLS.index):
        return f"skills not in the order {', '.join(SKILLS)}: {title!r}"
    return None


def tags(text: str) -> list[str]:
    """The titles of the exercises of a chapter's source, in order."""
    return OPENING.findall(text)


def main_path() -> list[str]:
    """The chapters of the part "The derivation" of the table of contents."""
    toc = (ROOT / "_toc.yml").read_text()
    part = toc.split('caption: "The derivation')[1].split("caption:")[0]
    return re.findall(r"file: book/(\w+)", part)


def test_tag_problem_rejects_bad_tags():
    assert tag_problem(" Warm-up · compute") is None
    assert tag_problem(" Standard · prove, code") is None
    for bad in (
        "",
        " warm-up · compute",
        " Warm-up - compute",
        " Warm-up · compute,code",
        " Hard · prove",
        " Standard · prove, compute",
        " Standard · code, code",
        " Standard · compute, prove, code",
        " Standard · proof",
    ):
        assert tag_problem(bad) is not None, bad


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_exercise_is_tagged(chapter):
    text = chapter.read_text()
    titles = tags(text)
    assert len(titles) == text.count("```{exercise}")
    problems = [p for p in map(tag_problem, titles) if p]
    assert not problems, f"{chapter.name}: {problems}"


def test_untagged_exercise_is_caught():
    """An exercise planted without a tag in a copy of a chapter fails."""
    text = (ROOT / "book" / "rope.md").read_text()
    planted = text + "\n```{exercise}\n:label: ex-planted\n\nA question.\n```\n"
    assert [t for t in tags(planted) if tag_problem(t)] == [""]


def test_count_table(capsys):
    """The number of exercises of each level per chapter; every chapter of
    the main path has at least two, and the bank has every level and skill."""
    counts = {p.stem: Counter() for p in CHAPTERS}
    skills = Counter()
    for chapter in CHAPTERS:
        for title in tags(chapter.read_text()):
            match = TAG.fullmatch(title)
            counts[chapter.stem][match["level"]] += 1
            skills.update(match["skills"].split(", "))
    counts = {name: c for name, c in counts.items() if c}
    total = sum(counts.values(), Counter())
    width = max(map(len, counts))

    def row(name, cells):
        return f"{name:<{width}}  " + "  ".join(f"{cell:>9}" for cell in cells)

    rows = [row("chapter", LEVELS)]
    rows += [row(name, (c[lv] for lv in LEVELS)) for name, c in counts.items()]
    rows.append(row("all", (total[lv] for lv in LEVELS)))
    rows.append("skills: " + ", ".join(f"{s} {skills[s]}" for s in SKILLS))
    with capsys.disabled():
        print("\n" + "\n".join(rows))
    for name in main_path():
        assert sum(counts[name].values()) >= 2, name
    assert all(total[lv] for lv in LEVELS)
    assert all(skills[s] for s in SKILLS)


# ------------------------------------------------------------ exam questions

EXAM = ROOT / "book" / "instructor" / "exam_questions.md"
#: The kinds of exam question, as a heading names them, by what they ask.
KINDS = {"derive": "derive", "prove": "derive", "compute": "compute"}
KINDS |= {"explain": "explain", "diagnose": "explain"}
HEADING = re.compile(r"^### Question (\d+\.\d+) \((\w+)\): ", re.MULTILINE)
MARKS = re.compile(r"\*\((\d+) marks?\)\*")


def exam_sections(text: str) -> dict[str, list[dict]]:
    """The questions of the exam page by the chapter label each section
    names ("Questions on {ref}`ch-...`"): number, kind, the question's
    statement and marks per part, the total the table gives, and the
    solution."""
    table = dict(re.findall(r"\[(\d+\.\d+)\]\(#exam-[\d-]+\) \((\d+)\)", text))
    sections = {}
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        label = re.search(r"Questions on \{ref\}`(ch-[\w-]+)`", section)
        questions = []
        for block in re.split(r"^(?=### Question )", section, flags=re.MULTILINE)[1:]:
            number, kind = HEADING.match(block).groups()
            question, _, solution = block.partition(":::{dropdown}")
            questions.append(
                {
                    "number": number,
                    "kind": KINDS[kind],
                    "question": question,
                    "marks": [int(m) for m in MARKS.findall(question)],
                    "total": int(table[number]),
                    "solution": solution,
                }
            )
        sections[label[1]] = questions
    return sections


def chapter_label(name: str) -> str:
    """The label of a chapter, "(ch-...)=" at its top."""
    return re.search(
        r"^\((ch-[\w-]+)\)=", (ROOT / "book" / f"{name}.md").read_text(), re.MULTILINE
    )[1]


def exam_problems(text: str) -> list[str]:
    """What is wrong with the exam page: every derivation chapter and RoPE
    have at least three questions, one of each kind; the marks of each
    question's parts add up to the total in the table; each solution gives
    marks and common wrong answers; each question has a check cell; a
    question prints the formulas it uses (an {eq} reference shows only a
    number on paper)."""
    sections = exam_sections(text)
    problems = []
    for name in [*main_path(), "rope"]:
        questions = sections.get(chapter_label(name), [])
        kinds = {q["kind"] for q in questions}
        if len(questions) < 3 or kinds != {"derive", "compute", "explain"}:
            problems.append(
                f"{name}: {len(questions)} questions, kinds {sorted(kinds)}"
            )
    for question in [q for qs in sections.values() for q in qs]:
        number, solution = question["number"], question["solution"]
        if not question["marks"] or sum(question["marks"]) != question["total"]:
            problems.append(
                f"{number}: marks {question['marks']} != {question['total']}"
            )
        if "**Common wrong answers.**" not in solution or "mark" not in solution:
            problems.append(f"{number}: no marking scheme")
        if f"# check: question {number}," not in solution:
            problems.append(f"{number}: no check cell")
        if "{eq}" in question["question"]:
            problems.append(f"{number}: an equation cited, not printed")
    return problems


def test_exam_page_has_three_kinds_of_question_per_chapter_with_marks():
    text = EXAM.read_text()
    assert exam_problems(text) == []
    # it fails on a page with a question's marks or kind wrong
    wrong_marks = text.replace("*(1 mark)*", "*(2 marks)*", 1)
    assert any("marks" in p for p in exam_problems(wrong_marks))
    one_kind = text.replace("### Question 6.3 (diagnose)", "### Question 6.3 (compute)")
    assert any("decay_finite_d" in p for p in exam_problems(one_kind))
    cited = text.replace(
        "Take base $10^4$, the log law", "Take base $10^4$, {eq}`eq-log-law`", 1
    )
    assert "5.2: an equation cited, not printed" in exam_problems(cited)
