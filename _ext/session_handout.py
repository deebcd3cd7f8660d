r"""The two-page handout of a lesson plan's session (issue 21).

A chapter's handout (``_ext/slides.py``) summarises one deck. A session
that shows slides from six decks would hand out twelve pages; this writes
one handout for the session instead, from the plan itself, so that it never
drifts from the slides the plan shows.

A plan in ``book/instructor/lesson_plans.md`` asks for a handout with a
comment inside its section (a comment renders as nothing on the page)::

    <!-- session-handout: session_90
    answers: encoding deck, slide 3 "Four questions, four steps"
    figures: [RoPE fig-rope-pairings]
    check: >-
      symmetry deck, slide 9 "..."; RoPE deck, slide 4 "..."
    leads:
      complex 4: Write $\Delta = m - n$ for the offset of two positions.
    -->

The handout ``handouts/<name>.html`` then holds, in order:

* the plan's heading as its title;
* the session's question: the slide of the timing table's first row, its
  text and equations, then the ``answers`` slide's text entries as a
  numbered list;
* for each later row of the plan's timing table (``| minutes | step | show
  |``) that names slides (``<deck> deck, slides N "Title", M "Title"``):
  the row's step as a heading, then each of its slides as it reads on
  the screen: its text entries (which say what each equation is and define
  its symbols), its equations (by label, as the chapter renders it) and
  its code listings (``code-...``), in the slide's order, consecutive texts
  in one paragraph. Figures and players are left out, and so are outline
  and recap slides. Where a slide's text leaves a symbol undefined for a
  reader who was not in the room, ``leads`` (``<deck> <number>``: Markdown)
  gives the sentence that opens the slide's block: the one place for
  text written for the handout;
* each named ``figure`` (``<deck> fig-...``, the deck as the table of
  decks names it) in place of its slide's block, with that slide's text
  and the first sentence of its caption beside it;
* under the row that names an activity (``activities/<name>.ipynb``): the
  activity's task paragraph, a link to its notebook, its steps' titles and
  the code of its first cell, the one students complete, from
  ``book/activities/<name>.md``;
* the plan's "**Homework:**" item from "After the session", each notebook
  it names a link;
* side by side, "Check yourself": the questions (``ask``) of the slides
  ``check`` names, without answers; and "Where to find everything": links
  to the book, ``notebooks.zip``, the activity and the homework.

Links point into the site: relative to ``handouts/``, as the site's own
pages link, while the book has no address; once ``html: baseurl:`` in
``_config.yml`` (Sphinx's ``html_baseurl``, which ``notebooks.zip``'s
README also cites) gives it, absolute, and the "where" box prints that
address once: with each link's path, what a student types from paper.

Every slide is found by the deck table of the plans' page and checked: a
named slide that is not that deck's slide of that number and title stops
the build (the lesson-plan tests check the same for every plan), and so
does a ``check`` slide that asks nothing or a ``leads`` key for a slide
the plan does not show. The handout is written after each HTML build in
which every chapter the plan uses was built, after the chapters' handouts
(``_ext/slides.py``) and before the maths is rendered
(``_ext/prerender_maths.py``). It prints on two pages of A4 and of US
Letter, the second at least 80 % full (``scripts/teaching.py``,
``tests/test_session_handout.py``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from slide_comments import Text, slides_of
from slides import (
    DECK_BUILDERS,
    _element,
    _first_sentence,
    _plain,
    _text_html,
    write_handout_page,
)
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

LOG = logging.getLogger(__name__)
BOOK = Path(__file__).resolve().parents[1] / "book"
PLANS = BOOK / "instructor" / "lesson_plans.md"
#: The comment that asks for a session's handout.
DECLARATION = re.compile(
    r"^<!--\s*session-handout:\s*(?P<name>[\w-]+)\s*\n(?P<body>.*?)^-->", re.M | re.S
)
#: A row of the table of decks: | name deck | {ref}`... <label>` | count |
DECK_ROW = re.compile(
    r"^\| (?P<deck>[^|]+?) deck \| \{ref\}`[^`<]*<(?P<label>[\w-]+)>` \| \d+ \|$",
    re.M,
)
LABEL = re.compile(r"^\((?P<label>[\w-]+)\)=\s*$", re.M)
TIMING_HEADER = re.compile(r"^\| *minutes *\| *step *\| *show *\|$", re.M | re.I)
ROW = re.compile(
    r"^\| *(?P<minutes>\d+[–-]\d+) *\| *(?P<step>[^|]*?) *\| *(?P<show>[^|]*?) *\|$"
)
#: A deck's name and the slides named after it in one cell.
MENTION = re.compile(
    r"(?P<deck>[\w$-]+) deck, slides? (?P<rest>.*?)(?=[\w$-]+ deck\b|$)"
)
NAMED = re.compile(r"(?P<number>\d+) \"(?P<title>[^\"]+)\"")
ACTIVITY = re.compile(r"activities/(?P<name>[\w-]+)\.ipynb")
HOMEWORK = re.compile(r"^\* \*\*Homework:\*\*(?P<text>.*(?:\n[ \t]+\S.*)*)", re.M)
REF = re.compile(r"\{ref\}`(?:(?P<text>[^`<]+?) *<[^`>]+>|[^`]+)`")


@dataclass
class Step:
    """A row of the timing table that names slides or an activity."""

    minutes: str
    title: str
    #: (deck, chapter stem, slide number, slides.Slide)
    slides: list = field(default_factory=list)
    activity: str | None = None


def section(text: str, name: str) -> str:
    """The plan that holds the declaration of handout ``name``: from the
    label before it to the next label."""
    at = next(m for m in DECLARATION.finditer(text) if m["name"] == name).start()
    starts = [m.start() for m in LABEL.finditer(text)]
    begin = max(s for s in starts if s < at)
    end = min((s for s in starts if s > at), default=len(text))
    return text[begin:end]


def decks(text: str) -> dict[str, Path]:
    """Deck name -> its chapter's source, from the table of decks."""
    chapters = {}
    for path in BOOK.glob("*.md"):
        for match in LABEL.finditer(path.read_text(encoding="utf-8")):
            chapters[match["label"]] = path
    return {m["deck"].strip(): chapters[m["label"]] for m in DECK_ROW.finditer(text)}


def named(cell: str, table: dict[str, Path], where: str) -> list:
    """The slides ``cell`` names, each checked against its deck."""
    found = []
    for mention in MENTION.finditer(" ".join(cell.split())):
        deck = mention["deck"]
        if deck not in table:
            raise ExtensionError(f"{where}: no deck {deck!r} in the table of decks")
        chapter = table[deck]
        deck_slides = slides_of(chapter.read_text(encoding="utf-8"), chapter.stem)
        for slide in NAMED.finditer(mention["rest"]):
            number = int(slide["number"])
            if not 2 <= number <= len(deck_slides) + 1 or (
                deck_slides[number - 2].title != slide["title"]
            ):
                raise ExtensionError(
                    f"{where}: {deck} deck has no slide {number} {slide['title']!r}"
                )
            found.append((deck, chapter.stem, number, deck_slides[number - 2]))
    return found


def steps(plan: str, table: dict[str, Path], where: str) -> list[Step]:
    """The rows of the plan's timing table that name slides or an activity."""
    header = TIMING_HEADER.search(plan)
    if header is None:
        raise ExtensionError(f"{where}: the plan has no timing table")
    rows = []
    for line in plan[header.end() :].strip().splitlines()[1:]:
        row = ROW.match(line)
        if row is None:
            break
        activity = ACTIVITY.search(row["show"])
        step = Step(
            row["minutes"],
            row["step"],
            named(row["show"], table, where),
            activity["name"] if activity else None,
        )
        if step.slides or step.activity:
            rows.append(step)
    return rows


def _entries(slide, soup, where: str, lead: str = "") -> list:
    """What the handout keeps of a slide, in the slide's order: its text
    entries (the sentences that say what each equation is and define its
    symbols) as :class:`Text`, its equations and code listings as HTML;
    ``lead`` (the plan's ``leads``) first. A slide's figures and players
    are left out (the plan's ``figures`` are drawn apart), and so are
    outline and recap slides (the handout's headings are the session's
    steps; it is itself the recap)."""
    if slide.kind in ("outline", "recap"):
        return []
    kept = [Text(lead)] if lead else []
    for entry in slide.show:
        if isinstance(entry, Text):
            kept.append(entry)
        elif entry.startswith(("eq-", "code-")):
            kept.append(str(_plain(_element(soup, entry, where))))
    return kept


def _paragraphs(entries: list) -> list[str]:
    """HTML of ``entries``: consecutive text entries, one paragraph (a
    block of the handout reads as prose, and takes fewer lines)."""
    parts, run = [], []
    for entry in [*entries, None]:
        if isinstance(entry, Text):
            run.append(entry.text)
            continue
        if run:
            parts.append(f"<p>{_text_html(' '.join(run))}</p>")
            run = []
        if entry is not None:
            parts.append(entry)
    return parts


def _figure(soup, key: str, where: str) -> str:
    """A figure for the handout: its caption's number and first sentence
    (the rest is in the chapter), a player as the figure it shows first."""
    element = _plain(_element(soup, key, where))
    for control in element.find_all(class_="posenc-controls"):
        control.decompose()
    for caption in element.find_all("figcaption"):
        number = caption.find(class_="caption-number")
        if number is not None:
            number.extract()
        _first_sentence(caption)
        if number is not None:
            caption.insert(0, number)
    return f'<div class="posenc-handout-figure">{element}</div>'


def _activity(name: str, link) -> str:
    """The activity's task paragraph, the code its first cell gives the
    students to complete, and its steps' titles."""
    text = (BOOK / "activities" / f"{name}.md").read_text(encoding="utf-8")
    task = re.search(r"^\*\*Task.*?(?=\n\n)", text, re.M | re.S)
    cell = re.search(r"^```\{code-cell\}[^\n]*\n(.*?)^```", text, re.M | re.S)
    code = re.sub(r"^:[\w-]+:.*\n+", "", cell.group(1), flags=re.M) if cell else ""
    code = re.sub(r"\n\s*\n", "\n", code)  # compact: no blank lines
    titles = re.findall(r"^## Step (\d+): (.*)$", text, re.M)
    steps = "; ".join(f"{n}. {_text_html(title)}" for n, title in titles)
    opening = link(f"activities/{name}.ipynb")
    return (
        f"<p>{_text_html(task.group(0)) if task else ''} "
        f"Open {opening}; its steps: {steps}. Its first cell:</p>"
        f'<pre class="posenc-activity-code">{html.escape(code.strip())}</pre>'
    )


def _check(slides: list, where: str) -> str:
    """The "check yourself" box: the questions the named slides ask (their
    ``ask``, without its stage direction), no answers."""
    items = []
    for deck, _, number, slide in slides:
        if not slide.ask:
            raise ExtensionError(f"{where}: {deck} slide {number} asks nothing")
        ask = re.sub(r"^\((?:before|after|with)[^)]*\)\s*", "", slide.ask, flags=re.I)
        items.append(f"<li>{_text_html(ask)}</li>")
    return (
        '<div class="posenc-check"><h2>Check yourself</h2>'
        f"<ol>{''.join(items)}</ol></div>"
    )


def _linker(site_url: str):
    """A link to a file of the site: absolute under ``site_url`` (the
    book's ``html_baseurl``), else relative to ``handouts/``, as the
    site's pages link. Its text is the file's path in the site; the
    "where" box gives the site's address once."""
    base = site_url.rstrip("/") + "/" if site_url else ""

    def link(path: str) -> str:
        href = f"{base}{path}" if base else f"../{path}"
        return f'<a href="{html.escape(href)}"><code>{html.escape(path)}</code></a>'

    return link


def _addresses(link, site_url: str, activity: str | None, homework: bool) -> str:
    """Where the book, the notebooks, the activity and the homework are."""
    rows = [
        ("The book", link("index.html")),
        ("The chapters as notebooks, with <code>posenc</code>", link("notebooks.zip")),
    ]
    if activity:
        rows.append(("The activity", link(f"activities/{activity}.ipynb")))
    if homework:
        rows.append(("The homework", "the notebooks linked above"))
    items = "".join(f"<li>{what}: {where}</li>" for what, where in rows)
    scope = (
        f"All on the book's site, <code>{html.escape(site_url)}</code>:"
        if site_url
        else "All on the book's site, from its root (your lecturer gives its address):"
    )
    return (
        '<div class="posenc-where"><h2>Where to find everything</h2>'
        f"<p>{scope}</p><ul>{items}</ul></div>"
    )


def _unref(text: str) -> str:
    """Markdown of the plan without its cross-references' targets (a
    reference without a text is a pointer to the instructor's pages)."""
    text = REF.sub(lambda m: m["text"] or "", text)
    return re.sub(r"\s*Answer keys:\s*\.", "", text)


def write_session_handout(
    site: Path, name: str, plans: Path = PLANS, site_url: str = ""
) -> Path | None:
    """Write ``handouts/<name>.html`` from the plan that declares it; None
    if a chapter it uses was not built. ``site_url``: the book's address
    (``html_baseurl``), or empty for links relative to the site."""
    from bs4 import BeautifulSoup

    text = plans.read_text(encoding="utf-8")
    where = f"{plans.name}, session handout {name!r}"
    declaration = next(m for m in DECLARATION.finditer(text) if m["name"] == name)
    meta = yaml.safe_load(declaration["body"]) or {}
    plan = section(text, name)
    table = decks(text)
    rows = steps(plan, table, where)
    answers = named(meta.get("answers", ""), table, where)
    checks = named(meta.get("check", ""), table, where)
    leads = meta.get("leads") or {}
    shown = {f"{deck} {number}" for row in rows for deck, _, number, _ in row.slides}
    if set(leads) - shown:
        raise ExtensionError(
            f"{where}: leads for slides it does not show: {sorted(set(leads) - shown)}"
        )
    figures = [entry.split() for entry in meta.get("figures", [])]
    for deck, key in figures:
        if deck not in table:
            raise ExtensionError(f"{where}: a figure of no deck: {deck} {key}")
    pages = {}
    for _, stem, _, _ in [*answers, *(s for row in rows for s in row.slides)]:
        page = site / "book" / f"{stem}.html"
        if not page.exists():
            return None
        if stem not in pages:
            pages[stem] = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    link = _linker(site_url)
    heading = re.search(r"^## (.+)$", plan, re.M).group(1)
    parts = [f"<h1>{_text_html(heading)}</h1>"]
    first, *rest = rows
    parts.append("<h2>The question</h2>")
    for _, stem, _, slide in first.slides:
        for entry in slide.show:
            if isinstance(entry, Text) and not entry.text.startswith("The paper"):
                parts.append(f"<p>{_text_html(entry.text)}</p>")
            elif isinstance(entry, str):
                parts.append(str(_plain(_element(pages[stem], entry, where))))
    items = [
        f"<li>{_text_html(entry.text)}</li>"
        for _, _, _, slide in answers
        for entry in slide.show
        if isinstance(entry, Text)
    ]
    parts.append(f'<ol class="posenc-answers">{"".join(items)}</ol>')
    # a named figure with the text of its slide beside it
    drawn, activity = set(), None
    for row in rest:
        shown = []
        for deck, stem, number, slide in row.slides:
            lead = leads.get(f"{deck} {number}", "")
            entries = _entries(slide, pages[stem], where, lead)
            keys = [k for d, k in figures if d == deck and k in slide.names]
            if keys:
                drawn.update((deck, key) for key in keys)
                beside = "".join(_paragraphs(entries))
                beside = f'<div class="posenc-beside">{beside}</div>'
                entries = [
                    '<div class="posenc-handout-figures">'
                    + "".join(_figure(pages[stem], key, where) for key in keys)
                    + f"{beside}</div>"
                ]
            shown.extend(entries)
        if row.activity:
            activity = row.activity
            shown.append(_activity(row.activity, link))
        if shown:
            parts.append(f"<h2>{_text_html(row.title)}</h2>")
            parts.extend(_paragraphs(shown))
    missing = [f for f in figures if tuple(f) not in drawn]
    if missing:
        raise ExtensionError(f"{where}: figures on no slide of the plan: {missing}")
    homework = HOMEWORK.search(plan)
    if homework:
        parts.append("<h2>Homework</h2>")
        said = _text_html(_unref(homework["text"].strip()))
        # each notebook named, a link to it
        said = re.sub(
            r"<code>(homework/[\w-]+\.ipynb)</code>", lambda m: link(m[1]), said
        )
        parts.append(f"<p>{said}</p>")
    closing = [_check(checks, where)] if checks else []
    closing.append(_addresses(link, site_url, activity, bool(homework)))
    parts.append(f'<div class="posenc-closing">{"".join(closing)}</div>')
    plain = re.sub(r"[$\\]", "", heading)
    return write_handout_page(site, name, plain, parts, "posenc-session-handout")


def write_all(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.name not in DECK_BUILDERS:
        return
    for declaration in DECLARATION.finditer(PLANS.read_text(encoding="utf-8")):
        written = write_session_handout(
            Path(app.outdir), declaration["name"], site_url=app.config.html_baseurl
        )
        if written is None:
            LOG.info(
                "session handout %s: not all its chapters built", declaration["name"]
            )


def setup(app: Sphinx) -> dict:
    # After _ext/slides.py (900) wrote the chapters' handouts and removed
    # stale ones; before _ext/prerender_maths.py (950) renders the maths.
    app.connect("build-finished", write_all, priority=920)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
