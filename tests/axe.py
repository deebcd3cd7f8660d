"""axe-core in a Playwright page, offline: the accessibility rules the
browser tests run (``tests/vendor/axe-core``, vendored from npm).

    import axe
    violations = axe.run(page, ["color-contrast"], within=".present")
    problems = axe.audit(page)  # WCAG 2.0/2.1 A and AA, and the book's rules

:func:`run` injects ``axe.min.js`` into ``page`` (once) and returns axe's
violations of the given rules, each a dict with the rule's ``id``, its
``help`` and the ``nodes`` that fail (each with its ``target`` selector and
axe's ``failureSummary``: for colour contrast, the ratio, the colours and
the size). :func:`describe` makes them one readable line each.

:func:`audit` runs every rule of WCAG 2.0 and 2.1 at levels A and AA (axe's
tags ``wcag2a``, ``wcag2aa``, ``wcag21a``, ``wcag21aa``), and the book's own
rules (:data:`BOOK_RULES`: a screen reader gets every formula as MathML),
and returns one line per failing element. tests/test_site.py calls it in
each page's loads, tests/test_accessibility.py reads the results and
audits the rest (the student edition, decks, handouts, clicker pages).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import sitetools  # noqa: E402  (scripts/sitetools.py)

SCRIPT = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"

#: axe's tags of the rules of WCAG 2.0 and 2.1, levels A and AA.
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The tag of the book's own rules.
BOOK = "posenc"
#: The rules whose result depends on the colours: all a page needs checked
#: again in its other colour mode (the markup is the same).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

#: What axe leaves out, each with its reason. Nothing so far: the maths,
#: MathML rendered at build time (Temml, _ext/prerender_maths.py), passes
#: every rule. Were it to fail one, its elements (``math``) would be
#: excluded here, named and argued, and nothing else.
EXCLUDE: list[tuple[str, str]] = []

#: JavaScript: the book's own rules, added to axe's (``axe.configure``).
#:
#: * ``formula-has-mathml``: every formula of the page (Sphinx's
#:   ``span.math`` and ``div.math``, wherever the maths is typeset: in the
#:   browser by MathJax, or at build time) holds a ``<math>`` element (MathML
#:   that a screen reader reads or speaks) with text, or carries spoken text
#:   of its own (``aria-label``). Temml's output is that MathML itself; a
#:   renderer that drew glyphs (MathJax's CommonHTML) had to add it beside
#:   them. Hidden formulas (in a closed dropdown) count.
BOOK_RULES = """() => axe.configure({
  checks: [{
    id: "posenc-has-mathml",
    evaluate: function (node) {
      const maths = node.querySelector("math");
      if (maths && maths.textContent.trim()) return true;
      const spoken = node.querySelector("[aria-label]");
      return Boolean(spoken && spoken.getAttribute("aria-label").trim());
    },
    metadata: {impact: "serious", messages: {
      pass: "The formula has MathML",
      fail: "A screen reader gets nothing of this formula: no <math>, no aria-label",
    }},
  }],
  rules: [{
    id: "formula-has-mathml",
    selector: "span.math, div.math",
    excludeHidden: false,
    any: ["posenc-has-mathml"],
    tags: ["posenc"],
    metadata: {
      description: "Every formula reaches a screen reader as MathML or speech",
      help: "Formulas must have MathML or a spoken text",
    },
  }],
})"""

#: JavaScript: run axe on a context with some rules (``kind`` "rule": by
#: id; "tag": every rule with one of the tags, as axe runs them: not the
#: experimental ones); the violations.
RUN = """async ([within, kind, values, exclude, without]) => {
  const context = within ? document.querySelector(within) : document;
  const result = await axe.run(
    exclude.length ? {include: [context], exclude: exclude.map(s => [s])} : context,
    {
      runOnly: {type: kind, values: values},
      rules: Object.fromEntries(without.map(id => [id, {enabled: false}])),
      resultTypes: ["violations"],
    });
  return result.violations.map(v => ({
    id: v.id, help: v.help,
    nodes: v.nodes.map(n => ({
      target: n.target.join(" "), html: n.html.slice(0, 120),
      summary: n.failureSummary,
    })),
  }));
}"""


def inject(page) -> None:
    """axe, with the book's rules, in ``page`` (once)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(SCRIPT))
        page.evaluate(BOOK_RULES)
    # Colours as they end, not halfway through a transition: a page just
    # switched to dark mode fades its colours (the theme's search field
    # was once measured at #7a8494 on #7b8087, between light and dark).
    page.add_style_tag(
        content="*, *::before, *::after"
        " { transition: none !important; animation: none !important; }"
    )


#: JavaScript: until the theme's tab stops for scrolling boxes are set again
#: after a change to the page (sitetools.TAB_STOPS_SET).
SETTLED = sitetools.TAB_STOPS_SET


def run(
    page,
    rules: list[str],
    within: str | None = None,
    kind: str = "rule",
    without: tuple[str, ...] = (),
) -> list[dict]:
    """axe's violations of ``rules`` in ``page`` (or in the first element
    matching the CSS selector ``within``); with ``kind="tag"``, ``rules``
    are tags (:data:`WCAG`), and the rules ``without`` are left out."""
    inject(page)
    page.evaluate(SETTLED)
    excluded = [selector for selector, _ in EXCLUDE]
    return page.evaluate(RUN, [within, kind, rules, excluded, list(without)])


def audit(
    page,
    colours_only: bool = False,
    within: str | None = None,
    without: tuple[str, ...] = (),
) -> list[str]:
    """Every violation, one line each, of the rules of WCAG 2.0 and 2.1 at
    levels A and AA and of the book's rules in ``page`` as it is now (its
    colour mode, its size, its open dropdowns); ``colours_only``: only
    the rules that depend on colours (:data:`COLOUR_RULES`); ``without``:
    all but these rules."""
    if colours_only:
        return describe(run(page, COLOUR_RULES, within))
    return describe(run(page, [*WCAG, BOOK], within, kind="tag", without=without))


def describe(violations: list[dict]) -> list[str]:
    """One line per failing element: the rule, where, and why."""
    return [
        f"{v['id']}: {node['target']}: {' '.join(node['summary'].split())}"
        for v in violations
        for node in v["nodes"]
    ]
