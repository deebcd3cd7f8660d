"""Number an appendix's figures, equations, exercises and theorems A.1, A.2, ...

Sphinx numbers what sits in a numbered toctree by chapter: "Fig. 1.1",
"(1.1)", "Exercise 1.1" in chapter 1. A document in an unnumbered part (the
appendix) gets bare counters instead: "Fig. 1", "(1)", "Exercise 1". Those
are easy to take for chapter 1's, and Sphinx has no notion of an appendix
to number them otherwise (sphinx-doc/sphinx#1600).

After Sphinx has assigned the numbers, this renumbers every kind of
numbered thing of each document named in the configuration value
``appendix_prefixes`` (document name -> letter) as (letter, 1), (letter, 2),
... in the order Sphinx numbered them. The numbers then read "Fig. A.1",
"(A.1)", "Exercise A.1" everywhere they are shown: in captions, in equation
labels, in {numref}, {eq} and {ref} links, and in the one-page build, all of
which read ``env.toc_fignumbers``. The appendix's title says "Appendix A"
itself; its place in the table of contents is unchanged.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def prefix_numbers(app: Sphinx, env: BuildEnvironment) -> list[str]:
    for docname, letter in app.config.appendix_prefixes.items():
        for numbers in env.toc_fignumbers.get(docname, {}).values():
            in_order = sorted(numbers, key=lambda node_id: numbers[node_id])
            for rank, node_id in enumerate(in_order, start=1):
                numbers[node_id] = (letter, rank)
    # Sphinx's own collector already asks for the pages whose numbers moved.
    return []


def setup(app: Sphinx) -> dict:
    app.add_config_value("appendix_prefixes", {}, "env", types=[dict])
    # after Sphinx's table-of-contents collector (priority 500) numbers them
    app.connect("env-get-updated", prefix_numbers, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
