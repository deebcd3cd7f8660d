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

The plans are on three pages (:data:`PAGES`): the 50- and 90-minute plans
with the table of decks, the course in three sessions, and the one-page
plans beyond the derivation. A *plan* is the text from a label
``(lesson-plan-...)=`` or ``(chapter-plan-...)=`` to the next one
(:func:`plans`). Every plan has a
timing table whose rows run from minute 0 to exactly the plan's length,
with at least 10 % of it in rows whose step starts with "Slack"; no row of a
timing table names an optional slide (a plan never relies on one); and a
plan of 50 minutes or more lists its predict-then-reveal moments under a
heading "Predict, then reveal", at most one per 10 minutes, each naming
the slide it is asked at, a slide that reveals step by step
(:func:`plan_problems`). A plan's assessment names only exam questions
whose slides ("Slides it needs", under each question of the exam page)
are all in its timing table (:func:`assessment_problems`). Each rule is
seen failing on a planted bug in the real plans
(``test_each_rule_fails_on_a_planted_bug``,
``test_an_assessment_names_only_questions_its_plan_prepares``).
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))

import slide_comments  # noqa: E402  (_ext/slide_comments.py)

PLANS = ROOT / "book" / "instructor" / "lesson_plans.md"
#: Every page of plans; the first holds the table of decks.
PAGES = [
    PLANS,
    ROOT / "book" / "instructor" / "three_sessions.md",
    ROOT / "book" / "instructor" / "chapter_plans.md",
]
#: A row of the table of decks: | name deck | {ref}`... <label>` | count |
DECK_ROW = re.compile(
    r"^\| (?P<deck>[^|]+?) deck \| \{ref\}`[^`<]*<(?P<label>[\w-]+)>` "
    r"\| (?P<count>\d+) \|$",
    re.M,
)
#: White space within a line, or one line break (a plan wraps lines).
_WS = r"(?:[ \t]*\n[ \t]*|[ \t]+)"
#: A mention of a deck, up to the next mention of a deck or the end of a cell.
MENTION = re.compile(
    rf"(?P<deck>[\w$-]+(?:-\$d\$)?){_WS}deck,?{_WS}(?P<rest>.*?)"
    rf"(?=\b[\w$-]+{_WS}deck\b|\||\n\n|$)",
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
        titles = [
            s.title for s in slide_comments.slides_of(chapter.read_text(), str(chapter))
        ]
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
        if slide_comments.MARKER.search(path.read_text())
    }
    labels = chapters_by_label()
    listed = {labels[r.group("label")].stem for r in rows}
    assert listed == marked


def all_plans_text() -> str:
    """The pages of plans, one after the other."""
    return "\n\n".join(page.read_text() for page in PAGES)


def name_problems(text: str, table: dict[str, list[str]]) -> tuple[int, list[str]]:
    """(how many slides ``text`` names with a title, what is wrong): a slide
    named ``<deck> deck, slide N "Title"`` must be slide N of that deck with
    that title; one named ``<deck> slide N`` (no title) must exist."""
    named = 0
    wrong = []
    # a sentence may start with the deck's name: "Complex deck, slide 5"
    by_case = {deck.lower(): deck for deck in table}
    for mention in MENTION.finditer(text):
        deck = by_case.get(mention.group("deck").lower())
        if deck is None:
            continue
        for slide in NAMED.finditer(mention.group("rest")):
            number = int(slide.group("number"))
            title = " ".join(slide.group("title").split())  # a plan wraps lines
            titles = table[deck]
            named += 1
            if not (1 <= number <= len(titles) and titles[number - 1] == title):
                wrong.append(f"{deck} deck, slide {number} {title!r}")
    names = "|".join(sorted((re.escape(d) for d in table), key=len, reverse=True))
    for short in re.finditer(SHORT.format(decks=names), text, re.I):
        deck = by_case[short.group("deck").lower()]
        number = int(short.group("number"))
        if not 2 <= number <= len(table[deck]):
            wrong.append(f"{deck} slide {number}: the deck has {len(table[deck])}")
    return named, wrong


def test_every_named_slide_exists_with_that_number():
    table = decks()
    named, wrong = name_problems(all_plans_text(), table)
    assert named >= 20, named
    assert wrong == []


# ------------------------------------------------ questions need steps
#: A short mention of a slide without its title: "Taylor slide 2",
#: "decay slides 4". (Names are the decks' names in the table.)
SHORT = r"(?P<deck>{decks}),? slides? (?P<number>\d+)\b"
#: Words that make a sentence a question to the students, or say that its
#: slide reveals step by step (both need the slide's ``steps``).
ASKING = re.compile(r"\b(ask|asks|asked|asking|predict\w*|step by step)\b|\?", re.I)
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
    starting with "predict", "step by step" (a slide said to reveal step by
    step must have steps: "RoPE slide 10: reveal it step by step" named a
    static slide once, and only the slide's existence was checked), or "?".
    A sentence that asks is about the slides it names; if it names none,
    about the slides the sentence just before it names, if that one does
    not ask itself (a lead such as **Taylor deck, slide 5 "..."**. then
    the question); else about no slide (a general question). Deck names
    are matched in any case ("Complex deck" is the complex deck).
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


def deck_slides() -> dict[str, list]:
    """Deck name -> its slides (``slide_comments.Slide``), None for the title slide."""
    found = {}
    for row in DECK_ROW.finditer(PLANS.read_text()):
        chapter = chapters_by_label()[row.group("label")]
        found[row.group("deck").strip()] = [
            None,
            *slide_comments.slides_of(chapter.read_text(), str(chapter)),
        ]
    return found


def has_steps(deck_slides: dict[str, list], deck: str, number: int) -> bool:
    shown = deck_slides[deck]
    return (
        1 <= number <= len(shown)
        and bool(shown[number - 1])
        and (shown[number - 1].steps)
    )


def question_problems(text: str, table, deck_slides) -> list[str]:
    """Each question ``text`` asks about a slide without steps."""
    return sorted(
        {
            f"{deck} deck, slide {number}: no steps, but asked: {sentence[:90]}"
            for deck, number, sentence in asked_slides(text, table)
            if not has_steps(deck_slides, deck, number)
        }
    )


def test_a_question_about_a_slide_needs_its_steps():
    """Where a plan asks students something about a slide (see
    :func:`asked_slides`), that slide has ``steps: true``: the answer is
    not on the screen while they think."""
    table = decks()
    text = all_plans_text()
    assert asked_slides(text, table), "no question about a slide found"
    wrong = question_problems(text, table, deck_slides())
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
LENGTH = re.compile(r"\b(?P<minutes>\d+)[\s-]minutes?\b", re.I)
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
    hyphen). A row whose step starts with "Slack" is slack, not teaching.
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


def is_slack(step: str) -> bool:
    """A row is slack when its step starts with "Slack" (a break that
    "joins the slack" when skipped is a break)."""
    return step.lower().startswith("slack")


def timing_problems(text: str) -> list[str]:
    """What is wrong with the timing tables of ``text``: each plan states
    its length; its rows start at 0, follow each other without gap or
    overlap and end exactly at the length, so that they cover the whole
    session; at least 10 % of the length is in rows whose step starts
    with "Slack" (:func:`is_slack`); and a line that states the slack
    ("Slack: 6 minutes") agrees with those rows."""
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
        if rows[-1][1] != length:
            problems.append(f"{heading}: ends at {rows[-1][1]} of {length} min")
        slack = sum(e - s for s, e, step in rows if is_slack(step))
        if slack < 0.1 * length:
            problems.append(f"{heading}: slack {slack} min, under 10 % of {length} min")
        if stated is not None and stated != slack:
            problems.append(
                f"{heading}: states {stated} min of slack, its rows give {slack}"
            )
    return problems


def test_every_timing_table_fits_its_plan():
    for page in PAGES:
        assert timing_tables(page.read_text()), f"no timing table in {page.name}"
        problems = timing_problems(page.read_text())
        assert not problems, "\n".join(problems)


def test_the_timing_rules_can_fail():
    """A plan with a gap, an overrun, an early end and too little slack
    fails each rule."""
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
    early = good.replace("| 45–50 | Slack | |\n", "")
    assert any("ends at 45 of 50" in p for p in timing_problems(early))
    assert any("slack 0 min" in p for p in timing_problems(early))
    claimed = good.replace("| 45–50 | Slack |", "| 45–50 | Slack: 7 minutes |")
    assert any("states 7 min" in p for p in timing_problems(claimed))


# ------------------------------------------------ every plan
#: The label that starts a plan (``chapter-plan-...`` for the one-page
#: plans beyond the derivation).
PLAN_LABEL = re.compile(r"^\((?P<label>(?:lesson|chapter)-plan-[\w-]+)\)=\s*$", re.M)
#: The heading of a plan's list of predict-then-reveal moments.
PREDICT_HEADING = re.compile(r"^#{3,4} Predict, then reveal\s*$", re.M)
#: A numbered list item with its indented continuation lines.
ITEM = re.compile(r"^\d+\. .*(?:\n[ \t]+\S.*)*", re.M)
#: A plan this long or longer lists its predictions.
LISTED_FROM = 50
#: At most one prediction per this many minutes ("about five in 50").
MINUTES_PER_PREDICTION = 10


def plans(text: str) -> list[tuple[str, str]]:
    """(label, text) of each plan of a page: from its label
    (:data:`PLAN_LABEL`) to the next one, or to the end of the page."""
    starts = list(PLAN_LABEL.finditer(text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return [
        (m.group("label"), text[m.start() : end])
        for m, end in zip(starts, ends, strict=True)
    ]


def plan_problems(text: str, table, deck_slides) -> list[str]:
    """What is wrong with the plans of one page (see the module's
    docstring): one timing table each, which :func:`timing_problems`
    accepts and whose rows name no optional slide; for a plan of
    :data:`LISTED_FROM` minutes or more, a list "Predict, then reveal" of
    at most one moment per :data:`MINUTES_PER_PREDICTION` minutes, each
    naming the slides it is asked at, slides with steps."""
    problems = []
    for label, body in plans(text):
        tables = timing_tables(body)
        if len(tables) != 1:
            problems.append(f"{label}: {len(tables)} timing tables, not one")
            continue
        problems += [f"{label}: {p}" for p in timing_problems(body)]
        header = TIMING_HEADER.search(body)
        rows = body[header.end() :].split("\n\n", 1)[0]
        for row in rows.splitlines():
            for _, deck, number in named_slides(row, table)[0]:
                shown = deck_slides[deck]
                if 1 < number <= len(shown) and shown[number - 1].optional:
                    problems.append(
                        f"{label}: the timing relies on optional {deck} slide {number}"
                    )
        length = tables[0][1]
        if length is None or length < LISTED_FROM:
            continue
        heading = PREDICT_HEADING.search(body)
        if heading is None:
            problems.append(f"{label}: no 'Predict, then reveal' list")
            continue
        rest = body[heading.end() :]
        section = rest[: m.start()] if (m := HEADING.search(rest)) else rest
        items = [item.group(0) for item in ITEM.finditer(section)]
        most = math.ceil(length / MINUTES_PER_PREDICTION)
        if not 1 <= len(items) <= most:
            problems.append(
                f"{label}: {len(items)} predictions in {length} min (at most {most})"
            )
        for item in items:
            found = named_slides(item, table)[0]
            if not found:
                problems.append(f"{label}: a prediction names no slide: {item[:60]}")
            for _, deck, number in found:
                if not has_steps(deck_slides, deck, number):
                    problems.append(
                        f"{label}: predicts at {deck} slide {number}, "
                        "which has no steps"
                    )
    return problems


def test_every_plan_is_timed_and_predicts_where_it_can():
    table, shown = decks(), deck_slides()
    found = [label for page in PAGES for label, _ in plans(page.read_text())]
    # the 50- and 90-minute plans, three sessions, seven chapters beyond
    assert len(found) == 12, found
    problems = [
        p for page in PAGES for p in plan_problems(page.read_text(), table, shown)
    ]
    assert not problems, "\n".join(problems)


def all_problems(texts: list[str], table, shown) -> list[str]:
    """Every rule of this module on the pages' texts."""
    text = "\n\n".join(texts)
    problems = name_problems(text, table)[1] + question_problems(text, table, shown)
    for page in texts:
        problems += timing_problems(page) + plan_problems(page, table, shown)
    return problems


#: One slide named in the long form, for planting bugs.
LONG = re.compile(
    r"(?P<lead>\*\*)?(?P<deck>[\w$-]+(?:-\$d\$)?) deck, slides? "
    r'(?P<number>\d+) "(?P<title>[^"]+)"'
)


def test_each_rule_fails_on_a_planted_bug():
    """Each rule, seen failing on the real plans with one bug planted (the
    real plans pass, so each problem found comes from the bug). The bugs
    are planted at slides found in the plans, so that a deck's new titles
    do not break this test."""
    table, shown = decks(), deck_slides()
    by_case = {deck.lower(): deck for deck in table}
    real = [page.read_text() for page in PAGES]
    assert all_problems(real, table, shown) == []

    def planted(*changes: tuple[str, str], page: int = 0) -> str:
        texts = list(real)
        for old, new in changes:
            assert old in texts[page], old
            texts[page] = texts[page].replace(old, new, 1)
        return "\n".join(all_problems(texts, table, shown))

    # a slide named with another number, another title, or past the deck
    first = LONG.search(real[0])
    number, title = int(first.group("number")), first.group("title")
    moved = first.group(0).replace(f"{number} ", f"{number + 1} ", 1)
    assert f"slide {number + 1} {title!r}" in planted((first.group(0), moved))
    renamed = first.group(0).replace(title, title + " (renamed)")
    assert f"{title + ' (renamed)'!r}" in planted((first.group(0), renamed))
    lead = next(m for m in LONG.finditer(real[1]) if m.group("lead"))
    assert lead.group("deck")[0].isupper(), "a mention that starts a sentence"
    renamed = lead.group(0).replace(lead.group("title"), "Renamed")
    assert "'Renamed'" in planted((lead.group(0), renamed), page=1)
    assert "decay slide 40: the deck has" in planted(
        ("Decay slide 4:", "Decay slide 40:")
    )
    # minutes: a late start, a gap, an early end, too little slack, a
    # slack line that the rows do not give, no slack at all
    assert "starts at minute 1" in planted(("| 0–3 |", "| 1–3 |"))
    assert "9 then 10" in planted(("| 9–18 |", "| 10–18 |"))
    slack_row = "| 44–50 | Slack: 6 minutes (12 %) | |"
    assert "ends at 49 of 50" in planted(
        (slack_row, "| 44–49 | Slack: 5 minutes (10 %) | |")
    )
    assert "slack 4 min, under 10 % of 50" in planted(
        ("| 40–44 |", "| 40–46 |"), (slack_row, "| 46–50 | Slack: 4 minutes (8 %) | |")
    )
    assert "states 8 min of slack, its rows give 6" in planted(
        ("Slack: 6 minutes (12 %)", "Slack: 8 minutes (12 %)")
    )
    assert "slack 0 min" in planted((slack_row, "| 44–50 | Questions | |"))
    assert "lesson-plan-50: 0 timing tables" in planted(
        ("| minutes | step | show |", "| minute | step | show |")
    )
    # a prediction moved to a slide of the same deck without steps (a
    # player, a motivation slide): the question rule and the list of
    # predictions both catch it
    listed = "### Predict, then reveal\n\n"
    item = LONG.search(real[0], real[0].index(listed))
    deck = by_case[item.group("deck").lower()]
    still = next(
        n for n in range(2, len(shown[deck]) + 1) if not shown[deck][n - 1].steps
    )
    moved = item.group(0).replace(
        f'{item.group("number")} "{item.group("title")}"',
        f'{still} "{table[deck][still - 1]}"',
    )
    player = planted((item.group(0), moved))
    assert f"{deck} deck, slide {still}: no steps" in player
    assert f"predicts at {deck} slide {still}, which has no steps" in player
    # an optional slide in the timing: a row's slide swapped for an
    # optional slide of its deck
    rows = real[0][: real[0].index(listed)]
    row = next(
        m
        for m in LONG.finditer(rows)
        if any(s and s.optional for s in shown[by_case[m.group("deck").lower()]])
    )
    deck = by_case[row.group("deck").lower()]
    extra = next(n for n, s in enumerate(shown[deck], start=1) if s and s.optional)
    swapped = row.group(0).replace(
        f'{row.group("number")} "{row.group("title")}"',
        f'{extra} "{table[deck][extra - 1]}"',
    )
    assert f"relies on optional {deck} slide {extra}" in planted(
        (row.group(0), swapped)
    )
    # too many predictions, one that names no slide, no list at all
    crowded = listed + "1. Taylor slide 9: which part?\n" * 2
    assert "7 predictions in 50 min (at most 5)" in planted((listed, crowded))
    assert "names no slide" in planted((listed, listed + "1. A guess.\n"))
    assert "no 'Predict, then reveal' list" in planted(
        ("### Predict, then reveal", "### Predict, then show")
    )
    # the three-session page and the one-page plans are read too
    assert "lesson-plan-session-2: " in planted(("| 10–14 |", "| 11–14 |"), page=1)
    assert "chapter-plan-rope: " in planted(
        ("| 25–27 | The table is a RoPE orbit", "| 25–26 | The table is a RoPE orbit"),
        page=2,
    )


# ------------------------------------------------ assessment
#: The exam page: each question names, under its heading, the slides a
#: student must have seen to answer it ("**Slides it needs**").
EXAM = ROOT / "book" / "instructor" / "exam_questions.md"
#: A question's label on the exam page, "(exam-9-4)=".
EXAM_LABEL = re.compile(r"^\(exam-(?P<chapter>\d+)-(?P<number>\d+)\)=\s*$", re.M)
NEEDS = re.compile(r"^\*\*Slides it needs\*\*.*(?:\n.+)*", re.M)
#: A plan's assessment: a list item "* **Assessment:** ..." with its
#: continuation lines.
ASSESSMENT = re.compile(r"^\* \*\*Assessment:\*\*.*(?:\n[ \t]+\S.*)*", re.M)
#: Exam questions named in it: "5.4", or a range "9.1 to 9.4".
QUESTIONS = re.compile(r"\b(\d+)\.(\d+)(?:\s+to\s+(\d+)\.(\d+))?\b")
#: The part of a timing row's cell shown only "if time" (to the cell's end).
IF_TIME = re.compile(r"\bif time\b[^|]*\|", re.I)
#: The chapters the 90-minute plan's assessment covers with at least one
#: question each (issue 21: symmetry, Taylor, complex numbers, decay, RoPE).
ASSESSED_CHAPTERS_90 = {"2", "3", "4", "5", "9"}


def exam_needs(text: str, table) -> dict[str, set | None]:
    """Question ("9.4") -> the slides (deck, number) its "Slides it
    needs" line names, or None if it has none."""
    found = {}
    starts = list(EXAM_LABEL.finditer(text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    for start, end in zip(starts, ends, strict=True):
        block = text[start.end() : end].split(":::{dropdown}")[0]
        needs = NEEDS.search(block)
        key = f"{start['chapter']}.{start['number']}"
        found[key] = (
            None
            if needs is None
            else {(deck, n) for _, deck, n in named_slides(needs.group(0), table)[0]}
        )
    return found


def named_questions(line: str) -> list[str]:
    """The exam questions an assessment line names, ranges expanded."""
    named = []
    for match in QUESTIONS.finditer(line):
        chapter, first, last_chapter, last = match.groups()
        if last is None:
            named.append(f"{chapter}.{first}")
        else:
            assert chapter == last_chapter, match.group(0)
            named += [f"{chapter}.{n}" for n in range(int(first), int(last) + 1)]
    return named


def assessment_problems(page: str, table, needs: dict) -> list[str]:
    """Each exam question a plan's assessment names must state the slides
    it needs, and every one of them must be in the plan's timing table."""
    problems = []
    for label, body in plans(page):
        header = TIMING_HEADER.search(body)
        if header is None:
            continue
        rows = body[header.end() :].split("\n\n", 1)[0]
        # a slide shown only "if time" may be cut: it prepares nothing
        rows = IF_TIME.sub("|", rows)
        shown = {(deck, n) for _, deck, n in named_slides(rows, table)[0]}
        for line in ASSESSMENT.finditer(body):
            for question in named_questions(line.group(0)):
                if question not in needs:
                    problems.append(
                        f"{label}: question {question} is not an exam question"
                    )
                elif needs[question] is None:
                    problems.append(
                        f"{label}: question {question} names no slides it needs"
                    )
                else:
                    for deck, n in sorted(needs[question] - shown):
                        problems.append(
                            f"{label}: assesses {question}, which needs {deck} "
                            f"slide {n}, not in the plan"
                        )
    return problems


def test_an_assessment_names_only_questions_its_plan_prepares():
    """A plan's assessment names exam questions whose slides (the exam
    page's "Slides it needs", checked there as the plans' names are) are
    all in the plan's timing table. Seen failing: a question whose slides
    the plan skips, one without its slides, a slide renamed on the exam
    page."""
    table = decks()
    exam = EXAM.read_text()
    needs = exam_needs(exam, table)
    assert len(needs) >= 23 and needs["9.4"] and needs["5.4"]
    named, wrong = name_problems(exam, table)
    assert named >= 20 and wrong == []
    pages = [page.read_text() for page in PAGES]
    assessed = [
        q
        for page in pages
        for line in ASSESSMENT.finditer(page)
        for q in named_questions(line.group(0))
    ]
    assert {"9.1", "9.4", "5.4"} <= set(assessed), assessed
    problems = [p for page in pages for p in assessment_problems(page, table, needs)]
    assert problems == []
    # the 90-minute plan assesses each chapter it teaches
    ninety = dict(plans(pages[0]))["lesson-plan-90"]
    chapters = {
        q.split(".")[0]
        for line in ASSESSMENT.finditer(ninety)
        for q in named_questions(line.group(0))
    }
    assert ASSESSED_CHAPTERS_90 <= chapters, chapters
    # planted: the 90-minute plan assesses 5.1, which needs the integral
    planted = pages[0].replace("5.4 for the decay", "5.1 for the decay")
    assert planted != pages[0]
    found = assessment_problems(planted, table, needs)
    assert (
        "lesson-plan-90: assesses 5.1, which needs decay slide 7, not in the plan"
        in found
    )
    # planted: 4.4 needs complex slide 10, which the plan shows only if time
    if_time = exam.replace(
        '6 "A hand\nturning at constant speed".',
        '6 "A hand\nturning at constant speed", 10 "Two hands at a fixed offset".',
    )
    assert if_time != exam
    found = assessment_problems(pages[0], table, exam_needs(if_time, table))
    assert found == [
        "lesson-plan-90: assesses 4.4, which needs complex slide 10, not in the plan"
    ]
    # a question without its slides; a renamed slide on the exam page
    bare = exam.replace(
        "**Slides it needs** (for the lecturer): RoPE deck, slides 8",
        "RoPE deck, slides 8",
    )
    assert bare != exam
    found = assessment_problems(pages[0], table, exam_needs(bare, table))
    assert "lesson-plan-90: question 9.3 names no slides it needs" in found
    renamed = exam.replace('9 "Mix the pairings: what', '9 "Mix the pairings: how')
    assert renamed != exam
    wrong = name_problems(renamed, table)[1]
    assert "RoPE deck, slide 9 'Mix the pairings: how breaks?'" in wrong
