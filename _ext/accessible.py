"""What a screen reader and a keyboard get from the theme and the
extensions, mended where they fall short of WCAG 2.1 AA.

The book's own parts (players, quizzes, folds) are accessible where they
are made (``static/posenc-player.js``, ``_ext/quiz.py``, ``_ext/folding.py``);
this module mends what comes from elsewhere, in the HTML the build writes,
so it holds with JavaScript off too:

* **The bibliography.** docutils' HTML5 writer gives each entry the role
  ``doc-biblioentry``, which DPUB-ARIA 1.1 deprecates, inside a
  ``role="list"`` that then has no list items (axe: aria-deprecated-role,
  aria-required-children). Each entry here is a ``listitem``.
* **The search button.** pydata-sphinx-theme names it "Search" with an
  ``aria-label`` while it shows "Search Ctrl+K" (WCAG 2.5.3, label in
  name): ``templates/search-button-field.html`` replaces the
  theme's, and this module puts ``templates/`` first on the template path.

Each is a report we would file upstream: docs/maintainers.md,
"Accessibility". tests/test_accessibility.py runs axe-core on every page.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

TEMPLATES = Path(__file__).resolve().parent / "templates"


def add_templates(app: Sphinx, config) -> None:
    """Our templates before the theme's."""
    if str(TEMPLATES) not in config.templates_path:
        config.templates_path.insert(0, str(TEMPLATES))


def visit_citation(self, node: nodes.citation) -> None:
    """docutils' ``visit_citation`` with the entry a ``listitem``."""
    if not isinstance(node.previous_sibling(), type(node)):
        self.body.append('<div role="list" class="citation-list">\n')
    self.body.append(
        self.starttag(node, "div", classes=[node.tagname], role="listitem")
    )


def depart_citation(self, node: nodes.citation) -> None:
    self.body.append("</div>\n")
    if not isinstance(node.next_node(descend=False, siblings=True), type(node)):
        self.body.append("</div>\n")


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", add_templates)
    app.add_node(nodes.citation, override=True, html=(visit_citation, depart_citation))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
