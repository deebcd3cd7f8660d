"""axe-core in a Playwright page, offline: the accessibility rules the
browser tests run (``tests/vendor/axe-core``, vendored from npm).

    import axe
    violations = axe.run(page, ["color-contrast"], within=".present")

injects ``axe.min.js`` into ``page`` (once) and returns axe's violations of
the given rules, each a dict with the rule's ``id``, its ``help`` and the
``nodes`` that fail (each with its ``target`` selector and axe's
``failureSummary``: for colour contrast, the ratio, the colours and the
size). :func:`describe` makes them one readable line each.
"""

from __future__ import annotations

from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"

#: JavaScript: run axe on a context with only some rules; the violations.
RUN = """async ([within, rules]) => {
  const context = within ? document.querySelector(within) : document;
  const result = await axe.run(context, {
    runOnly: {type: "rule", values: rules},
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


def run(page, rules: list[str], within: str | None = None) -> list[dict]:
    """axe's violations of ``rules`` in ``page`` (or in the first element
    matching the CSS selector ``within``)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(SCRIPT))
    return page.evaluate(RUN, [within, rules])


def describe(violations: list[dict]) -> list[str]:
    """One line per failing element: the rule, where, and why."""
    return [
        f"{v['id']}: {node['target']}: {' '.join(node['summary'].split())}"
        for v in violations
        for node in v["nodes"]
    ]
