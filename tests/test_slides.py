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
shown at least 20 px / 13.9 px times their design width (their 10 pt text
at 20 px), and nothing runs off the slide. A player on a slide, moved with
the keyboard, shows another frame. The console stays free of errors.

Cost: one browser, seven decks, 60 to 90 s of one core on a loaded machine.
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
#: A figure's smallest text at its design width (10 pt at 100 dpi).
FIGURE_TEXT_PX = 10 * 100 / 72
RAW_TEX = ("\\(", "\\)", "\\[", "\\]", "$$", "\\begin{", "\\frac")

#: JavaScript: what the current slide shows, measured.
MEASURE = r"""() => {
  const slide = Reveal.getCurrentSlide();
  const scale = Reveal.getScale();
  const small = [];
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const host = node.parentElement;
    if (!node.textContent.trim() || host.closest("aside.notes")) continue;
    if (host.closest("mjx-assistive-mml")) continue;
    const style = getComputedStyle(host);
    if (style.display === "none" || style.visibility === "hidden") continue;
    if (host.closest("[hidden]")) continue;
    const px = parseFloat(style.fontSize) * scale;
    if (px < 19.95) small.push(node.textContent.trim().slice(0, 30) + " " + px);
  }
  const copy = slide.cloneNode(true);
  copy.querySelectorAll("aside.notes, mjx-container, script, style")
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
    small, images, scale, overflow,
    height: box.height,
    text: copy.textContent,
    untypeset: maths.filter(m => !m.querySelector("mjx-container")).length,
  };
}"""


def test_every_required_chapter_marks_slides():
    assert REQUIRED <= set(MARKED)


def test_slide_comments_parse():
    import slides

    text = (
        "text\n<!-- slide: A title\nshow: [short, eq-x]\nnotes: |\n"
        "  Say $x$.\n-->\nmore\n"
    )
    (found,) = slides.slides_of(text)
    assert (found.title, found.show) == ("A title", ["short", "eq-x"])
    assert (found.kind, found.steps, found.optional) == ("content", False, False)
    assert found.notes.strip() == "Say $x$."
    with pytest.raises(Exception, match="unknown"):
        slides.slides_of("<!-- slide: T\nshwo: [x]\n-->\n")


def test_the_documented_example_parses():
    """The example of ``_ext/slides.py``'s docstring is a valid slide, with
    every new key."""
    import textwrap

    import slides

    doc = slides.__doc__
    start = doc.index("    <!-- slide:")
    example = textwrap.dedent(doc[start : doc.index("-->", start) + 3])
    (found,) = slides.slides_of(example, "doc")
    assert found.kind == "motivation" and found.steps and found.ask
    assert found.show == [
        slides.Text("Attention sees a *set*; where does order come from?"),
        "eq-attention",
        slides.Text("Swap two rows of $X$: the rows of the output swap."),
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
    import slides
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError) as error:
        slides.slides_of(f"<!-- slide: The title\n{body}\n-->\n", "book/ch")
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


@pytest.mark.parametrize("name", MARKED)
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
        index = h
        shown = page.evaluate(MEASURE)
        raw = [mark for mark in RAW_TEX if mark in shown["text"]]
        if raw or shown["untypeset"]:
            problems.append(f"slide {index}: raw TeX {raw} {shown['untypeset']}")
        if shown["small"]:
            problems.append(f"slide {index}: text below 20 px {shown['small']}")
        if shown["overflow"]:
            problems.append(f"slide {index}: {shown['overflow']} boxes off")
        for image in shown["images"]:
            if not image["loaded"]:
                problems.append(f"slide {index}: image {image['src']} broken")
            needed = image["design"] * MIN_TEXT_PX / FIGURE_TEXT_PX
            if image["design"] == 0 or image["shown"] < needed - 0.5:
                problems.append(
                    f"slide {index}: figure {image['shown']:.0f} px wide, "
                    f"needs {needed:.0f}"
                )
    assert seen == walk, "the right arrow skips or repeats a slide or a step"
    assert problems == []
    assert outside == []
    assert errors == []


PLAYER_DECKS = [
    name
    for name in MARKED
    if (SITE / "slides" / f"{name}.html").exists()
    # a player's element, not the stylesheet every deck links
    and 'class="posenc-explorer posenc-player"'
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
