r"""The slide comments of a chapter: their format and their reading (issues
12 and 21; the decks and handouts are written by ``_ext/slides.py``).

A chapter marks each slide of its lecture with a comment in its source, next
to what the slide shows (a comment renders as nothing on the page, in
JupyterLab or in print). The first line is ``<!-- slide:`` and the slide's
title; YAML follows, up to a line ``-->``::

    <!-- slide: Order is invisible to attention
    kind: motivation
    show:
      - text: Attention sees a *set*; where does order come from?
      - eq-attention
      - text: 'Swap two rows of $X$: the rows of the output swap.'
    steps: true
    ask: What happens to the output if we swap two tokens?
    board: |
      Write $s_{mn} = x_m^\top H x_n$, then swap $m$ and $n$.
    notes: |
      What to say, and the answer the students give.
    -->

The deck of a chapter is: slide 1, the title slide (the chapter's title and,
small, the book's name), then one slide per comment, in order: the N-th
comment of the chapter is slide N + 1 (the lesson plans name slides by that
number and title).

The keys (all but the title may be omitted; any other key, or a value of the
wrong type, stops the build with an error naming the chapter, the slide and
the rule):

``kind``
    ``motivation``, ``outline`` or ``recap``; omitted, the slide is a content
    slide. Every deck opens with a ``motivation`` slide (slide 2) and an
    ``outline`` slide (slide 3) and closes with a ``recap`` slide.
    In the deck: the section's ``data-kind`` (``content`` when omitted).
``optional``
    ``true`` for deeper material a plan may skip (anything the page keeps in
    a dropdown): the slide shows a small "optional" badge and its section
    has ``data-optional="true"``.
``show``
    What the slide shows, in order: a YAML list whose entries are either
    a *name* or a *text* entry.

    * a name, as the chapter names it: ``short`` (the chapter's "In short"
      paragraph), an equation label (``eq-...``), a figure name (``fig-...``:
      a figure, or an explorer's slider player) or any other id of the
      rendered page. Nothing is copied into the comment: after the HTML
      build, each named element is taken from the built page itself, so a
      slide shows exactly what the page shows. A figure is shown at
      ``slides.FIGURE_SCALE`` times its design width where the slide has room
      (below), with its number and first sentence under it; its whole
      caption goes to the speaker notes.
    * ``text: ...``, a mapping with the one key ``text``: a bullet point, in
      Markdown (``*emphasis*``, ``**bold**``, ```code```) with ``$inline$``
      and ``$$display$$`` maths, rendered when the site is built. Quote the
      text in *single* quotes (``text: 'Goal: $\langle p_m, p_n\rangle$'``,
      backslashes stay as they are; write a quote inside as ``''``) when it
      contains ``: `` or `` #`` or starts with a YAML sign such as ``*``,
      ``[``, ``{``, ``|``, ``>``, ``!``, ``%``, ``@`` or a quote. Never
      double quotes: they read ``\l`` as an escape. A block ``text: |``
      takes several lines, unquoted.

    The old flow form ``show: [short, eq-a, fig-b]`` (names only) is
    the same as the block list of those names. A slide whose entries are
    all text or equations (no figure, player, table or code) is laid out
    larger, its entries spread over the height under the title, so that it
    does not look empty; a slide with a figure is laid out from the top.
``steps``
    ``true``: the slide reveals its entries one by one: the first shows
    with the slide, each later one on the next press of the right arrow,
    space or Page Down (a reveal.js *fragment*; left arrow hides it again).
    Any entry can be a step: text, an equation, a figure or a player. A
    slide with steps has at least two entries.
``ask``
    Markdown: the question to ask before the next step shows. Needs
    ``steps: true`` (an error without it). In the speaker notes under the
    heading "Ask before the next step".
``board``
    Markdown with maths: the board work of the slide's steps (what to write
    and in which order). In the speaker notes under "Board work". Every slide
    that shows an equation has ``board``.
``notes``
    Markdown with maths: what to say (reveal.js's speaker notes, key S).
``handout``
    On one slide of the deck: the name of the handout's figure.
``edition``
    ``instructor``: the slide shows the answers of an activity or a
    question, instructor-only material (``_ext/editions.py``). The
    instructor's deck shows it as written; the student edition's deck keeps
    its number and title but shows, instead of its entries, "Discussed in
    class." and its ``placeholder``: no figure, no numbers, no notes.
``placeholder``
    Needs ``edition: instructor``: what its placeholder slide shows after
    "Discussed in class.", the questions the slide answers: Markdown, or a
    list of Markdown texts (one bullet each).

Write the title short: at most :data:`MAX_TITLE` characters, stating the
slide's point (``tests/test_slides.py`` checks this and the rules above that
are not build errors: the deck's first and last kinds, the length of titles,
a caption on each figure, ``board`` wherever an equation shows, at least two
entries for ``steps``, no slide more than half empty, contrast).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml
from sphinx.errors import ExtensionError

#: A slide comment: ``<!-- slide: TITLE`` then YAML, then ``-->``.
MARKER = re.compile(r"^<!--\s*slide:(?P<title>[^\n]*)\n(?P<body>.*?)^-->", re.M | re.S)

#: The kinds of slide besides content slides (``kind:``).
KINDS = ("motivation", "outline", "recap")
#: The keys of a slide comment.
KEYS = ("kind", "optional", "show", "steps", "ask", "board", "notes", "handout")
KEYS += ("edition", "placeholder")
#: The longest title a slide may have, in characters (a test, not the build).
MAX_TITLE = 40


@dataclass(frozen=True)
class Text:
    """A text entry of ``show``: a bullet point, Markdown with maths."""

    text: str


@dataclass
class Slide:
    title: str
    #: In order: names of elements of the page (str) and text entries.
    show: list[str | Text] = field(default_factory=list)
    notes: str = ""
    handout: str | None = None
    #: ``content`` or one of :data:`KINDS`.
    kind: str = "content"
    optional: bool = False
    steps: bool = False
    ask: str = ""
    board: str = ""
    #: ``instructor``: the student deck shows ``placeholder`` instead.
    edition: str = ""
    placeholder: list[str] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """The names ``show`` takes from the page, in order."""
        return [entry for entry in self.show if isinstance(entry, str)]


def _entry(item, fail) -> str | Text:
    """One entry of ``show``: a name, or a ``{text: ...}`` mapping."""
    if isinstance(item, str) and item.strip():
        return item.strip()
    if isinstance(item, dict):
        if set(item) != {"text"}:
            fail(
                f"a show entry is a name or a mapping with the one key 'text', "
                f"not {sorted(map(str, item))}"
            )
        if not isinstance(item["text"], str) or not item["text"].strip():
            fail("a text entry's text is Markdown, not empty or a number")
        return Text(item["text"].strip())
    return fail(
        f"a show entry is a name or 'text: ...', not {item!r} "
        "(quote a text that has ': ' or ' #' in single quotes)"
    )


def _parse(title: str, body: str, where: str) -> Slide:
    def fail(rule: str):
        raise ExtensionError(f"{where}: slide {title!r}: {rule}")

    if not title:
        fail("a slide has a title on the line of '<!-- slide:'")
    try:
        meta = yaml.safe_load(body) or {}
    except yaml.YAMLError as error:
        fail(
            f"not YAML ({' '.join(str(error).split())}); quote a text that "
            "has ': ' or ' #' in single quotes 'like this'"
        )
    if not isinstance(meta, dict):
        fail("the lines after the title are 'key: value' pairs")
    unknown = set(meta) - set(KEYS)
    if unknown:
        fail(f"slide keys {sorted(map(str, unknown))} unknown (known: {KEYS})")
    kind = meta.get("kind", "content")
    if kind not in (*KINDS, "content") or "kind" in meta and kind == "content":
        fail(f"kind is one of {KINDS} (or omitted, a content slide), not {kind!r}")
    for key in ("optional", "steps"):
        if not isinstance(meta.get(key, False), bool):
            fail(f"{key} is true or false, not {meta[key]!r}")
    if meta.get("edition", "instructor") != "instructor":
        fail(f"edition is 'instructor' (or omitted), not {meta['edition']!r}")
    if meta.get("placeholder") and not meta.get("edition"):
        fail("'placeholder' needs 'edition: instructor'")
    placeholder = meta.get("placeholder") or []
    placeholder = [placeholder] if isinstance(placeholder, str) else placeholder
    if not isinstance(placeholder, list) or not all(
        isinstance(text, str) and text.strip() for text in placeholder
    ):
        fail("placeholder is Markdown or a list of Markdown texts")
    for key in ("ask", "board", "notes", "handout"):
        if meta.get(key) is not None and not isinstance(meta[key], str):
            fail(f"{key} is text (Markdown), not {meta[key]!r}")
    show = meta.get("show") or []
    if isinstance(show, str):
        show = [show]
    if not isinstance(show, list):
        fail("show is a list of entries")
    if meta.get("ask") and not meta.get("steps"):
        fail("'ask' needs 'steps: true' (the question comes before a step)")
    return Slide(
        title=title,
        show=[_entry(item, fail) for item in show],
        notes=meta.get("notes") or "",
        handout=meta.get("handout"),
        kind=kind,
        optional=meta.get("optional", False),
        steps=meta.get("steps", False),
        ask=(meta.get("ask") or "").strip(),
        board=meta.get("board") or "",
        edition=meta.get("edition") or "",
        placeholder=[text.strip() for text in placeholder],
    )


def for_students(slide: Slide) -> Slide:
    """The student deck's slide: an ``edition: instructor`` slide keeps its
    title and place and shows its placeholder; any other, itself."""
    if slide.edition != "instructor":
        return slide
    show = [Text(text) for text in ["**Discussed in class.**", *slide.placeholder]]
    return Slide(slide.title, show, kind=slide.kind, optional=slide.optional)


def slides_of(text: str, where: str = "") -> list[Slide]:
    """The slides marked in a chapter's source ``text`` (``where`` names the
    chapter in errors)."""
    return [
        _parse(match["title"].strip(), match["body"], where)
        for match in MARKER.finditer(text)
    ]
