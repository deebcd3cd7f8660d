"""The lesson plans name slides that exist, by the number the deck shows.

``book/instructor/lesson_plans.md`` names a slide as ``<deck> deck, slide N
"Title"`` (or ``slides N "Title", M "Title"``); its table of decks maps each
deck's name to its chapter. A deck's slide 1 is its title slide and slide
N + 1 is the chapter's N-th ``<!-- slide: Title`` comment (``_ext/slides.py``).
Every slide the plans name must be the chapter's slide of that number and
title, so that moving or renaming a slide in a chapter fails here until the
plans follow. The plans' slide counts in the table are checked too.
"""

from __future__ import annotations

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
