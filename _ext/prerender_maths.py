"""Maths rendered when the book is built: no JavaScript needed to read it.

Sphinx writes each formula as TeX for MathJax to typeset in the browser
(``<span class="math">\\(...\\)</span>``, ``<div class="math">\\[...\\]</div>``).
On a phone that took 4 to 8 s a page, and the text jumped while it did.
This extension renders the TeX once, at build time, with the same MathJax
(3.2.2, the npm package ``mathjax-full``, pinned in
``_ext/maths/package-lock.json``) running in Node (``_ext/maths/render.js``):
each formula reaches the page as MathJax's CommonHTML markup, with the
formula's MathML inside for screen readers (``mjx-assistive-mml``). Pages
load no MathJax; docs/maintainers.md ("Maths") says why this and not KaTeX.

How:

* the pages keep Sphinx's MathJax markup (the math renderer ``prerendered``
  writes it with ``sphinx.ext.mathjax``'s own visitors), so labels,
  equation numbers and ``{eq}`` links are Sphinx's as before;
* as each page is written (``html-page-context``), the TeX of its body goes
  to one Node process for the whole build, which renders while Sphinx
  writes the next pages (on the other core);
* when the build has finished (after ``_ext/slides.py`` wrote the decks,
  handouts and clicker pages), every HTML file of the output that still
  holds TeX (the pages, the sidebar's titles, the decks, ...) gets the
  rendered markup in its place; TeX that MathJax cannot read fails the build;
* one style sheet serves every page, ``_static/posenc-maths.css``: the
  rules for every character and layout used, and MathJax's fonts, served
  from ``_static/mathjax-fonts``, each cut to the characters drawn with it
  (``_ext/maths_style.py``). A formula's characters are sized in the
  style sheet, not by the font, so nothing moves when a font arrives. The
  maths is scaled to the ex-height of the text around it, as MathJax did in
  the browser;
* formulas are cached beside the output folder, in
  ``<outdir>/../.posenc-maths/``, keyed by the version of mathjax-full and
  of ``render.js``: a rebuild renders only new formulas, and starts no Node
  at all when there are none.

Node 18 or newer runs ``render.js``, with its packages in
``_ext/maths/node_modules`` (``make book`` installs them with ``npm ci``);
a build without them stops and says so.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

from maths_style import FONTS_DIR  # _ext/maths_style.py: the sheet and fonts
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.ext.mathjax import html_visit_displaymath, html_visit_math
from sphinx.util import logging

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent / "maths"
RENDER = HERE / "render.js"
MODULES = HERE / "node_modules"
MATHJAX = MODULES / "mathjax-full"
#: Under the site's ``_static``: the style sheet and the fonts' folder.
STYLE_SHEET = "posenc-maths.css"
CACHE_DIR = ".posenc-maths"
NODE_MAJOR = 18
RENDERER = "prerendered"

#: An element Sphinx (or _ext/slides.py) wrote for MathJax: a span or div
#: whose classes include "math", and what it holds.
ELEMENT = re.compile(
    r'(<(span|div) class="math(?: [^"]*)?"[^>]*>)(.*?)(</\2>)', re.DOTALL
)
#: Inside a display equation's div: Sphinx's equation number comes first.
NUMBER = re.compile(r'^\s*<span class="eqno">.*?</span>', re.DOTALL)
#: TeX delimiters: inline ``\(...\)``, display ``\[...\]``.
INLINE = re.compile(r"^\s*\\\((.*)\\\)\s*$", re.DOTALL)
DISPLAY = re.compile(r"^\s*\\\[(.*)\\\]\s*$", re.DOTALL)
#: Where the rendered CSS scales the maths (MathJax's ex is 0.442 em).
SCALE_RULE = (
    "/* The maths at the ex-height of the text around it, as MathJax sized\n"
    " * it in the browser (its ex is 0.442 em). */\n"
    "mjx-container:not([jax]) {\n  font-size: calc(1ex / 0.442);\n"
    "  position: relative;\n}\n\n"
    "/* The decks keep the size MathJax gave them in the browser, where it\n"
    " * measured the text before reveal.js's font had arrived (113.1 %; the\n"
    " * ex-height of Source Sans Pro would give 109.9 %): their slides were\n"
    " * laid out and checked at that size (tests/test_slides.py). */\n"
    ".reveal mjx-container:not([jax]) {\n  font-size: 113.1%;\n}"
)


def node_version() -> int | None:
    """The major version of ``node`` on the PATH, or None if there is none."""
    node = shutil.which("node")
    if node is None:
        return None
    done = subprocess.run([node, "--version"], capture_output=True, text=True)
    match = re.match(r"v(\d+)", done.stdout.strip())
    return int(match.group(1)) if match else None


def check_node() -> None:
    """Stop the build with a clear message if Node or MathJax is missing."""
    major = node_version()
    if major is None or major < NODE_MAJOR:
        found = "no node on the PATH" if major is None else f"node {major}"
        raise ExtensionError(
            f"The maths is rendered at build time with Node {NODE_MAJOR} or newer "
            f"({found}). Install Node.js (Debian: apt-get install nodejs npm), "
            "then run make book again."
        )
    if not (MATHJAX / "package.json").exists():
        raise ExtensionError(
            f"MathJax for Node is not installed in {MODULES}: run `make book` "
            f"(it runs `npm ci --prefix {HERE.relative_to(HERE.parents[1])}`)."
        )


def cache_key() -> str:
    """The renderer's identity: mathjax-full's version and render.js."""
    version = json.loads((MATHJAX / "package.json").read_text())["version"]
    digest = hashlib.sha256(RENDER.read_bytes()).hexdigest()[:16]
    return f"mathjax-full {version}, render.js {digest}"


def formula_key(tex: str, display: bool) -> str:
    return ("D " if display else "I ") + tex


def read_tex(inner: str) -> tuple[str, bool] | None:
    """The TeX held by an element and whether it is displayed, or None if
    the element holds no TeX (already rendered)."""
    text = NUMBER.sub("", inner, count=1)
    for pattern, display in ((INLINE, False), (DISPLAY, True)):
        match = pattern.match(text)
        if match:
            return html.unescape(match.group(1)).strip(), display
    return None


def formulas_in(text: str) -> list[tuple[str, bool]]:
    """Every formula of an HTML text still to be rendered."""
    found = []
    for match in ELEMENT.finditer(text):
        tex = read_tex(match.group(3))
        if tex is not None:
            found.append(tex)
    return found


class Renderer:
    """One Node process for a build, and the cache of rendered formulas."""

    def __init__(self, cache_dir: Path, font_url: str = FONTS_DIR) -> None:
        self.path = cache_dir / "cache.json"
        self.key = cache_key()
        self.font_url = font_url
        self.rendered: dict[str, str] = {}
        self.css: list[str] = []
        if self.path.exists():
            stored = json.loads(self.path.read_text())
            if stored.get("key") == self.key:
                self.rendered = stored["formulas"]
                self.css = stored["css"]
        self.asked: dict[int, str] = {}
        self.answers: dict[int, dict] = {}
        self.process: subprocess.Popen | None = None
        self.reader: threading.Thread | None = None
        self.lock = threading.Lock()
        self.new_css: list[str] = []
        self.pid = os.getpid()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(RENDER), self.font_url],
            cwd=HERE,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            answer = json.loads(line)
            if "css" in answer:
                self.new_css = answer["css"]
            else:
                with self.lock:
                    self.answers[answer["id"]] = answer

    def ask(self, formulas: list[tuple[str, bool]]) -> None:
        """Send the formulas not rendered yet (nor asked for) to Node."""
        if os.getpid() != self.pid:
            return  # a forked writer of a parallel build: build-finished asks
        lines = []
        for tex, display in formulas:
            key = formula_key(tex, display)
            if key in self.rendered or key in self.asked.values():
                continue
            number = len(self.asked)
            self.asked[number] = key
            lines.append(json.dumps({"id": number, "tex": tex, "display": display}))
        if not lines:
            return
        if self.process is None:
            self.start()
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write("\n".join(lines) + "\n")
        self.process.stdin.flush()

    def finish(self) -> list[str]:
        """Wait for every answer; keep them; return the errors."""
        errors = []
        if self.process is not None:
            assert self.process.stdin is not None and self.reader is not None
            self.process.stdin.close()
            self.reader.join()
            if self.process.wait() != 0:
                raise ExtensionError("render.js failed (its error is above)")
            for number, key in self.asked.items():
                answer = self.answers.get(number, {"error": "no answer"})
                if "html" in answer:
                    self.rendered[key] = answer["html"]
                else:
                    errors.append(f"{key[2:]!r}: {answer['error']}")
            self.css += [rule for rule in self.new_css if rule not in self.css]
            self.path.parent.mkdir(parents=True, exist_ok=True)
            stored = {"key": self.key, "formulas": self.rendered, "css": self.css}
            self.path.write_text(json.dumps(stored))
        return errors


#: Attributes of MathJax's markup that nothing reads: the hidden MathML's
#: namespace (the HTML parser gives ``<math>`` it) and MathJax's own notes
#: on the MathML (``data-mjx-*``). :func:`compact` also drops the copy's
#: ``unselectable`` (the style sheet makes it unselectable) and an inline
#: copy's ``display``, and the container's ``position: relative`` (in the
#: style sheet, :data:`SCALE_RULE`).
UNREAD = re.compile(
    r' (?:xmlns="http://www\.w3\.org/1998/Math/MathML"|data-mjx-[a-z-]+="[^"]*")'
)
CLASSES = re.compile(r'(<mjx-[a-zA-Z-]+[^>]*?) class="([^"]*)"')
#: What every formula carried and the style sheet can do without
#: (:func:`shorter_rules`): the container's ``class="MathJax"`` (no rule
#: names it) and ``jax="CHTML"``, and the ``MJX-TEX`` class of ``mjx-math``.
EVERYWHERE = re.compile(r' jax="CHTML"| class="MathJax"(?= |>)')
#: A tag, and an attribute's value that HTML reads without its quotes.
TAG = re.compile(r"<[^<>]+>")
BARE_VALUE = re.compile(r'="([\w.:%-]+)"')
#: A character's class (``mjx-c1D45D``, the code point) and a variant's
#: (``TEX-I``, the font): ``c1D45D`` and ``tI`` (:func:`shorter_rules`).
CHARACTER = re.compile(r"\bmjx-c([0-9A-F]+)(?![\w-])")
VARIANT = re.compile(r"\bTEX-([A-Z0-9]+)(?![\w-])")


def compact(markup: str, styled: set[str]) -> str:
    """MathJax's markup without what neither the style sheet nor a reader
    uses (about a third of it): classes no rule names (``mjx-n``,
    ``mjx-i``, ...), :data:`UNREAD` and :data:`EVERYWHERE`; a character's
    classes shortened (:func:`shorter_rules` rewrites the style sheet to
    match), and the quotes of one-word values. The MathML stays whole but
    for MathJax's notes."""
    markup = re.sub(
        r'<mjx-assistive-mml unselectable="on" display="inline">',
        "<mjx-assistive-mml>",
        markup,
    )
    markup = UNREAD.sub("", markup)
    markup = markup.replace(' style="position: relative;"', "")
    markup = markup.replace("position: relative; ", "").replace(
        " position: relative;", ""
    )

    def keep(match: re.Match) -> str:
        kept = [c for c in match.group(2).split() if c in styled and c != "MJX-TEX"]
        kept = [VARIANT.sub(r"t\1", CHARACTER.sub(r"c\1", c)) for c in kept]
        return match.group(1) + (f' class="{" ".join(kept)}"' if kept else "")

    markup = EVERYWHERE.sub("", markup)
    markup = CLASSES.sub(keep, markup)
    # Every formula a tab stop, as MathJax made it in the browser: a display
    # equation that scrolls sideways on a phone is then reached and
    # scrolled with the keyboard (axe: scrollable-region-focusable), and
    # the tab order is the one the keyboard tests were written for.
    markup = markup.replace("<mjx-container", '<mjx-container tabindex="0"', 1)
    # A value of one word needs no quotes (HTML): class=c68, space=4.
    return TAG.sub(lambda tag: BARE_VALUE.sub(r"=\1", tag.group(0)), markup)


def shorter_rules(rules: list[str]) -> list[str]:
    """MathJax's rules for the markup of :func:`compact`: a character's and
    a variant's classes shortened (8,800 characters on the exam page, 9 %
    of its maths), ``.MJX-TEX`` as ``mjx-math`` and ``[jax="CHTML"]`` as
    ``:not([jax])``, the same weight in the cascade (an attribute's)."""
    return [
        VARIANT.sub(r"t\1", CHARACTER.sub(r"c\1", rule))
        .replace(".MJX-TEX ", "mjx-math ")
        .replace('[jax="CHTML"]', ":not([jax])")
        for rule in rules
    ]


def styled_classes(rules: list[str]) -> set[str]:
    """Every class the maths' style sheet names."""
    return set(re.findall(r"\.([A-Za-z][\w-]*)", "\n".join(rules)))


def substitute(text: str, rendered: dict[str, str]) -> str:
    """``text`` with each formula's TeX replaced by its rendered markup."""

    def replace(match: re.Match) -> str:
        opening, _, inner, closing = match.groups()
        tex = read_tex(inner)
        if tex is None:
            return match.group(0)
        number = NUMBER.match(inner)
        kept = number.group(0) if number else ""
        # Sphinx's mark for highlight.js, which the book does not load
        opening = opening.replace(" nohighlight", "")
        return opening + kept + rendered[formula_key(*tex)] + closing

    return ELEMENT.sub(replace, text)


_renderers: dict[int, Renderer] = {}


def use_renderer(app: Sphinx, config) -> None:
    """Sphinx's MathJax markup, but no MathJax script in the pages."""
    config.html_math_renderer = RENDERER


def start(app: Sphinx) -> None:
    if app.builder.format != "html":
        return
    check_node()
    _renderers[id(app)] = Renderer(Path(app.outdir).parent / CACHE_DIR)
    app.add_css_file(STYLE_SHEET)


def ask_for_page(app: Sphinx, pagename, templatename, context, doctree) -> None:
    renderer = _renderers.get(id(app))
    if renderer is not None and "body" in context:
        renderer.ask(formulas_in(context["body"]))


def html_files(outdir: Path) -> list[Path]:
    return [
        path
        for path in sorted(outdir.rglob("*.html"))
        if not {"_static", "_sources"} & set(path.relative_to(outdir).parts)
    ]


def render_site(app: Sphinx, exception: Exception | None) -> None:
    """Render what is left, put the markup into every file, write the CSS."""
    renderer = _renderers.pop(id(app), None)
    if renderer is None:
        return
    if exception is not None:
        if renderer.process is not None:
            renderer.process.kill()
        return
    outdir = Path(app.outdir)
    pending: dict[Path, str] = {}
    for path in html_files(outdir):
        text = path.read_text(encoding="utf-8")
        found = formulas_in(text)
        if found:
            pending[path] = text
            renderer.ask(found)
    errors = renderer.finish()
    if errors:
        raise ExtensionError(
            "MathJax cannot read this TeX:\n  " + "\n  ".join(sorted(errors))
        )
    styled = styled_classes(renderer.css)
    compacted = {
        key: compact(markup, styled) for key, markup in renderer.rendered.items()
    }
    for path, text in pending.items():
        path.write_text(substitute(text, compacted), encoding="utf-8")
    write_style_sheet(outdir / "_static", renderer.css)
    if pending:
        logger.info(
            f"maths: rendered {len(renderer.asked)} new formulas with MathJax in "
            f"Node ({len(renderer.rendered)} cached) into {len(pending)} files"
        )


def write_style_sheet(static: Path, rules: list[str]) -> None:
    """The one style sheet of every page's maths, and the fonts it names
    (``_ext/maths_style.py``)."""
    from maths_style import write

    header = (
        "/* The maths of every page (_ext/prerender_maths.py): MathJax 3's\n"
        " * CommonHTML rules for the characters and layouts the book uses. */\n"
    )
    write(static, STYLE_SHEET, header, [*shorter_rules(rules), SCALE_RULE])
    fonts = static / FONTS_DIR
    if not (fonts / "LICENSE").exists():
        fonts.mkdir(parents=True, exist_ok=True)
        shutil.copy2(MATHJAX / "LICENSE", fonts / "LICENSE")


def setup(app: Sphinx) -> dict:
    app.add_html_math_renderer(
        RENDERER,
        (html_visit_math, None),
        (html_visit_displaymath, None),
    )
    app.connect("config-inited", use_renderer)
    app.connect("builder-inited", start)
    app.connect("html-page-context", ask_for_page)
    # Last: after _ext/slides.py has written the decks and handouts.
    app.connect("build-finished", render_site, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
