"""What every page loads, lighter (issue 22: every page at most 1.5 MB,
everything it loads counted). When the build has finished:

* **The theme's style sheets, without the rules no page uses.** Every page
  loads pydata-sphinx-theme's style sheet (397 kB, most of it Bootstrap's
  and Font Awesome's rules), sphinx-design's (55 kB), myst-nb's (44 kB),
  .... Each is rewritten in the output keeping a rule only if a page could
  use it (:func:`used`): every class and id its selector names occurs in a
  page of the output (a ``class`` or ``id`` attribute, an inline script)
  or in a script a page loads (Bootstrap and the theme add classes such as
  ``show`` from their scripts). What a selector only tests, and never
  needs to be there, is not asked for: pseudo-classes (``:hover``,
  ``:focus-visible``, ``:not(.x)``), attribute selectors
  (``html[data-theme=dark]``, the colour modes), element names. At-rules
  are kept (``@font-face``, ``@keyframes``), those that hold rules
  (``@media``, ``@supports``) with only their used rules. The book's own
  style sheets (``_ext/static``), Pygments' (read by
  ``offline_site.plain_token_classes``), the maths' and the decks' are
  left as they are. Sphinx copies the theme's files again on every build,
  so each build purges them afresh.
* **Font Awesome's fonts, cut to the icons drawn.** The solid font
  (157 kB, some 1,400 icons) served the dozen icons the book shows. Each
  font is cut to the characters the remaining rules draw (:func:`icons`:
  the private-use characters in their strings) with fontTools, as WOFF
  (fontTools writes WOFF2 only with the ``brotli`` package, which the book
  does not need otherwise), and the ``@font-face`` points at the cut font.
  A cut font is renamed, and so are its families in every style sheet
  (:data:`ICON_FAMILIES`): Font Awesome Free's licence (SIL OFL 1.1,
  Reserved Font Name "Font Awesome") forbids the name to a modified font.
  :func:`cut_font` also cuts MathJax's fonts (``_ext/prerender_maths.py``).
* **The header's icons preloaded.** Every page of the theme draws icons
  in its header (the menu, search and colour-scheme buttons) from the cut
  solid font, which the browser asks for only once it has laid the page
  out (on a phone at 4x, 0.6 to 0.9 s into the load, the load's end waiting
  for it, and the icons blank until then: ``font-display: block``). Each
  such page preloads it (:func:`preload_header_icons`), so it comes with
  the style sheet; ``tests/test_site.py`` checks that every font a page
  preloads is drawn.
* **The figures as lossless WebP.** A figure of the build
  (``_images/*.png``, matplotlib's, 200 dpi) is written again as lossless
  WebP beside its PNG, the same pixels in 40 % of the bytes, and every
  page's, deck's and handout's ``<img>`` loads that, and a click on it
  opens that (:func:`lighter_pictures`). The PNG stays beside it: it
  records the figure's dpi, which the tests read. The players' frames
  (``_static/explorers``) load only when a slider moves and stay PNG.

docs/maintainers.md ("Page weight") has the numbers.
"""

from __future__ import annotations

import logging as stdlib_logging
import os
import re
from pathlib import Path

import lean_scripts
import page_bundles
import tinycss2
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: The book's own static files: their style sheets are written by hand.
OWN = Path(__file__).resolve().parent / "static"
#: Style sheets left whole (see the module's docstring).
KEEP = {"pygments.css", "posenc-maths.css"}
#: Where the theme keeps Font Awesome's fonts, under ``_static``.
FONTS = Path("vendor") / "fontawesome" / "webfonts"

STYLESHEET = re.compile(r'<link[^>]*\bhref="([^"?#]+\.css)[^"]*"[^>]*>')
SCRIPT = re.compile(r'<script[^>]*\bsrc="([^"?#]+\.js)[^"]*"')
INLINE_SCRIPT = re.compile(r"<script[^>]*>(.*?)</script>", re.DOTALL)
ATTRIBUTE = re.compile(r'\b(?:class|id)="([^"]*)"')
IMPORT = re.compile(r'@import\s+(?:url\()?["\']?([^"\')]+)["\']?\)?\s*;')
WORD = re.compile(r"[\w-]+")
#: A pseudo-class or -element, with its argument if it has one.
PSEUDO = re.compile(r"::?[\w-]+(?:\((?:[^()]|\([^()]*\))*\))?")
ATTRIBUTE_SELECTOR = re.compile(r"\[[^\]]*\]")
NAME = re.compile(r"([.#])((?:\\[0-9a-fA-F]{1,6}\s?|\\.|[\w-])+)")
#: Font Awesome's icons are characters of Unicode's private use area.
PRIVATE = re.compile(r"\\([eEfF][0-9a-fA-F]{3})\b|([\ue000-\uf8ff])")


def unescape(name: str) -> str:
    """CSS text with its escapes read (``\\32 xl`` is ``2xl``)."""
    return re.sub(
        r"\\([0-9a-fA-F]{1,6})\s?|\\(.)",
        lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2),
        name,
    )


def names(selector: str) -> set[str]:
    """The classes and ids a page must have for ``selector`` to match."""
    bare = ATTRIBUTE_SELECTOR.sub(" ", PSEUDO.sub(" ", selector))
    return {unescape(m.group(2)) for m in NAME.finditer(bare)}


def used(selector: str, words: set[str]) -> bool:
    return names(selector) <= words


def split_selectors(prelude: str) -> list[str]:
    """A rule's selector list, split at its top-level commas."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(prelude):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return [p.strip() for p in parts if p.strip()]


def purge_rules(rules, words: set[str]) -> str:
    """The CSS text of ``rules`` (tinycss2 nodes) with the unused ones out."""
    out = []
    for rule in rules:
        if rule.type == "qualified-rule":
            prelude = tinycss2.serialize(rule.prelude)
            kept = [s for s in split_selectors(prelude) if used(s, words)]
            if kept:
                body = tinycss2.serialize(rule.content)
                out.append(",".join(kept) + "{" + body + "}")
        elif rule.type == "at-rule":
            keyword = rule.lower_at_keyword
            prelude = tinycss2.serialize(rule.prelude)
            if rule.content is None:
                out.append(f"@{rule.at_keyword}{prelude};")
            elif keyword in ("media", "supports", "layer", "container"):
                inner = purge_rules(
                    tinycss2.parse_rule_list(
                        rule.content, skip_comments=True, skip_whitespace=True
                    ),
                    words,
                )
                if inner:
                    out.append(f"@{rule.at_keyword}{prelude}{{{inner}}}")
            else:
                body = tinycss2.serialize(rule.content)
                out.append(f"@{rule.at_keyword}{prelude}{{{body}}}")
    return "".join(out)


def purge(css: str, words: set[str]) -> str:
    """``css`` with only the rules a page could use (module docstring)."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    return purge_rules(rules, words)


def icons(css: str) -> set[int]:
    """The private-use characters (Font Awesome's icons) in ``css``."""
    return {
        int(m.group(1), 16) if m.group(1) else ord(m.group(2))
        for m in PRIVATE.finditer(css)
    }


def cut_font(
    source: Path, target: Path, characters: set[int], renamed: str | None = None
) -> bool:
    """Write ``source``'s glyphs for ``characters`` to ``target`` (WOFF, the
    same bytes for the same input), named ``renamed`` if given (its family,
    full and PostScript names; copyright and licence kept); False if the
    font has none of them. Also cuts MathJax's fonts (_ext/maths_style.py)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    # fontTools logs each table it cuts, at INFO (which the build shows)
    stdlib_logging.getLogger("fontTools").setLevel(stdlib_logging.WARNING)
    font = TTFont(source, recalcTimestamp=False)
    present = set(font.getBestCmap()) & characters
    if not present:
        return False
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    # FontForge's timestamps (MathJax's fonts), which fontTools cannot cut
    options.drop_tables += ["FFTM"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=present)
    subsetter.subset(font)
    if renamed is not None:
        style = font["name"].getDebugName(2) or "Regular"
        names = {
            1: renamed,
            3: f"{renamed} {style}",
            4: f"{renamed} {style}",
            6: f"{renamed.replace(' ', '')}-{style.replace(' ', '')}",
            16: renamed,
        }
        for record in font["name"].names:
            if record.nameID in names:
                record.string = names[record.nameID]
    font.flavor = "woff"
    font.save(target)
    return True


def page_words(text: str, page: Path, words: set[str], scripts: set[Path]) -> None:
    """Add a page's classes, ids and inline scripts' words to ``words``,
    and the scripts it loads to ``scripts``."""
    for value in ATTRIBUTE.findall(text):
        words.update(value.split())
    for script in INLINE_SCRIPT.findall(text):
        words.update(WORD.findall(script))
    for href in SCRIPT.findall(text):
        scripts.add((page.parent / href).resolve())


def imported(sheets: set[Path]) -> set[Path]:
    """``sheets`` and every style sheet they import, and those import."""
    found, todo = set(sheets), list(sheets)
    while todo:
        sheet = todo.pop()
        if sheet.is_file():
            for href in IMPORT.findall(sheet.read_text(encoding="utf-8")):
                target = (sheet.parent / href).resolve()
                if target not in found:
                    found.add(target)
                    todo.append(target)
    return found


def theirs(sheet: Path, static: Path) -> bool:
    """Whether ``sheet`` is a style sheet of the theme or an extension."""
    return (
        sheet.is_file()
        and sheet.is_relative_to(static)
        and sheet.name not in KEEP
        and not (OWN / sheet.name).exists()
        and "revealjs" not in sheet.relative_to(static).parts
        and page_bundles.BUNDLES not in sheet.relative_to(static).parts
    )


#: A page's picture that is a figure of the build: an ``<img>`` whose source
#: is a PNG in ``_images``.
PICTURE = re.compile(r'(<img\b[^>]*?\bsrc=")([^"]*?_images/[^"/]+)\.png"')
#: A link to such a figure (Sphinx's: a click opens it whole).
PICTURE_LINK = re.compile(r'(<a\b[^>]*?\bhref=")([^"]*?_images/[^"/]+)\.png"')
#: Pillow's modes whose pixels lossless WebP keeps exactly.
EXACT_MODES = {"RGB", "RGBA", "L", "LA", "P", "PA", "1"}


def as_webp(png: Path) -> bool:
    """Write ``png``'s pixels beside it as lossless WebP, once, if that is
    smaller; whether there is such a WebP."""
    webp = png.with_suffix(".webp")
    if webp.exists() and webp.stat().st_mtime >= png.stat().st_mtime:
        return True
    from PIL import Image

    with Image.open(png) as image:
        if image.mode not in EXACT_MODES or getattr(image, "is_animated", False):
            return False
        pixels = image.convert(
            "RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB"
        )
        # exact: the colour of a transparent pixel is kept too
        pixels.save(webp, "WEBP", lossless=True, quality=75, method=4, exact=True)
    if webp.stat().st_size < png.stat().st_size:
        return True
    webp.unlink()
    return False


def lighter_pictures(pages: dict[Path, str], outdir: Path) -> int:
    """Point every page's figures, and the links that open them, at their
    WebP (:func:`as_webp`); the pages whose text changed are rewritten.
    Returns the bytes saved."""
    from concurrent.futures import ThreadPoolExecutor

    wanted: set[Path] = set()
    for page, text in pages.items():
        for match in PICTURE.finditer(text):
            png = (page.parent / (match.group(2) + ".png")).resolve()
            if png.is_file() and png.is_relative_to(outdir.resolve()):
                wanted.add(png)
    # Pillow's encoder lets go of Python's lock: one picture per core.
    ordered = sorted(wanted)
    with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        lighter = dict(zip(ordered, pool.map(as_webp, ordered), strict=True))

    def point(page: Path):
        def replace(match: re.Match) -> str:
            png = (page.parent / (match.group(2) + ".png")).resolve()
            if not lighter.get(png):
                return match.group(0)
            return f'{match.group(1)}{match.group(2)}.webp"'

        return replace

    for page, text in pages.items():
        new = PICTURE_LINK.sub(point(page), PICTURE.sub(point(page), text))
        if new != text:
            page.write_text(new, encoding="utf-8")
            pages[page] = new
    return sum(
        png.stat().st_size - png.with_suffix(".webp").stat().st_size
        for png, done in lighter.items()
        if done
    )


#: The cut icon font the theme's header draws from, under ``_static``.
HEADER_ICONS = FONTS / "fa-solid-900.icons.woff"
FIRST_SHEET = re.compile(r'[ \t]*<link rel="stylesheet"')


def preload_header_icons(text: str, page: Path, static: Path) -> str:
    """``text`` preloading :data:`HEADER_ICONS` before its first style sheet,
    if it is a page of the theme that does not yet (another page as it is)."""
    href = Path(os.path.relpath(static / HEADER_ICONS, page.parent)).as_posix()
    if lean_scripts.THEME_PAGE not in text or f'href="{href}"' in text:
        return text
    sheet = FIRST_SHEET.search(text)
    if sheet is None:
        return text
    link = f'<link rel="preload" href="{href}" as="font" type="font/woff" crossorigin>'
    link += "\n"
    return text[: sheet.start()] + link + text[sheet.start() :]


def lighter_site(app, exception) -> None:
    """The figures as WebP, the theme's style sheets purged, its icon fonts
    cut and the header's preloaded (module docstring)."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    static = (outdir / "_static").resolve()
    pages = {page: page.read_text(encoding="utf-8") for page in outdir.rglob("*.html")}
    saved = lighter_pictures(pages, outdir)
    for page, text in pages.items():
        preloaded = preload_header_icons(text, page, static)
        if preloaded != text:
            page.write_text(preloaded, encoding="utf-8")
            pages[page] = preloaded
    words: set[str] = set()
    scripts: set[Path] = set()
    sheets: set[Path] = set()
    for page, text in pages.items():
        page_words(text, page, words, scripts)
        sheets.update((page.parent / h).resolve() for h in STYLESHEET.findall(text))
        # a page an earlier build bundled (page_bundles): its bundles' files
        for member in page_bundles.members(text, static):
            (sheets if member.suffix == ".css" else scripts).add(member)
    for script in scripts:
        if script.is_file():
            words.update(WORD.findall(script.read_text(encoding="utf-8")))
    before = after = 0
    for sheet in sorted(s for s in imported(sheets) if theirs(s, static)):
        css = sheet.read_text(encoding="utf-8")
        lean = purge(css, words)
        before, after = before + len(css.encode()), after + len(lean.encode())
        if "fontawesome" in lean:
            lean = cut_icon_fonts(lean, sheet, static)
        sheet.write_text(renamed_families(lean), encoding="utf-8")
    logger.info(
        f"lighter pages: the theme's style sheets {before / 1e3:.0f} -> "
        f"{after / 1e3:.0f} kB, the figures {saved / 1e3:.0f} kB lighter as WebP"
    )


#: Font Awesome's families, and the names of their cut fonts. Font Awesome
#: Free's fonts are under the SIL Open Font License with the Reserved Font
#: Name "Font Awesome": a modified font (a cut one) may not bear it.
ICON_FAMILIES = {
    "Font Awesome 6 Free": "Book Icons",
    "Font Awesome 6 Brands": "Book Brand Icons",
}


def renamed_families(css: str) -> str:
    """``css`` naming the cut icon fonts' families (:data:`ICON_FAMILIES`),
    quoted or not."""
    for old, new in ICON_FAMILIES.items():
        css = re.sub(r"\\? ".join(map(re.escape, old.split())), new, css)
    return css


def cut_icon_fonts(css: str, sheet: Path, static: Path) -> str:
    """``css`` with its Font Awesome fonts cut to the icons it draws."""
    characters = icons(css)
    folder = static / FONTS
    # fontTools reads WOFF2 only with brotli: the cut is made from the TTF.
    for source in sorted(folder.glob("fa-*.ttf")):
        target = source.with_suffix(".icons.woff")
        url = re.escape(source.stem)
        face = re.compile(rf"url\([^)]*{url}\.woff2\)[^;}}]*")
        family = "Font Awesome 6 " + ("Brands" if "brands" in source.stem else "Free")
        if cut_font(source, target, characters, renamed=ICON_FAMILIES[family]):
            href = target.relative_to(static).as_posix()
            up = "../" * (len(sheet.relative_to(static).parts) - 1)
            css = face.sub(f'url({up}{href}) format("woff")', css)
    return css


def setup(app):
    # After every page, deck and handout is written and its maths rendered
    # (_ext/prerender_maths.py, 950).
    app.connect("build-finished", lighter_site, priority=990)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
