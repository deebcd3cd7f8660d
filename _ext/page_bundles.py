"""One style sheet and one script file a page, and no script of the head
waiting for the style sheets (issue 22: maths readable on a phone within
1.25 times the page's load with JavaScript off).

A page of the theme asked for 14 or 15 style sheets (one of them importing
another, which could only be asked for once the first had come) and 10 to
14 script files. On a phone (``benchmarks/phone.py``) the browser keeps the
scripts' requests waiting while the head's style sheets load, a few at a
time, and the head's inline scripts (the colour scheme, the search's and
the toggles' settings) stopped the parser until every style sheet had
come: the page's body was parsed only then, where with JavaScript off it
is parsed while they load. When the build has finished, every page of the
theme (:data:`lean_scripts.THEME_PAGE`) is rewritten:

* **its inline scripts first**: the head's inline scripts, and
  ``documentation_options.js`` written in the page, move before the first
  style sheet, in the same order. None of them reads a style; each only
  sets a name the deferred scripts read (or, the colour scheme, an
  attribute of the root), so none has to wait for the style sheets now.
  The body's two (the theme's ``kernelName``, the search page's focus on
  its field) still wait for them where they stand.
* **one style sheet**: the head's style sheets, in order, as one file in
  ``_static/bundles`` (``@import`` written in, each ``url()`` pointing
  from the new place to the same file): the same rules in the same order.
  An ``@import`` with conditions (media, layer, supports) stops the build:
  written in, its conditions would be lost.
* **one script file**: each run of deferred script files that follow one
  another in the page (any other deferred script, with attributes of its
  own, such as the players' ``data-frames-key``, one that reads its own
  tag, ``document.currentScript``, a module, or one from outside
  ``_static``, ends a run; a tag in an HTML comment is no script), in
  order, as one file: they ran one after another anyway. The head's and
  the body's are bundled apart: the theme's script, at the end of the
  body, stays as it is, preloaded from the head (and so
  :data:`lean_scripts.THEME_PAGE` still marks a page of the theme). The
  file runs each as a script of its own
  (:data:`RUN_EACH`), not as one script: joined, a file's ``"use strict"``
  would apply to the files after it, and a name declared with ``const`` in
  a later file would exist, uninitialised, for the files before it
  (sphinx_highlight.js asks ``typeof Search``, which searchtools.js
  declares: joined, that check threw, and the search page found nothing).
* **after the load, what no one sees or presses before it**: the files of
  :data:`AFTER_LOAD` (the copy buttons' two, which add a button to each
  code cell, shown when the pointer or focus comes to it; the sections'
  own, whose work is after the load anyway) run once the load event has
  ended, in the page's order, each in a task of its own. Everything a
  reader may see or press as the page loads (the theme's buttons, the
  solutions' toggles, the folds, the quizzes, the players, the marks of
  formulas that scroll) still runs before it. Moving the theme's script too
  was tried and undone: its buttons (colour scheme, search, full screen,
  the download menu) did nothing, and presses on them were lost, from the
  first paint until the load had ended and it had run.

A bundle's tag names its files (``data-bundle``, paths in ``_static``): a
bundle is named after its files and written again from them on every
build, also for a page an incremental build did not write again
(``page_weight`` purges the theme's style sheets first, reading what
pages use through :func:`members`). ``scripts/sitetools.page_assets``
lists a page's files as it loads them, bundles opened.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import lean_scripts

BUNDLES = "bundles"
#: A style sheet, or a script file, of a page, with its attributes.
LINK = re.compile(r'[ \t]*<link\b(?=[^>]*\brel="stylesheet")([^>]*)/?>\n?')
HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
SCRIPT = re.compile(r"[ \t]*<script\b([^>]*)>(.*?)</script>\n?", re.DOTALL)
FONT_PRELOAD = re.compile(r'[ \t]*<link rel="preload"[^>]*\bas="font"[^>]*>\n?')
ATTRIBUTE = re.compile(r'([\w-]+)(?:="([^"]*)")?')
#: What a style sheet or script file may have and still join a bundle.
PLAIN_LINK = {"href", "rel", "type"}
PLAIN_SCRIPT = {"src", "defer"}
OPTIONS = "documentation_options.js"
#: Comments that would point a bundle at another file's source map.
SOURCE_MAP = re.compile(
    r"^[ \t]*(?://[#@] sourceMappingURL=.*|/\*[#@] sourceMappingURL=.*?\*/)[ \t]*$",
    re.MULTILINE,
)
IMPORT = re.compile(r'@import\s+(?:url\()?\s*["\']?([^"\')\s;]+)["\']?\s*\)?\s*;')
#: A ``url()``, quoted or not, whole: a quoted one may hold another (an SVG
#: written in a data URL: ``marker-end='url(%23a)'``), which is not a file.
URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^"')\s]+))\s*\)""")
#: A script bundle: each file run as a script of its own, in order (its own
#: "use strict", a name it declares unknown to the files before it, an error
#: stopping no other file). One difference from its own tag: the promise
#: callbacks a file run at once queues run after the bundle's last such
#: file, not before the next (no file of the book's waits for another's).
#: The files of :data:`AFTER_LOAD` (``later``) run after the load event, a
#: task each, those of every bundle of the page in one queue, in order.
RUN_EACH = """(() => {
  const run = code => {
    const script = document.createElement("script");
    script.text = code;
    document.head.appendChild(script).remove();
  };
  const later = code => {
    const queue = window.__posencAfterLoad || (window.__posencAfterLoad = []);
    if (!queue.length) {
      const root = document.documentElement;
      root.dataset.posencScripts = "after-load";
      const next = () => {
        if (!queue.length) {
          root.dataset.posencScripts = "ready";
          return;
        }
        run(queue.shift());
        setTimeout(next);
      };
      if (document.readyState === "complete") setTimeout(next);
      else addEventListener("load", () => setTimeout(next), { once: true });
    }
    queue.push(code);
  };
"""
#: The files that add nothing a reader sees or presses as the page loads
#: (the module's docstring): each bundle runs them after the load event, in
#: order, a task each (:data:`RUN_EACH`'s ``later``). The root's
#: ``data-posenc-scripts`` says "after-load" until they have run, then
#: "ready" (``sitetools.WAIT_FOR_SCRIPTS``).
AFTER_LOAD = ("clipboard.min.js", "copybutton.js", "posenc-sections.js")
#: Each file's name where a browser's tools and an error's stack show it.
SOURCE_URL = "\n//# sourceURL=_static/{}\n"
COMMENT = re.compile(r"(/\*.*?\*/)", re.DOTALL)
CHARSET = re.compile(r'@charset\s+"[^"]*";')


def attributes(text: str) -> dict[str, str]:
    return {name: value or "" for name, value in ATTRIBUTE.findall(text)}


def static_path(href: str, page: Path, static: Path) -> str | None:
    """``href`` of ``page`` as a path inside ``static`` (no query); None
    for a file elsewhere (such as the search page's ``searchindex.js``)."""
    target = (page.parent / href.split("?")[0].split("#")[0]).resolve()
    return (
        target.relative_to(static).as_posix() if target.is_relative_to(static) else None
    )


def style_text(sheet: Path, bundle_dir: Path, seen: tuple[Path, ...] = ()) -> str:
    """``sheet``'s rules as they read from ``bundle_dir``: imports written
    in, ``url()`` pointing at the same files, no charset or source map."""
    if sheet in seen:
        raise ValueError(f"{sheet}: imports itself")
    css = SOURCE_MAP.sub("", CHARSET.sub("", sheet.read_text(encoding="utf-8")))
    imports: list[str] = []

    def imported(match: re.Match) -> str:
        imports.append(
            style_text(
                (sheet.parent / match.group(1)).resolve(), bundle_dir, seen + (sheet,)
            )
        )
        return f"\0{len(imports) - 1}\0"

    def moved(match: re.Match) -> str:
        url = next(g for g in match.groups() if g is not None).strip()
        if url.startswith(("data:", "#", "/")) or re.match(r"[a-z]+:", url):
            return match.group(0)
        target = (sheet.parent / url).resolve()
        return f'url("{Path(os.path.relpath(target, bundle_dir)).as_posix()}")'

    # outside comments: its imports set aside (each rebased on its own), its
    # own url()s rebased, then the imports written in where they stood
    parts = COMMENT.split(css)
    for i in range(0, len(parts), 2):
        parts[i] = IMPORT.sub(imported, parts[i])
        if "@import" in parts[i]:
            raise ValueError(
                f"{sheet}: an @import with conditions (media, layer, supports), "
                "which cannot be written in (page_bundles)"
            )
    css = URL.sub(moved, "".join(parts))
    return re.sub("\0(\\d+)\0", lambda m: imports[int(m.group(1))], css)


def code(script: Path, name: str) -> str:
    """``script``'s code as a bundle runs it, named as in ``_static``."""
    return SOURCE_MAP.sub("", script.read_text(encoding="utf-8")) + SOURCE_URL.format(
        name
    )


def bundle_name(files: list[str], suffix: str) -> str:
    """A bundle's path in ``_static``, named after its files (and, for a
    script bundle, those it runs after the load: :func:`after_load`)."""
    late = after_load(files) if suffix == ".js" else ()
    named = "\n".join(files) + ("\nafter load: " + " ".join(late) if late else "")
    digest = hashlib.sha256(named.encode()).hexdigest()[:12]
    return f"{BUNDLES}/page-{digest}{suffix}"


def after_load(files: list[str]) -> tuple[str, ...]:
    """Those of ``files`` run after the load (:data:`AFTER_LOAD`)."""
    return tuple(f for f in files if f in AFTER_LOAD)


def bundle_text(static: Path, files: list[str], suffix: str) -> str:
    """The text of the bundle of ``files`` (paths in ``static``), a style
    sheet (``suffix`` ".css") or a script file (".js"; the files of
    :func:`after_load` run after the load)."""
    folder = (static / bundle_name(files, suffix)).parent
    late = after_load(files)
    if suffix == ".css":
        return "".join(f"/* {f} */\n{style_text(static / f, folder)}\n" for f in files)
    each = (
        f"/* {f} */\n{'later' if f in late else 'run'}"
        f"({json.dumps(code(static / f, f))});\n"
        for f in files
    )
    return RUN_EACH + "".join(each) + "})();\n"


def write_bundle(static: Path, files: list[str], suffix: str) -> tuple[str, str]:
    """Write the bundle of ``files`` (:func:`bundle_text`); its path in
    ``static`` and a digest of its text (the tag's ``?v=``)."""
    name = bundle_name(files, suffix)
    text = bundle_text(static, files, suffix)
    (static / name).parent.mkdir(exist_ok=True)
    (static / name).write_text(text, encoding="utf-8")
    return name, digest(text)


def written_once(
    static: Path, files: list[str], suffix: str, written: dict
) -> tuple[str, str]:
    """:func:`write_bundle`, once a build for each list of files
    (``written`` remembers them)."""
    key = (suffix, *files)
    if key not in written:
        written[key] = write_bundle(static, files, suffix)
    return written[key]


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def members(text: str, static: Path) -> list[Path]:
    """The files of the bundles a page (its ``text``) loads."""
    return [
        static / f
        for match in re.finditer(r'\bdata-bundle="([^"]*)"', text)
        for f in match.group(1).split()
    ]


def up(page: Path, static: Path) -> str:
    """The path from ``page``'s folder to ``static``, ending in ``/``."""
    return Path(os.path.relpath(static, page.parent)).as_posix() + "/"


def inline_scripts_first(head: str, page: Path, static: Path) -> str:
    """``head`` with its inline scripts after the first style sheet, and
    ``documentation_options.js``, moved before it (module docstring)."""
    first = LINK.search(head)
    if not first:
        return head
    before, after = head[: first.start()], head[first.start() :]
    moved: list[str] = []

    def take(match: re.Match) -> str:
        found = attributes(match.group(1))
        src = found.get("src", "")
        if Path(src.split("?")[0]).name == OPTIONS and set(found) == {"src"}:
            body = (static / static_path(src, page, static)).read_text(encoding="utf-8")
            moved.append(f"<script>{body.strip()}</script>\n")
            return ""
        if (
            not src
            and found.keys() <= {"type"}
            and found.get("type", "text/javascript") == "text/javascript"
        ):
            moved.append(f"<script>{match.group(2).strip()}</script>\n")
            return ""
        return match.group(0)

    after = SCRIPT.sub(take, after)
    return before + "".join("    " + m for m in moved) + after


def bundled_styles(head: str, page: Path, static: Path, written: dict) -> str:
    """``head`` with its style sheets as one (module docstring)."""
    links = list(LINK.finditer(head))
    if len(links) < 2:
        return head
    files = []
    for link in links:
        found = attributes(link.group(1))
        path = static_path(found.get("href", ""), page, static)
        if set(found) - PLAIN_LINK or found.get("rel") != "stylesheet" or not path:
            raise ValueError(
                f"{page.name}: a style sheet of its own kind, or from outside "
                f"_static (page_bundles): {link.group(0).strip()}"
            )
        files.append(path)
    name, digest = written_once(static, files, ".css", written)
    tag = (
        f'    <link rel="stylesheet" href="{up(page, static)}{name}?v={digest}" '
        f'data-bundle="{" ".join(files)}" />\n'
    )
    rest = LINK.sub("", head[links[0].start() :])
    # a font preloaded after a style sheet is asked for before the bundle,
    # as it was before the style sheet that uses it
    fonts = FONT_PRELOAD.findall(rest)
    rest = FONT_PRELOAD.sub("", rest)
    return head[: links[0].start()] + "".join(fonts) + tag + rest


def bundled_scripts(text: str, page: Path, static: Path, written: dict) -> str:
    """``text`` with each run of deferred script files as one (module
    docstring)."""
    comments = [m.span() for m in HTML_COMMENT.finditer(text)]
    head_end = text.find("</head>")
    runs: list[list[re.Match]] = [[]]
    for match in SCRIPT.finditer(text):
        if any(start <= match.start() < end for start, end in comments):
            continue
        if runs[-1] and runs[-1][-1].start() < head_end < match.start():
            runs.append([])  # the head's scripts and the body's apart
        found = attributes(match.group(1))
        if found.get("type") == "module":  # deferred too: it ends a run
            if runs[-1]:
                runs.append([])
            continue
        if "defer" not in found or "src" not in found:
            continue
        path = static_path(found["src"], page, static)
        if (
            set(found) == PLAIN_SCRIPT
            and not match.group(2).strip()
            and path
            # a script that finds its own tag runs from that tag
            and "currentScript" not in (static / path).read_text(encoding="utf-8")
        ):
            runs[-1].append(match)
        elif runs[-1]:
            runs.append([])

    def files_of(run: list[re.Match]) -> list[str]:
        return [static_path(attributes(m.group(1))["src"], page, static) for m in run]

    bundled: list[str] = []
    for run in reversed([r for r in runs if len(r) >= 2 or after_load(files_of(r))]):
        files = files_of(run)
        late = after_load(files)
        name, digest = written_once(static, files, ".js", written)
        later = f' data-after-load="{" ".join(late)}"' if late else ""
        tag = (
            f'    <script defer src="{up(page, static)}{name}?v={digest}" '
            f'data-bundle="{" ".join(files)}"{later}></script>\n'
        )
        for match in reversed(run[1:]):
            text = text[: match.start()] + text[match.end() :]
        text = text[: run[0].start()] + tag + text[run[0].end() :]
        bundled += files
    # a file now in a bundle is no longer asked for on its own (once every
    # run is in place: the runs are found by where they were in the text)
    for f in bundled:
        text = re.sub(
            rf'[ \t]*<link rel="preload" as="script" href="[^"]*_static/'
            rf'{re.escape(f)}(?:\?[^"]*)?" />\n?',
            "",
            text,
        )
    return text


def bundled_page(text: str, page: Path, static: Path, written: dict) -> str:
    """A page of the theme with its inline scripts first and its style
    sheets and script files bundled; any other page, or a page done, as it is."""
    if (
        lean_scripts.THEME_PAGE not in text
        or "</head>" not in text
        or "data-bundle=" in text.split("</head>", 1)[0]
    ):
        return text
    head, rest = text.split("</head>", 1)
    head = inline_scripts_first(head, page, static)
    head = bundled_styles(head, page, static, written)
    return bundled_scripts(head + "</head>" + rest, page, static, written)


def rewritten(text: str, page: Path, static: Path, written: dict) -> str:
    """A page done by an earlier build: its bundles written again from
    their files (a script bundle's files run after the load as
    :data:`AFTER_LOAD` says now, and named for them), and each tag's ``?v=``
    their new digest."""

    def again(match: re.Match) -> str:
        tag = match.group(0)
        files = re.search(r'data-bundle="([^"]*)"', tag).group(1).split()
        suffix = ".css" if "<link" in tag else ".js"
        # which files run after the load, as AFTER_LOAD says now
        late = after_load(files) if suffix == ".js" else ()
        name, digest = written_once(static, files, suffix, written)
        tag = re.sub(r' data-after-load="[^"]*"', "", tag)
        if late:
            tag = re.sub(
                r'( data-bundle="[^"]*")',
                rf'\1 data-after-load="{" ".join(late)}"',
                tag,
            )
        tag = re.sub(rf"{BUNDLES}/page-[0-9a-f]+\.js", name, tag)
        return re.sub(r"\?v=[0-9a-f]+", f"?v={digest}", tag)

    return re.sub(r"<(?:link|script)\b[^>]*\bdata-bundle=\"[^\"]*\"[^>]*>", again, text)


def bundle_site(app, exception) -> None:
    """Every page of the theme as :func:`bundled_page` writes it."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    static = (outdir / "_static").resolve()
    written: dict = {}
    named: set[str] = set()
    for page in sorted(outdir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if "data-bundle=" in text.split("</head>", 1)[0]:
            new = rewritten(text, page.resolve(), static, written)
        else:
            new = bundled_page(text, page.resolve(), static, written)
        if new != text:
            page.write_text(new, encoding="utf-8")
        named.update(BUNDLE_NAME.findall(new))
    stale_bundles_removed(static, named)


#: A bundle's path in ``_static``, as a page names it.
BUNDLE_NAME = re.compile(rf"{BUNDLES}/page-[0-9a-f]+\.(?:css|js)")


def stale_bundles_removed(static: Path, named: set[str]) -> list[str]:
    """Delete the bundles of earlier builds that no file of the output names
    (``named``: :data:`BUNDLE_NAME` in every HTML file as it is now, not
    what this build wrote). A file changed, or a page's list of files did:
    the bundle's name changes with its files, and the old one would stay in
    the site and its download. Returns the names removed."""
    removed = []
    for bundle in sorted((static / BUNDLES).glob("page-*")):
        name = f"{BUNDLES}/{bundle.name}"
        if name not in named:
            bundle.unlink()
            removed.append(name)
    return removed


def setup(app):
    # Last: after every page's maths (prerender_maths, 950) and the purge of
    # the theme's style sheets (page_weight, 990).
    app.connect("build-finished", bundle_site, priority=995)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
