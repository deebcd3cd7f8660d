"""Titles with maths read well where no maths can be typeset.

Chapter titles use the book's notation (``# Complex numbers solve
$\\langle p_m, p_n\\rangle = g(m-n)$``). MathJax typesets them in the page and
the sidebar, but a title is also written as plain text: in the browser tab
(``<title>``), in the theme's print heading, and as the text of a ``{ref}``
to the section. There the TeX source showed (``\\langle p_m, p_n\\rangle``).

This extension gives those places a plain-text form of the title, with TeX
turned into Unicode (``⟨pₘ, pₙ⟩ = g(m-n)``):

* ``html-page-context``: the page's ``title`` (the tab) and ``pagetitle``
  (the theme's print heading);
* ``doctree-resolved``: the text of cross-references whose text is a title
  with maths (``{ref}`` to a chapter or section).

Only the notation the book's titles use is translated; :func:`plain` leaves
anything else as it is, and the site tests fail on any TeX command left in
the visible text of a page.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx

#: TeX commands and their Unicode form (what the book's titles use).
SYMBOLS = {
    r"\langle": "⟨",
    r"\rangle": "⟩",
    r"\ell": "ℓ",
    r"\Delta": "Δ",
    r"\theta": "θ",
    r"\tau": "τ",
    r"\gamma": "γ",
    r"\pi": "π",
    r"\sum": "Σ",
    r"\infty": "∞",
    r"\approx": "≈",
    r"\le": "≤",
    r"\ge": "≥",
    r"\cdot": "·",
    r"\in": "∈",
    r"\cos": "cos",
    r"\sin": "sin",
    r"\ln": "ln",
    r"\log": "log",
    r"\,": " ",
    r"\;": " ",
    r"\!": "",
}
GROUPS = (
    (re.compile(r"\\(?:mathrm|text|mathit|operatorname)\{([^{}]*)\}"), r"\1"),
    (re.compile(r"\\sqrt\{([^{}]*)\}"), r"√\1"),
    (re.compile(r"\\sqrt\s*([A-Za-z0-9])"), r"√\1"),
    (re.compile(r"\^\{([^{}]*)\}"), r"^(\1)"),
    (re.compile(r"_\{([^{}])\}"), r"_\1"),
    (re.compile(r"_\{([^{}]*)\}"), r"_(\1)"),
)
DELIMITERS = re.compile(r"\\\(|\\\)|\$")
#: Unicode's subscript forms: a subscript made only of these is written with
#: them ("Σᵢ cos(Δθᵢ)"); "Σ_i" read as "Σ i" in a link, whose underline hid
#: the underscore. Others keep "_" ("p_(t+ℓ)": ℓ has no subscript form).
SUBSCRIPT = str.maketrans(
    "0123456789aehijklmnoprstuvx+-=()", "₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₊₋₌₍₎"
)
SUBSCRIPTS = re.compile(r"_(\(([^()]*)\)|[^\s(])")


def _subscript(match: re.Match) -> str:
    body = match.group(2) if match.group(2) is not None else match.group(1)
    lowered = body.translate(SUBSCRIPT)
    if any(a == b for a, b in zip(body, lowered, strict=True)):
        return match.group(0)  # a character with no subscript form
    return lowered


def plain(text: str) -> str:
    """``text`` with inline TeX turned into readable Unicode."""
    text = DELIMITERS.sub("", text)
    for pattern, replacement in GROUPS:
        text = pattern.sub(replacement, text)
    for command in sorted(SYMBOLS, key=len, reverse=True):
        end = r"(?![A-Za-z])" if command[1:].isalpha() else ""
        text = re.sub(re.escape(command) + end, SYMBOLS[command], text)
    text = text.replace("⟨ ", "⟨")
    return SUBSCRIPTS.sub(_subscript, text)


def plain_page_title(app: Sphinx, pagename, templatename, context, doctree) -> None:
    # "pagetitle" is the theme's print heading (sphinx-book-theme sets it).
    for key in ("title", "pagetitle"):
        if "\\" in context.get(key, ""):
            context[key] = plain(context[key])


def plain_reference_text(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for reference in doctree.findall(nodes.reference):
        text = reference.astext()
        if not re.search(r"[\\$]", text) or reference.get("refuri", "").startswith(
            "http"
        ):
            continue
        if any(isinstance(child, nodes.math) for child in reference.findall()):
            continue
        for leaf in list(reference.findall(nodes.Text)):
            leaf.parent.replace(leaf, nodes.Text(plain(leaf.astext())))


def setup(app: Sphinx) -> dict:
    # The sidebar shows the chapter titles, maths included, on every page:
    # every page must load MathJax (Sphinx loads it only where the body has
    # maths; the search page and the proof index have none of their own).
    app.set_html_assets_policy("always")
    # After the theme has set its page metadata (priority 500).
    app.connect("html-page-context", plain_page_title, priority=600)
    app.connect("doctree-resolved", plain_reference_text)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
