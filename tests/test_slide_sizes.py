"""Every text on a slide is readable from the back of a hall (issue 21).

A deck (``_ext/slides.py``) is 1024 x 768; reveal.js shows it at 0.98 of
that size on a 1024 x 768 screen (its margin). Each deck of the built site
(``POSENC_SITE``, else ``_build/html``) is opened in Chromium at 1024 x 768
(``test_slides.open_deck``) and every slide shown with all its steps
(``test_slides_measured.SHOW_ALL``); then every text the slide draws is measured:
its computed font size times reveal.js's scale must be at least
:data:`MIN_TEXT_PX` (24 px; 12 px in a screenshot scaled to 50 %, what the
back row of a hall reads). That is every text node in the slide (title,
bullets, figure captions, a player's slider labels, readouts and buttons,
code, table cells) and every formula (``math``: its body size; the browser
draws sub- and superscripts at 71 % of it, as TeX does).
Left out, as the brief of issue 21 says: the speaker notes, reveal.js's
slide number and controls (outside the slide), text that is not drawn
(``display: none``, ``visibility: hidden``, ``hidden``) or visually hidden
(a box of one pixel or less).

The text inside figures' pictures is measured by
``test_slides_measured.test_figure_text_on_a_slide_is_large_enough_for_a_hall``.

Cost: one deck opened per deck, a few seconds each.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
import test_slides
import test_slides_measured
import tiers

# ``browser``: test_slides's fixture (its Chromium and the served site)
from test_slides import MARKED, browser, open_deck  # noqa: F401
from test_slides_measured import SHOW_ALL

ROOT = Path(__file__).resolve().parents[1]
#: The smallest text on a slide, in CSS px of a 1024 x 768 screen.
MIN_TEXT_PX = 24

#: JavaScript: every text the current slide draws that is smaller than
#: ``least`` px on the screen: its start, its size and what holds it.
TEXT_SIZES = r"""(least) => {
  const slide = Reveal.getCurrentSlide();
  const scale = Reveal.getScale();
  const small = [];
  const hidden = element =>
    element.closest("aside.notes, [hidden]") !== null;
  const drawn = element => {
    for (let e = element; e && e !== slide; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden") return false;
    }
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  };
  const check = (element, text) => {
    const px = parseFloat(getComputedStyle(element).fontSize) * scale;
    if (px < least - 0.05) {
      const where = element.closest(
        "figcaption, .posenc-controls, pre, table, ul, h2, .posenc-badge, "
        + "div.math, .math") || element;
      small.push({text: text.trim().slice(0, 40), px: Math.round(px * 10) / 10,
                  tag: where.tagName.toLowerCase()
                    + (where.className && typeof where.className === "string"
                       ? "." + where.className.split(" ")[0] : "")});
    }
  };
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const host = node.parentElement;
    if (!node.textContent.trim() || hidden(host) || host.closest("math"))
      continue;
    if (!drawn(host)) continue;
    check(host, node.textContent);
  }
  for (const maths of slide.querySelectorAll("math")) {
    if (hidden(maths) || !drawn(maths)) continue;
    check(maths, "(maths) " + (maths.closest(".math")?.dataset.tex || ""));
  }
  return small;
}"""


#: JavaScript: the boxes of the current slide that cut what they hold (a
#: line of code or an equation wider than its box, which scrolls or clips
#: it): their tag and by how many deck px, across and down.
CLIPPED = r"""() => {
  const slide = Reveal.getCurrentSlide();
  const cut = [];
  for (const e of slide.querySelectorAll(".posenc-slide-body *")) {
    // inside a formula: the browser's MathML layout (the formula's own box
    // is measured, as any other)
    if (e.closest("aside.notes") || e.parentElement.closest("math")) continue;
    const style = getComputedStyle(e);
    const across = style.overflowX !== "visible"
      ? e.scrollWidth - e.clientWidth : 0;
    // down: code only (a formula's box may be a few px shorter than its
    // depths and heights, with nothing cut)
    const down = style.overflowY !== "visible" && e.matches("pre, pre *")
      ? e.scrollHeight - e.clientHeight : 0;
    if (across > 1 || down > 1)
      cut.push(`${e.tagName.toLowerCase()}.${e.className} cuts ${across} x ${down}`
               + ` px: ${e.textContent.trim().slice(0, 30)}`);
  }
  return cut;
}"""


def small_texts(
    served, name: str, least: float = MIN_TEXT_PX
) -> tuple[list[str], list[str]]:
    """Each text below ``least`` px on the deck's slides, every step shown,
    as "slide N: <holder> <size> px <text>" (the title slide is 1); and
    each box that cuts what it holds (``CLIPPED``). ``served`` is the
    fixture ``browser`` of test_slides (a Chromium and the site's URL)."""
    page, _, errors = open_deck(served, name)
    found, cut = [], []
    for h in range(page.evaluate("Reveal.getTotalSlides()")):
        assert page.evaluate(SHOW_ALL, h) == 0, f"{name} slide {h + 1}"
        page.wait_for_timeout(30)
        for text in page.evaluate(TEXT_SIZES, least):
            found.append(
                f"slide {h + 1}: {text['tag']} {text['px']} px {text['text']!r}"
            )
        cut += [f"slide {h + 1}: {box}" for box in page.evaluate(CLIPPED)]
    page.context.close()
    assert errors == []
    return found, cut


@pytest.mark.parametrize("name", tiers.sampled(MARKED, tiers.DECKS))
def test_every_text_on_a_slide_is_large_enough_for_a_hall(browser, name):  # noqa: F811
    """At 1024 x 768, on every slide with every step shown, every text the
    slide draws (see the module's docstring) is at least MIN_TEXT_PX, and
    no box cuts what it holds (a line of code or an equation too wide for
    it: ``CLIPPED``)."""
    small, cut = small_texts(browser, name)
    assert not small, "\n".join([f"{name}: text under {MIN_TEXT_PX} px", *small])
    assert not cut, "\n".join([f"{name}: boxes that cut their content", *cut])


# ------------------------------------------- static figures drawn for a slide


def _slide_figures():
    sys.path.insert(0, str(ROOT))
    from posenc.figures_slides import SLIDE_FIGURES

    return SLIDE_FIGURES


@pytest.mark.parametrize("name", sorted(_slide_figures()))
def test_a_figure_drawn_for_a_slide_fits_at_projector_size(name):
    """Each figure of ``posenc.figures_slides.SLIDE_FIGURES``, saved as the
    build saves it (``slide_forms.slide_figure``), fits under a slide's
    title at ``slides.FIGURE_SCALE`` (1.8) times its design size with a
    caption of two lines (``slides.FIGURE_ROOM`` less 64 px) and in the
    slide's width; its texts have contrast (``test_slide_figures``); the
    chapter's slide that shows it is the one the deck measures at 24 px
    (``test_slides_measured.NO_ROOM`` does not list it)."""
    import matplotlib

    matplotlib.use("Agg")
    import slide_forms
    import slides
    from test_slide_figures import low_contrast_texts

    figure = _slide_figures()[name]()
    with tempfile.TemporaryDirectory() as folder:
        path = slide_forms.slide_figure(Path(folder), name)
        width, height = slides.png_design_size(path)
    big = slides.FIGURE_SCALE
    assert width * big <= slides.WIDTH - slides.PADDING, (name, width)
    assert height * big <= slides.FIGURE_ROOM - 64, (name, height)
    assert low_contrast_texts(figure) == []
    shown = [
        (deck, number)
        for deck, deck_slides in test_slides.DECKS.items()
        for number, slide in enumerate(deck_slides, start=2)
        if name in slide.names
    ]
    assert shown, f"no slide shows {name}"
    assert not set(shown) & set(test_slides_measured.NO_ROOM), shown
