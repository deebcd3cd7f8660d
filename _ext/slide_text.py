"""A slide's Markdown (its title, text entries, notes, question and board
work, ``_ext/slides.py``) as HTML, its maths left as TeX in Sphinx's
markup (``\\(...\\)`` in ``span.math``, ``\\[...\\]`` in ``div.math``) for
``_ext/prerender_maths.py`` to render with the site's."""

from __future__ import annotations

import html
import re

#: Inline maths, ``$...$`` (not ``$$``), within one paragraph.
INLINE_MATHS = re.compile(r"(?<![$\\])\$(?!\$)((?:[^$\n]|\n(?!\s*\n))+?)\$(?!\$)")


def one_line_maths(text: str) -> str:
    r"""``text`` with each inline formula on one line. Markdown reads the
    blocks before the maths, so a formula broken before ``- \kappa`` or
    ``+ 1`` would otherwise start a list in the middle of the formula."""
    return INLINE_MATHS.sub(
        lambda m: "$" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "$", text
    )


def notes_html(text: str, inline: bool = False) -> str:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    text = one_line_maths(text)

    md = MarkdownIt("commonmark").use(dollarmath_plugin, double_inline=True)
    md.add_render_rule(
        "math_inline",
        lambda self, tokens, idx, options, env: (
            f'<span class="math">\\({html.escape(tokens[idx].content)}\\)</span>'
        ),
    )
    # $$...$$ inside a paragraph: display maths (a block span, since a div
    # may not stand in a paragraph), typeset like a block of its own.
    md.add_render_rule(
        "math_inline_double",
        lambda self, tokens, idx, options, env: (
            '<span class="math display">'
            f"\\[{html.escape(tokens[idx].content)}\\]</span>"
        ),
    )
    md.add_render_rule(
        "math_block",
        lambda self, tokens, idx, options, env: (
            f'<div class="math">\\[{html.escape(tokens[idx].content)}\\]</div>'
        ),
    )
    return md.renderInline(text) if inline else md.render(text)
