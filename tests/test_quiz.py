""" "Check your understanding": the questions and their feedback.

Without a build: every chapter has three to five questions, each with a
valid ``:answer:`` and an explanation for every option (``_ext/quiz.py``),
and the book's questions cannot be answered by the form of their options:
few have two options, the options of a question are of similar length,
and how often the right option is the longest, the shortest or at each
letter is what chance placement would give (the rules are stated at
"not guessable" below). Write each option as a short claim a student
might hold, the right one no longer or more detailed than the others, and
put the reason in its explanation.

In the built site (``POSENC_SITE``, else ``_build/html``), in offline
Chromium: on every page that has questions, pressing a wrong option says
"Not quite" and shows why that option is wrong, and pressing the right one
says "Right" and shows why; with the keyboard alone (Tab to an option,
Enter) too, with no tab stop inside an option (a formula there is none).
The checks are here; ``tests/test_site.py`` runs them on every page of the
default edition in the load that lays the page out on a desktop (one load
of each page fewer). The student edition keeps the questions on
every chapter (one page of it is checked in the browser, here).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import sitetools  # noqa: E402

QUIZ = re.compile(r"^```\{quiz\}\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
CHAPTERS = sorted(
    path
    for path in (ROOT / "book").glob("*.md")
    if path.stem not in {"intro", "bibliography", "appendix_notation"}
)
SITE = sitetools.site_dir()
STUDENT = Path(
    os.environ.get("POSENC_STUDENT_SITE") or ROOT / "_build" / "student" / "html"
)


def questions(path: Path) -> list[tuple[int, list[str]]]:
    """(answer, options) of each question of a chapter; an option is its
    bullet item, the text to pick and its explanation."""
    found = []
    for body in QUIZ.findall(path.read_text()):
        answer = int(re.search(r"^:answer: (\d+)$", body, re.MULTILINE).group(1))
        options = re.split(r"^- ", body, flags=re.MULTILINE)[1:]
        found.append((answer, options))
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_has_three_to_five_questions(path):
    found = questions(path)
    assert 3 <= len(found) <= 5, f"{path.name}: {len(found)} questions"
    text = path.read_text()
    section = text.index("## Check your understanding")
    assert section < text.index("## Exercises")
    for answer, options in found:
        assert len(options) >= 2
        assert 1 <= answer <= len(options)
        for option in options:
            pick, _, why = option.partition("\n\n")
            assert pick.strip() and why.strip(), option
            # a line that starts with "+ " or "1. " (maths wrapped before a
            # plus) would turn the rest of the option into a list
            marker = re.search(r"^ +([-+*]|\d+[.)]) ", option, re.MULTILINE)
            assert marker is None, (path.name, option)


# ------------------------------------------------------------ not guessable
#
# A class that votes by the form of the options must do no better than
# chance. Two rules keep the form plain: at most a tenth of the questions
# have two options, and no option of a question is much longer than
# another. The others compare a count over the whole book (how often the
# right option is the longest, the shortest, at letter A, ...) with the
# count that chance placement of the right option would give: each
# question's right option one of its k options at random, independently
# of their texts. Under chance the count is a sum of independent
# Bernoulli variables, one per question (a Poisson binomial), computed
# exactly; the book's count must lie between its 5th and 95th percentile
# (10th and 90th for the letters). Too high is a cue ("pick the
# longest"), and so is too low ("never the longest").

#: Book-wide, at most this share of questions may have two options: a
#: question with three or more real answers is asked with them.
MOST_TWO_OPTION_SHARE = 0.1
#: TeX commands that draw nothing of their own (fonts, sizes, spacing).
SILENT_COMMANDS = {
    "mathrm", "mathbb", "mathbf", "mathcal", "mathit", "operatorname",
    "text", "left", "right", "big", "Big", "tfrac", "frac", "dfrac",
}  # fmt: skip


def visible_length(text: str) -> int:
    """About how many characters a reader sees of an option's MyST text:
    prose as written; in maths a command (``\\theta``) is one character,
    a font or spacing command, a brace, ``^``, ``_`` and ``$`` none."""

    def maths(match: re.Match) -> str:
        tex = re.sub(
            r"\\([A-Za-z]+)",
            lambda c: "" if c.group(1) in SILENT_COMMANDS else "#",
            match.group(0).strip("$"),
        )
        return re.sub(r"\\[,;:! ]|[{}^_\s]", "", tex)

    text = re.sub(r"\$\$.*?\$\$|\$[^$]*\$", maths, text, flags=re.DOTALL)
    text = re.sub(r"\{[a-z:]+\}`([^`<]*)[^`]*`", r"\1", text)  # roles
    return len(" ".join(text.replace("*", "").replace("`", "").split()))


def picks(options: list[str]) -> list[str]:
    """The text a reader picks from each option (its first paragraph)."""
    return [option.partition("\n\n")[0] for option in options]


def book_questions() -> list[tuple[str, int, list[str]]]:
    """(chapter, answer, picks) of every question of the book: the
    chapters' self-checks and the fresh clicker questions of the key
    (``fresh:<chapter>``), which a class votes on alike."""
    from test_clickers import fresh

    return [
        (path.stem, answer, picks(options))
        for path in CHAPTERS
        for answer, options in questions(path)
    ] + [
        (f"fresh:{chapter}", answer, picks(options))
        for chapter, found in fresh().items()
        for answer, options in found
    ]


def chance_interval(chances: list[float], tail: float = 0.05) -> tuple[int, int]:
    """The ``tail`` and ``1 - tail`` quantiles (5th and 95th percentiles)
    of a sum of independent Bernoulli variables of these probabilities:
    the smallest counts c with P(count <= c) >= tail and >= 1 - tail."""
    law = [1.0]  # law[c] = P(count = c), one question at a time
    for p in chances:
        law = [
            (law[c] if c < len(law) else 0.0) * (1 - p)
            + (law[c - 1] * p if c >= 1 else 0.0)
            for c in range(len(law) + 1)
        ]
    cumulative, low, high = 0.0, None, None
    for count, mass in enumerate(law):
        cumulative += mass
        if low is None and cumulative >= tail - 1e-12:
            low = count
        if high is None and cumulative >= 1 - tail - 1e-12:
            high = count
    return low, high


def strictly_extreme(lengths: list[int], pick) -> list[int]:
    """The option (index) that is strictly the longest (``pick=max``) or
    the shortest (``min``), as a list of at most one."""
    best = pick(lengths)
    return [lengths.index(best)] if lengths.count(best) == 1 else []


def test_chance_interval():
    """The percentiles against cases known by hand: 10 fair coins give
    2 and 8 (P(X <= 1) = 11/1024 < 0.05 <= P(X <= 2) = 56/1024), and 3
    and 7 for the 10th and 90th (P(X <= 2) = 56/1024 < 0.1 <=
    P(X <= 3) = 176/1024); a certain and an impossible event give 1 and
    0 every time."""
    assert chance_interval([0.5] * 10) == (2, 8)
    assert chance_interval([0.5] * 10, tail=0.1) == (3, 7)
    assert chance_interval([1.0, 0.0]) == (1, 1)
    assert chance_interval([]) == (0, 0)


def test_visible_length():
    """Maths counts what it draws; markup and roles' targets count nothing."""
    assert visible_length("$\\mathrm{base}^{-2i/d}$ turns") == len("base-2i/d turns")
    assert visible_length("$\\theta_i$, *not* `x`") == len("#i, not x")
    assert visible_length("{ref}`the shift <complex-shift>` here") == len(
        "the shift here"
    )


@pytest.mark.parametrize("pick", [max, min], ids=["longest", "shortest"])
def test_the_right_option_is_no_longer_or_shorter_than_chance(pick):
    """How many right options are strictly the longest (or the shortest)
    of their question, by what a reader sees: between the 5th and 95th
    percentile of that count under chance. A question whose options are
    equally long counts under chance as never having one."""
    count, chances = 0, []
    for _, answer, labels in book_questions():
        extreme = strictly_extreme([visible_length(x) for x in labels], pick)
        count += extreme == [answer - 1]
        chances.append(len(extreme) / len(labels))
    low, high = chance_interval(chances)
    assert low <= count <= high, (
        f"the right option is strictly the {pick.__name__} in {count} of "
        f"{len(chances)} questions; chance gives {low} to {high}"
    )


def test_options_of_a_question_are_of_similar_length():
    """In every question the longest option, as a reader sees it, is at
    most 1.5 times the shortest plus 10 characters: no option stands out
    by its length (short formulas, such as $d_k$ against
    $\\sqrt{d_k}$, are free to differ by a few characters)."""
    outside = []
    for stem, _, labels in book_questions():
        lengths = [visible_length(label) for label in labels]
        if max(lengths) > 1.5 * min(lengths) + 10:
            outside.append((stem, lengths, labels[0][:40]))
    assert not outside, outside


def test_few_questions_have_two_options():
    """At most MOST_TWO_OPTION_SHARE of the book's questions have two
    options (a yes-or-no question is asked with its three or four real
    answers instead)."""
    found = book_questions()
    two = [(stem, labels[0][:40]) for stem, _, labels in found if len(labels) == 2]
    assert len(two) <= MOST_TWO_OPTION_SHARE * len(found), (len(two), two)


def test_the_right_option_is_spread_over_the_letters():
    """How many right options are at each letter: between the 10th and
    90th percentile under chance, over the whole book (a question with
    fewer options than the letter's place never has it there) and among
    the questions with k options, for each k (a class learns "with three
    options, it is B" as well as "it is B"). Narrower than for lengths:
    the author places the right option freely, so the book must spread
    it at least as evenly as four random placements in five do."""
    found = book_questions()
    groups: dict = {"all": found}
    for question in found:
        groups.setdefault(len(question[2]), []).append(question)
    outside = []
    for group, members in groups.items():
        for place in range(1, max(len(q[2]) for q in members) + 1):
            count = sum(answer == place for _, answer, _ in members)
            chances = [1 / len(q[2]) if len(q[2]) >= place else 0.0 for q in members]
            low, high = chance_interval(chances, tail=0.1)
            if not low <= count <= high:
                letter = "ABCDEFGH"[place - 1]
                outside.append(
                    f"{group} options: {letter} right in {count} of "
                    f"{len(members)}, chance {low} to {high}"
                )
    assert not outside, outside


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_chapters_answers_are_not_all_one_letter(path):
    """Within one chapter's round of votes the answers are not all at one
    letter (under chance, three questions of three options all share a
    letter one time in nine): its self-checks, and its fresh questions."""
    from test_clickers import fresh

    answers = {answer for answer, _ in questions(path)}
    assert len(answers) > 1, (path.name, answers)
    mine = fresh().get(path.stem)
    if mine:
        assert len({answer for answer, _ in mine}) > 1, (path.stem, "fresh")


# ------------------------------------------------------------ in the browser


def pages_with_questions(site: Path) -> list[str]:
    return [
        page
        for page in sitetools.html_pages(site)
        if 'class="posenc-quiz"' in (site / page).read_text(errors="replace")
    ]


@pytest.fixture(scope="module")
def browser(chromium):
    """The process's one Chromium (tests/conftest.py)."""
    return chromium


def open_offline(browser, url: str, base: str):
    """A page of the site with every request to another host blocked; the
    blocked requests and the console errors are recorded on it."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    outside, errors = [], []

    def route(request_route) -> None:
        if request_route.request.url.startswith(base):
            request_route.continue_()
        else:
            outside.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: message.type == "error" and errors.append(message.text),
    )
    page.goto(url, wait_until="load")
    page.evaluate(sitetools.WAIT_FOR_MATHS)
    page.evaluate(sitetools.WAIT_FOR_SCRIPTS)
    return page, outside, errors


def check_unanswered(page) -> None:
    """Before any press: no feedback and no explanation shown."""
    quizzes = page.locator(".posenc-quiz")
    assert quizzes.count() >= 3
    for number in range(quizzes.count()):
        quiz = quizzes.nth(number)
        assert quiz.locator(".quiz-feedback").inner_text() == "", number
        assert quiz.locator(".quiz-explanation:visible").count() == 0, number


def check_feedback(page) -> None:
    """Press a wrong and then the right option of every question (one
    already answered, by check_keyboard, may be answered again)."""
    quizzes = page.locator(".posenc-quiz")
    for number in range(quizzes.count()):
        quiz = quizzes.nth(number)
        feedback = quiz.locator(".quiz-feedback")
        wrong = quiz.locator('.quiz-option[data-verdict="wrong"]').first
        wrong.locator(".quiz-choice").click()
        assert feedback.inner_text().startswith("Not quite"), number
        assert "quiz-feedback-wrong" in feedback.get_attribute("class")
        assert wrong.locator(".quiz-explanation").is_visible()
        assert quiz.locator(".quiz-explanation:visible").count() == 1
        right = quiz.locator('.quiz-option[data-verdict="right"]')
        assert right.count() == 1
        right.locator(".quiz-choice").click()
        assert feedback.inner_text().startswith("Right"), number
        assert right.locator(".quiz-explanation").is_visible()
        assert not wrong.locator(".quiz-explanation").is_visible()
        assert right.locator(".quiz-choice").get_attribute("aria-pressed") == "true"


def check_keyboard(page) -> None:
    """Tab reaches an option of the last question; Enter answers it."""
    quiz = page.locator(".posenc-quiz").last
    right = quiz.locator('.quiz-option[data-verdict="right"] .quiz-choice')
    # from the first option, Tab on to the right one
    quiz.locator(".quiz-choice").first.focus()
    for _ in range(quiz.locator(".quiz-choice").count()):
        if right.evaluate("button => button === document.activeElement"):
            break
        page.keyboard.press("Tab")
    assert right.evaluate("button => button === document.activeElement")
    page.keyboard.press("Enter")
    assert quiz.locator(".quiz-feedback").inner_text().startswith("Right")


@pytest.mark.parametrize("edition", ["default", "student"])
def test_questions_give_feedback_on_every_page(browser, edition):
    site = SITE if edition == "default" else STUDENT
    if not (site / "index.html").exists():
        pytest.fail(f"no site at {site}: make book (and make student)")
    pages = pages_with_questions(site)
    expected = {f"book/{path.stem}.html" for path in CHAPTERS}
    assert expected <= set(pages), sorted(expected - set(pages))
    if edition == "default":
        # pressed in the load that lays each page out on a desktop
        # (tests/test_site.py: test_questions_give_feedback)
        return
    # the student edition has the same pages and script: one page in the
    # browser is enough
    pages = pages[:1]
    with sitetools.serve(site) as base:
        for path in pages:
            page, outside, errors = open_offline(browser, base + path, base)
            check_unanswered(page)
            check_keyboard(page)
            check_feedback(page)
            assert not outside and not errors, (path, outside, errors)
            page.context.close()


# ------------------------------------------------------------ for clickers

#: What would mark an option as the right one, in a page's source.
ANSWER_MARKERS = ("data-verdict", "quiz-explanation", "quiz-key", "quiz-right")
MATHS = re.compile(
    r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL
)  # $..$, $$..$$ in MyST; \(..\), \[..\] in a page


def words(text: str) -> list[str]:
    """The words of MyST or page text, maths and punctuation left out."""
    return re.findall(r"[A-Za-z]+", MATHS.sub(" ", text))


def explanation_runs(path: Path) -> list[str]:
    """Six words in a row from each option's explanation (those long
    enough): a page that holds one holds the explanation."""
    runs = []
    for _, options in questions(path):
        for option in options:
            why = words(option.partition("\n\n")[2])
            if len(why) >= 6:
                runs.append(" ".join(why[:6]))
    return runs


def clicker_pages(site: Path) -> dict[str, Path]:
    """The answer-free page of each chapter built in ``site``, by stem."""
    return {
        path.stem: site / "clickers" / f"{path.stem}.html"
        for path in CHAPTERS
        if (site / "book" / f"{path.stem}.html").is_file()
    }


def check_answer_free(page: Path, path: Path) -> None:
    """The clicker page ``page`` of chapter ``path`` holds each question
    with its options, in order, and nothing that tells the right one."""
    from bs4 import BeautifulSoup

    source = page.read_text()
    for marker in ANSWER_MARKERS:
        assert marker not in source, (page.name, marker)
    soup = BeautifulSoup(source, "html.parser")
    # the maths, rendered at build time, left out as words() leaves out TeX
    for maths in soup.select("math"):
        maths.decompose()
    # the chapter's self-checks, after its fresh questions
    # (tests/test_clickers.py checks those)
    found = soup.select("section.clicker-review")
    expected = questions(path)
    assert len(found) == len(expected), page.name
    for number, (section, (_, options)) in enumerate(
        zip(found, expected, strict=True), 1
    ):
        items = section.select("ol.clicker-options > li")
        assert len(items) == len(options), (page.name, number)
        # every option is marked up alike: the same attributes, the same
        # elements; only its letter and its own text differ
        shapes = {
            (
                tuple(sorted(item.attrs)),
                tuple(
                    (c.name, str(sorted(c.attrs.items())))
                    for c in item.find_all(recursive=False)
                ),
            )
            for item in items
        }
        assert len(shapes) == 1, (page.name, number, shapes)
        for item, option in zip(items, options, strict=True):
            pick = " ".join(words(option.partition("\n\n")[0]))
            assert pick in " ".join(words(item.get_text(" "))), (page.name, pick)
    text = " ".join(words(soup.get_text(" ")))
    for run in explanation_runs(path):
        assert run not in text, (page.name, run)
    # one script, the keys that step between questions (the maths is
    # rendered at build time); it fetches nothing and holds no answer
    scripts = [s.get("src") for s in soup.find_all("script")]
    assert scripts == ["../_static/posenc-clickers.js"], scripts
    keys = (ROOT / "_ext" / "static" / "posenc-clickers.js").read_text()
    assert "fetch" not in keys and "XMLHttpRequest" not in keys
    keys = " ".join(words(keys))
    for run in explanation_runs(path):
        assert run not in keys, run


@pytest.mark.parametrize("edition", ["default", "student"])
def test_clicker_pages_hold_no_marker_of_the_right_answer(edition):
    site = SITE if edition == "default" else STUDENT
    if not (site / "index.html").exists():
        pytest.fail(f"no site at {site}: make book (and make student)")
    pages = clicker_pages(site)
    assert pages, f"no chapter built in {site}"
    by_stem = {path.stem: path for path in CHAPTERS}
    for stem, page in pages.items():
        check_answer_free(page, by_stem[stem])
    index = (site / "clickers" / "index.html").read_text()
    for stem in pages:
        assert f'href="{stem}.html"' in index


def test_the_answer_key_gives_every_question_its_answer():
    """The instructor section's key (default edition): each chapter whose
    answer-free page was built, with every question, the right letter and
    why each option is right or wrong."""
    from bs4 import BeautifulSoup

    page = SITE / "book" / "instructor" / "quizzes.html"
    if not page.is_file():
        pytest.fail(f"no answer key in {SITE}: make book")
    soup = BeautifulSoup(page.read_text(), "html.parser")
    keyed: dict[str, list] = {}
    # the self-checks' (the fresh questions', "fresh-...", are
    # tests/test_clickers.py's)
    for section in soup.select('section.posenc-quiz-key[id^="key-"]'):
        stem = section["id"].removeprefix("key-").rsplit("-", 1)[0]
        keyed.setdefault(stem, []).append(section)
    by_stem = {path.stem: path for path in CHAPTERS}
    assert set(keyed) == set(clicker_pages(SITE)), "key and clicker pages differ"
    for stem, sections in keyed.items():
        expected = questions(by_stem[stem])
        assert len(sections) == len(expected), stem
        link = soup.find("a", href=f"../../clickers/{stem}.html")
        assert link is not None, stem
        for section, (answer, options) in zip(sections, expected, strict=True):
            letter = "ABCDEFGH"[answer - 1]
            right = section.select_one(".quiz-key-right strong").get_text()
            assert right == letter, (section["id"], right, letter)
            marked = [dt.get_text() for dt in section.select("dt")]
            assert marked == [
                f"{c}{' (right)' if c == letter else ''}"
                for c in "ABCDEFGH"[: len(options)]
            ]
            assert section.select_one("details.quiz-key-answer:not([open])")
