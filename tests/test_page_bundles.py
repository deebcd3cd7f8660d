"""One style sheet and one script file a page, its inline scripts first
(_ext/page_bundles.py; issue 22). ``make bench`` times the pages
(benchmarks/phone.py); these tests check what the rewrite keeps:

* on a small page written here: the inline scripts move before the style
  sheets in their order, ``documentation_options.js`` is written in, the
  style sheets become one tag where the first was (a font preloaded after
  them before it), each run of plain deferred scripts one tag, a script
  with attributes of its own, one that reads its own tag or one from
  outside ``_static`` ends a run; a page done is left as it is; a style
  sheet of another kind fails loudly;
* a bundle's style sheet is its files' rules in order, ``@import`` written
  in and each ``url()`` pointing at the same file from its new folder;
* a script bundle runs each file as its own script: a file's
  ``"use strict"``, its ``const`` names and its errors stay its own (in a
  browser: joined as one script, the file before a ``const`` it asks about
  with ``typeof`` throws);
* on the built site: every page of the theme loads one style sheet and no
  inline script after it, each bundle on disk is what its files make now,
  its tag's ``?v=`` is its digest, and every file a style bundle names is
  there; a page bundled is the same to the pixel, light and dark, desktop
  and phone, as with its files one by one (seen failing without one).
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import lean_scripts  # noqa: E402  (_ext/lean_scripts.py)
import page_bundles  # noqa: E402  (_ext/page_bundles.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
PAGES = sitetools.html_pages(SITE) if BUILT else ["(no site)"]

HEAD = """<html><head>
  <script>document.documentElement.dataset.mode = "auto";</script>
  <link href="../_static/styles/theme.css?digest=1" rel="stylesheet" />
  <link rel="stylesheet" type="text/css" href="../_static/a.css?v=2" />
  <link rel="preload" href="../_static/font.woff2" as="font" crossorigin>
  <link rel="stylesheet" type="text/css" href="../_static/b.css" />
  <script>let first = 1;</script>
  <script src="../_static/documentation_options.js?v=3"></script>
  <script defer="defer" src="../_static/one.js?v=4"></script>
  <script defer="defer" src="../_static/two.js"></script>
  <script>DOCUMENTATION_OPTIONS.pagename = 'book/page';</script>
  <script data-frames-key="k" defer="defer" src="../_static/player.js"></script>
  <script defer="defer" src="../_static/three.js"></script>
  <script defer="defer" src="../_static/own-tag.js"></script>
  <script defer="defer" src="../_static/four.js"></script>
  <script defer="defer" src="../_static/five.js"></script>
  <script defer="defer" src="../index.js"></script>
  <script type="text/x-load-on-use" src="../_static/scripts/bootstrap.js"></script>
</head><body><p>text</p>
<script defer src="../_static/scripts/pydata-sphinx-theme.js"></script>
</body></html>
"""


#: A rule with an SVG in a data URL that holds a url() of its own.
DATA_SVG = (
    '.d{background:url("data:image/svg+xml,'
    "<svg><line marker-end='url(%23a)'/></svg>\")}"
)


@pytest.fixture
def small_site(tmp_path):
    """A site of one page (:data:`HEAD`) and its static files."""
    static = tmp_path / "_static"
    (static / "styles").mkdir(parents=True)
    (static / "scripts").mkdir()
    (static / "styles" / "theme.css").write_text('@import "../basic.css";\n')
    (static / "basic.css").write_text("p{margin:0}\n.icon{background:url(file.png)}\n")
    (static / "a.css").write_text('@charset "utf-8";\n.a{color:red}\n')
    (static / "b.css").write_text(
        '.b{background:url("img/b.svg")}\n.c{background:url(data:image/png;base64,AA)}\n'
        + DATA_SVG
        + "\n"
    )
    (static / "documentation_options.js").write_text(
        "const DOCUMENTATION_OPTIONS = {};\n"
    )
    for name in ("one", "two", "three", "four", "five", "player"):
        (static / f"{name}.js").write_text(
            f"window.ran = (window.ran || []).concat('{name}');\n"
        )
    (static / "own-tag.js").write_text("const me = document.currentScript;\n")
    (static / "scripts" / "pydata-sphinx-theme.js").write_text("window.theme = 1;\n")
    (tmp_path / "index.js").write_text("window.index = 1;\n")
    (tmp_path / "book").mkdir()
    page = tmp_path / "book" / "page.html"
    page.write_text(HEAD)
    return tmp_path, page, static


def bundle(page: Path, static: Path) -> str:
    return page_bundles.bundled_page(
        page.read_text(), page.resolve(), static.resolve(), {}
    )


def test_inline_scripts_move_before_the_style_sheets(small_site):
    """The head's inline scripts, and documentation_options.js written in,
    come before the one style sheet, in their order."""
    _, page, static = small_site
    head = bundle(page, static).split("</head>")[0]
    sheet = head.index('rel="stylesheet"')
    inline = [m.start() for m in re.finditer(r"<script>", head)]
    assert len(inline) == 4 and max(inline) < sheet
    bodies = re.findall(r"<script>(.*?)</script>", head, re.S)
    assert bodies == [
        'document.documentElement.dataset.mode = "auto";',
        "let first = 1;",
        "const DOCUMENTATION_OPTIONS = {};",
        "DOCUMENTATION_OPTIONS.pagename = 'book/page';",
    ]
    assert "documentation_options.js" not in head


def test_style_sheets_become_one_after_the_font(small_site):
    """One stylesheet tag, naming its files in order; the font preloaded
    before it."""
    _, page, static = small_site
    head = bundle(page, static).split("</head>")[0]
    tags = re.findall(r'<link[^>]*rel="stylesheet"[^>]*>', head)
    assert len(tags) == 1
    assert 'data-bundle="styles/theme.css a.css b.css"' in tags[0]
    assert head.index('as="font"') < head.index(tags[0])
    assert sitetools.page_assets(head)[:3] == ["theme.css", "a.css", "b.css"]


def test_runs_of_plain_deferred_scripts_become_one(small_site):
    """one + two become one tag; the player (its own attribute) ends the
    run, so do own-tag.js (document.currentScript) and ../index.js (outside
    _static); four + five become one more; the theme's, alone after
    ../index.js, stays as it was."""
    _, page, static = small_site
    text = bundle(page, static)
    tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", text)
    names = [
        re.search(r'data-bundle="([^"]*)"', t).group(1)
        if "data-bundle" in t
        else Path(re.search(r'src="([^"?]*)', t).group(1)).name
        for t in tags
    ]
    assert names == [
        "one.js two.js",
        "player.js",
        "three.js",
        "own-tag.js",
        "four.js five.js",
        "index.js",
        "bootstrap.js",
        "pydata-sphinx-theme.js",
    ]
    assert sitetools.page_assets(text).count("bootstrap.js") == 0
    assert "data-after-load" not in text


def test_a_page_done_or_not_the_theme_s_is_left_as_it_is(small_site):
    _, page, static = small_site
    done = bundle(page, static)
    assert page_bundles.bundled_page(done, page.resolve(), static.resolve(), {}) == done
    other = HEAD.replace("pydata-sphinx-theme.js", "other.js")
    assert (
        page_bundles.bundled_page(other, page.resolve(), static.resolve(), {}) == other
    )


def test_a_style_sheet_of_another_kind_fails_loudly(small_site):
    _, page, static = small_site
    page.write_text(
        HEAD.replace('href="../_static/b.css"', 'href="../_static/b.css" media="print"')
    )
    with pytest.raises(ValueError, match="a style sheet of its own kind"):
        bundle(page, static)


def test_the_style_bundle_is_its_files_rules_from_its_folder(small_site):
    """@import written in, no charset, each url() to the same file, a
    data URL (and a url() inside it) as it was."""
    _, page, static = small_site
    bundle(page, static)
    (css,) = (static / page_bundles.BUNDLES).glob("*.css")
    text = css.read_text()
    assert "@import" not in text and "@charset" not in text
    rules = re.sub(r"/\*.*?\*/\n", "", text)
    assert (
        rules.split()
        == (
            'p{margin:0} .icon{background:url("../file.png")} .a{color:red} '
            '.b{background:url("../img/b.svg")} '
            ".c{background:url(data:image/png;base64,AA)} "
        ).split()
        + DATA_SVG.split()
    )


def test_each_bundled_script_runs_as_its_own(small_site, chromium):
    """In a browser: a strict file (one.js) makes the next (two.js) no
    stricter; a file that asks ``typeof Search`` before the next declares
    ``const Search`` sees it undefined; an error in one file (four.js) stops
    no other (five.js). Joined as one script, each of the three fails (seen
    failing: the first bundle stopped at the check, the second at the
    error)."""
    root, page, static = small_site
    (static / "one.js").write_text('"use strict";\nwindow.seen = typeof Search;\n')
    (static / "two.js").write_text(
        "window.sloppy = function () { return this; };\nconst Search = {};\n"
    )
    (static / "four.js").write_text('throw new Error("four fails");\n')
    (static / "five.js").write_text("window.ran = 'five';\n")
    page.write_text(bundle(page, static))
    with sitetools.serve(root) as url:
        errors = []
        browser_page = chromium.new_page()
        browser_page.on("pageerror", lambda e: errors.append(str(e)))
        browser_page.goto(url + "book/page.html", wait_until="load")
        found = browser_page.evaluate(
            "() => { const f = window.sloppy;"
            " return [window.seen, !!f && f() === window,"
            " window.ran]; }"
        )
        browser_page.close()
    assert found == ["undefined", True, "five"]
    assert [e for e in errors if "four fails" not in e] == []


def test_files_run_after_the_load_in_order_a_task_each(small_site, chromium):
    """In a browser: the files of :data:`page_bundles.AFTER_LOAD` in a
    bundle run after the load event has ended, in the page's order (two
    bundles' files one queue), each in a task of its own; then the root
    says "ready". Seen failing with the files run at once (before the load)
    and with them run in one task."""
    root, page, static = small_site
    record = (
        "window.order = (window.order || []).concat([[NAME, "
        "performance.getEntriesByType('navigation')[0].loadEventEnd > 0, "
        "document.documentElement.dataset.posencScripts, (window.task || []).length]]);"
        "Promise.resolve().then(() => { window.task = (window.task || [])"
        ".concat([NAME]); });\n"
    )
    late = page_bundles.AFTER_LOAD
    for name in ("one.js", "two.js", *late):
        (static / name).write_text(record.replace("NAME", repr(name)))
    first = page_bundles.write_bundle(static, ["one.js", *late[:2], "two.js"], ".js")
    second = page_bundles.write_bundle(static, [late[2]], ".js")
    page.write_text(
        "<!doctype html><html><head><title>t</title>"
        f'<script defer src="../_static/{first[0]}"></script></head><body><p>x</p>'
        f'<script defer src="../_static/{second[0]}"></script></body></html>'
    )
    with sitetools.serve(root) as url:
        browser_page = chromium.new_page()
        browser_page.goto(url + "book/page.html", wait_until="load")
        browser_page.evaluate(sitetools.WAIT_FOR_SCRIPTS)
        order, tasks, marked = browser_page.evaluate(
            "() => [window.order, window.task,"
            " document.documentElement.dataset.posencScripts]"
        )
        browser_page.close()
    assert marked == "ready"
    # the last number: the promise callbacks run before the file did (one
    # and two ran in one task, the bundle's; each late file in one of its own)
    assert order == [
        ["one.js", False, None, 0],
        ["two.js", False, "after-load", 0],
        [late[0], True, "after-load", 2],
        [late[1], True, "after-load", 3],
        [late[2], True, "after-load", 4],
    ]
    assert tasks == [name for name, *_ in order]


def test_a_page_done_before_gets_the_files_run_after_the_load_of_now(small_site):
    """An incremental build leaves a page as an earlier build wrote it:
    its script bundle is named again, and its files run after the load,
    as :data:`page_bundles.AFTER_LOAD` says now (not as its tag said)."""
    _, page, static = small_site
    for name in page_bundles.AFTER_LOAD:
        (static / name).write_text("window.x = 1;\n")
    files = ["one.js", *page_bundles.AFTER_LOAD]
    old = f"{page_bundles.BUNDLES}/page-000000000000.js"  # as named before
    tag = (
        f'<script defer src="../_static/{old}?v=0" data-bundle="{" ".join(files)}" '
        'data-after-load="one.js"></script>'
    )
    done = page_bundles.rewritten(tag, page.resolve(), static.resolve(), {})
    late = page_bundles.AFTER_LOAD
    name = page_bundles.bundle_name(files, ".js")
    assert f'data-after-load="{" ".join(late)}"' in done and name != old
    text = page_bundles.bundle_text(static, files, ".js")
    assert f'src="../_static/{name}?v={page_bundles.digest(text)}"' in done
    assert (static / name).read_text() == text
    assert 'run("window.ran' in text and text.count("later(") == len(late)


def test_a_bundle_no_page_loads_any_more_is_removed(small_site):
    """A bundle an earlier build wrote, that no page of the output names
    (its files changed), is deleted; those the pages name stay, also when
    this build did not write them (a page it left as it was)."""
    root, page, static = small_site
    bundled = page_bundles.bundled_page(page.read_text(), page.resolve(), static, {})
    page.write_text(bundled)
    bundles = static / page_bundles.BUNDLES
    now = sorted(path.name for path in bundles.iterdir())
    assert len(now) == 3  # the style sheets, and two runs of scripts
    (bundles / "page-000000000000.js").write_text("window.old = 1;\n")
    named = set(page_bundles.BUNDLE_NAME.findall(page.read_text()))
    removed = page_bundles.stale_bundles_removed(static, named)
    assert removed == [f"{page_bundles.BUNDLES}/page-000000000000.js"]
    assert sorted(path.name for path in bundles.iterdir()) == now


def test_two_builds_leave_every_bundle_a_page_names(small_site):
    """The whole step run twice, as an incremental build does: every bundle
    a page names is there after each."""

    class App:
        outdir = str(small_site[0])

        class builder:
            format = "html"

    root, page, static = small_site
    # a page whose only bundle is in its body (one style sheet in its head)
    body_only = page.with_name("body.html")
    body_only.write_text(
        '<html><head>\n<link rel="stylesheet" href="../_static/a.css" />\n'
        "</head><body>\n"
        '<script defer src="../_static/one.js"></script>\n'
        '<script defer src="../_static/two.js"></script>\n'
        '<script defer src="../_static/scripts/pydata-sphinx-theme.js"></script>\n'
        "</body></html>\n"
    )
    for _ in range(2):
        page_bundles.bundle_site(App, None)
        for built in (page, body_only):
            text = built.read_text()
            named = re.findall(r"bundles/page-[0-9a-f]+\.(?:css|js)", text)
            assert named
            assert all((static / name).is_file() for name in named), named


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
def test_every_bundle_in_the_site_is_loaded_by_a_page(site):
    """No bundle of an earlier build is left in the site: each file of
    ``_static/bundles`` is named by a page."""
    text = "".join(path.read_text(encoding="utf-8") for path in site.rglob("*.html"))
    folder = site / "_static" / page_bundles.BUNDLES
    unused = [path.name for path in folder.iterdir() if path.name not in text]
    assert len(list(folder.iterdir())) >= 2 and unused == []


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
@pytest.mark.parametrize("path", PAGES)
def test_every_theme_page_loads_one_style_sheet_and_waits_for_it_with_no_script(
    site, path
):
    """A page of the theme has one stylesheet tag, a bundle, and no script
    in its head after it but deferred files."""
    text = (site / path).read_text(encoding="utf-8")
    if lean_scripts.THEME_PAGE not in text or "</head>" not in text:
        return
    head = text.split("</head>")[0]
    sheets = re.findall(r'<link\b[^>]*rel="stylesheet"[^>]*>', head)
    assert len(sheets) == 1 and "data-bundle" in sheets[0], sheets
    after = head[head.index(sheets[0]) :]
    for attributes, _ in re.findall(r"<script\b([^>]*)>(.*?)</script>", after, re.S):
        assert re.search(r"\b(defer|async)\b|type=\"text/x-", attributes), attributes


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
def test_each_bundle_is_what_its_files_make_now(site):
    """Every bundle a page names is on disk as its files make it now, and
    the tag's ?v= is its digest (a page an earlier build wrote too)."""
    static = (site / "_static").resolve()
    tags = set()
    for path in PAGES:
        text = (site / path).read_text(encoding="utf-8")
        tags.update(
            re.findall(r"<(?:link|script)\b[^>]*\bdata-bundle=\"[^\"]*\"[^>]*>", text)
        )
    assert len(tags) >= 2
    for tag in tags:
        files = re.search(r'data-bundle="([^"]*)"', tag).group(1).split()
        late = re.search(r'data-after-load="([^"]*)"', tag)
        late = tuple(late.group(1).split()) if late else ()
        assert late == page_bundles.after_load(files)
        suffix = ".css" if tag.startswith("<link") else ".js"
        name = page_bundles.bundle_name(files, suffix)
        now = page_bundles.bundle_text(static, files, suffix)
        assert (static / name).read_text(encoding="utf-8") == now, name
        assert f"{name}?v={page_bundles.digest(now)}" in tag


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
def test_every_file_a_style_bundle_names_is_there(site):
    """Each ``url()`` of each style bundle (fonts, icons, pictures) points
    at a file of the site, from the bundle's folder."""
    bundles = sorted((site / "_static" / page_bundles.BUNDLES).glob("*.css"))
    assert bundles
    for bundle in bundles:
        text = bundle.read_text("utf-8")
        urls = [next(g for g in m if g) for m in page_bundles.URL.findall(text)]
        files = [
            u.split("?")[0].split("#")[0] for u in urls if not u.startswith("data:")
        ]
        assert any("maths-font" in f for f in files), bundle.name
        missing = [f for f in files if not (bundle.parent / f).is_file()]
        assert missing == [], bundle.name


FONTS_DRAWN = """async () => {
  for (const _ of [1, 2]) await new Promise(done => requestAnimationFrame(done));
  await document.fonts.ready;
  for (const _ of [1, 2]) await new Promise(done => requestAnimationFrame(done));
}"""


def unbundled(text: str, path: str) -> str:
    """A page as Sphinx linked it: each bundle's files in its place."""
    up = "../" * path.count("/")

    def tags(match: re.Match, tag: str) -> str:
        files = re.search(r'data-bundle="([^"]*)"', match.group(0)).group(1).split()
        return "\n".join(tag.format(up=up, file=f) for f in files)

    text = re.sub(
        r'<link rel="stylesheet"[^>]*data-bundle="[^"]*"[^>]*>',
        lambda m: tags(m, '<link rel="stylesheet" href="{up}_static/{file}" />'),
        text,
    )
    return re.sub(
        r"<script defer [^>]*data-bundle=\"[^\"]*\"[^>]*></script>",
        lambda m: tags(m, '<script defer src="{up}_static/{file}"></script>'),
        text,
    )


@pytest.mark.skipif(not BUILT, reason="no built site: run `make book` first")
@pytest.mark.parametrize(
    "path, reader",
    [
        ("book/the_encoding.html", "desktop light"),
        ("book/the_encoding.html", "phone dark"),
        ("search.html", "phone light"),
    ],
)
def test_a_bundled_page_looks_as_with_its_files(site, base_url, browser, path, reader):
    """The page, bundled and as Sphinx linked it (its files one by one,
    served in its place), is the same to the pixel at the top and a screen
    down, once laid out."""
    from PIL import Image, ImageChops

    size = {"width": 390, "height": 844} if "phone" in reader else None
    options = {
        "viewport": size or {"width": 1280, "height": 800},
        "color_scheme": reader.split()[1],
        **({"is_mobile": True, "has_touch": True} if size else {}),
    }
    text = (site / path).read_text(encoding="utf-8")
    shots = []
    for page_text in (None, unbundled(text, path)):
        context = browser.new_context(**options)
        page = context.new_page()
        if page_text is not None:
            page.route(
                base_url + path,
                lambda route, _request, body=page_text: route.fulfill(
                    body=body, content_type="text/html"
                ),
            )
        page.goto(base_url + path)
        page.evaluate(sitetools.WAIT_FOR_MATHS)
        page.evaluate(sitetools.WAIT_FOR_SECTIONS)
        taken = []
        for y in (0, 900):
            page.evaluate(f"() => scrollTo({{top: {y}, behavior: 'instant'}})")
            # every font the frame asked for (an icon's is asked for only
            # once the icon is laid out)
            page.evaluate(FONTS_DRAWN)
            taken.append(Image.open(io.BytesIO(page.screenshot())).convert("RGB"))
        shots.append(taken)
        context.close()
    for bundled, separate in zip(*shots, strict=True):
        assert ImageChops.difference(bundled, separate).getbbox() is None


def test_an_imported_sheet_s_urls_point_from_the_bundle_once(small_site):
    """A sheet at the top of _static importing one a folder down: the
    imported sheet's url() is rebased once, from its own folder."""
    _, page, static = small_site
    (static / "x").mkdir()
    (static / "x" / "inner.css").write_text(".i{background:url(img.png)}\n")
    (static / "a.css").write_text('@import "x/inner.css";\n.a{color:red}\n')
    text = page_bundles.style_text(static / "a.css", static / page_bundles.BUNDLES)
    assert 'url("../x/img.png")' in text and ".a{color:red}" in text


def test_an_import_with_conditions_stops_and_one_in_a_comment_stays(small_site):
    _, page, static = small_site
    (static / "a.css").write_text('/* @import "b.css"; */\n.a{color:red}\n')
    text = page_bundles.style_text(static / "a.css", static / page_bundles.BUNDLES)
    assert text.startswith('/* @import "b.css"; */') and ".b{" not in text
    (static / "a.css").write_text('@import "b.css" print;\n')
    with pytest.raises(ValueError, match="@import with conditions"):
        page_bundles.style_text(static / "a.css", static / page_bundles.BUNDLES)


def test_a_module_a_comment_and_the_theme_s_preload(small_site):
    """A module script ends a run, a tag in an HTML comment is left alone,
    the theme's script (in the body) joins no bundle of the head's and
    keeps its preload; a page whose body only mentions data-bundle= is
    bundled."""
    _, page, static = small_site
    text = (
        HEAD.replace(
            '<script defer="defer" src="../_static/two.js"></script>',
            '<script type="module" src="../_static/mod.js"></script>\n'
            '  <script defer="defer" src="../_static/two.js"></script>\n'
            '  <!-- <script defer="defer" src="../_static/three.js"></script> -->',
        )
        .replace(
            '<script data-frames-key="k" defer="defer" src="../_static/player.js">'
            "</script>",
            "",
        )
        .replace('<script defer="defer" src="../_static/own-tag.js"></script>', "")
        .replace('<script defer="defer" src="../index.js"></script>', "")
        .replace(
            "<head>",
            '<head>\n<link rel="preload" as="script" '
            'href="../_static/scripts/pydata-sphinx-theme.js?digest=1" />',
        )
        .replace("<p>text</p>", "<p><code>data-bundle=&quot;x&quot;</code></p>")
    )
    (static / "mod.js").write_text("export {};\n")
    done = page_bundles.bundled_page(text, page.resolve(), static.resolve(), {})
    bundles = re.findall(r'data-bundle="([^"]*)"', done.split("</head>")[0])
    assert "one.js" not in " ".join(bundles[1:])  # one.js alone before the module
    assert bundles[-1] == "two.js three.js four.js five.js", bundles
    assert '<!-- <script defer="defer" src="../_static/three.js"></script> -->' in done
    assert 'rel="preload" as="script"' in done
    assert lean_scripts.THEME_PAGE in done
