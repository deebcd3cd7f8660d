"""Cut the maths' font: Latin Modern Math, to the characters the book draws.

The maths is MathML (``_ext/prerender_maths.py``, Temml), which the browser
draws with an OpenType maths font: Latin Modern Math, the TeX look (GUST
Font License, Debian's ``fonts-lmodern``). Whole, it is 734 kB (OTF); this
keeps the glyphs of

* every character of the maths of a built site (``SITE``, default
  ``_build/html``), and
* ASCII and Greek (:data:`ALWAYS`), for the next formulas,

with every glyph the font's MATH table builds them from (the sizes of a
stretched delimiter, a big sum, a radical; fontTools follows the table),
and its script-size forms (``ssty``); its scripts' baseline drops as TeX's
(:data:`TEX_DROPS`). It writes a WOFF2 into
``_ext/static/maths-font/`` (committed: a build needs neither Debian's font
nor fontTools' brotli), renamed as the GUST licence asks of a modified font
("Posenc Latin Modern Math"), beside the licence.

``tests/test_maths_render.py`` checks that every character of the site's
maths is in the cut font: when it fails, run this again after a build.

Run: ``python scripts/maths_font.py [SITE]`` (needs ``fonts-lmodern`` and
the ``brotli`` package of requirements.txt).
"""

from __future__ import annotations

import html
import logging
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path("/usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf")
LICENCE = Path("/usr/share/texmf/doc/fonts/lm-math/GUST-FONT-LICENSE.txt")
TARGET_DIR = ROOT / "_ext" / "static" / "maths-font"
TARGET = TARGET_DIR / "posenc-latin-modern-math.woff2"
FAMILY = "Posenc Latin Modern Math"
#: Beside the font: the characters it was cut to, one code point a word.
CUT_FOR = TARGET_DIR / "characters.txt"


def _ranges(*pairs: tuple[int, int]) -> set[int]:
    return {c for low, high in pairs for c in range(low, high + 1)}


#: Characters kept whether or not the book draws them now: ASCII and
#: upright Greek. The italic letters (a letter alone in ``<mi>``) cost most,
#: three glyphs each with the script sizes: all of them would add 60 %, so
#: only those drawn are kept.
ALWAYS = _ranges((0x20, 0x7E), (0x391, 0x3A9), (0x3B1, 0x3C9))

#: The MATH table's baseline drops, as TeX's (Computer Modern's sub_drop
#: and sup_drop, 0.05 and 0.386 em) in place of Latin Modern Math's (0.2
#: and 0.25 em). TeX drops a script from its base's depth only when the base
#: is a box; Chromium (MathML Core) does it for a letter too, so that the
#: subscript of p_m sat 0.4 em low, under p's descender, and the
#: superscript of d^2 rose with d's ascender.
TEX_DROPS = {"SubscriptBaselineDropMin": 50, "SuperscriptBaselineDropMax": 386}

MATH = re.compile(r"<math[ >].*?</math>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")
#: A letter alone in ``<mi>``: the browser draws it in italic (MathML Core's
#: automatic italic), from the font's mathematical italic letters.
LONE_MI = re.compile(r"<mi>([^<&]|&[^;]+;)</mi>")


def italic(character: str) -> int | None:
    """The code point the browser draws a lone ``<mi>`` character with."""
    code = ord(character)
    if character == "h":
        return 0x210E
    if "a" <= character <= "z":
        return 0x1D44E + code - ord("a")
    if "A" <= character <= "Z":
        return 0x1D434 + code - ord("A")
    if 0x3B1 <= code <= 0x3C9:
        return 0x1D6FC + code - 0x3B1
    if 0x391 <= code <= 0x3A9:
        return 0x1D6E2 + code - 0x391
    return None


def drawn(site: Path) -> set[int]:
    """Every character of the maths of the site's pages, as drawn."""
    found: set[int] = set()
    for page in site.rglob("*.html"):
        if "_static" in page.parts:
            continue
        for maths in MATH.findall(page.read_text(encoding="utf-8")):
            found.update(map(ord, html.unescape(TAG.sub("", maths))))
            for letter in LONE_MI.findall(maths):
                code = italic(html.unescape(letter))
                if code is not None:
                    found.add(code)
    return {c for c in found if c > 0x1F}


def cut(characters: set[int]) -> int:
    """Write the font cut to ``characters``; its size in bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.WARNING)
    font = TTFont(SOURCE, recalcTimestamp=False)
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["ssty", "dtls"]  # not aalt: every alternate
    options.hinting = False
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=set(font.getBestCmap()) & characters)
    subsetter.subset(font)
    names = {
        1: FAMILY,
        3: f"{FAMILY} Regular",
        4: FAMILY,
        6: FAMILY.replace(" ", "") + "-Regular",
        16: FAMILY,
    }
    for record in font["name"].names:
        if record.nameID in names:
            record.string = names[record.nameID]
    constants = font["MATH"].table.MathConstants
    for name, value in TEX_DROPS.items():
        getattr(constants, name).Value = value
    TARGET_DIR.mkdir(parents=True, exist_ok=True)
    font.save(TARGET)
    shutil.copy2(LICENCE, TARGET_DIR / "GUST-FONT-LICENSE.txt")
    CUT_FOR.write_text(" ".join(f"{c:X}" for c in sorted(characters)) + "\n")
    return TARGET.stat().st_size


def covered() -> set[int]:
    """The characters the committed font draws."""
    from fontTools.ttLib import TTFont

    return set(TTFont(TARGET).getBestCmap())


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else ROOT / "_build" / "html"
    used = drawn(site) if site.is_dir() else set()
    size = cut(ALWAYS | used)
    missing = used - covered()
    print(
        f"{TARGET.relative_to(ROOT)}: {size:,} bytes, "
        f"{len(ALWAYS | used)} characters asked ({len(used)} drawn in {site})"
    )
    if missing:
        print(
            "not in Latin Modern Math: "
            + " ".join(f"U+{c:04X}" for c in sorted(missing))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
