"""The maths' one style sheet and its fonts, as light as they can be
(``_ext/prerender_maths.py`` renders the maths and names the rules).

* The rules are written without the spaces, line breaks and comments that
  MathJax puts in them for a reader (a third of the 34 kB sheet every page
  loads), with the same selectors, declarations and order (:func:`minified`).
* MathJax's fonts (``mathjax-full``'s WOFF files) are cut to the
  characters the maths draws with each (:func:`drawn_by_font`), with
  fontTools (``page_weight.cut_font``): the book draws some 170 of their
  2,100 characters, and a page loads five to eight of the fonts (150 kB
  on the exam page before the cut, 45 kB after).

Which font draws a character is read from the rules, as the browser reads
them: a character's rule names its variant's class (``.tI``: the italic
variant), whose rule gives the font list (``MJXZERO, MJXTEX-I``); a
character with no variant class takes ``mjx-math``'s list (``MJXZERO,
MJXTEX``); the parts of a stretched delimiter take the stretchy list (five
fonts). A character is kept in every font of its list that has it, so the
browser picks the same glyph as from the whole fonts. ``MJXZERO`` (one
glyph) is left whole. The fonts are cut again only when what they draw
changes (``characters.txt`` beside them says what that was).
"""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from pathlib import Path

import tinycss2

#: MathJax's fonts as mathjax-full ships them (_ext/maths/node_modules).
FONTS = Path(__file__).resolve().parent / "maths" / "node_modules" / "mathjax-full"
FONTS = FONTS / "es5" / "output" / "chtml" / "fonts" / "woff-v2"
#: Under the site's ``_static``: the fonts' folder.
FONTS_DIR = "mathjax-fonts"
#: MathJax's font of one glyph, first in every font list: left whole.
ZERO = "MathJax_Zero.woff"
#: Beside the cut fonts: the characters each was cut to.
CUT_FOR = "characters.txt"

CONTENT = re.compile(r'content:\s*"((?:[^"\\]|\\.)*)"')
FAMILIES = re.compile(r"font-family:\s*([^;}]+)")
FONT_FILE = re.compile(r'url\("?(?:[^")]*/)?([^/")]+)"?\)')
VARIANT = re.compile(r"\.(t[A-Z0-9]+)\b")


def minified(rules: list[str]) -> str:
    """``rules`` (CSS text) without the whitespace and comments a browser
    does not read: selectors, declarations and their order unchanged."""
    out = []
    for text in rules:
        for rule in tinycss2.parse_stylesheet(
            text, skip_comments=True, skip_whitespace=True
        ):
            prelude = " ".join(tinycss2.serialize(rule.prelude).split())
            prelude = re.sub(r"\s*([>,])\s*", r"\1", prelude)
            if rule.type == "at-rule":
                prelude = f"@{rule.at_keyword} {prelude}".strip()
            if rule.content is None:
                out.append(prelude + ";")
                continue
            declarations = []
            for item in tinycss2.parse_declaration_list(
                rule.content, skip_comments=True, skip_whitespace=True
            ):
                if item.type != "declaration":
                    raise ValueError(f"not a declaration in {text!r}")
                value = tinycss2.serialize(item.value).strip()
                important = "!important" if item.important else ""
                declarations.append(f"{item.name}:{value}{important}")
            out.append(prelude + "{" + ";".join(declarations) + "}")
    return "\n".join(out) + "\n"


def _families(body: str) -> list[str]:
    found = FAMILIES.search(body)
    if found is None:
        return []
    listed = found.group(1).replace("!important", "").replace("! important", "")
    return [name.strip() for name in listed.split(",")]


def drawn_by_font(rules: list[str]) -> dict[str, set[int]]:
    """The characters each of MathJax's font files draws (module docstring),
    by file name."""
    from page_weight import unescape  # _ext/page_weight.py

    files: dict[str, str] = {}
    variants: dict[str, list[str]] = {}
    default: list[str] = []
    stretchy: list[str] = []
    for rule in rules:
        selector, _, body = rule.partition("{")
        selector = " ".join(selector.split())
        if selector.startswith("@font-face"):
            url = FONT_FILE.search(body)
            if url is not None:
                files[_families(body)[0]] = url.group(1)
        elif re.fullmatch(r"\.t[A-Z0-9]+", selector):
            variants[selector[1:]] = _families(body)
        elif selector == "mjx-math" and _families(body):
            default = _families(body)
        elif "stretchy" in selector and _families(body):
            stretchy = _families(body)
    every = list(files)
    found: dict[str, set[int]] = defaultdict(set)
    for rule in rules:
        selector, _, body = rule.partition("{")
        for value in CONTENT.findall(body):
            variant = VARIANT.search(selector)
            if "stretch" in selector:
                families = stretchy or every
            elif variant is not None:
                families = variants.get(variant.group(1)) or every
            else:
                families = default or every
            for family in families:
                if family in files:
                    found[files[family]].update(map(ord, unescape(value)))
    return dict(found)


def cut_fonts(fonts: Path, drawn: dict[str, set[int]]) -> None:
    """Each of MathJax's fonts cut to the characters it draws, in ``fonts``
    (a font that draws none is copied whole: no page loads it)."""
    from page_weight import cut_font  # _ext/page_weight.py

    listed = "\n".join(
        f"{name}: " + " ".join(f"{c:X}" for c in sorted(characters))
        for name, characters in sorted(drawn.items())
    )
    stamp = fonts / CUT_FOR
    if stamp.exists() and stamp.read_text() == listed:
        return
    fonts.mkdir(parents=True, exist_ok=True)
    for source in sorted(FONTS.glob("*.woff")):
        target = fonts / source.name
        characters = drawn.get(source.name, set())
        if source.name == ZERO or not cut_font(source, target, characters):
            shutil.copy2(source, target)
    stamp.write_text(listed)


def write(static: Path, name: str, header: str, rules: list[str]) -> None:
    """The style sheet ``static/name``, and the fonts it names, cut."""
    static.mkdir(parents=True, exist_ok=True)
    text = header + minified(rules)
    target = static / name
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    cut_fonts(static / FONTS_DIR, drawn_by_font(rules))
