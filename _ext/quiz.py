""" "Check your understanding": multiple-choice questions with feedback.

A question is a ``{quiz}`` directive: the question, then a bullet list of
options. Each option's first paragraph is what the reader picks; the rest
of the item explains why that option is right or wrong. ``:answer:`` is the
number of the right option (1 for the first)::

    ```{quiz}
    :answer: 2

    Which ... ?

    - An option that sounds right.

      Why it is not.
    - The right option.

      Why it is.
    ```

On the page each option is a button (reachable with Tab, pressed with
Enter or Space). Pressing one says at once whether it is right and shows
its explanation in a live region that screen readers announce
(``_ext/static/posenc-quiz.js``, no kernel, no network). Questions are
numbered per page ("Question 1", ...) and are not exercises: they take no
exercise number and have no solution, so the student edition keeps them.
A self-check needs its answer, so the chapter page's source holds it.

**For clickers** (a lecture hall votes on a question, then sees the
answer), the self-checks are not enough: students may have pressed them.
So each chapter also has *fresh* questions, written in the instructor
section's answer key (``book/instructor/quizzes.md``) as ``{clicker}``
directives: a ``{quiz}`` with ``:chapter:`` (the chapter's file name),
numbered F1, F2, ... per chapter in the order written. Then:

* ``clickers/<chapter>.html``, written after every HTML build (both
  editions, :func:`write_clicker_pages`): the chapter's fresh questions,
  then its self-checks ("Review question 1", ...), with their options, one
  question to a screen on a projector, *with no answer in the page's
  source*: no verdict, no explanation; its one script only steps between
  questions. The self-checks come
  from the built chapter page's question and option texts alone; the
  fresh ones from the key's source, of which :func:`fresh_questions`
  reads the question and the option texts alone (rendered with
  markdown-it: prose, ``$maths$``, emphasis and code, no roles), so
  nothing else of either can reach the page. The student edition does
  not build the key, but reads its source for these pages: give students
  the student edition's address of them.
* the instructor section's answer key (``{quiz-key}`` for the
  self-checks, the ``{clicker}`` blocks in place for the fresh ones;
  default edition only): every question with the right letter and why
  each option is right or wrong, folded under "Answer" (opened by a click
  when projected; every one opened when printed).

``tests/test_quiz.py`` checks the directive, in Chromium the feedback on
every page that has questions, that no clicker page carries a marker of the
right answer, and that the key gives each question's answer;
``tests/test_clickers.py`` checks the fresh questions: each answer against
its own computation, and that the student edition holds none of their
answers or explanations.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import yaml
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from plain_titles import plain
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
#: The answer-free pages, one per chapter, at the root of the site.
CLICKERS = "clickers"
#: A chapter's questions in its MyST source: the options, then the body.
QUIZ_BLOCK = re.compile(r"^```\{quiz\}\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
#: While ``{quiz-key}`` parses the chapters' questions: how many of each
#: chapter's were parsed (a question of the key is numbered as on its page).
KEY_STATE = "posenc-quiz-key"
#: The same, for the fresh questions (F1, F2, ... per chapter).
FRESH_STATE = "posenc-clicker-fresh"
LETTERS = "ABCDEFGH"
#: Where the fresh questions are written (with their answers): the key.
FRESH_SOURCE = "book/instructor/quizzes.md"
#: A fresh question in it: ``{clicker}``, then its options and body.
FRESH_BLOCK = re.compile(r"^```\{clicker\}\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


class quiz_node(nodes.General, nodes.Element):
    """One question: its text, then option nodes. ``key``: in the answer
    key (static, the answer folded), not a self-check."""


class quiz_option_node(nodes.General, nodes.Element):
    """One option: a button (its inline text) and its explanation."""


class QuizDirective(SphinxDirective):
    has_content = True
    # ``key-of``: the chapter of a question of the answer key ({quiz-key}
    # writes it; a chapter never does).
    # ``chapter``: a fresh question's chapter (``{clicker}`` only).
    option_spec = {
        "answer": directives.positive_int,
        "key-of": directives.unchanged,
        "chapter": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        body = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, body)
        lists = [c for c in body.children if isinstance(c, nodes.bullet_list)]
        if not lists or body.children[-1] is not lists[-1]:
            raise self.error("a quiz ends with its bullet list of options")
        options = lists[-1]
        if len(options.children) < 2:
            raise self.error("a quiz needs at least two options")
        answer = self.options.get("answer")
        if answer is None or answer > len(options.children):
            raise self.error(
                f":answer: must be the number of an option, 1 to "
                f"{len(options.children)}"
            )
        chapter = self.options.get("key-of")
        if self.name == "clicker":
            chapter = self.options.get("chapter")
            if (
                chapter is None
                or not (Path(self.env.srcdir) / "book" / f"{chapter}.md").is_file()
            ):
                raise self.error(":chapter: must name a chapter, e.g. rope")
            counts = self.env.temp_data.setdefault(FRESH_STATE, {})
            number = counts[chapter] = counts.get(chapter, 0) + 1
            ids = [f"fresh-{chapter}-F{number}"]
            quiz = quiz_node(ids=ids, number=f"F{number}", key=True, answer=answer)
        elif chapter is None:
            serial = self.env.new_serialno("posenc-quiz")
            quiz = quiz_node(ids=[f"quiz-{serial}"], number=serial + 1, key=False)
        else:  # numbered as on the chapter's page
            counts = self.env.temp_data.setdefault(KEY_STATE, {})
            number = counts[chapter] = counts.get(chapter, 0) + 1
            ids = [f"key-{chapter}-{number}"]
            quiz = quiz_node(ids=ids, number=number, key=True, answer=answer)
        quiz.document = self.state.document
        self.set_source_info(quiz)
        question = nodes.container(classes=["quiz-question"])
        question.extend(body.children[:-1])
        quiz += question
        for index, item in enumerate(options.children, start=1):
            first = item.children[0] if item.children else None
            if not isinstance(first, nodes.paragraph) or len(item.children) < 2:
                raise self.error(
                    f"option {index}: a paragraph to pick, then its explanation"
                )
            option = quiz_option_node(correct=index == answer, index=index)
            label = nodes.inline(classes=["quiz-label"])
            label.extend(first.children)
            explanation = nodes.container(classes=["quiz-explanation"])
            explanation.extend(item.children[1:])
            option += label
            option += explanation
            quiz += option
        return [quiz]


# ------------------------------------------------------------ the answer key


def toc_chapters(app: Sphinx) -> list[str]:
    """The files of the table of contents that build uses, in order
    (``book/rope``), but the instructor section's."""
    path = Path(app.srcdir) / (app.config.external_toc_path or "_toc.yml")
    toc = yaml.safe_load(path.read_text(encoding="utf-8"))
    files = []
    for part in toc.get("parts", []):
        for entry in part.get("chapters", []):
            if "file" in entry and not entry["file"].startswith("book/instructor/"):
                files.append(entry["file"])
    return files


def chapter_title(text: str) -> str:
    """A chapter's title, as its MyST source writes it."""
    return next(line[2:].strip() for line in text.splitlines() if line.startswith("# "))


class QuizKeyDirective(SphinxDirective):
    """Every chapter's questions with their answers (the instructor
    section's answer key): a section per chapter, in book order, titled as
    the chapter, linking its answer-free page, then its questions."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = []
        for docname in toc_chapters(self.env.app):
            source = Path(self.env.srcdir) / f"{docname}.md"
            if not source.is_file():
                continue
            text = source.read_text(encoding="utf-8")
            blocks = QUIZ_BLOCK.findall(text)
            if not blocks:
                continue
            self.env.note_dependency(str(source))
            name = Path(docname).name
            lines += [
                # the title in Unicode: a formula in a heading cannot wrap,
                # and the complex chapter's overflowed a phone's column
                f"### {plain(chapter_title(text))}",
                "",
                f"{{clicker-page}}`{name}` · {{doc}}`the chapter </{docname}>`",
                "",
            ]
            for block in blocks:
                lines += ["```{quiz}", f":key-of: {name}", *block.splitlines()]
                lines += ["```", ""]
        container = nodes.section()
        container.document = self.state.document
        self.state.nested_parse(
            StringList(lines, self.get_source_info()[0]),
            0,
            container,
            match_titles=True,
        )
        return container.children


def clicker_page_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """A link from the answer key to a chapter's answer-free page."""
    env = inliner.document.settings.env
    builder = env.app.builder
    label = "the questions without answers, for students and the projector"
    if builder.format != "html":
        return [nodes.Text(label)], []
    uri = relative_uri(builder.get_target_uri(env.docname), f"{CLICKERS}/{text}.html")
    return [nodes.reference(rawtext, label, refuri=uri, classes=["clicker-link"])], []


# ------------------------------------------------------------ HTML


def visit_quiz(self, node: quiz_node) -> None:
    if node["key"]:
        visit_key(self, node)
    self.body.append(
        f'<section class="posenc-quiz" id="{node["ids"][0]}" '
        f'aria-labelledby="{node["ids"][0]}-title">'
        f'<p class="quiz-title" id="{node["ids"][0]}-title">'
        f"Question {node['number']}</p>"
    )


def depart_quiz(self, node: quiz_node) -> None:
    self.body.append(
        '<p class="quiz-feedback" role="status" aria-live="polite"></p></section>\n'
    )


def visit_key(self, node: quiz_node) -> None:
    """A question of the answer key: its text, its options as a list, then
    "Answer", folded: the right letter and why each option is right or
    wrong. Static: no button, no script."""
    question, *options = node.children
    self.body.append(
        # not "posenc-quiz": no feedback to give (the self-checks' tests
        # find the questions by that class)
        f'<section class="posenc-quiz-key" id="{node["ids"][0]}">'
        f'<p class="quiz-title">Question {node["number"]}</p>'
    )
    question.walkabout(self)
    self.body.append('<ol class="quiz-key-options" type="A">')
    for option in options:
        self.body.append("<li>")
        option.children[0].walkabout(self)
        self.body.append("</li>")
    self.body.append("</ol>")
    letter = LETTERS[node["answer"] - 1]
    self.body.append(
        '<details class="quiz-key-answer"><summary>Answer</summary>'
        f'<p class="quiz-key-right">Right: <strong>{letter}</strong></p><dl>'
    )
    for option in options:
        label, explanation = option.children
        mark = " (right)" if option["correct"] else ""
        self.body.append(f"<dt>{LETTERS[option['index'] - 1]}{mark}</dt><dd>")
        for child in explanation.children:
            child.walkabout(self)
        self.body.append("</dd>")
    self.body.append("</dl></details></section>\n")
    raise nodes.SkipNode


def visit_option(self, node: quiz_option_node) -> None:
    verdict = "right" if node["correct"] else "wrong"
    letter = LETTERS[node["index"] - 1]
    self.body.append(
        f'<div class="quiz-option" data-verdict="{verdict}" '
        f'data-letter="{letter}">'
        '<button type="button" class="quiz-choice" aria-pressed="false">'
        f'<span class="quiz-letter">{letter}</span> '
    )
    # The label (inline) goes inside the button; the explanation after it.
    label, explanation = node.children
    label.walkabout(self)
    self.body.append("</button>")
    self.body.append('<div class="quiz-explanation" role="note" hidden>')
    for child in explanation.children:
        child.walkabout(self)
    self.body.append("</div></div>")
    raise nodes.SkipNode


def skip(self, node) -> None:
    raise nodes.SkipNode


def text_visit_quiz(self, node) -> None:
    """Other builders (text, LaTeX): the question and its options, no
    answers."""
    raise nodes.SkipNode


# ------------------------------------------------------------ clicker pages


def clicker_questions(page_html: str) -> tuple[str, str, list[dict]]:
    """From a built chapter page: its title (HTML), its plain title (the
    tab's, without the book's name and the chapter's number), and each
    question's text and option labels (HTML), nothing else."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(page_html, "html.parser")
    heading = next(h for h in soup.find_all("h1") if h.find("a", class_="headerlink"))
    for part in heading.find_all(
        ["a", "span"], class_=["headerlink", "section-number"]
    ):
        part.decompose()
    questions = []
    for quiz in soup.select("section.posenc-quiz"):
        labels = []
        for button in quiz.select(".quiz-option > .quiz-choice"):
            button.find("span", class_="quiz-letter").decompose()
            labels.append(button.decode_contents().strip())
        text = quiz.find(class_="quiz-question").decode_contents().strip()
        questions.append({"text": text, "options": labels})
    return (
        heading.decode_contents().strip(),
        # the tab's title: plain text, maths as Unicode (_ext/plain_titles.py)
        re.sub(r"^[A-Z0-9.]+\. ", "", soup.title.get_text().split(" \u2014 ")[0]),
        questions,
    )


def fresh_blocks(text: str) -> dict[str, list[str]]:
    """The body of each ``{clicker}`` block of ``text`` (the key's MyST
    source), by chapter, in order."""
    found: dict[str, list[str]] = {}
    for body in FRESH_BLOCK.findall(text):
        chapter = re.search(r"^:chapter: *(\S+)$", body, re.MULTILINE).group(1)
        found.setdefault(chapter, []).append(body)
    return found


def fresh_question(body: str) -> dict:
    """A fresh question's text and option labels as HTML: its question
    paragraphs, and each option's first paragraph; never an option's
    explanation or the ``:answer:`` line."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    def maths(content: str, options: dict) -> str:
        # dollarmath wraps it in <span class="math inline"> (or a div): the
        # markup _ext/prerender_maths.py renders, as Sphinx's
        if options.get("display_mode"):
            return f"\\[{html.escape(content)}\\]"
        return f"\\({html.escape(content)}\\)"

    # typographic quotes and dashes, as Sphinx gives the chapters' pages
    markdown = MarkdownIt("commonmark", {"typographer": True})
    markdown.enable(["replacements", "smartquotes"])
    markdown.use(dollarmath_plugin, renderer=maths)
    lines = [line for line in body.splitlines() if not re.match(r"^:[\w-]+:", line)]
    text, *options = re.split(r"^- ", "\n".join(lines), flags=re.MULTILINE)
    labels = []
    for option in options:
        pick = option.partition("\n\n")[0]
        labels.append(markdown.renderInline(" ".join(pick.split())).strip())
    return {"text": markdown.render(text.strip()).strip(), "options": labels}


def fresh_questions(srcdir: Path) -> dict[str, list[dict]]:
    """Every chapter's fresh questions (text and options, no answer), read
    from the key's source (in both editions: the student edition does not
    build the key, but its source is there)."""
    source = Path(srcdir) / FRESH_SOURCE
    if not source.is_file():
        return {}
    blocks = fresh_blocks(source.read_text(encoding="utf-8"))
    return {
        name: [fresh_question(b) for b in bodies] for name, bodies in blocks.items()
    }


def _relink(fragment: str, page: str) -> str:
    """Links of a fragment of the chapter page ``page`` (``book/x.html``),
    made to work from ``clickers/``."""

    def fix(match: re.Match) -> str:
        href = match.group(2)
        if re.match(r"[a-z]+:|/", href):
            return match.group(0)
        target = page + href if href.startswith("#") else f"book/{href}"
        return f'{match.group(1)}"../{target}"'

    return re.sub(r'(href=)"([^"]*)"', fix, fragment)


#: A formula (before it is rendered) and the punctuation after it.
FORMULA_THEN_MARK = re.compile(r'(<span class="math[^"]*">[^<]*</span>)([?.,;:!)]+)')


def _keep_marks(fragment: str) -> str:
    """A formula and the punctuation after it, on one line: a "?" alone
    at the start of a line reads badly from the back of a hall."""
    return FORMULA_THEN_MARK.sub(r'<span class="clicker-keep">\1\2</span>', fragment)


def _question_section(
    ident: str, title: str, of: str, question: dict, page: str, kind: str
) -> str:
    """One question of a clicker page: its heading, text and options."""
    options = "".join(
        f'<li><span class="clicker-letter">{LETTERS[i]}</span> '
        f"<span>{_keep_marks(_relink(label, page))}</span></li>"
        for i, label in enumerate(question["options"])
    )
    text = _keep_marks(_relink(question["text"], page))
    return (
        f'<section class="clicker-question clicker-{kind}" id="{ident}" '
        f'aria-labelledby="{ident}-title">'
        f'<h2 id="{ident}-title">{title} <span class="clicker-of">{of}</span></h2>'
        f'<div class="clicker-text">{text}</div>'
        f'<ol class="clicker-options" type="A">{options}</ol></section>'
    )


def clicker_page(
    title_html: str,
    title: str,
    page: str,
    questions: list[dict],
    fresh: list[dict] | None = None,
) -> str:
    """The answer-free page of a chapter's questions: the fresh ones (F1,
    F2, ...), then the chapter's self-checks, for review."""
    from slides import _head

    fresh = fresh or []
    sections = [
        _question_section(
            f"F{number}",
            f"Question F{number}",
            f"fresh, {number} of {len(fresh)}",
            question,
            page,
            "fresh",
        )
        for number, question in enumerate(fresh, start=1)
    ]
    sections += [
        _question_section(
            f"question-{number}",
            f"Review question {number}",
            f"of {len(questions)}",
            question,
            page,
            "review",
        )
        for number, question in enumerate(questions, start=1)
    ]
    if fresh:
        count = (
            f"{len(fresh)} fresh questions, F1 to F{len(fresh)}, not in the "
            f"chapter; then its {len(questions)} self-checks, for review "
            "(students may have seen their answers)."
        )
    else:
        count = f"{len(questions)} questions, the chapter's self-checks."
    css = (
        '<link rel="stylesheet" href="../_static/posenc-clickers.css">\n'
        # Page Down and the arrows: one question a screen (the script says why)
        '<script src="../_static/posenc-clickers.js" defer></script>\n'
    )
    return (
        _head(f"Questions: {title}", "../", css)
        + '<body>\n<header class="clicker-header"><p class="clicker-kicker">'
        "Check your understanding: vote, then discuss</p>"
        f"<h1>{title_html}</h1>"
        f'<p class="clicker-note">{count} The answers are not on this page; '
        "the lecturer reveals them. Page Down or the arrow keys go from one "
        f'question to the next. <a href="../{page}">The chapter</a> (its '
        "questions give feedback: open it after the vote).</p>"
        '<p class="clicker-start">Page Down: question '
        f"{'F1' if fresh else '1'}</p></header>\n"
        "<main>\n" + "\n".join(sections) + "\n</main>\n</body>\n</html>\n"
    )


def clicker_index(chapters: list[tuple[str, str, int, int]]) -> str:
    """``clickers/index.html``: every chapter's answer-free page."""
    from slides import _head

    items = "".join(
        f'<li><a href="{name}.html">{title_html}</a> ({fresh} fresh questions, '
        f"{count} for review)</li>"
        for name, title_html, fresh, count in chapters
    )
    css = '<link rel="stylesheet" href="../_static/posenc-clickers.css">\n'
    return (
        _head("Questions for clickers", "../", css)
        + '<body>\n<header class="clicker-header"><h1>Questions for clickers</h1>'
        '<p class="clicker-note">Each chapter\'s fresh questions, then its '
        '"Check your understanding" questions, without their answers: open a '
        "chapter's page to vote on its questions.</p></header>\n"
        f'<main><ul class="clicker-index">{items}'
        '</ul><p><a href="../index.html">The book</a></p></main>\n</body>\n</html>\n'
    )


def write_clicker_pages(app: Sphinx, exception: Exception | None) -> None:
    """The answer-free page of every built chapter with questions, and an
    index of them; pages of chapters no longer built are removed."""
    if exception is not None or app.builder.name != "html":
        return
    site = Path(app.outdir)
    folder = site / CLICKERS
    written, listed = set(), []
    fresh = fresh_questions(app.srcdir)
    for docname in toc_chapters(app):
        page = app.builder.get_target_uri(docname)
        built = site / page
        if docname not in app.env.found_docs or not built.is_file():
            continue
        text = built.read_text(encoding="utf-8")
        if 'class="posenc-quiz"' not in text:
            continue
        title_html, title, questions = clicker_questions(text)
        name = Path(docname).name
        folder.mkdir(exist_ok=True)
        target = folder / f"{name}.html"
        mine = fresh.get(name, [])
        target.write_text(
            clicker_page(title_html, title, page, questions, mine), "utf-8"
        )
        written.add(target)
        listed.append((name, title_html, len(mine), len(questions)))
    if listed:
        (folder / "index.html").write_text(clicker_index(listed), encoding="utf-8")
        written.add(folder / "index.html")
    for stale in set(folder.glob("*.html")) - written:
        stale.unlink()
    if listed:
        logger.info(f"{CLICKERS}/: answer-free questions of {len(listed)} chapters")


# ------------------------------------------------------------ setup


def add_static_path(app: Sphinx, config) -> None:
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


def setup(app: Sphinx) -> dict:
    app.add_node(
        quiz_node,
        html=(visit_quiz, depart_quiz),
        latex=(text_visit_quiz, None),
        text=(text_visit_quiz, None),
    )
    app.add_node(
        quiz_option_node,
        html=(visit_option, None),
        latex=(skip, None),
        text=(skip, None),
    )
    app.add_directive("quiz", QuizDirective)
    app.add_directive("clicker", QuizDirective)
    app.add_directive("quiz-key", QuizKeyDirective)
    app.add_role("clicker-page", clicker_page_role)
    app.connect("config-inited", add_static_path)
    app.connect("build-finished", write_clicker_pages)
    app.add_css_file("posenc-quiz.css")
    app.add_js_file("posenc-quiz.js", loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
