"""The two layers of a chapter: checks folded beside their claims, depth one
click away, every fold named by what it holds.

* **A check cell** is a code cell whose first line reads
  ``# check: <what it checks>``. It runs in the build and the tests like any
  cell; on the page its code is folded under a small marked summary,
  "Checked: <what it checks>", right where it stands (beside its claim). No
  tag is needed. The cell also gets an anchor, ``check-<slug of what>``, so a
  claim elsewhere can link to it; opening the link opens the fold
  (``static/posenc-folding.js``).
* **Deeper material** goes in a sphinx-design ``{dropdown}``: a native
  ``<details>``, opened by keyboard and announced by its title. A code cell
  tagged ``deeper`` is moved into the nearest dropdown before it in the same
  section, so a proof's figure or check opens with its proof. A ``deeper``
  cell with no dropdown before it fails the build.
* **Every fold is named by its visible text.** myst-nb's folds announced
  themselves as "Toggle hidden content" whatever they held (its summary
  carried that ``aria-label``); here the summary has no label, so its name
  is what it shows ("Show code cell source", "Checked: ..."). The
  collapse buttons of sphinx-togglebutton (exercise solutions, admonition
  dropdowns) get the title they fold as their name, in the script.
"""

from __future__ import annotations

import re
from html import escape

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

SCRIPT = "posenc-folding.js"
#: Pages whose check cells show their code without syntax highlighting:
#: the exam page's 24 checks were 135 kB of highlighted HTML, 36 kB of text
#: (docs/maintainers.md, "Page weight").
PLAIN_CHECKS = {"book/instructor/exam_questions"}
#: The first line of a check cell.
CHECK = re.compile(r"\A#\s*check:\s*(?P<what>\S.*?)\s*$", re.MULTILINE)
DEEPER_TAG = "deeper"

logger = logging.getLogger(__name__)


def slug(text: str) -> str:
    """``check-`` anchor of a check: lower-case words joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)[:60].rstrip("-")


def _source(cell: nodes.Element) -> str:
    for block in cell.findall(nodes.literal_block):
        return block.astext()
    return ""


def _is_code_cell(node: nodes.Node) -> bool:
    return isinstance(node, nodes.container) and node.get("nb_element") == "cell_code"


def _is_dropdown(node: nodes.Node) -> bool:
    return (
        isinstance(node, nodes.Element) and node.get("design_component") == "dropdown"
    )


def fold(app: Sphinx, doctree: nodes.document) -> None:
    """Fold the check cells and move the ``deeper`` cells into their dropdown."""
    used: set[str] = set()
    for cell in list(doctree.findall(_is_code_cell)):
        match = CHECK.match(_source(cell))
        if match:
            what = match.group("what").rstrip(".")
            anchor = "check-" + slug(what)
            number = 2
            while anchor in used:
                anchor = f"check-{slug(what)}-{number}"
                number += 1
            used.add(anchor)
            # Fold the code; a cell already folding its output folds both.
            mode = cell.get("hide_mode")
            cell["hide_mode"] = {None: "input", "output": "input+output"}.get(
                mode, mode
            )
            cell["prompt_show"] = f"Checked: {what}"
            cell["prompt_hide"] = f"Hide the check: {what}"
            cell["classes"].append("posenc-check")
            cell["ids"].append(anchor)
            if app.env.docname in PLAIN_CHECKS:
                for block in cell.findall(nodes.literal_block):
                    block["language"] = "none"
        tags = cell.get("cell_metadata", {}).get("tags", [])
        if DEEPER_TAG in tags:
            parent = cell.parent
            index = parent.index(cell)
            target = None
            for sibling in reversed(parent.children[:index]):
                if _is_dropdown(sibling):
                    target = sibling
                    break
            if target is None:
                logger.warning(
                    "a code cell tagged 'deeper' has no {dropdown} before it "
                    "in its section",
                    location=cell,
                )
                continue
            parent.remove(cell)
            target.append(cell)


def visit_hide(self, node) -> None:
    """myst-nb's fold, named by its visible text (no ``aria-label``)."""
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n')
    self.body.append("<summary>\n")
    self.body.append(
        f'<p class="collapsed admonition-title">{escape(node["prompt_show"])}</p>\n'
    )
    self.body.append(
        f'<p class="expanded admonition-title">{escape(node["prompt_hide"])}</p>\n'
    )
    self.body.append("</summary>\n")


def depart_hide(self, node) -> None:
    self.body.append("</details>\n")


def setup(app: Sphinx) -> dict:
    from myst_nb.sphinx_ import HideCodeCellNode
    from readable import add_style  # the book's static folder, once

    app.connect("config-inited", add_style)
    # After myst-nb has read a notebook into the doctree, before Sphinx's
    # post-transforms wrap the folds (myst-nb) and dropdowns (sphinx-design).
    app.connect("doctree-read", fold)
    app.add_node(HideCodeCellNode, override=True, html=(visit_hide, depart_hide))
    app.add_js_file(SCRIPT, loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
