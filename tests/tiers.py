"""The browser tests' two tiers: a sample of pages, then every page.

The tests that load each page, deck or handout in Chromium (layouts at
each reader's size, axe in both colour schemes, every slide measured) are
most of the suite's time. ``make test``, the loop a contributor runs
often, runs them on a sample (:data:`BOOK`, :data:`STUDENT`,
:data:`TEACHING`, :data:`DECKS`: one page or deck of each kind, the
heaviest included); ``make test-pages`` runs them on every other page;
CI runs both, so every page is still checked before work lands. A
parameter outside the sample carries the mark ``every_page`` (pyproject's
markers), which ``make test`` deselects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

EVERY_PAGE = pytest.mark.every_page

#: Pages of the book in the sample: a derivation chapter, the chapter with
#: the most players and the deck's activity, the heaviest page, the search
#: page.
BOOK = (
    "book/the_encoding.html",
    "book/rope.html",
    "book/instructor/exam_questions.html",
    "search.html",
)
#: Pages of the student edition in the sample.
STUDENT = ("book/rope.html",)
#: Decks, handouts and clicker pages in the sample (both editions).
TEACHING = (
    "slides/rope.html",
    "student/slides/rope.html",
    "handouts/session_90.html",
    "handouts/decay_integral.html",
    "clickers/rope.html",
)
#: Chapters whose decks are measured slide by slide in the sample.
DECKS = ("rope",)


def sampled(
    items: Sequence[str], sample: Iterable[str], marks: Mapping[str, list] | None = None
) -> list:
    """``items`` as test parameters: those in ``sample`` as they are, every
    other one marked ``every_page``. A name of the sample that is not among
    ``items`` stops the collection (a renamed page would otherwise leave
    the sample smaller without a word), unless nothing was built (a single
    placeholder item, such as "(no site)"). ``marks`` adds marks of its
    own to some items (an expected failure, say)."""
    sample = tuple(sample)
    built = not (len(items) == 1 and items[0].startswith("("))
    missing = [name for name in sample if name not in items]
    if built and missing:
        raise ValueError(f"tests/tiers.py: not among the pages under test: {missing}")
    marks = marks or {}
    return [
        pytest.param(
            item,
            marks=[*marks.get(item, []), *([] if item in sample else [EVERY_PAGE])],
        )
        for item in items
    ]
