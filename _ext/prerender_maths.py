"""Maths rendered when the book is built: MathML, no JavaScript needed.

Sphinx writes each formula as TeX for MathJax to typeset in the browser
(``<span class="math">\\(...\\)</span>``, ``<div class="math">\\[...\\]</div>``).
On a phone that took 4 to 8 s a page, and the text jumped while it did.
This extension renders the TeX once, at build time, with Temml (0.13.5, the
npm package ``temml``, pinned in ``_ext/maths/package-lock.json``) running
in Node (``_ext/maths/render.js``): each formula reaches the page as MathML
Core (``<math>``), which the browser draws itself (Chromium from version
109, Firefox, Safari) and a screen reader reads as it is. Pages load no
script for the maths; docs/maintainers.md ("Maths") says why Temml and not
MathJax's CommonHTML, which the book used before (eight times the markup).

How:

* the pages keep Sphinx's MathJax markup (the math renderer ``prerendered``
  writes it with ``sphinx.ext.mathjax``'s own visitors), so labels,
  equation numbers and ``{eq}`` links are Sphinx's as before;
* as each page is written (``html-page-context``), the TeX of its body goes
  to one Node process for the whole build, which renders while Sphinx
  writes the next pages;
* when the build has finished (after ``_ext/slides.py`` wrote the decks,
  handouts and clicker pages), every HTML file of the output that still
  holds TeX (the pages, the sidebar's titles, the decks, ...) gets the
  MathML in its place, and every file that links the maths' style sheet
  preloads the maths' font; TeX that Temml cannot read (an unknown command)
  fails the build;
* one style sheet serves every page, ``_static/posenc-maths.css``: Temml's
  own rules (``Temml-Latin-Modern.css``) and the book's
  (``_ext/maths/posenc-maths.css``), with the font Latin Modern Math cut to
  the characters the book draws (``_static/maths-font``, made by
  ``scripts/maths_font.py``), which every page preloads and which is drawn
  only once it has arrived (``font-display: block``): nothing moves then
  (``_ext/maths_style.py``);
* formulas are cached beside the output folder, in
  ``<outdir>/../.posenc-maths/``, keyed by the version of Temml and of
  ``render.js``: a rebuild renders only new formulas, and starts no Node
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

from maths_style import FONT_FILE, FONTS_DIR  # _ext/maths_style.py: sheet, font
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.ext.mathjax import html_visit_displaymath, html_visit_math
from sphinx.util import logging

logger = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent / "maths"
RENDER = HERE / "render.js"
MODULES = HERE / "node_modules"
TEMML = MODULES / "temml"
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


def node_version() -> int | None:
    """The major version of ``node`` on the PATH, or None if there is none."""
    node = shutil.which("node")
    if node is None:
        return None
    done = subprocess.run([node, "--version"], capture_output=True, text=True)
    match = re.match(r"v(\d+)", done.stdout.strip())
    return int(match.group(1)) if match else None


def check_node() -> None:
    """Stop the build with a clear message if Node or Temml is missing."""
    major = node_version()
    if major is None or major < NODE_MAJOR:
        found = "no node on the PATH" if major is None else f"node {major}"
        raise ExtensionError(
            f"The maths is rendered at build time with Node {NODE_MAJOR} or newer "
            f"({found}). Install Node.js (Debian: apt-get install nodejs npm), "
            "then run make book again."
        )
    if not (TEMML / "package.json").exists():
        raise ExtensionError(
            f"Temml (TeX to MathML) is not installed in {MODULES}: run `make book` "
            f"(it runs `npm ci --prefix {HERE.relative_to(HERE.parents[1])}`)."
        )


def cache_key() -> str:
    """The renderer's identity: Temml's version, render.js and how
    :func:`finished` changes its markup."""
    version = json.loads((TEMML / "package.json").read_text())["version"]
    digest = hashlib.sha256(RENDER.read_bytes()).hexdigest()[:16]
    return f"temml {version}, render.js {digest}, markup {MARKUP_VERSION}"


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

    def __init__(self, cache_dir: Path) -> None:
        self.path = cache_dir / "cache.json"
        self.key = cache_key()
        self.rendered: dict[str, str] = {}
        if self.path.exists():
            stored = json.loads(self.path.read_text())
            if stored.get("key") == self.key:
                self.rendered = stored["formulas"]
        self.asked: dict[int, str] = {}
        self.answers: dict[int, dict] = {}
        self.process: subprocess.Popen | None = None
        self.reader: threading.Thread | None = None
        self.lock = threading.Lock()
        self.pid = os.getpid()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["node", str(RENDER)],
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
                    self.rendered[key] = finished(answer["html"])
                else:
                    errors.append(f"{key[2:]!r}: {answer['error']}")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            stored = {"key": self.key, "formulas": self.rendered}
            self.path.write_text(json.dumps(stored))
        return errors


#: Bumped when :func:`finished` changes (part of the cache's key).
MARKUP_VERSION = 2
#: Temml's accent for ``\bar`` and ``\overline``-like marks, U+203E, which
#: Latin Modern Math lacks (the browser took it from another font, thin and
#: too high): the macron, U+00AF, which the font draws as an accent.
OVERLINE = "\u203e"


def finished(markup: str) -> str:
    """Temml's MathML as the pages carry it: every formula a tab stop, as
    MathJax made it in the browser (a display equation that scrolls
    sideways on a phone is then reached and scrolled with the keyboard,
    axe: scrollable-region-focusable, and the tab order is the one the
    keyboard tests were written for), the overline accent the font has, and
    no space around an operator in a script (:func:`tight_scripts`)."""
    markup = markup.replace("<math", '<math tabindex="0"', 1)
    markup = markup.replace(f">{OVERLINE}</mo>", ">\u00af</mo>")
    return tight_scripts(markup)


#: Elements whose children after the first are scripts (sub-, superscripts,
#: limits, a root's index).
SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mroot"}
TAG_OR_TEXT = re.compile(r"<(/?)([a-z]+)([^>]*?)(/?)>")


def tight_scripts(markup: str) -> str:
    """``markup`` with every ``<mo>`` inside a script spaced as TeX spaces
    it there: not at all (``lspace``, ``rspace`` 0). TeX leaves out the
    spaces around a binary operator, a relation and after punctuation in
    script styles; Chromium keeps the operator dictionary's, so that the
    limits of a sum (``d/2 - 1``, ``i = 0``) and a subscript's comma
    (``p_{t,2i}``) stood wide, and a slide's equation outgrew its line."""
    out = []
    stack: list[list] = []  # [name, children seen, inside a script]
    last = 0
    for match in TAG_OR_TEXT.finditer(markup):
        out.append(markup[last : match.start()])
        last = match.end()
        closing, name, attributes, empty = match.groups()
        if closing:
            if stack and stack[-1][0] == name:
                stack.pop()
            out.append(match.group(0))
            continue
        inside = False
        if stack:
            parent = stack[-1]
            inside = parent[2] or (parent[0] in SCRIPTED and parent[1] >= 1)
            parent[1] += 1
        if name == "mo" and inside and "lspace" not in attributes:
            attributes += ' lspace="0" rspace="0"'
        out.append(f"<{name}{attributes}{'/' if empty else ''}>")
        if not empty:
            stack.append([name, 0, inside])
    out.append(markup[last:])
    return "".join(out)


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


#: The link to the maths' style sheet (Sphinx's, with ``?v=``, or a deck's).
SHEET_LINK = re.compile(r'<link[^>]*\bhref="([^"]*?)posenc-maths\.css[^"]*"[^>]*>')
PRELOADED = f"{FONTS_DIR}/{FONT_FILE}"


def preload_font(text: str) -> str:
    """``text`` preloading the maths' font before it links the maths' style
    sheet: the font is asked for with the style sheet, not once the page is
    laid out, and so is there when the maths is first drawn."""
    if PRELOADED in text:
        return text

    def link(match: re.Match) -> str:
        return (
            f'<link rel="preload" href="{match.group(1)}{PRELOADED}" as="font" '
            f'type="font/woff2" crossorigin>\n{match.group(0)}'
        )

    return SHEET_LINK.sub(link, text, count=1)


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
    """Render what is left, put the markup into every file, preload the
    font, write the style sheet."""
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
            renderer.ask(found)
        if found or (STYLE_SHEET in text and PRELOADED not in text):
            pending[path] = text
    errors = renderer.finish()
    if errors:
        raise ExtensionError(
            "Temml cannot read this TeX:\n  " + "\n  ".join(sorted(errors))
        )
    for path, text in pending.items():
        text = preload_font(substitute(text, renderer.rendered))
        path.write_text(text, encoding="utf-8")
    write_style_sheet(outdir / "_static")
    if renderer.asked or pending:
        logger.info(
            f"maths: rendered {len(renderer.asked)} new formulas with Temml in "
            f"Node ({len(renderer.rendered)} cached) into {len(pending)} files"
        )


def write_style_sheet(static: Path) -> None:
    """The one style sheet of every page's maths, and its fonts
    (``_ext/maths_style.py``)."""
    from maths_style import write

    write(static, STYLE_SHEET, TEMML)


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
