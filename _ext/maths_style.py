"""The maths' one style sheet, ``_static/posenc-maths.css``, and its fonts
(``_ext/prerender_maths.py`` renders the maths as MathML with Temml).

The sheet is, minified (:func:`minified`: the same selectors, declarations
and order, without the spaces, line breaks and comments):

* Temml's own rules for its MathML (``Temml-Latin-Modern.css`` of the npm
  package: how its classes are drawn in Chromium, Firefox and WebKit), with
  its two ``@font-face`` rules replaced by :data:`FONT_FACES`;
* the book's rules (``_ext/maths/posenc-maths.css``): the maths' size
  beside the text, the spacing where Chromium's MathML differs from TeX.

The fonts, in ``_static/maths-font``:

* Latin Modern Math, cut to the characters the book draws and renamed
  (``scripts/maths_font.py``; committed in ``_ext/static/maths-font``, which
  Sphinx copies with the rest of ``_ext/static``), preloaded by every page;
* Temml's small font (``Temml.woff2``, 9 kB, MIT, from the npm package),
  which Temml's rules name for primes and script capitals in Chromium,
  copied here with Temml's licence.

Both are drawn only once they have arrived (``font-display: block``): a
formula is never drawn in a fallback font first and moved when its font
comes (layout shift).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import tinycss2

HERE = Path(__file__).resolve().parent
#: The book's rules for the maths, after Temml's.
OWN_RULES = HERE / "maths" / "posenc-maths.css"
#: Under the site's ``_static``: the fonts' folder, and the maths' font.
FONTS_DIR = "maths-font"
FONT_FILE = "posenc-latin-modern-math.woff2"
FAMILY = "Posenc Latin Modern Math"
#: The fonts' faces, in place of Temml's (which name fonts it does not ship).
FONT_FACES = (
    f'@font-face{{font-family:"{FAMILY}";'
    f'src:url({FONTS_DIR}/{FONT_FILE}) format("woff2");font-display:block}}\n'
    "@font-face{font-family:Temml;"
    f'src:url({FONTS_DIR}/Temml.woff2) format("woff2");font-display:block}}\n'
)
FACE = re.compile(r"@font-face\s*\{[^}]*\}")
HEADER = (
    "/* The maths of every page (_ext/prerender_maths.py, _ext/maths_style.py):\n"
    " * Temml's rules for its MathML (Temml-Latin-Modern.css, MIT licence,\n"
    " * (c) Ron Kok), then the book's (_ext/maths/posenc-maths.css). */\n"
)


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
            if rule.type == "at-rule" and rule.at_keyword != "font-face":
                inner = minified([tinycss2.serialize(rule.content)])
                out.append(prelude + "{" + inner.replace("\n", "") + "}")
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


def temml_rules(temml: Path) -> str:
    """Temml's style sheet without its faces, naming the book's font."""
    css = (temml / "dist" / "Temml-Latin-Modern.css").read_text(encoding="utf-8")
    css = FACE.sub("", css)
    # @-moz-document (Firefox only) holds rules tinycss2 reads as any other
    return css.replace('"Latin Modern Math"', f'"{FAMILY}"')


def write(static: Path, name: str, temml: Path) -> None:
    """The style sheet ``static/name``, and Temml's font beside the book's."""
    static.mkdir(parents=True, exist_ok=True)
    text = (
        HEADER
        + FONT_FACES
        + minified([temml_rules(temml), OWN_RULES.read_text(encoding="utf-8")])
    )
    target = static / name
    if not target.exists() or target.read_text() != text:
        target.write_text(text)
    fonts = static / FONTS_DIR
    fonts.mkdir(parents=True, exist_ok=True)
    for source, copy in (
        (temml / "dist" / "Temml.woff2", "Temml.woff2"),
        (temml / "LICENSE", "Temml-LICENSE.txt"),
    ):
        if not (fonts / copy).exists():
            shutil.copy2(source, fonts / copy)
