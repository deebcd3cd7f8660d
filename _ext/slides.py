r"""Slides and handouts from the chapters themselves (issues 12 and 21).

A chapter marks each slide of its lecture with a comment in its source
(``<!-- slide: Title`` then YAML, then ``-->``); the comments' format, its
keys and rules, and the reading of a chapter's slides are in
``_ext/slide_comments.py``. This extension writes the decks and handouts
from them.

After each HTML build, for every chapter with such comments:

* ``slides/<name>.html``: a reveal.js deck, 1024 x 768. reveal.js is
  vendored from the npm registry (``_ext/vendor/revealjs``, ``make
  vendor-reveal``) and copied to ``_static/revealjs``; the maths is
  rendered with the site's (``_ext/prerender_maths.py``, after this).
  Figures are shown at :data:`FIGURE_SCALE` times their design width
  where the slide has room, so their smallest text (10 pt, 13.9 px at the
  design width, ``posenc.plots.TEXT``) is 24 px on a 1024 x 768 screen
  (:data:`FIGURE_TEXT_PX`); a figure too tall for a slide at that scale,
  or on a slide whose other entries take the room (the deck's script
  ``_static/posenc-slides-fit.js`` measures it), is shrunk to fit, down to
  :data:`MIN_FIGURE_SCALE` (17.4 px text); below that it fails the build
  (or, for the room other entries take, the deck test). Text entries are
  at least 24 px. Players step through the site's frames
  (``_static/explorers``); their sliders stand beside the figure, or in a
  row under it where that lets the figure be larger. A player whose
  explorer has a form drawn for a slide (``posenc.widgets_slides``: 4.8 x
  3.2 inches, shorter texts, fewer ticks) plays that form's frames, at 1.8
  times with its sliders under it (its text at 24 px); another player is
  shown as its page draws it, shrunk to fit. Likewise a static figure
  drawn for a slide (``posenc.figures_slides``: panels side by side, a
  legend in one row) shows in place of the page's picture, at 1.8 times;
  another is shown as its page draws it. Every HTML text on a slide is at
  least 24 px on a 1024 x 768 screen (``posenc-slides.css``;
  ``tests/test_slide_sizes.py``). A figure's caption on a slide
  is its number and its first sentence, whole (it wraps; a player's
  "Shown: ..." is left to its sliders); all of it is in the speaker notes.
* ``handouts/<name>.html``: the two-page summary for print (``make
  handouts`` prints it with Chromium, ``scripts/teaching.py``): the short
  answer, the key equations (every equation the slides show), the handout's
  figure and the chapter's summary. A lesson plan's session gets one
  handout for all its decks (``_ext/session_handout.py``).

Each chapter page with slides links to its deck and handout under its title.
"""

from __future__ import annotations

import html
import re
import shutil
import struct
from pathlib import Path

from docutils import nodes
from explorer_frames import frames_key
from slide_comments import Slide, Text, for_students, slides_of
from slide_forms import play_slide_forms, posenc_changed
from slide_text import notes_html as _notes_html
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

STATIC = Path(__file__).resolve().parent / "static"
#: Builders that get decks (the one-page build of ``make pdf`` does not).
DECK_BUILDERS = {"html", "dirhtml"}
#: The deck's logical size (reveal.js scales it to the window).
WIDTH, HEIGHT = 1024, 768
#: Figures on a slide are shown at this multiple of their design width
#: where the slide has room: 10 pt text is 13.9 px at the design width, 25.0
#: px at 1.8, and 24.5 px on a 1024 x 768 screen, where reveal.js shows the
#: deck at 0.98 of its size (its margin). What a hall's back row reads.
FIGURE_SCALE = 1.8
#: A figure too tall for FIGURE_SCALE, or on a slide whose other entries
#: take the room, is shrunk to fit, down to this multiple: 10 pt text at
#: 17.4 px, what a projector needs (16 px) with room.
MIN_FIGURE_SCALE = 1.25
#: The smallest text of a figure on a slide, in CSS px of a 1024 x 768
#: screen, where the slide has room (``tests/test_slides_measured.py`` measures it and
#: lists the slides without the room).
FIGURE_TEXT_PX = 24
#: Room for a figure under a slide's title of one line and above its
#: caption's line, in deck pixels (58 and 28 px, and 2 to spare).
FIGURE_ROOM = HEIGHT - 88
#: A player's sliders stand in a column right of its figure, this wide
#: with the gap (``posenc-slides.css``), so the figure keeps the height ...
CONTROLS_WIDTH = 280
#: ... unless the figure is shown larger with them in a row under it, this
#: tall with the gap (``PLAYER_CSS``): a figure that is wide and not tall.
CONTROLS_HEIGHT = 60
#: A player with its sliders in a row under the figure (class
#: ``posenc-controls-below``, set by ``_clean``).
PLAYER_CSS = """<style>
.reveal .posenc-player.posenc-controls-below {
  flex-direction: column-reverse;
  align-items: center;
}
.reveal .posenc-player.posenc-controls-below .posenc-controls {
  display: flex;
  justify-content: center;
  gap: 0 32px;
  width: auto;
}
.reveal .posenc-player.posenc-controls-below .posenc-slider {
  width: 250px;
  margin: 0;
}
</style>
"""
#: The slide's padding, left and right together (``posenc-slides.css``).
PADDING = 24
#: The resolution figures are designed at (``posenc.plots.DESIGN_DPI``).
DESIGN_DPI = 100
#: What reveal.js needs at run time, copied from the package.
#: reveal.js, vendored from the npm registry (``make vendor-reveal``).
REVEAL = Path(__file__).resolve().parent / "vendor" / "revealjs"


def chapter_slides(app: Sphinx, docname: str) -> list[Slide]:
    path = Path(app.env.doc2path(docname))
    if path.suffix != ".md" or not path.exists():
        return []
    return slides_of(path.read_text(encoding="utf-8"), docname)


# ------------------------------------------------------------ the page link


def link_deck(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Under the title of a chapter with slides: links to deck and handout."""
    if app.builder.name not in DECK_BUILDERS or not chapter_slides(app, docname):
        return
    name = Path(docname).name
    up = "../" * docname.count("/")
    student = app.config.posenc_edition == "student"  # its decks have no notes
    markup = (
        '<p class="posenc-teaching">For teaching: '
        f'<a href="{up}slides/{name}.html">the slides of this chapter</a> '
        f"{'' if student else '(press S for the speaker notes) '}and "
        f'<a href="{up}handouts/{name}.html">its two-page handout</a>.</p>'
    )
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        if title is not None:
            title.parent.insert(
                title.parent.index(title) + 1, nodes.raw("", markup, format="html")
            )
            return


# ------------------------------------------------------------ the HTML


def png_design_size(path: Path) -> tuple[float, float]:
    """Width and height of a PNG at its design resolution, in CSS px (of a
    figure's WebP, its PNG's: _ext/page_weight.py writes it beside it)."""
    data = path.with_suffix(".png").read_bytes()
    width, height = struct.unpack(">II", data[16:24])
    dpi = DESIGN_DPI
    at = data.find(b"pHYs")
    if at > 0:
        per_metre, _, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
        if unit == 1:
            dpi = per_metre * 0.0254
    factor = DESIGN_DPI / dpi
    return width * factor, height * factor


def _element(soup, key: str, where: str):
    """The element of the built page that ``key`` names (a copy)."""
    import copy

    if key == "short":
        for strong in soup.find_all("strong"):
            if strong.get_text().strip().startswith("In short"):
                return copy.copy(strong.find_parent("p"))
        raise ExtensionError(f"{where}: no 'In short' paragraph for a slide")
    found = soup.find(id=f"equation-{key}") or soup.find(id=key)
    if found is None:
        raise ExtensionError(f"{where}: a slide shows {key!r}, not on the page")
    return copy.copy(found)


def _first_sentence(caption) -> None:
    """Cut ``caption`` (its number taken out) to its first sentence, on one
    line, keeping its maths as maths (rendered with the deck's own)."""
    strings = [
        node
        for node in caption.descendants
        if isinstance(node, str) and not node.find_parent(class_="math")
    ]
    cut = None
    for node in strings:
        text = re.sub(r"\s+", " ", node)
        end = (text + " ").find(". ")
        if end >= 0:
            cut = type(node)(text[:end] + ".")
            node.replace_with(cut)
            break
    if cut is not None:
        after = False
        for node in list(caption.descendants):
            if after and node.parent is not None:
                node.extract()
            after = after or node is cut
    for block in caption.find_all(["p", "div"]):
        block.unwrap()
    first = next(iter(caption.contents), None)
    if isinstance(first, str):
        first.replace_with(first.lstrip())


def _clean(element, page: str, site: Path, where: str, notes: list[str]):
    """``element`` ready for a slide: links unlinked (a deck stands alone),
    captions moved to the notes, figures at projector size."""
    for link in element.find_all("a", class_="headerlink"):
        link.decompose()
    for link in element.find_all("a"):
        link.unwrap()
    for caption in element.find_all("figcaption"):
        notes.append(caption.decode_contents())
        # On the slide: the number and the caption's first sentence,
        # whole (it wraps, posenc-slides.css); all of it in the notes.
        number = caption.find(class_="caption-number")
        if number is not None:
            number.extract()
        _first_sentence(caption)
        if number is not None:
            caption.insert(0, number)
    for details in element.find_all("details"):
        details.decompose()
    # reveal.js reads a section inside a slide as a vertical slide of its
    # own (a theorem's body is one): only the slides are sections.
    for section in [element, *element.find_all("section")]:
        if section.name == "section":
            section.name = "div"
    frames = play_slide_forms(element, site, where)
    for image in element.find_all("img"):
        src = image.get("src", "")
        if id(image) in frames:
            width, height = png_design_size(frames[id(image)])
        elif src.startswith("data:image/png;base64,"):
            import base64

            raw = base64.b64decode(src.split(",", 1)[1])
            tmp = struct.unpack(">II", raw[16:24])
            width, height = tmp  # frames are drawn at DESIGN_DPI
        else:
            path = (site / page).parent / src
            width, height = png_design_size(path.resolve())
        # A tall figure (two stacked panels) is shrunk to fit the slide, but
        # never below MIN_FIGURE_SCALE: its smallest text stays >= 17 px.
        # (The deck's script posenc-slides-fit.js shrinks it further where
        # other entries take the room.) A player's sliders go beside its
        # figure, or under it where that lets the figure be larger.
        room = WIDTH - PADDING
        scale = min(FIGURE_SCALE, FIGURE_ROOM / height, room / width)
        player = image.find_parent(class_="posenc-player")
        if player is not None:
            below = min(scale, (FIGURE_ROOM - CONTROLS_HEIGHT) / height)
            scale = min(scale, (room - CONTROLS_WIDTH) / width)
            if below > scale:
                scale = below
                player["class"] = [*player.get("class", []), "posenc-controls-below"]
        if scale < MIN_FIGURE_SCALE:
            raise ExtensionError(
                f"{where}: a figure of {width:.0f} x {height:.0f} px does not fit "
                f"a slide at {MIN_FIGURE_SCALE} x its design size or more"
            )
        shown_w, shown_h = width * scale, height * scale
        image["style"] = f"width:{shown_w:.0f}px;height:{shown_h:.0f}px"
        image["data-design-width"] = f"{width:.1f}"
        for attr in ("width", "height"):
            image.attrs.pop(attr, None)
    return element


def _head(title: str, up: str, extra: str = "") -> str:
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en" data-content_root="{up}">\n<head>\n'
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        f'<link rel="icon" href="{up}_static/favicon.svg">\n'
        f"{extra}"
        # the maths, rendered at build time (_ext/prerender_maths.py)
        f'<link rel="stylesheet" href="{up}_static/posenc-maths.css">\n'
        "</head>\n"
    )


def _title_text(soup) -> str:
    """The chapter's title as plain text (the page's first h1 is one)."""
    heading = soup.find("h1")
    for link in heading.find_all("a", class_="headerlink"):
        link.decompose()
    return heading.get_text(" ", strip=True)


def _title_html(soup) -> str:
    """The chapter's title with its maths: the h1 of the chapter's text
    (the one with an anchor link), without its number and link."""
    import copy

    headings = soup.find_all("h1")
    heading = next(
        (h for h in headings if h.find("a", class_="headerlink")), headings[0]
    )
    heading = copy.copy(heading)
    for part in heading.find_all(
        ["a", "span"], class_=["headerlink", "section-number"]
    ):
        part.decompose()
    return heading.decode_contents().strip()


#: Elements that make a slide more than text and equations (it keeps the
#: layout from the top; a slide without them is laid out larger).
NOT_TEXT = ["img", "figure", "table", "pre", "video", "iframe", "svg"]


def _text_html(text: str) -> str:
    """A text entry's Markdown as HTML for a list item (one paragraph is
    unwrapped)."""
    rendered = _notes_html(text).strip()
    one = re.fullmatch(r"<p>(.*)</p>", rendered, re.S)
    if one and "<p>" not in one.group(1):
        return one.group(1)
    return rendered


def _notes_of(slide: Slide, captions: list[str]) -> str:
    """The speaker notes: what to say, the question, the board work, the
    captions of the figures shown."""
    parts = [_notes_html(slide.notes)]
    if slide.ask:
        parts.append('<h3 class="posenc-ask">Ask before the next step</h3>')
        parts.append(_notes_html(slide.ask))
    if slide.board:
        parts.append('<h3 class="posenc-board">Board work</h3>')
        parts.append(_notes_html(slide.board))
    parts += [f'<div class="posenc-caption">{caption}</div>' for caption in captions]
    return "".join(parts)


def _slide_html(
    slide: Slide,
    number: int,
    soup,
    page: str,
    site: Path,
    explorers: list[str],
    notes: bool = True,
) -> str:
    """One ``<section>`` of the deck; without speaker notes if not ``notes``
    (the student edition: see :func:`write_all`)."""
    where = f"{page}: slide {number + 1} {slide.title!r}"
    captions: list[str] = []
    parts: list[str] = []
    points: list[str] = []  # text entries in a row: one list
    only_text = True

    def flush() -> None:
        if points:
            parts.append(f'<ul class="posenc-points">{"".join(points)}</ul>')
            points.clear()

    for index, entry in enumerate(slide.show):
        step = slide.steps and index > 0
        if isinstance(entry, Text):
            fragment = ' class="fragment"' if step else ""
            points.append(f"<li{fragment}>{_text_html(entry.text)}</li>")
            continue
        flush()
        element = _clean(_element(soup, entry, where), page, site, where, captions)
        if element.name in NOT_TEXT or element.find(NOT_TEXT):
            only_text = False
        if step:
            element["class"] = [*element.get("class", []), "fragment"]
        players = element.find_all(class_="posenc-player")
        if "posenc-player" in element.get("class", []):
            players.append(element)
        explorers += [player["data-explorer"] for player in players]
        parts.append(str(element))
    flush()
    classes = ["posenc-fill"] if only_text and parts else []
    attributes = f'data-slide="{number}" data-kind="{slide.kind}"'
    badge = ""
    if slide.optional:
        classes.append("posenc-optional")
        attributes += ' data-optional="true"'
        badge = '<span class="posenc-badge">optional</span>'
    if classes:
        attributes += f' class="{" ".join(classes)}"'
    if slide.steps:
        attributes += ' data-steps="true"'
    aside = (
        f'<aside class="notes">{_notes_of(slide, captions)}</aside>' if notes else ""
    )
    return (
        f"<section {attributes}>{badge}<h2>{_notes_html(slide.title, True)}</h2>"
        f'<div class="posenc-slide-body">{"".join(parts)}</div>'
        f"{aside}</section>"
    )


def write_deck(
    site: Path,
    page: str,
    slides: list[Slide],
    key: str,
    book: str = "",
    notes: bool = True,
) -> tuple[Path, list[str]]:
    """Write ``slides/<name>.html`` from the built ``page``; return its path
    and the explorers it plays. ``book`` is the book's name (title slide);
    ``notes`` False leaves the speaker notes out (student edition)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
    title = _title_text(soup)
    name = Path(page).stem
    book_line = f'<p class="posenc-book">{html.escape(book)}</p>' if book else ""
    sections = [
        '<section class="posenc-title-slide" data-slide="0" data-kind="title">'
        f"<h1>{_title_html(soup)}</h1>{book_line}"
        + (
            '<aside class="notes"><p>The chapter page: '
            f"{html.escape(page)}. Press the right arrow or space to go on "
            "(a slide with steps shows its next step first); Esc shows every "
            "slide.</p></aside>"
            if notes
            else ""
        )
        + "</section>"
    ]
    explorers: list[str] = []
    for number, slide in enumerate(slides, start=1):
        sections.append(_slide_html(slide, number, soup, page, site, explorers, notes))
    up = "../"
    css = "".join(
        f'<link rel="stylesheet" href="{up}_static/{path}">\n'
        for path in (
            "revealjs/dist/reset.css",
            "revealjs/dist/reveal.css",
            "revealjs/dist/theme/white.css",
            "posenc-player.css",
            "posenc-slides.css",
        )
    )
    css += PLAYER_CSS
    player = (
        f'<script src="{up}_static/posenc-player.js" '
        f'data-frames-key="{html.escape(key)}"></script>\n'
        if explorers
        else ""
    )
    body = (
        _head(f"{title} (slides)", up, css)
        + '<body>\n<div class="reveal"><div class="slides">\n'
        + "\n".join(sections)
        + "\n</div></div>\n"
        + f'<script src="{up}_static/revealjs/dist/reveal.js"></script>\n'
        + f'<script src="{up}_static/revealjs/plugin/notes/notes.js"></script>\n'
        + player
        + f'<script src="{up}_static/posenc-slides-fit.js" '
        + f'data-least="{MIN_FIGURE_SCALE}"></script>\n'
        + "<script>Reveal.initialize({"
        + f"width: {WIDTH}, height: {HEIGHT}, margin: 0.02, center: false, "
        + "display: 'flex', "
        + "hash: true, transition: 'none', slideNumber: 'c/t', "
        + "plugins: [RevealNotes]});\n"
        # only the current slide takes the focus: Tab from a slide's player
        # reaches its own controls and formulas, not the hidden slides' ones
        + "const posencInert = () => Reveal.getSlides().forEach("
        + "s => { s.inert = s !== Reveal.getCurrentSlide(); });\n"
        + "Reveal.on('ready', posencInert);\n"
        + "Reveal.on('slidechanged', posencInert);</script>\n</body>\n</html>\n"
    )
    target = site / "slides" / f"{name}.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(body, encoding="utf-8")
    return target, explorers


def write_handout(site: Path, page: str, slides: list[Slide]) -> Path:
    """Write ``handouts/<name>.html``: short answer, key equations, one
    figure, the summary."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")
    where = page
    title = _title_text(soup)
    name = Path(page).stem
    equations, figure, leads = [], None, {}
    for slide in slides:
        for before, entry in zip([None, *slide.show[:-1]], slide.show, strict=True):
            if isinstance(entry, str) and entry.startswith("eq-"):
                equations.append(entry)
                # a text ending in ":" just before an equation is its lead:
                # it defines the equation's symbols, on the handout too
                if isinstance(before, Text) and before.text.endswith(":"):
                    leads[entry] = before.text
        if slide.handout:
            figure = slide.handout
    summary = soup.find(id="summary")
    # an equation the summary cites is a key equation too
    for link in summary.select('a[href^="#equation-eq-"]') if summary else []:
        key = link["href"].removeprefix("#equation-")
        equations += [] if key in equations else [key]
    if figure is None:
        figures = [k for s in slides for k in s.names if k.startswith("fig-")]
        figure = figures[0] if figures else None
    parts = [f"<h1>{_title_html(soup)}</h1>"]
    parts.append(str(_plain(_element(soup, "short", where))))
    if equations:
        parts.append("<h2>Key equations</h2>")
        for key in equations:
            if key in leads:
                parts.append(f"<p>{_text_html(leads[key])}</p>")
            parts.append(str(_plain(_element(soup, key, where))))
    if figure:
        element = _plain(_element(soup, figure, where))
        for control in element.find_all(class_="posenc-controls"):
            control.decompose()
        parts.append(f'<div class="posenc-handout-figure">{element}</div>')
    if summary is not None:
        summary = _plain(summary)
        for cell in summary.find_all(class_="cell"):
            cell.decompose()
        heading = summary.find("h2")
        if heading is not None:
            heading.string = "Summary"
        parts.append(str(summary))
    parts.append(
        '<p class="posenc-source">From the chapter of the book '
        f"(book/{html.escape(name)}); the derivations, the checks and "
        "the exercises are there.</p>"
    )
    return write_handout_page(site, name, title, parts)


def write_handout_page(
    site: Path, name: str, title: str, parts: list[str], style: str = ""
) -> Path:
    """Write ``handouts/<name>.html``: ``parts`` in the handouts' page, with
    the handouts' style sheet and, if given, ``style`` (a sheet of
    ``_static`` whose class is also the page's)."""
    sheets = ["posenc-handout", *([style] if style else [])]
    css = "".join(
        f'<link rel="stylesheet" href="../_static/{sheet}.css">\n' for sheet in sheets
    )
    body = (
        _head(f"{title} (handout)", "../", css)
        + f'<body><main class="{" ".join(sheets)}">'
        + "\n".join(parts)
        + "</main></body></html>\n"
    )
    target = site / "handouts" / f"{name}.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(body, encoding="utf-8")
    return target


def _plain(element):
    """``element`` for print: links unwrapped, anchors dropped; images keep
    their path (the handout sits one level below the site, as pages do)."""
    for link in element.find_all("a", class_="headerlink"):
        link.decompose()
    for link in element.find_all("a"):
        link.unwrap()
    for details in element.find_all("details"):
        details.decompose()
    for note in element.find_all(class_="posenc-note-live"):
        note.decompose()
    # On paper a player is one figure: its note keeps "Figure for <values>."
    # and drops what the sliders would do on a screen.
    for note in element.find_all(class_="posenc-note-static"):
        values = note.find(class_="posenc-values")
        if values is not None:
            note.string = f"Figure for {values.get_text()}."
    return element


def copy_reveal(outdir: Path) -> None:
    shutil.copytree(REVEAL, outdir / "_static" / "revealjs", dirs_exist_ok=True)


def write_all(app: Sphinx, exception: Exception | None) -> None:
    """Write the deck and handout of every chapter with slides, unless both
    are newer than the chapter's page and than this code (a rebuild that
    wrote the page again, after any change to its source, writes them
    again); remove those of chapters that no longer have slides."""
    if exception is not None or app.builder.name not in DECK_BUILDERS:
        return
    site = Path(app.outdir)
    # The student edition's decks carry no speaker notes at all: the notes
    # hold the plan's answers (what to say after the question, the numbers
    # an activity finds, the board work that derives them), so they are
    # left out whole rather than trimmed (_ext/editions.py).
    student = getattr(app.config, "posenc_edition", "default") == "student"
    copy_reveal(site)
    own = (Path(__file__), Path(__file__).with_name("slide_forms.py"))
    code = max(path.stat().st_mtime for path in (*own, *STATIC.iterdir()))
    # a figure drawn for a slide is drawn again when posenc changes
    code = max(code, posenc_changed())
    written = set()
    for docname in sorted(app.env.found_docs):
        slides = chapter_slides(app, docname)
        if not slides:
            continue
        page = app.builder.get_target_uri(docname)
        name = Path(page).stem
        targets = (site / "slides" / f"{name}.html", site / "handouts" / f"{name}.html")
        written.update(targets)
        since = max(code, (site / page).stat().st_mtime)
        if all(t.exists() and t.stat().st_mtime > since for t in targets):
            continue
        if student:  # answers out, numbers kept (_ext/editions.py)
            slides = [for_students(slide) for slide in slides]
        write_deck(site, page, slides, frames_key(), book_name(app), notes=not student)
        write_handout(site, page, slides)
    for folder in ("slides", "handouts"):
        for stale in set((site / folder).glob("*.html")) - written:
            stale.unlink()


def book_name(app: Sphinx) -> str:
    """The book's name (Jupyter Book sets ``html_title``, not ``project``)."""
    return app.config.html_title or app.config.project


def add_static_path(app: Sphinx, config) -> None:
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", add_static_path)
    app.connect("doctree-resolved", link_deck)
    # After the frames are in the site (priority 500 is default); the maths
    # of the decks is rendered after this (_ext/prerender_maths.py).
    app.connect("build-finished", write_all, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
