"""The exam page prints as a paper of questions alone (lecturer pass 4,
item 4): its "Questions only" checkbox, pressed with the keyboard, hides
the worked solutions, the marking schemes and the check cells, on screen
and in print, and leaves every question; the page stays axe-clean."""

from __future__ import annotations

import axe
import pytest
import sitetools
from test_site import BUILT, SITE, Visit, load, open_page

PAGE = "book/instructor/exam_questions.html"

#: JavaScript: the article's text as it shows now (innerText leaves out
#: what is not displayed).
TEXT = "() => document.querySelector('.bd-article').innerText"


@pytest.fixture
def exam(chromium, base_url):
    if not BUILT or not (SITE / PAGE).exists():
        pytest.fail(f"no exam page in {SITE}: build instructor/exam_questions")
    visit = Visit()
    page = open_page(chromium, base_url, visit, color_scheme="light")
    load(page, base_url + PAGE)
    # every section laid out (innerText leaves out one that is not)
    page.evaluate(sitetools.WAIT_FOR_SECTIONS)
    yield page, visit
    page.context.close()


def test_questions_only_prints_the_questions_alone(exam):
    page, visit = exam
    before = page.evaluate(TEXT)
    # by default: solutions, checks and the toggle are there, solutions in print too
    assert "solution and marking scheme" in before
    page.emulate_media(media="print")
    assert "solution and marking scheme" in page.evaluate(TEXT)
    page.emulate_media(media="screen")
    toggle = page.locator("#posenc-questions-only")
    toggle.focus()
    page.keyboard.press("Space")
    assert toggle.is_checked()
    page.emulate_media(media="print")
    after = page.evaluate(TEXT)
    for gone in (
        "solution and marking scheme",
        "Checked: question",
        "Questions only",
    ):
        assert gone not in after, gone
    questions = [line for line in before.splitlines() if line.startswith("Question ")]
    assert len(questions) >= 27
    for line in questions:
        if "solution and marking scheme" not in line:
            assert line in after, line
    # every check cell and every dropdown is gone, not just closed
    hidden = """() => [...document.querySelectorAll(
      '.bd-article .cell, .bd-article .sd-dropdown')].map(
      e => getComputedStyle(e).display === 'none')"""
    shown = page.evaluate(hidden)
    assert len(shown) >= 50 and all(shown)
    # on screen the toggle stays, so that it can be unchecked
    page.emulate_media(media="screen")
    assert "Questions only" in page.evaluate(TEXT)
    assert "solution and marking scheme" not in page.evaluate(TEXT)
    toggle.focus()  # printing hid it, and so took its focus
    page.keyboard.press("Space")
    assert "solution and marking scheme" in page.evaluate(TEXT)
    assert visit.outside == [] and visit.errors == []


def test_questions_only_is_axe_clean(exam):
    page, _ = exam
    page.locator("#posenc-questions-only").check()
    assert axe.audit(page) == []
