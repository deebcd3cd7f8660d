"""Serve a built site on 127.0.0.1 and open it in Debian's Chromium.

Shared by the browser tests (tests/test_site.py), the benchmarks
(benchmarks/site.py) and the PDF printer (scripts/print_pdf.py). Chromium is
Debian's (``/usr/bin/chromium``, or ``POSENC_CHROMIUM``), driven by the
Python package ``playwright``; ``playwright install`` is never needed.
"""

from __future__ import annotations

import functools
import gzip
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("POSENC_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu"]
#: Folders of a Sphinx site that hold assets, not pages.
ASSET_DIRS = {"_static", "_sources", "_images", "_downloads"}
#: The decks and handouts of _ext/slides.py: documents of their own, not
#: pages of the book (tests/test_slides.py checks them).
TEACHING_DIRS = {"slides", "handouts", "clickers"}
_REDIRECT = re.compile(r'<meta\s+http-equiv="refresh"', re.IGNORECASE)

#: JavaScript: wait until the page's maths can be read. The maths is
#: rendered when the book is built (_ext/prerender_maths.py), so it is in
#: the page as it loads; this waits for the fonts it uses. The milliseconds
#: since navigation started, or null if the page holds no rendered maths.
WAIT_FOR_MATHS = """async () => {
  if (!document.querySelector("math")) return null;
  await document.fonts.ready;
  return performance.now();
}"""


#: JavaScript: until the scripts a page runs after its load event have run
#: (``_ext/page_bundles.py``, ``AFTER_LOAD``: the copy buttons', the
#: sections'...; the root's ``data-posenc-scripts`` is then "ready"). At once
#: where there are none, or JavaScript is off; an error after 30 s.
WAIT_FOR_SCRIPTS = """async () => {
  const root = document.documentElement;
  const start = performance.now();
  while (root.dataset.posencScripts && root.dataset.posencScripts !== "ready") {
    if (performance.now() - start > 30000) {
      throw new Error("the scripts run after the load did not run within 30 s");
    }
    await new Promise(done => setTimeout(done, 20));
  }
}"""


#: JavaScript: until the theme's tab stops for scrolling boxes are set again
#: after a change to the page (a dropdown opened, a resize, the sections laid
#: out): the theme waits 300 ms after the last change, then sets them in the
#: next frame (``_ext/lean_scripts.py``). A timer of 350 ms set now fires
#: after the theme's, and the frames after it come after the theme's frame.
TAB_STOPS_SET = """async () => {
  await new Promise(done => setTimeout(done, 350));
  for (const _ of [1, 2]) await new Promise(done => requestAnimationFrame(done));
}"""


#: JavaScript: the page's scripts run after its load (WAIT_FOR_SCRIPTS); then
#: on a page whose chapter has sections (h2), until every one is
#: laid out (``_ext/static/posenc-sections.js`` lays out, in idle time after
#: the load, those the browser left for when they come near the screen; it
#: marks the root ``data-posenc-sections`` "laying-out", then "laid-out")
#: and the theme has set its tab stops again (300 ms after the resize that
#: script then fires, in the next frame): the page as it is from then on,
#: whose every box that scrolls is marked and a tab stop. At once where the
#: script has not run (no sections, JavaScript off); an error after 30 s.
WAIT_FOR_SECTIONS = f"""async () => {{
  await ({WAIT_FOR_SCRIPTS})();
  const root = document.documentElement;
  if (!root.dataset.posencSections) return;
  const start = performance.now();
  while (root.dataset.posencSections !== "laid-out") {{
    if (performance.now() - start > 30000) {{
      throw new Error("the sections were not laid out within 30 s");
    }}
    await new Promise(done => setTimeout(done, 50));
  }}
  await ({TAB_STOPS_SET})();
}}"""

#: JavaScript: the fonts the page preloads (``<link rel="preload" as="font">``)
#: that it has not drawn from the preload: no ``@font-face`` of its style
#: sheets names the file, or the face that does is not loaded (a face loads
#: when text is drawn in it; the page's scripts load none by hand), or the
#: file was fetched more than once (a preload that does not match the
#: face's request, without ``crossorigin`` say, is fetched again). Run once
#: the page has settled (:data:`WAIT_FOR_SECTIONS`). A preloaded font left
#: unused costs its bytes on every load, and the browser warns of it.
UNUSED_FONT_PRELOADS = r"""async () => {
  await document.fonts.ready;
  const faces = [];
  const walk = rules => {
    for (const rule of rules) {
      if (rule instanceof CSSFontFaceRule) faces.push(rule);
      else if (rule.styleSheet) walk(rule.styleSheet.cssRules);
      else if (rule.cssRules) walk(rule.cssRules);
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  const bare = family => family.replace(/["']/g, "").trim();
  const loaded = [...document.fonts].filter(face => face.status === "loaded")
    .map(face => `${bare(face.family)} ${face.weight} ${face.style}`);
  const weight = w => (!w || w === "400" ? "normal" : w);
  return [...document.querySelectorAll('link[rel="preload"][as="font"]')]
    .map(link => link.href)
    .filter(href => performance.getEntriesByName(href).length !== 1 ||
      !faces.some(rule => {
      const base = rule.parentStyleSheet.href || document.baseURI;
      const src = rule.style.getPropertyValue("src");
      const urls = [...src.matchAll(/url\("?([^")]+)"?\)/g)]
        .map(m => new URL(m[1], base).href);
      const key = `${bare(rule.style.getPropertyValue("font-family"))} ` +
        `${weight(rule.style.getPropertyValue("font-weight"))} ` +
        `${rule.style.getPropertyValue("font-style") || "normal"}`;
      return urls.includes(href) &&
        loaded.some(face => face.replace(/ 400 /, " normal ") === key);
    }));
}"""

#: JavaScript: every display equation of the page (with dropdowns opened if
#: the argument is true): its label, its number (or the start of its MathML
#: text), the width of its rendered maths, the width of its <math> box,
#: whether that box scrolls far enough to show all of it, the height of the
#: scrollbar the box draws (0 for none, or an overlay), and whether it is
#: masked (faded out at an edge it continues past).
DISPLAY_EQUATIONS = r"""async (openDropdowns) => {
  if (openDropdowns) {
    document.querySelectorAll("details").forEach(d => { d.open = true; });
  }
  for (const _ of [1, 2]) await new Promise(done => requestAnimationFrame(done));
  return [...document.querySelectorAll("div.math")].flatMap(box => {
    const container = box.querySelector("math");
    if (!container) return [];
    const style = getComputedStyle(container);
    const number = box.querySelector(".eqno");
    const tex = container.textContent.trim().replace(/\s+/g, " ");
    // the formula's own width, from its first child's left edge to its last
    // one's right edge (the <math> box is as wide as the column)
    const parts = [...container.children].map(c => c.getBoundingClientRect());
    const width = parts.length
      ? Math.max(...parts.map(r => r.right)) - Math.min(...parts.map(r => r.left))
      : 0;
    return [{
      id: box.id,
      name: number ? number.firstChild.textContent.trim() : tex.slice(0, 40),
      width: width,
      room: container.clientWidth,
      scrolls: ["auto", "scroll"].includes(style.overflowX)
        && container.scrollWidth + 1 >= width,
      // a MathML element has no offsetHeight (an HTML element's): its box's
      scrollbar: container.getBoundingClientRect().height - container.clientHeight
        - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth),
      faded: (style.maskImage || style.webkitMaskImage || "none") !== "none",
    }];
  });
}"""


#: A style sheet or script file a page loads, by its tag (not a script typed
#: for no browser to run, such as Bootstrap's, loaded on first use): its
#: address, and for a bundle (``_ext/page_bundles.py``) the files in it.
_ASSET_TAG = re.compile(
    r'<(?:link\b(?=[^>]*\brel="stylesheet")[^>]*\bhref|script\b(?![^>]*\btype="text/x-)'
    r'[^>]*\bsrc)="([^"]*)"[^>]*>'
)


def page_assets(text: str) -> list[str]:
    """The file names of the style sheets and script files a page (its
    ``text``) loads, in order, each bundle's files in its place: names
    without their folder or query (``posenc-maths.css``)."""
    names = []
    for tag in _ASSET_TAG.finditer(text):
        bundle = re.search(r'\bdata-bundle="([^"]*)"', tag.group(0))
        files = bundle.group(1).split() if bundle else [tag.group(1)]
        names += [Path(f.split("?")[0]).name for f in files]
    return names


def site_dir() -> Path:
    """The site under test: ``POSENC_SITE``, else ``_build/html`` of the repo."""
    return Path(os.environ.get("POSENC_SITE") or ROOT / "_build" / "html").resolve()


def html_pages(site: Path) -> list[str]:
    """Every HTML page of ``site`` (as URL paths), redirects included."""
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not (ASSET_DIRS | TEACHING_DIRS) & set(path.relative_to(site).parts[:-1])
    )


def is_redirect(site: Path, page: str) -> bool:
    """Whether ``page`` only sends the browser elsewhere (``index.html``)."""
    return bool(_REDIRECT.search((site / page).read_text(errors="replace")[:2000]))


def raw_sizes(site: Path, base_url: str, urls: list[str]) -> dict[str, int]:
    """Each file of ``site`` named by ``urls`` (served from ``base_url``),
    by its path in the site, with its size on disk: what a reader loads,
    uncompressed (as from a file:// address)."""
    sizes = {}
    for url in urls:
        if not url.startswith(base_url):
            continue
        name = unquote(url[len(base_url) :].split("#")[0].split("?")[0])
        path = site / (name or "index.html")
        if path.is_dir():
            path = path / "index.html"
        if path.is_file():
            sizes[name] = path.stat().st_size
    return sizes


#: Files a web host sends gzip-compressed (fonts and pictures are compressed
#: already).
COMPRESSIBLE = {".html", ".js", ".css", ".json", ".svg", ".txt", ".map", ".inv"}


@functools.lru_cache(maxsize=512)
def _gzipped(path: Path, mtime: float) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files as a static web host does, gzip-compressed if asked for."""

    compress = True

    def log_message(self, format, *args) -> None:  # noqa: A002 (stdlib name)
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (self.compress and accepts and path.suffix in COMPRESSIBLE):
            return super().do_GET()
        if not path.is_file():
            return super().do_GET()
        body = _gzipped(path, path.stat().st_mtime)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)


class _PlainHandler(_QuietHandler):
    compress = False


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass  # a browser that drops a connection is not an error of the site


@contextmanager
def serve(directory: Path, compress: bool = True) -> Iterator[str]:
    """Serve ``directory`` on 127.0.0.1 (a free port) in a thread; yield its URL.

    Text files go gzip-compressed to a browser that accepts it, as from any
    static web host; ``compress=False`` sends every file as it is on disk.
    """
    kind = _QuietHandler if compress else _PlainHandler
    handler = functools.partial(kind, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def launch(playwright, scrollbars: bool = False):
    """Debian's headless Chromium.

    Playwright hides every scrollbar of a headless browser (it passes
    ``--hide-scrollbars``), so a scrollbar then takes no room and cannot be
    seen. ``scrollbars=True`` keeps them as a reader's browser draws them: a
    desktop page shows classic scrollbars, and a context with
    ``is_mobile=True`` a phone's overlay scrollbars (drawn only while
    scrolling), unless the page styles its own. ``playwright`` is what
    ``sync_playwright()`` yields, or its ``chromium`` (``browser.browser_type``
    of a running browser: a second browser in the same session).
    """
    chromium = getattr(playwright, "chromium", playwright)
    return chromium.launch(
        executable_path=CHROMIUM,
        args=LAUNCH_ARGS,
        ignore_default_args=["--hide-scrollbars"] if scrollbars else None,
    )
