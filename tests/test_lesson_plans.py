"""The lesson plans name slides that exist, by the number the deck shows.

``book/instructor/lesson_plans.md`` names a slide as ``<deck> deck, slide N
"Title"`` (or ``slides N "Title", M "Title"``); its table of decks maps each
deck's name to its chapter. A deck's slide 1 is its title slide and slide
N + 1 is the chapter's N-th ``<!-- slide: Title`` comment (``_ext/slides.py``).
Every slide the plans name must be the chapter's slide of that number and
title, so that moving or renaming a slide in a chapter fails here until the
plans follow. The plans' slide counts in the table are checked too.

A question the plans ask about a slide (a sentence with "ask", "predict" or
"?", see :func:`asked_slides`) needs that slide to reveal step by step
(``steps: true``), so that the answer is not on screen while students
think. Every timing table (``| minutes | step | show |``, rows ``| 0–4 |
... |``) starts at 0, has no gap or overlap, ends within its plan's stated
length, and leaves 10 % of it as slack where the plan states slack (see
:func:`timing_problems`).
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))

import slides  # noqa: E402  (_ext/slides.py)

PLANS = ROOT / "book" / "instructor" / "lesson_plans.md"
#: A row of the table of decks: | name deck | {ref}`... <label>` | count |
DECK_ROW = re.compile(
    r"^\| (?P<deck>[^|]+?) deck \| \{ref\}`[^`<]*<(?P<label>[\w-]+)>` "
    r"\| (?P<count>\d+) \|$",
    re.M,
)
#: A mention of a deck, up to the next mention of a deck or the end of a cell.
MENTION = re.compile(
    r"(?P<deck>[\w$-]+(?:-\$d\$)?) deck,? (?P<rest>.*?)(?=\b[\w$-]+ deck\b|\||\n\n|$)",
    re.S,
)
NAMED = re.compile(r"(?P<number>\d+) \"(?P<title>[^\"]+)\"")
LABEL = re.compile(r"^\((?P<label>[\w-]+)\)=\s*$", re.M)


def chapters_by_label() -> dict[str, Path]:
    found = {}
    for path in (ROOT / "book").glob("*.md"):
        for match in LABEL.finditer(path.read_text()):
            found[match.group("label")] = path
    return found


def decks() -> dict[str, list[str]]:
    """Deck name -> its slide titles, slide 1 (the title slide) first."""
    labels = chapters_by_label()
    table = {}
    for row in DECK_ROW.finditer(PLANS.read_text()):
        chapter = labels[row.group("label")]
        titles = [s.title for s in slides.slides_of(chapter.read_text(), str(chapter))]
        table[row.group("deck").strip()] = ["(title slide)", *titles]
    return table


def test_the_table_lists_every_deck_with_its_count():
    text = PLANS.read_text()
    rows = list(DECK_ROW.finditer(text))
    assert rows, "no table of decks"
    table = decks()
    for row in rows:
        assert int(row.group("count")) == len(table[row.group("deck").strip()]), (
            row.group(0)
        )
    marked = {
        path.stem
        for path in (ROOT / "book").glob("*.md")
        if slides.MARKER.search(path.read_text())
    }
    labels = chapters_by_label()
    listed = {labels[r.group("label")].stem for r in rows}
    assert listed == marked


def test_every_named_slide_exists_with_that_number():
    table = decks()
    text = PLANS.read_text()
    named = 0
    wrong = []
    for mention in MENTION.finditer(text):
        deck = mention.group("deck")
        if deck not in table:
            continue
        for slide in NAMED.finditer(mention.group("rest")):
            number = int(slide.group("number"))
            title = " ".join(slide.group("title").split())  # a plan wraps lines
            titles = table[deck]
            named += 1
            if not (1 <= number <= len(titles) and titles[number - 1] == title):
                wrong.append(f"{deck} deck, slide {number} {title!r}")
    assert named >= 20, named
    assert wrong == []


# ------------------------------------------------ questions need steps
#: A short mention of a slide without its title: "Taylor slide 2",
#: "decay slides 4". (Names are the decks' names in the table.)
SHORT = r"(?P<deck>{decks}),? slides? (?P<number>\d+)\b"
#: Words that make a sentence a question to the students.
ASKING = re.compile(r"\b(ask|asks|asked|asking|predict\w*)\b|\?", re.I)
#: A block of the plans: a table row, a list item (to its next item or a
#: blank line) or a paragraph.
BLOCK = re.compile(
    r"^(?:\|.*|(?:[*-]|\d+\.) .*(?:\n(?![ \t]*(?:[*-]|\d+\.) )[ \t]+\S.*)*)$"
    r"|^(?:(?!\||[ \t]*(?:[*-]|\d+\.) |#).+\n?)+",
    re.M,
)
#: The end of a sentence: ". ", "? " or "! " (a closing quote or bracket
#: may follow the mark).
SENTENCE_END = re.compile(r"""[.?!]["”')\]*]*(?=\s)""")


def named_slides(block: str, table: dict[str, list[str]]):
    """(position, deck, number) of every slide ``block`` names: the long
    form ``<deck> deck, slide N "Title"`` (several numbers and titles may
    follow one deck) and the short form ``<deck> slide N``; and the spans
    of the quoted titles."""
    found, titles = [], []
    by_case = {deck.lower(): deck for deck in table}
    for mention in MENTION.finditer(block):
        deck = by_case.get(mention.group("deck").lower())
        if deck is None:
            continue
        for slide in NAMED.finditer(mention.group("rest")):
            at = mention.start("rest") + slide.start()
            found.append((at, deck, int(slide.group("number"))))
            title = mention.start("rest") + slide.start("title")
            titles.append((title, mention.start("rest") + slide.end("title")))
    names = "|".join(sorted((re.escape(d) for d in table), key=len, reverse=True))
    for short in re.finditer(SHORT.format(decks=names), block, re.I):
        deck = by_case[short.group("deck").lower()]
        found.append((short.start("number"), deck, int(short.group("number"))))
    return sorted(found), titles


def asked_slides(text: str, table: dict[str, list[str]]):
    """The slides the plans ask students about, with the sentence that asks.

    The rule: the plans are cut into blocks (a table row, a list item with
    its continuation lines, a paragraph) and each block into sentences
    (ending at ".", "?" or "!" before white space; a slide's quoted title is
    blanked first, so that a title's own "?" or "." counts for nothing). A
    sentence *asks* if it contains "ask", "asks", "asked", "asking", a word
    starting with "predict", or "?". A sentence that asks is about the
    slides it names; if it names none, about the slides the sentence just
    before it names, if that one does not ask itself (a lead such as
    **Taylor deck, slide 5 "..."**. then the question); else about no
    slide (a general question). Deck names are matched in any case
    ("Complex deck" is the complex deck).
    """
    asked = []
    for block in BLOCK.finditer(text):
        body = block.group(0)
        slides_named, titles = named_slides(body, table)
        blank = list(body)
        for start, end in titles:
            blank[start:end] = " " * (end - start)
        blank = "".join(blank)
        start, before = 0, []
        ends = [m.end() for m in SENTENCE_END.finditer(blank)] + [len(blank)]
        for end in ends:
            here = [(d, n) for at, d, n in slides_named if start <= at < end]
            asks = bool(ASKING.search(blank[start:end]))
            if asks:
                sentence = " ".join(body[start:end].split())
                for deck, number in here or before:
                    asked.append((deck, number, sentence))
            before = [] if asks else here
            start = end
    return asked


def test_a_question_about_a_slide_needs_its_steps():
    """Where a plan asks students something about a slide (see
    :func:`asked_slides`), that slide has ``steps: true``: the answer is
    not on the screen while they think."""
    table = decks()
    steps = {}
    for row in DECK_ROW.finditer(PLANS.read_text()):
        chapter = chapters_by_label()[row.group("label")]
        found = slides.slides_of(chapter.read_text(), str(chapter))
        steps[row.group("deck").strip()] = [False] + [s.steps for s in found]
    asked = asked_slides(PLANS.read_text(), table)
    assert asked, "no question about a slide found: the parser is broken"
    wrong = sorted(
        {
            f"{deck} deck, slide {number}: no steps, but asked: {sentence[:90]}"
            for deck, number, sentence in asked
            if not (1 <= number <= len(steps[deck]) and steps[deck][number - 1])
        }
    )
    assert not wrong, "\n".join(wrong)


def test_the_question_rule_reads_sentences():
    """The rule of :func:`asked_slides` on examples (so that it can fail)."""
    table = {"Taylor": ["(title slide)", "A", "B?"], "decay": ["(title)", "C"]}
    text = (
        '1. **Taylor deck, slide 2 "A".** Before the second step: "which '
        'term?" Then\n   show it.\n\n'
        '| 0–4 | Motivation | Taylor deck, slide 3 "B?" |\n\n'
        "Meet it at decay slide 2: ask which clocks cancel. And this? No.\n\n"
        "What do you expect? A general question.\n\n"
        '* **Decay deck, slides 2 "C"**. Then show it. Predict nothing?\n'
    )
    asked = [(deck, number) for deck, number, _ in asked_slides(text, table)]
    assert asked == [("Taylor", 2), ("decay", 2)]


# ------------------------------------------------ timing tables
#: The header of a plan's timing table.
TIMING_HEADER = re.compile(r"^\| *minutes *\| *step *\| *show *\|$", re.M | re.I)
#: A row of a timing table: | 0–4 | step | show |
TIMING_ROW = re.compile(
    r"^\| *(?P<start>\d+) *[–-] *(?P<end>\d+) *\| *(?P<step>[^|]*?) *\|", re.M
)
#: A stated length: "in 50 minutes", "50-minute", "Length: 90 minutes".
LENGTH = re.compile(r"\b(?P<minutes>\d+)[ -]minutes?\b", re.I)
#: A stated slack outside the table: "Slack: 9 minutes".
SLACK_LINE = re.compile(r"\bslack\b\D{0,20}(?P<minutes>\d+) *min", re.I)
HEADING = re.compile(r"^#{2,4} .*$", re.M)


def timing_tables(text: str):
    """Each timing table of ``text`` with its plan: (the plan's heading,
    its stated length in minutes or None, the rows as (start, end, step),
    the slack it states in a line, or None).

    A plan is the text from a heading (``##`` to ``####``) to the next; its
    length is the first "N minutes" or "N-minute" of its heading, else of
    its text before the table. Rows give minutes as ``0–4`` (en dash or
    hyphen). A row whose step says "slack" is slack, not teaching.
    """
    headings = list(HEADING.finditer(text)) + [None]
    tables = []
    for header in TIMING_HEADER.finditer(text):
        heading = max(
            (h for h in headings[:-1] if h.start() < header.start()),
            key=lambda h: h.start(),
        )
        after = next(
            (h.start() for h in headings[:-1] if h.start() > header.start()),
            len(text),
        )
        before = text[heading.end() : header.start()]
        length = LENGTH.search(heading.group(0)) or LENGTH.search(before)
        table = text[header.end() : after].split("\n\n", 1)[0]
        rows = [
            (int(r.group("start")), int(r.group("end")), r.group("step"))
            for r in TIMING_ROW.finditer(table)
        ]
        stated = SLACK_LINE.search(text[heading.end() : after])
        tables.append(
            (
                heading.group(0),
                int(length.group("minutes")) if length else None,
                rows,
                int(stated.group("minutes")) if stated else None,
            )
        )
    return tables


def timing_problems(text: str) -> list[str]:
    """What is wrong with the timing tables of ``text``: each plan states
    its length; its rows start at 0, follow each other without gap or
    overlap and end within the length; and a plan that states slack (a
    row whose step says "slack", or a line "slack ... N min") leaves at
    least 10 % of the length to it (slack rows plus minutes after the last
    row, or the stated minutes)."""
    problems = []
    for heading, length, rows, stated in timing_tables(text):
        if length is None:
            problems.append(f"{heading}: no length stated ('N minutes')")
            continue
        if not rows:
            problems.append(f"{heading}: a timing table without rows")
            continue
        if rows[0][0] != 0:
            problems.append(f"{heading}: starts at minute {rows[0][0]}")
        for (_, end, _), (start, _, step) in itertools.pairwise(rows):
            if start != end:
                problems.append(f"{heading}: {end} then {start} ({step})")
        if any(end <= start for start, end, _ in rows):
            problems.append(f"{heading}: a row ends before it starts")
        if rows[-1][1] > length:
            problems.append(f"{heading}: ends at {rows[-1][1]} of {length} min")
        slack_rows = sum(e - s for s, e, step in rows if "slack" in step.lower())
        if slack_rows or stated is not None:
            slack = max(slack_rows + length - rows[-1][1], stated or 0)
            if slack < 0.1 * length:
                problems.append(
                    f"{heading}: slack {slack} min, under 10 % of {length} min"
                )
    return problems


def test_every_timing_table_fits_its_plan():
    assert timing_tables(PLANS.read_text()), "no timing table found"
    problems = timing_problems(PLANS.read_text())
    assert not problems, "\n".join(problems)


def test_the_timing_rules_can_fail():
    """A plan with a gap, an overrun and too little slack fails each rule."""
    good = (
        "## Plan A in 50 minutes\n\n| minutes | step | show |\n|---|---|---|\n"
        "| 0–20 | one | deck |\n| 20–45 | two | deck |\n| 45–50 | Slack | |\n"
    )
    assert timing_problems(good) == []
    gap = good.replace("| 20–45 |", "| 22–45 |")
    assert any("20 then 22" in p for p in timing_problems(gap))
    over = good.replace("| 45–50 | Slack", "| 45–55 | Slack")
    assert any("ends at 55" in p for p in timing_problems(over))
    tight = good.replace("| 20–45 |", "| 20–47 |").replace("| 45–50 |", "| 47–50 |")
    assert any("slack 3 min" in p for p in timing_problems(tight))
    unstated = good.replace("in 50 minutes", "")
    assert any("no length" in p for p in timing_problems(unstated))
