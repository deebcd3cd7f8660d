"""The slide decks of the built site (``_ext/slides.py``), in offline Chromium.

Every chapter that marks slides (``<!-- slide: ...`` comments in its source)
has a deck ``slides/<name>.html`` in the site (``POSENC_SITE``, else
``_build/html``), and every derivation chapter and the long-context chapter
mark slides (REQUIRED).
Each deck is opened at 1024 x 768 with every request off 127.0.0.1
blocked and counted, then walked with the keyboard alone (the
right arrow, from the first slide): each slide is reached, in order, and
each step (reveal.js fragment) of a slide with ``steps`` shows in order
before the next slide; on each slide, with all its steps shown,
the maths is typeset (no raw TeX), every text is at least 20 px, figures are
shown at least ``slides.MIN_FIGURE_SCALE`` times their design width (their
10 pt text at 17.4 px or more: a tall figure is shrunk to fit, else
FIGURE_SCALE gives 24.5 px), and nothing runs off the slide. A player on a
slide, moved with the keyboard, shows another frame. The console stays free of errors.

The decks must lecture (issue 21; the rules are those of ``_ext/slides.py``'s
docstring that a build does not enforce, so that decks can be fixed one by
one): read from the chapters' sources (``slide_comments.slides_of``) and from the
built decks, every deck opens with a ``motivation`` slide (slide 2) then an
``outline`` slide (slide 3) and closes with a ``recap`` slide; titles have at
most ``MAX_TITLE`` characters; every figure on a slide has a caption that
says more than its number; every slide that shows an equation has ``board``;
``ask`` only with ``steps``, and ``steps`` only with two entries or more.
Every slide measured in Chromium with all its steps shown (room, figure
text, captions, contrast): ``tests/test_slides_measured.py``. The contrast
of the text inside the figures a deck shows is checked in
``tests/test_slide_figures.py``.

Cost: one browser, seven decks, 60 to 90 s of one core on a loaded machine
for the walk, as much again for the layout and contrast of every slide.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import sitetools  # noqa: E402  (scripts/sitetools.py)
import slide_comments  # noqa: E402  (_ext/slide_comments.py)
import slides  # noqa: E402  (_ext/slides.py)
import tiers  # noqa: E402  (tests/tiers.py)

SITE = sitetools.site_dir()
MARKED = sorted(
    path.stem
    for path in (ROOT / "book").glob("*.md")
    if "<!-- slide:" in path.read_text(encoding="utf-8")
)
#: The chapters that must have a deck (issue 12): every derivation
#: chapter and the long-context chapter (whose player is too tall for a
#: slide at projector size: its deck shows the chapter's tables, and a
#: speaker note sends to the explorer on the page).
REQUIRED = {
    "the_encoding",
    "attention_is_blind_to_order",
    "taylor_expansion",
    "complex_solution",
    "decay_integral",
    "decay_finite_d",
    "long_context",
}
VIEWPORT = {"width": 1024, "height": 768}
#: The smallest text on a slide, in CSS px of a 1024 x 768 screen.
MIN_TEXT_PX = 20
RAW_TEX = ("\\(", "\\)", "\\[", "\\]", "$$", "\\begin{", "\\frac")
#: The smallest text entry (a bullet of ``show``) on a 1024 x 768 screen.
MIN_POINT_PX = 24
#: A deck's slides by chapter, from the chapters' sources.
DECKS = {
    name: slide_comments.slides_of((ROOT / "book" / f"{name}.md").read_text(), name)
    for name in MARKED
}

#: JavaScript: what the current slide shows, measured.
MEASURE = r"""() => {
  const slide = Reveal.getCurrentSlide();
  const scale = Reveal.getScale();
  const small = [];
  const points = [];
  const code = [];
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const host = node.parentElement;
    if (!node.textContent.trim() || host.closest("aside.notes")) continue;
    // the maths' own sizes (scripts are smaller) are TeX's, as MathJax drew
    // them (its glyphs were no text nodes): not measured here
    if (host.closest("math")) continue;
    const style = getComputedStyle(host);
    if (style.display === "none" || style.visibility === "hidden") continue;
    if (host.closest("[hidden]")) continue;
    const px = parseFloat(style.fontSize) * scale;
    if (px < 19.95) small.push(node.textContent.trim().slice(0, 30) + " " + px);
    if (host.closest("ul.posenc-points") && px < 23.95)
      points.push(node.textContent.trim().slice(0, 30) + " " + px);
    if (host.closest("pre") && px < 23.95)
      code.push(node.textContent.trim().slice(0, 30) + " " + px);
  }
  const copy = slide.cloneNode(true);
  copy.querySelectorAll("aside.notes, math, script, style")
    .forEach(e => e.remove());
  const images = [...slide.querySelectorAll("img")].map(img => ({
    src: img.getAttribute("src").slice(0, 60),
    shown: img.getBoundingClientRect().width,
    design: Number(img.dataset.designWidth || 0),
    loaded: img.complete && img.naturalWidth > 0,
  }));
  const maths = [...slide.querySelectorAll(".math")];
  const box = slide.getBoundingClientRect();
  const overflow = [...slide.querySelectorAll("*")]
    .filter(e => !e.closest("aside.notes"))
    .map(e => e.getBoundingClientRect())
    .filter(r => r.height > 0 && r.bottom > 768 + 1).length;
  return {
    small, points, code, images, scale, overflow,
    height: box.height,
    text: copy.textContent,
    untypeset: maths.filter(m => !m.querySelector("math")).length,
  };
}"""


def test_every_required_chapter_marks_slides():
    assert REQUIRED <= set(MARKED)


def test_slide_comments_parse():
    text = (
        "text\n<!-- slide: A title\nshow: [short, eq-x]\nnotes: |\n"
        "  Say $x$.\n-->\nmore\n"
    )
    (found,) = slide_comments.slides_of(text)
    assert (found.title, found.show) == ("A title", ["short", "eq-x"])
    assert (found.kind, found.steps, found.optional) == ("content", False, False)
    assert found.notes.strip() == "Say $x$."
    with pytest.raises(Exception, match="unknown"):
        slide_comments.slides_of("<!-- slide: T\nshwo: [x]\n-->\n")


def test_the_documented_example_parses():
    """The example of ``_ext/slide_comments.py``'s docstring is a valid
    slide, with every new key."""
    import textwrap

    doc = slide_comments.__doc__
    start = doc.index("    <!-- slide:")
    example = textwrap.dedent(doc[start : doc.index("-->", start) + 3])
    (found,) = slide_comments.slides_of(example, "doc")
    assert found.kind == "motivation" and found.steps and found.ask
    assert found.show == [
        slide_comments.Text("Attention sees a *set*; where does order come from?"),
        "eq-attention",
        slide_comments.Text("Swap two rows of $X$: the rows of the output swap."),
    ]
    assert found.names == ["eq-attention"]
    assert "x_m^\\top" in found.board


#: Malformed slides: the build stops with an error naming the chapter, the
#: slide and the rule.
MALFORMED = {
    "ask: Why?\nshow: [a, b]": "'ask' needs 'steps: true'",
    "kind: lecture": "kind is one of",
    "kind: content": "kind is one of",
    "optional: maybe": "optional is true or false",
    "steps: 2": "steps is true or false",
    "show:\n  - txt: a": "the one key 'text'",
    "show:\n  - text: a\n    more: b": "the one key 'text'",
    "show:\n  - text: ''": "text is Markdown",
    "show:\n  - 3": "a show entry is a name",
    "show:\n  - text: Goal: a": "not YAML",
    "board: [a]": "board is text",
    "shwo: [x]": "unknown",
}


@pytest.mark.parametrize("body", MALFORMED)
def test_malformed_slides_stop_the_build(body):
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError) as error:
        slide_comments.slides_of(f"<!-- slide: The title\n{body}\n-->\n", "book/ch")
    message = str(error.value)
    assert message.startswith("book/ch: slide 'The title': "), message
    assert MALFORMED[body] in message


@pytest.fixture(scope="module")
def browser(chromium):
    """The process's one Chromium (tests/conftest.py) and the served site."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"no built site at {SITE}: build the book first: make book")
    with sitetools.serve(SITE) as url:
        yield chromium, url


def open_deck(browser, name: str):
    chromium, url = browser
    outside, errors = [], []
    context = chromium.new_context(viewport=VIEWPORT)

    def route(request_route) -> None:
        if request_route.request.url.startswith(url):
            request_route.continue_()
        else:
            outside.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    response = page.goto(f"{url}slides/{name}.html", wait_until="load")
    assert response is not None and response.ok
    assert page.evaluate(sitetools.WAIT_FOR_MATHS) is not None, "no MathJax"
    page.wait_for_function("Reveal.isReady()")
    return page, outside, errors


#: JavaScript: where the deck is: the slide, and how many of its steps show.
WHERE = """() => {
  const slide = Reveal.getCurrentSlide();
  return [Reveal.getIndices().h,
          slide.querySelectorAll(".fragment.visible").length];
}"""
#: JavaScript: how many steps (fragments) each slide has.
STEPS = """() => Reveal.getSlides().map(
  s => s.querySelectorAll(".fragment").length)"""


@pytest.mark.parametrize("name", tiers.sampled(MARKED, tiers.DECKS))
def test_deck_by_keyboard(browser, name):
    """The right arrow shows each slide's steps in order, then the next
    slide; each slide is measured once all its steps show."""
    page, outside, errors = open_deck(browser, name)
    total = page.evaluate("Reveal.getTotalSlides()")
    expected = (SITE / "slides" / f"{name}.html").read_text().count("<section")
    assert total == expected >= 2
    steps = page.evaluate(STEPS)
    walk = [(h, shown) for h in range(total) for shown in range(steps[h] + 1)]
    problems = []
    seen = []
    for press, (h, shown) in enumerate(walk):
        if press:
            page.keyboard.press("ArrowRight")
        page.wait_for_timeout(50)
        seen.append(tuple(page.evaluate(WHERE)))
        if shown < steps[h]:
            continue
        page.wait_for_timeout(250)  # a step fades in (0.2 s)
        index = h + 1  # as the plans number slides: the title slide is 1
        shown = page.evaluate(MEASURE)
        raw = [mark for mark in RAW_TEX if mark in shown["text"]]
        if raw or shown["untypeset"]:
            problems.append(f"slide {index}: raw TeX {raw} {shown['untypeset']}")
        if shown["small"]:
            problems.append(f"slide {index}: text below 20 px {shown['small']}")
        if shown["points"]:
            problems.append(f"slide {index}: bullets below 24 px {shown['points']}")
        if shown["code"]:
            problems.append(f"slide {index}: code below 24 px {shown['code']}")
        if shown["overflow"]:
            problems.append(f"slide {index}: {shown['overflow']} boxes off")
        for image in shown["images"]:
            if not image["loaded"]:
                problems.append(f"slide {index}: image {image['src']} broken")
            # a tall figure may be shrunk to fit, its text down to 17.4 px
            needed = image["design"] * slides.MIN_FIGURE_SCALE
            if image["design"] == 0 or image["shown"] < needed - 0.5:
                problems.append(
                    f"slide {index}: figure {image['shown']:.0f} px wide, "
                    f"needs {needed:.0f}"
                )
    assert seen == walk, "the right arrow skips or repeats a slide or a step"
    assert problems == []
    assert outside == []
    assert errors == []


#: JavaScript: where a Tab stop is: for the focused
#: element, the index of the slide that holds it (-1: outside every slide).
FOCUS_SLIDE = """() => {
  const section = document.activeElement.closest('.slides > section');
  return section ? Reveal.getSlides().indexOf(section) : -1;
}"""


@pytest.mark.parametrize("name", tiers.sampled(MARKED, tiers.DECKS))
def test_tab_stays_on_the_current_slide(browser, name):
    """Tab from slide 5 (as the plans number slides; the last slide in a
    shorter deck) stops only on that slide's controls and formulas (or
    reveal.js's own controls), never on a hidden neighbouring slide."""
    page, outside, errors = open_deck(browser, name)
    index = min(4, page.evaluate("Reveal.getTotalSlides()") - 1)
    page.evaluate(f"Reveal.slide({index}, 0, 1000)")
    page.wait_for_timeout(300)
    page.evaluate("document.activeElement.blur()")
    stops = []
    for _ in range(12):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUS_SLIDE))
    assert page.evaluate("Reveal.getIndices().h") == index
    assert [s for s in stops if s not in (index, -1)] == [], stops
    assert errors == []


PLAYER_DECKS = [
    name
    for name in MARKED
    if (SITE / "slides" / f"{name}.html").exists()
    # a player's element, not the stylesheet every deck links
    and 'class="posenc-explorer posenc-player'
    in (SITE / "slides" / f"{name}.html").read_text()
]


@pytest.mark.parametrize("name", PLAYER_DECKS or ["(no player)"])
def test_player_in_a_slide_moves(browser, name):
    if name == "(no player)":
        pytest.fail("no deck has a slider player")
    page, outside, errors = open_deck(browser, name)
    index = page.evaluate(
        """() => Reveal.getSlides().findIndex(
             s => s.querySelector('.posenc-player'))"""
    )
    page.evaluate(f"Reveal.slide({index})")
    player = page.locator(".present .posenc-player").first
    slider = player.locator("input[type=range]").first
    frame = player.locator("img.posenc-frame")
    before = frame.get_attribute("src")
    slider.focus()
    key = "ArrowLeft" if slider.evaluate("s => s.value === s.max") else "ArrowRight"
    slider.press(key)
    page.wait_for_function(
        """([img, old]) => img.getAttribute('src') !== old
             && img.complete && img.naturalWidth > 0""",
        arg=[frame.element_handle(), before],
    )
    assert re.search(r"_static/explorers/\w+/[\d_]+\.png", frame.get_attribute("src"))
    # the keyboard moved the slider, not the deck
    assert page.evaluate("Reveal.getIndices().h") == index
    assert outside == []
    assert errors == []


# ------------------------------------------------ decks that lecture (issue 21)
# From the chapters' sources: slide N + 1 of a deck is its N-th comment.


def _numbered(name: str):
    """(number as the deck shows it, slide) for the chapter's slides."""
    return enumerate(DECKS[name], start=2)


@pytest.mark.parametrize("name", MARKED)
def test_deck_opens_with_motivation_and_outline_and_closes_with_recap(name):
    """Slide 2 is ``kind: motivation``, slide 3 ``kind: outline``, the last
    slide ``kind: recap`` (slide 1 is the title slide)."""
    kinds = [slide.kind for slide in DECKS[name]]
    assert len(kinds) >= 3, f"{name}: {len(kinds)} slides after the title"
    assert (kinds[0], kinds[1], kinds[-1]) == ("motivation", "outline", "recap"), (
        f"{name}: slides 2, 3 and {len(kinds) + 1} are {kinds[0]}, {kinds[1]} "
        f"and {kinds[-1]}"
    )


@pytest.mark.parametrize("name", MARKED)
def test_slide_titles_are_short(name):
    """Every title has at most ``slide_comments.MAX_TITLE`` (40) characters, as
    written in the comment (maths counts as its TeX)."""
    long = [
        f"slide {number} {slide.title!r}: {len(slide.title)} characters"
        for number, slide in _numbered(name)
        if len(slide.title) > slide_comments.MAX_TITLE
    ]
    assert not long, "\n".join([f"{name}:", *long])


def _shows_an_equation(slide) -> bool:
    return any(
        entry.startswith("eq-") if isinstance(entry, str) else "$$" in entry.text
        for entry in slide.show
    )


@pytest.mark.parametrize("name", MARKED)
def test_a_slide_that_shows_an_equation_has_board_work(name):
    """A slide showing an equation (a name ``eq-...``, or ``$$...$$`` in a
    text entry) has ``board``; the built deck agrees (below)."""
    missing = [
        f"slide {number} {slide.title!r}"
        for number, slide in _numbered(name)
        if _shows_an_equation(slide) and not slide.board.strip()
    ]
    assert not missing, "\n".join([f"{name}:", *missing])


@pytest.mark.parametrize("name", MARKED)
def test_steps_have_entries_to_step_through_and_ask_has_steps(name):
    """A slide with ``steps: true`` shows at least two entries (one step
    after the first); ``ask`` comes only with ``steps`` (the parser already
    refuses it otherwise: checked here on the parsed deck too)."""
    wrong = [
        f"slide {number} {slide.title!r}: "
        + ("steps with one entry" if slide.steps else "ask without steps")
        for number, slide in _numbered(name)
        if (slide.steps and len(slide.show) < 2) or (slide.ask and not slide.steps)
    ]
    assert not wrong, "\n".join([f"{name}:", *wrong])


# From the built decks.

#: A figure's number as a caption starts, "Fig. 3.2 ".
FIGURE_NUMBER = re.compile(r"^\s*Fig\.\s*[\d.]+\s*")


def built_deck(name: str):
    from bs4 import BeautifulSoup

    path = SITE / "slides" / f"{name}.html"
    assert path.exists(), f"no deck {path}: build the book first"
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@pytest.mark.parametrize("name", MARKED)
def test_built_deck_has_the_kinds_of_its_chapter(name):
    """The built deck's sections carry ``data-kind``: the title slide, then
    the kinds of the chapter's comments, in order (a deck built from an
    older chapter, or by an older engine, fails here)."""
    kinds = [s.get("data-kind") for s in built_deck(name).find_all("section")]
    assert kinds == ["title"] + [slide.kind for slide in DECKS[name]]
    optional = [
        s.get("data-slide")
        for s in built_deck(name).find_all("section")
        if s.get("data-optional") == "true" and not s.find(class_="posenc-badge")
    ]
    assert optional == [], "an optional slide without its badge"


@pytest.mark.parametrize("name", MARKED)
def test_every_figure_on_a_slide_has_a_caption(name):
    """Every image on a slide stands in a ``<figure>`` with a caption, and
    the caption says more than "Fig. N.M", on the slide (its number and
    first sentence) and in the speaker notes (all of it)."""
    wrong = []
    for section in built_deck(name).find_all("section"):
        where = f"slide {int(section['data-slide']) + 1}"
        body = section.find(class_="posenc-slide-body")
        if body is None:
            continue
        captions = {}
        for caption in section.select("aside.notes .posenc-caption"):
            text = caption.get_text(" ", strip=True)
            number = FIGURE_NUMBER.match(text)
            if number:
                captions[number.group(0).strip()] = text[number.end() :].strip()
        for image in body.find_all("img"):
            figure = image.find_parent("figure")
            number = figure and figure.select_one("figcaption .caption-number")
            if number is None:
                wrong.append(f"{where}: an image without a numbered caption")
                continue
            key = " ".join(number.get_text(" ", strip=True).split())
            if not captions.get(key):
                wrong.append(f"{where}: {key} has no caption beyond its number")
            shown = figure.select_one("figcaption").get_text(" ", strip=True)
            if len(shown) <= len(number.get_text(" ", strip=True)) + 3:
                wrong.append(f"{where}: the slide shows only {key}, no caption")
    assert not wrong, "\n".join([f"{name}:", *wrong])


@pytest.mark.parametrize("name", MARKED)
def test_built_slides_with_display_maths_have_board_work(name):
    """A slide whose body shows display maths (``div.math``) has the "Board
    work" heading in its notes."""
    missing = [
        f"slide {int(section['data-slide']) + 1}"
        for section in built_deck(name).find_all("section")
        if section.select(".posenc-slide-body div.math")
        and not section.select("aside.notes h3.posenc-board")
    ]
    assert not missing, "\n".join([f"{name}:", *missing])


def test_display_maths_inside_a_text_entry_is_typeset() -> None:
    """``$$...$$`` in the middle of a text entry reaches MathJax as display
    maths (``\\[...\\]``), not as bare TeX (it once came out undelimited)."""
    rendered = slides._text_html(r"Scores: $$S = QK^\top$$ then $x$.")
    assert r'<span class="math display">\[S = QK^\top\]</span>' in rendered
    assert r'<span class="math">\(x\)</span>' in rendered


def test_a_player_on_a_handout_is_one_figure_named_by_its_values() -> None:
    """On paper a player keeps "Figure for <values>." and loses the live
    note and what the sliders would do on a screen."""
    from bs4 import BeautifulSoup

    sys.path.insert(0, str(ROOT))
    import io

    import matplotlib

    from posenc import static

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    png = io.BytesIO()
    Figure(figsize=(0.2, 0.2)).savefig(png, format="png")
    slider = static.Slider("m", "m", ("0", "6"), 1)
    markup = static.player_html("demo", png.getvalue(), "a figure", [slider])
    printed = slides._plain(BeautifulSoup(markup, "html.parser")).get_text(" ")
    assert "Figure for m = 6." in printed
    assert "JavaScript" not in printed and "sliders" not in printed
