"""What the decks of the derivation say, checked as worded (issue 21).

The decks of ``the_encoding``, ``attention_is_blind_to_order``,
``taylor_expansion`` and ``complex_solution`` (the ``<!-- slide: ...``
comments of those chapters). A review found titles, outlines and first
entries that gave away the answer to the slide's ``ask``, claims that went
beyond the chapter (every masked stack equivariant; "only the cross term
can carry m - n"; an orthogonal map on the span alone), main-path points
made only on optional slides, symbols used before they were defined, a
"predict" question shown with its answer, and overloaded slides. Each test
below reads the slide's words (and recomputes its numbers), so a reworded
slide that brings a finding back fails here. The helpers and the word limit
are those of ``tests/test_deck_claims.py`` (the other four decks).

Slides are named as the lesson plans name them: slide N is the (N - 1)-th
comment of the chapter (slide 1 is the title slide). Cost: under 1 s.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from test_deck_claims import (
    MAX_WORDS,
    ROOT,
    deck,
    everything,
    shown,
    slide,
    words,
)

import posenc

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "_ext"))

import slide_comments  # noqa: E402  (_ext/slide_comments.py)

DECKS = (
    "the_encoding",
    "attention_is_blind_to_order",
    "taylor_expansion",
    "complex_solution",
)


def players(name: str) -> set[str]:
    """The figures of a chapter that are slider players: a figure cell whose
    code builds an explorer (``widgets.SomethingExplorer(``)."""
    text = (ROOT / "book" / f"{name}.md").read_text(encoding="utf-8")
    cells = re.findall(r"```\{code-cell\}.*?\n```", text, flags=re.S)
    return {
        found[1]
        for cell in cells
        if "Explorer(" in cell and (found := re.search(r"name: (fig-[\w-]+)", cell))
    }


def first_view(s: slide_comments.Slide) -> str:
    """What shows with the slide, before any step: its title and, with
    steps, its first entry (all of it without steps)."""
    entries = s.show[:1] if s.steps else s.show
    return " ".join(
        [s.title, *(e.text for e in entries if isinstance(e, slide_comments.Text))]
    )


@pytest.mark.parametrize("name", DECKS)
def test_slides_carry_few_words(name):
    """At most MAX_WORDS words of text entries on any slide (the review
    counted up to 76); what to say goes into the notes."""
    long = [
        f"slide {number}: {words(shown(s))} words"
        for number, s in enumerate(deck(name), start=2)
        if words(shown(s)) > MAX_WORDS
    ]
    assert not long, f"{name}: " + "; ".join(long)


@pytest.mark.parametrize(
    ("name", "number", "answers"),
    [
        ("the_encoding", 6, ["peak", "ripple"]),
        ("attention_is_blind_to_order", 4, ["no position", "nowhere"]),
        ("attention_is_blind_to_order", 5, ["follow", "equivariant"]),
        ("attention_is_blind_to_order", 7, ["blind", "invariant"]),
        ("attention_is_blind_to_order", 10, ["six outputs", "all differ"]),
        ("attention_is_blind_to_order", 11, ["breaks", "not blind"]),
        ("taylor_expansion", 4, ["four", "exact"]),
        ("taylor_expansion", 5, ["cross term", "mixed"]),
        ("taylor_expansion", 6, ["only the cross", "line", "slope"]),
        ("taylor_expansion", 9, ["absolute", "leave", "cosine"]),
        ("complex_solution", 5, ["equal lengths", "equal steps"]),
        ("complex_solution", 7, ["stack", "hand", "own frequency"]),
        ("complex_solution", 9, ["wherever", "rotation", "does not depend"]),
        ("complex_solution", 12, ["inner product", "keeps"]),
    ],
)
def test_what_shows_first_does_not_answer_the_ask(name, number, answers):
    """A slide that asks a question before its next step does not give the
    answer in its title or its first entry."""
    s = slide(name, number)
    assert s.ask and s.steps
    view = first_view(s).lower()
    assert not [a for a in answers if a in view], (name, number, s.title)


@pytest.mark.parametrize(
    ("name", "answers"),
    [
        ("attention_is_blind_to_order", ["shuffle with them", "blind", "breaks"]),
        ("taylor_expansion", ["four terms", "only the cross", "cancel", "h = i"]),
        ("complex_solution", ["equal lengths", "turning at constant", "rotation"]),
    ],
)
def test_outlines_name_steps_not_results(name, answers):
    """The outline names the deck's steps as questions or topics: the
    results it named answered later slides' questions."""
    (outline,) = [s for s in deck(name) if s.kind == "outline"]
    text = shown(outline).lower()
    assert not [a for a in answers if a in text], name


@pytest.mark.parametrize("name", DECKS)
def test_a_player_is_never_a_step_and_shows_no_prediction(name):
    """A player opens showing its answer: it is not a step (an entry after
    the first of a slide with steps), its slide asks no "predict" question
    in its text or notes (the question goes on the slide before), and a
    slide without steps does not either."""
    moving = players(name)
    bad = []
    for number, s in enumerate(deck(name), start=2):
        if s.steps and moving & set(s.names[1:]):
            bad.append(f"slide {number}: a player is a step")
        if not s.steps or moving & set(s.names):
            if re.search(r"predict", shown(s) + s.notes, re.I):
                bad.append(f"slide {number}: predict with its answer on screen")
    assert not bad, f"{name}: " + "; ".join(bad)
    if name == "complex_solution":  # the question moved to the slide before
        assert moving == {"fig-clocks", "fig-offset-clocks"}
        assert (
            "Predict" in shown(slide(name, 7)) and "fig-clocks" in slide(name, 8).names
        )
        assert "angle between" in slide(name, 9).notes


def test_symmetry_recap_keeps_the_mask_caveat():
    """The recap does not claim every stack equivariant: the slide before
    shows a causal mask breaking the symmetry (the chapter's summary says
    "This covers attention without a mask")."""
    recap = shown(slide("attention_is_blind_to_order", 12))
    assert "Without a mask" in recap and "causal mask" in recap
    assert "and any stack of layers, is" not in recap


def test_symmetry_defines_the_symbols_of_its_optional_slide():
    """Slide 8 names what $s_{mn}$ and $v_n$ are on the slide, not only on
    the board."""
    text = shown(slide("attention_is_blind_to_order", 8))
    assert "values $v_n$" in text and "scores $s_{mn}$" in text


def test_a_swap_of_equal_tokens_is_a_reordering():
    """Slide 9, board: the rows {x_m + p_m, x_n + p_n} after a swap are
    {x_n + p_m, x_m + p_n}: not a reordering only when p_m != p_n *and*
    x_m != x_n. Random vectors, all four cases."""
    board = slide("attention_is_blind_to_order", 9).board
    assert r"p_m \ne p_n$ and" in board and r"x_m \ne x_n" in board
    rng = np.random.default_rng(0)
    a, b, p, q = rng.normal(size=(4, 3))

    def reordering(x_m, x_n, p_m, p_n):
        before = sorted(map(tuple, [x_m + p_m, x_n + p_n]))
        after = sorted(map(tuple, [x_n + p_m, x_m + p_n]))
        return np.allclose(before, after, rtol=0, atol=1e-15)

    assert reordering(a, a, p, q)  # equal tokens
    assert reordering(a, b, p, p)  # one shared vector
    assert not reordering(a, b, p, q)  # both differ


def test_taylor_single_position_terms_are_not_said_to_carry_nothing():
    """Slide 6: the single-position terms can carry m - n as a line
    kappa (m - n) (its notes: "yes, but only as a slope"; slide 7: kappa is
    free on a finite context), so the title does not say only the cross
    term can carry m - n."""
    s = slide("taylor_expansion", 6)
    assert not s.title.lower().startswith("only")
    assert r"\kappa(m - n)" in shown(s) and "only as a slope" in s.notes


def test_taylor_shows_the_gram_matrices_and_its_numbers_hold():
    """Slide 10 shows fig-sines-pairs (the engine fits it at 1.29 times its
    design size). Its notes: with one frequency 0.5 over positions 0..23,
    sines alone vary by more than 0.4 along every diagonal of two or more
    entries; with the paper's 32 frequencies as sines alone,
    <p_0, p_3> = 0 and <p_100, p_103> = 8.12, the gap being the m + n part."""
    s = slide("taylor_expansion", 10)
    assert s.names == ["fig-sines-pairs"]
    assert "more than 0.4" in s.notes and "8.12" in s.notes
    t = np.arange(24)
    sines = np.sin(0.5 * t)[:, None] * np.sin(0.5 * t)[None, :]
    spreads = [np.ptp(np.diagonal(sines, k)) for k in range(-22, 23)]
    assert min(spreads) > 0.4
    theta = posenc.frequencies(64)

    def sines_alone(m, n):
        return np.sin(m * theta) @ np.sin(n * theta)

    assert sines_alone(0, 3) == 0 and round(sines_alone(100, 103), 2) == 8.12
    gap = 0.5 * np.cos(3 * theta).sum() - 0.5 * np.cos(203 * theta).sum()
    assert abs(sines_alone(100, 103) - sines_alone(0, 3) - gap) < 1e-12


def test_main_path_says_what_the_optional_theorem_proves():
    """The main path proves necessity only for the stronger complex
    condition; slide 4 says in one line what optional slide 12 proves (its
    notes name the slide; its text does not, since the session handout,
    built from slides' text, has no optional slides), and every "optional
    slide N" of these decks is an optional slide of the complex deck with
    that number."""
    complex_deck = deck("complex_solution")
    main = [s for s in complex_deck if not s.optional]
    assert any(
        "necessary" in shown(s)
        and "change of axes" in shown(s)
        and "optional slide 12" in s.notes
        and "optional slide" not in shown(s)
        for s in main
    )
    assert not any("last section" in everything(s) for s in complex_deck)
    for name in ("taylor_expansion", "complex_solution"):
        for s in deck(name):
            for number in re.findall(r"optional slide (\d+)", everything(s)):
                target = complex_deck[int(number) - 2]
                assert target.optional and target.title == "Nothing else solves it"
    assert "optional slide 12" in slide("taylor_expansion", 9).notes


def test_complex_motivation_gives_the_reason_for_pairs():
    """Slide 2: a coordinate alone can be constant or flip sign (the
    theorem allows one of each); a sine of any other frequency leaves a
    part in m + n that other coordinates must cancel, so up to a change of
    axes coordinates come in pairs, said on the slide. For a
    coordinate alone, p_m p_n = g(m - n) forces |p_m| fixed and
    p_m / p_(m-1) = g(1)/g(0) in {1, -1}."""
    text = shown(slide("complex_solution", 2))
    assert "$m + n$" in text and "So coordinates come in pairs" not in text
    for sequence in ([2.0] * 6, [2.0 * (-1) ** m for m in range(6)]):
        gram = np.outer(sequence, sequence)
        for k in range(6):
            assert np.ptp(np.diagonal(gram, k)) == 0
    sine = np.sin(0.5 * np.arange(6))
    assert np.ptp(np.diagonal(np.outer(sine, sine), 1)) > 0.1


def test_complex_outline_notes_count_the_players_right():
    """The clock player belongs to the stacking step (slide 8); the shift
    step has one player (slide 10)."""
    notes = slide("complex_solution", 3).notes
    assert "two players" not in notes
    moving = players("complex_solution")
    on = {
        n
        for n, s in enumerate(deck("complex_solution"), start=2)
        if moving & set(s.names)
    }
    assert on == {8, 10}


def test_the_shift_is_orthogonal_on_the_span_then_extended():
    """Slide 12: p_m -> p_(m+1) is linear on the span S of the p_m, keeps
    lengths and maps S onto itself; the identity on the rest of R^d makes it
    an orthogonal U. Checked on a solution of the goal with two circles, a
    frozen and a flipping hand, seen through a random orthogonal map of R^7
    (so S, of dimension 6, is not all of R^7)."""
    text = shown(slide("complex_solution", 12))
    assert "extended to an orthogonal" in text and "span" in text
    assert "onto itself" in slide("complex_solution", 12).board
    rng = np.random.default_rng(3)
    q, _ = np.linalg.qr(rng.normal(size=(7, 7)))
    m = np.arange(12)
    raw = np.stack(
        [
            2 * np.cos(0.7 * m), 2 * np.sin(0.7 * m),
            0.5 * np.cos(0.2 * m), 0.5 * np.sin(0.2 * m),
            np.ones_like(m, dtype=float), 0.3 * (-1.0) ** m,
            np.zeros(12),
        ],
        axis=1,
    )  # fmt: skip
    p = raw @ q.T
    gram = p @ p.T
    for k in range(12):  # the goal holds
        assert np.ptp(np.diagonal(gram, k)) < 1e-12
    basis = np.linalg.svd(p[:-1])[2][:6]  # orthonormal rows spanning S
    shift = np.linalg.lstsq(p[:-1], p[1:], rcond=None)[0].T  # p_(m+1) = A p_m
    on_span = basis @ shift @ basis.T  # A restricted to S, in that basis
    np.testing.assert_allclose(shift @ basis.T, basis.T @ on_span, atol=1e-10)
    np.testing.assert_allclose(on_span.T @ on_span, np.eye(6), atol=1e-10)
    rest = np.eye(7) - basis.T @ basis
    u = basis.T @ on_span @ basis + rest
    np.testing.assert_allclose(u.T @ u, np.eye(7), atol=1e-10)
    np.testing.assert_allclose(p[1:], p[:-1] @ u.T, atol=1e-10)


def test_complex_clock_notes():
    """Slide 8, notes: at d = 32, base 1e4, the last four hands turn by
    less than a degree in ten positions (the fifth from last by more);
    at base 10 the slowest turns 10^(-(d-2)/d) = 0.115 rad a position."""
    notes = slide("complex_solution", 8).notes
    assert "last four" in notes and "0.115" in notes
    turned = np.degrees(10 * posenc.frequencies(32, 1e4))
    assert (turned[-4:] < 1).all() and turned[-5] > 1
    assert round(posenc.frequencies(32, 10.0)[-1], 3) == 0.115


def test_encoding_deck_uses_no_undefined_h_and_no_untaught_layouts():
    """The encoding deck never defines H, so no slide text uses it; its
    recap does not claim "any column order" on the slide (the layouts are
    taught by the heat map's switch, in the notes); slide 4's title holds
    in every layout (in "halves" the right half is the cosines of all
    pairs, fast ones too)."""
    the_deck = deck("the_encoding")
    assert not any(re.search(r"\bH\b", shown(s)) for s in the_deck)
    assert "column order" not in shown(the_deck[-1])
    title = slide("the_encoding", 4).title.lower()
    assert "left" not in title and "right" not in title
    assert "halves" in slide("the_encoding", 4).notes
