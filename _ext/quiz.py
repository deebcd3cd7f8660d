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
``tests/test_quiz.py`` checks the directive and, in Chromium, the feedback
on every page that has questions.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

STATIC = Path(__file__).resolve().parent / "static"


class quiz_node(nodes.General, nodes.Element):
    """One question: its text, then option nodes."""


class quiz_option_node(nodes.General, nodes.Element):
    """One option: a button (its inline text) and its explanation."""


class QuizDirective(SphinxDirective):
    has_content = True
    option_spec = {"answer": directives.positive_int}

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
        serial = self.env.new_serialno("posenc-quiz")
        quiz = quiz_node(ids=[f"quiz-{serial}"], number=serial + 1)
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


def visit_quiz(self, node: quiz_node) -> None:
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


def visit_option(self, node: quiz_option_node) -> None:
    verdict = "right" if node["correct"] else "wrong"
    letter = "ABCDEFGH"[node["index"] - 1]
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
    app.connect("config-inited", add_static_path)
    app.add_css_file("posenc-quiz.css")
    app.add_js_file("posenc-quiz.js", loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
