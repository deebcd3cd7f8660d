"""The fresh clicker questions: their answers are computed, they reach the
clicker pages without answers, and the student edition holds none of their
answers or explanations.

The fresh questions are the ``{clicker}`` blocks of the instructor key,
``book/instructor/quizzes.md`` (``_ext/quiz.py``): F1, F2, ... per chapter.

* Without a build: every derivation chapter and RoPE has at least three,
  each with three or four options and an explanation for each; every
  question has a check here, in numpy and scipy of its own (not posenc),
  that says which of its options are true claims, and exactly the marked
  one must be (``CHECKS``); the lesson plans' clicker rounds name fresh
  questions that exist.
* In a built site (``POSENC_SITE``): each chapter's clicker page shows its
  fresh questions, in order, with their options and without an answer or
  an explanation (tests/test_quiz.py checks the markup of every
  question); the key shows each with its right letter.
* In the student edition (``POSENC_STUDENT_SITE``): the same pages, and
  no file of the edition (pages, search index, notebooks, Markdown copies,
  zip members) holds a run of six words of any fresh question's
  explanation.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.special import sici

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import sitetools  # noqa: E402

KEY = ROOT / "book" / "instructor" / "quizzes.md"
BLOCK = re.compile(r"^```\{clicker\}\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
#: The chapters that must have fresh questions (issue 21: every derivation
#: chapter and RoPE).
CHAPTERS = [
    "the_encoding",
    "attention_is_blind_to_order",
    "taylor_expansion",
    "complex_solution",
    "decay_integral",
    "decay_finite_d",
    "rope",
]
PLANS = [
    ROOT / "book" / "instructor" / "lesson_plans.md",
    ROOT / "book" / "instructor" / "three_sessions.md",
]
SITE = sitetools.site_dir()


def fresh(text: str | None = None) -> dict[str, list[tuple[int, list[str]]]]:
    """(answer, options) of each fresh question, by chapter, in order; an
    option is its bullet item: the text to pick, then its explanation."""
    found: dict[str, list] = {}
    for body in BLOCK.findall(KEY.read_text() if text is None else text):
        chapter = re.search(r"^:chapter: (\S+)$", body, re.MULTILINE).group(1)
        answer = int(re.search(r"^:answer: (\d+)$", body, re.MULTILINE).group(1))
        options = re.split(r"^- ", body, flags=re.MULTILINE)[1:]
        found.setdefault(chapter, []).append((answer, options))
    return found


def test_every_chapter_has_three_fresh_questions():
    found = fresh()
    assert set(CHAPTERS) <= set(found), sorted(set(CHAPTERS) - set(found))
    for chapter, questions in found.items():
        assert (ROOT / "book" / f"{chapter}.md").is_file(), chapter
        assert len(questions) >= 3, chapter
        for answer, options in questions:
            assert 3 <= len(options) <= 4, (chapter, options[0][:40])
            assert 1 <= answer <= len(options)
            for option in options:
                pick, _, why = option.partition("\n\n")
                assert pick.strip() and why.strip(), option
                # the clicker page renders option texts with markdown-it:
                # no roles or references, which only Sphinx resolves
                assert "{" not in re.sub(r"\$[^$]*\$", "", pick), pick


# ------------------------------------------------------------ the checks
#
# Each check returns, for each option of its question in the order
# written, whether the option's claim is true, computed here.

RNG = np.random.default_rng(2026)
BASE = 1e4


def frequencies(d: int, base: float = BASE) -> np.ndarray:
    return base ** (-2 * np.arange(d // 2) / d)


def table(positions, d: int, base: float = BASE, cosine_first=False) -> np.ndarray:
    """The paper's encoding (sin at even, cos at odd columns), or the
    cosine-first one."""
    angles = np.outer(np.atleast_1d(positions), frequencies(d, base))
    first, second = (np.cos, np.sin) if cosine_first else (np.sin, np.cos)
    out = np.empty((len(angles), d))
    out[:, 0::2], out[:, 1::2] = first(angles), second(angles)
    return out


def attention(x, wq, wk, wv, causal=False) -> np.ndarray:
    scores = (x @ wq) @ (x @ wk).T / np.sqrt(wq.shape[1])
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape, bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ (x @ wv)


def weights(d=8):
    return [RNG.normal(size=(d, d)) for _ in range(3)]


def same(a, b) -> bool:
    """Equal up to rounding (1e-12 relative to sizes near 1)."""
    return bool(np.allclose(a, b, rtol=0, atol=1e-12))


def integral(delta, base=BASE):
    """(1/ln base) ∫_{1/base}^1 cos(Δθ) dθ/θ = (Ci(Δ) − Ci(Δ/base))/ln base."""
    delta = np.asarray(delta, float)
    return (sici(delta)[1] - sici(delta / base)[1]) / np.log(base)


def encoding_f1():
    theta = frequencies(512)[128]
    claims = [0.5, 1e-2, 1 / 128, 1e-4]
    return [abs(theta - c) < 0.05 * c for c in claims]


def encoding_f2():
    periods = 2 * np.pi / frequencies(512)
    steps = periods[1:] / periods[:-1]
    additive = np.allclose(np.diff(periods), 2 * np.pi)
    return [
        bool(additive),
        bool(np.allclose(steps, 2)),
        bool(np.allclose(steps, 10 ** (1 / 64))) and abs(steps[0] - 1.037) < 5e-4,
        bool(np.allclose(steps, 1e4 / 256)),
    ]


def encoding_f3():
    theta = frequencies(512)
    period = 2 * np.pi / theta[-1]
    assert abs(period - 60_600) < 100  # the question's "about 60,600"
    far = np.linalg.norm(table(period, 512) - table(0, 512))
    assert 22 < far < 24  # the explanation's "about 23"
    close = far < 1  # |p_t| = 16: within 1 would be "close"
    return [not close, close, close]


def symmetry_f1():
    wq, wk, wv = weights()
    x = RNG.normal(size=(3, 8))
    before = attention(x, wq, wk, wv, causal=True)
    after = attention(x[[1, 0, 2]], wq, wk, wv, causal=True)
    kept = {row for row in range(3) if same(before[row], after[row])}
    return [kept == set(), kept == {1, 2}, kept == {0}, kept == {2}]


def symmetry_f2():
    wq, wk, wv = weights()
    x = RNG.normal(size=(6, 8))
    x[3] = x[0]  # the same word at positions 1 and 4
    out = attention(x, wq, wk, wv)
    equal = same(out[0], out[3])
    return [equal, not equal, not equal, not equal]


def symmetry_f3():
    wq, wk, wv = weights()
    x = RNG.normal(size=(4, 8))
    row_one = attention(x, wq, wk, wv)[0]
    first_swapped = attention(x[[1, 0, 2, 3]], wq, wk, wv)[0]
    others_swapped = attention(x[[0, 2, 1, 3]], wq, wk, wv)[0]
    blind = same(row_one, first_swapped)
    # "sees which token comes first, not the order of the others"
    assert same(row_one, others_swapped)
    return [blind, not blind, blind]


def taylor_f1():
    d = 16
    p = table(np.arange(40), d)
    x_m, x_n = RNG.normal(size=(2, d))
    m, n = 3, 11

    def terms(m, n):
        return [x_m @ x_n, p[m] @ x_n, x_m @ p[n], p[m] @ p[n]]

    kept = [
        abs(a - b) < 1e-12
        for a, b in zip(terms(m, n), terms(m + 10, n + 10), strict=True)
    ]
    return [
        kept == [True, False, False, False],
        kept == [True, False, False, True],
        all(kept),
        kept == [False, False, False, True],
    ]


def taylor_f2():
    d, dk = 512, 64
    wq, wk = RNG.normal(size=(2, d, dk)) / np.sqrt(d)
    h = wq @ wk.T / np.sqrt(dk)
    assert np.linalg.matrix_rank(h) == dk  # "rank at most 64", reached
    p = table(np.arange(8), d)
    spread = abs(p[0] @ h @ p[1] - p[5] @ h @ p[6])
    relative = spread < 1e-9
    # H = I keeps it relative (the right option's "such as I")
    assert abs(p[0] @ p[1] - p[5] @ p[6]) < 1e-9
    return [relative, relative, not relative]


def taylor_f3():
    d = 16
    p = table(np.arange(20), d)
    p[:, 1::2] *= 2  # the cosine doubled
    relative = abs(p[0] @ p[1] - p[5] @ p[6]) < 1e-9
    # the explanation's identity: sin a sin b + 4 cos a cos b
    a, b = RNG.uniform(0, 6, 2)
    lhs = np.sin(a) * np.sin(b) + 4 * np.cos(a) * np.cos(b)
    assert abs(lhs - (2.5 * np.cos(a - b) + 1.5 * np.cos(a + b))) < 1e-12
    return [not relative, relative, relative]


def complex_f1():
    theta = 0.7
    z = 1.01 ** np.arange(20) * np.exp(1j * theta * np.arange(20))
    inner = lambda m, n: (z[m] * np.conj(z[n])).real  # noqa: E731
    relative = abs(inner(0, 0) - inner(10, 10)) < 1e-12
    return [relative, relative, not relative]


def complex_f2():
    r0, r1, t0, t1 = 1.3, 0.6, 0.9, 0.2

    def p(t):
        return np.array(
            [
                r0 * np.cos(t * t0),
                r0 * np.sin(t * t0),
                r1 * np.cos(t * t1),
                r1 * np.sin(t * t1),
            ]
        )

    m, n = 9, 4
    inner, delta = p(m) @ p(n), m - n
    claims = [
        r0 * r1 * np.cos(delta * t0) * np.cos(delta * t1),
        r0**2 * np.cos(delta * t0) + r1**2 * np.cos(delta * t1),
        r0 * r1 * np.cos(delta * (t0 + t1)),
    ]
    return [abs(inner - c) < 1e-12 for c in claims]


def complex_f3():
    t = np.arange(12)
    hand = np.column_stack([np.cos(np.pi * t), np.sin(np.pi * t)])
    gram = hand @ hand.T
    delta = t[:, None] - t[None, :]
    return [
        same(gram, 1),
        not same(gram, (-1.0) ** delta),  # a function of m + n instead
        same(gram, 0),
        same(gram, (-1.0) ** delta),
    ]


def decay_f1():
    fall = integral(10, 1e8) - integral(100, 1e8)
    near = lambda target: abs(fall - target) < 0.02  # noqa: E731
    half = abs(integral(100, 1e8) / integral(10, 1e8) - 0.5) < 0.05
    return [near(1 / 8), near(1 / 4), half, fall < 0.02]


def decay_f2():
    slow = int((frequencies(512) <= 1 / 100).sum())
    return [abs(slow - c) <= 3 for c in (3, 64, 250, 128)]


def decay_f3():
    n = 4096
    theta = 1 - np.arange(n) / n
    mean = lambda delta: np.cos(delta * theta).mean()  # noqa: E731
    like_sinc = all(
        abs(mean(x) - np.sin(x) / x) < 2 / n * x + 1e-3 for x in (1, 3, 10, 30)
    )
    falls = abs(mean(10)) < 0.1 < mean(1)
    quarter = abs((mean(10) - mean(100)) - 0.25) < 0.05
    return [not falls, falls and like_sinc, falls and quarter]


def threshold(d, base=BASE):
    """Δ₁ = π d / ln base, where neighbouring fast clocks differ by about a
    full turn (checked below)."""
    return np.pi * d / np.log(base)


def finite_f1():
    d = 128
    delta1 = threshold(d)
    theta = frequencies(d)
    # about a full turn between the two fastest clocks there (within 8%)
    assert abs(delta1 * (theta[0] - theta[1]) / (2 * np.pi) - 1) < 0.08
    # the sum leaves the integral there: its error past Δ₁ is several times
    # its error below half of it
    offsets = np.arange(1, 4 * int(delta1))
    error = np.abs(np.cos(np.outer(offsets, theta)).mean(1) - integral(offsets))
    below = error[offsets < delta1 / 2].max()
    past = error[(offsets > delta1) & (offsets < 2 * delta1)].max()
    assert past > 2.5 * below, (below, past)
    # option 1's sampling-theorem offset, pi / (1 - base^(-2/d)), near 23
    assert abs(np.pi / (1 - 1e4 ** (-2 / d)) - 23.4) < 0.1
    return [abs(delta1 - c) < 0.05 * c for c in (23, 175, 44, 700)]


def finite_f2():
    before, after = threshold(512), threshold(512, 1e6)
    assert abs(before - 175) < 1 and abs(after - 116) < 1
    return [after < before - 1, after > before + 1, abs(after - before) < 1]


def finite_f3():
    gaps = []
    for d in (256, 512):
        delta1 = threshold(d)
        offsets = np.arange(int(0.4 * delta1), int(0.6 * delta1))
        mean = np.cos(np.outer(offsets, frequencies(d))).mean(1)
        gaps.append(np.abs(mean - integral(offsets)).max())
        # the explanation's two parts: the endpoint term (at most 2/d) and
        # the rest (up to about 1/(pi (1 - r) d), r <= 0.6) bound the gap
        assert gaps[-1] <= 2 / d + 1 / (np.pi * 0.4 * d), (d, gaps[-1])
    ratio = gaps[0] / gaps[1]  # the gap at d over the gap at 2d
    return [
        abs(ratio - 1) < 0.2,
        abs(ratio - 2) < 0.4,
        abs(ratio - 0.5) < 0.1,
        abs(ratio - 4) < 0.8,
    ]


def rotation(t, theta, pairing="interleaved"):
    d = 2 * len(theta)
    out = np.eye(d)
    for i, angle in enumerate(t * theta):
        a, b = (2 * i, 2 * i + 1) if pairing == "interleaved" else (i, i + d // 2)
        c, s = np.cos(angle), np.sin(angle)
        out[np.ix_([a, b], [a, b])] = [[c, -s], [s, c]]
    return out


def rope_f1():
    theta = frequencies(16)
    q, k = RNG.normal(size=(2, 16))
    score = lambda m, n: (rotation(m, theta) @ q) @ (rotation(n, theta) @ k)  # noqa: E731
    equal = abs(score(3, 7) - score(7, 3)) < 1e-9
    # the cosine parts are the same: the difference is all sine terms
    return [equal, not equal, equal]


def rope_f2():
    theta = frequencies(16)
    q, k = RNG.normal(size=(2, 16))

    def score(t):
        return (rotation(t, theta) @ q) @ (rotation(t, theta, "half-split") @ k)

    at_zero = abs(score(0) - q @ k) < 1e-12
    elsewhere = [abs(score(t) - q @ k) < 1e-9 for t in (1, 2, 5, 50)]
    return [at_zero and all(elsewhere), not at_zero, at_zero and not any(elsewhere)]


def rope_f3():
    d = 16
    theta = frequencies(d)
    rows = table(np.arange(30), d, cosine_first=True)
    starts = [np.tile([1.0, 0.0], d // 2), np.zeros(d), np.tile([0.0, 1.0], d // 2)]
    return [
        all(same(rotation(t, theta) @ start, rows[t]) for t in range(30))
        for start in starts
    ]


CHECKS = {
    ("the_encoding", 1): encoding_f1,
    ("the_encoding", 2): encoding_f2,
    ("the_encoding", 3): encoding_f3,
    ("attention_is_blind_to_order", 1): symmetry_f1,
    ("attention_is_blind_to_order", 2): symmetry_f2,
    ("attention_is_blind_to_order", 3): symmetry_f3,
    ("taylor_expansion", 1): taylor_f1,
    ("taylor_expansion", 2): taylor_f2,
    ("taylor_expansion", 3): taylor_f3,
    ("complex_solution", 1): complex_f1,
    ("complex_solution", 2): complex_f2,
    ("complex_solution", 3): complex_f3,
    ("decay_integral", 1): decay_f1,
    ("decay_integral", 2): decay_f2,
    ("decay_integral", 3): decay_f3,
    ("decay_finite_d", 1): finite_f1,
    ("decay_finite_d", 2): finite_f2,
    ("decay_finite_d", 3): finite_f3,
    ("rope", 1): rope_f1,
    ("rope", 2): rope_f2,
    ("rope", 3): rope_f3,
}


def test_every_fresh_question_has_a_check():
    written = {(c, n) for c, qs in fresh().items() for n in range(1, len(qs) + 1)}
    assert written == set(CHECKS), sorted(written ^ set(CHECKS))


@pytest.mark.parametrize("key", sorted(CHECKS), ids=lambda k: f"{k[0]}-F{k[1]}")
def test_the_marked_answer_is_the_one_true_claim(key):
    """Exactly one option's claim holds, computed here, and it is the one
    marked right (``:answer:``)."""
    chapter, number = key
    answer, options = fresh()[chapter][number - 1]
    truths = CHECKS[key]()
    assert len(truths) == len(options), (key, truths)
    assert truths.count(True) == 1, (key, truths)
    assert truths.index(True) + 1 == answer, (key, truths, answer)


# ------------------------------------------------------------ the plans

#: A fresh question named in a plan: "question F2 on `clickers/rope.html`".
NAMED = re.compile(r"question (F\d+) on\s+`clickers/(\w+)\.html`", re.IGNORECASE)


def named_questions(text: str) -> list[tuple[str, int]]:
    return [(chapter, int(f[1:])) for f, chapter in NAMED.findall(text)]


def test_the_plans_clicker_rounds_name_fresh_questions_that_exist():
    """Every paragraph or table row of a plan that runs a clicker round
    names a fresh question, and every one named exists."""
    found = fresh()
    for plan in PLANS:
        text = plan.read_text()
        named = named_questions(text)
        assert named, plan.name
        for chapter, number in named:
            assert number <= len(found.get(chapter, [])), (plan.name, chapter, number)
        for block in re.split(r"\n\s*\n|\n(?=\|)|\n(?=\* )", text):
            if re.search(r"clicker (round|question)\b", block, re.IGNORECASE):
                assert named_questions(block), (plan.name, block[:200])


def test_the_plan_rule_can_fail():
    """A named question that does not exist, and a round without one."""
    assert named_questions("question F9 on `clickers/rope.html`") == [("rope", 9)]
    assert len(fresh()["rope"]) < 9
    assert named_questions("the clicker round (the decay chapter's question 2)") == []


# ------------------------------------------------------------ the sites


def words(text: str) -> list[str]:
    """The words of MyST or page text, maths and punctuation left out."""
    maths = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]", re.DOTALL)
    return re.findall(r"[A-Za-z]+", maths.sub(" ", text))


def explanation_runs() -> list[str]:
    """Runs of six words of every fresh question's explanations, as
    tests/test_editions.py reads a page (lower case, digits kept): every
    third run of each stretch of plain words between formulas, roles and
    code, less the runs the book has outside the key (the chapters and
    posenc: not evidence of a leak)."""
    import slide_comments
    from test_editions import CHAPTERS as PAGES
    from test_editions import plain, public_text

    # and what the student decks show of the chapters' slides
    shown = [
        " ".join([s.title, *(e.text for e in s.show if hasattr(e, "text"))])
        for page in PAGES
        for s in slide_comments.slides_of(page.read_text(), page.stem)
    ]
    public = public_text() + " " + plain("\n".join(shown))
    runs = []
    for questions in fresh().values():
        for _, options in questions:
            for option in options:
                why = option.partition("\n\n")[2]
                for stretch in re.split(r"\$[^$]*\$|\{[^}]*\}`[^`]*`|`[^`]*`", why):
                    found = plain(stretch).split()
                    runs += [
                        " ".join(found[i : i + 6]) for i in range(0, len(found) - 5, 3)
                    ]
    return [run for run in runs if run not in public]


def check_fresh_on_page(page: Path, chapter: str) -> None:
    """The clicker page shows the chapter's fresh questions first, F1 ...,
    each with its options' words, and no explanation."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page.read_text(), "html.parser")
    for maths in soup.select("math"):
        maths.decompose()
    sections = soup.select("section.clicker-question")
    expected = fresh()[chapter]
    assert [s["id"] for s in sections[: len(expected)]] == [
        f"F{n}" for n in range(1, len(expected) + 1)
    ]
    for section, (_, options) in zip(sections, expected, strict=False):
        assert "clicker-fresh" in section["class"]
        items = section.select("ol.clicker-options > li")
        assert len(items) == len(options)
        for item, option in zip(items, options, strict=True):
            pick = " ".join(words(option.partition("\n\n")[0]))
            assert pick in " ".join(words(item.get_text(" "))), (page.name, pick)
    from test_editions import plain

    text = plain(soup.get_text(" "))
    leaked = [run for run in explanation_runs() if run in text]
    assert not leaked, (page.name, leaked[:3])


@pytest.mark.parametrize("edition", ["default", "student"])
def test_clicker_pages_show_the_fresh_questions_without_answers(edition):
    from test_quiz import STUDENT

    site = SITE if edition == "default" else STUDENT
    if not (site / "index.html").exists():
        pytest.fail(f"no site at {site}: make book (and make student)")
    built = [c for c in fresh() if (site / "book" / f"{c}.html").is_file()]
    assert built, f"no chapter with fresh questions built in {site}"
    for chapter in built:
        check_fresh_on_page(site / "clickers" / f"{chapter}.html", chapter)


def test_the_key_gives_every_fresh_question_its_answer():
    from bs4 import BeautifulSoup

    page = SITE / "book" / "instructor" / "quizzes.html"
    if not page.is_file():
        pytest.fail(f"no answer key in {SITE}: make book")
    soup = BeautifulSoup(page.read_text(), "html.parser")
    for chapter, questions in fresh().items():
        for number, (answer, options) in enumerate(questions, start=1):
            section = soup.find(id=f"fresh-{chapter}-F{number}")
            assert section is not None, (chapter, number)
            assert section.select_one(".quiz-title").get_text() == f"Question F{number}"
            right = section.select_one(".quiz-key-right strong").get_text()
            assert right == "ABCD"[answer - 1], (chapter, number)
            assert len(section.select("dd")) == len(options)
    # the explanations are there: the leak test below searches for text
    # that the default edition has
    from test_editions import plain

    text = plain(soup.get_text(" "))
    runs = explanation_runs()
    assert len(runs) > 100
    assert all(run in text for run in runs), [r for r in runs if r not in text][:3]


def test_no_fresh_answer_or_explanation_in_the_student_edition():
    """No file of the student edition holds a run of six words of a fresh
    question's explanation, or the key's page (the right letters)."""
    from test_editions import site_texts
    from test_quiz import STUDENT

    if not (STUDENT / "index.html").exists():
        pytest.fail(f"no student edition at {STUDENT}: make student")
    assert not list(STUDENT.rglob("*quizzes*"))
    runs = explanation_runs()
    leaks = [
        (run, name) for name, text in site_texts(STUDENT) for run in runs if run in text
    ]
    assert not leaks, leaks[:5]
