"""The website's players and figures in a real browser (the other half of
the browser tests, tests/test_site.py, whose helpers this file uses; the
fixtures, one per test process, are in tests/conftest.py, and the tests of
one page run on one worker with test_site's: conftest's scheduler).

Moving a slider or pressing a button, by keyboard alone, shows the frame
rendered for those values, the figure's caption names them and a live
region tells a screen reader; every figure keeps its aspect ratio on a
desktop and on a phone; figures show without JavaScript; players read well
in dark mode.
"""

from __future__ import annotations

import base64
import io
import json
from urllib.parse import unquote, urlsplit

import pytest
import tiers
from PIL import Image
from test_accessibility import tab_to
from test_site import (
    BROKEN_IMAGES,
    BUILT,
    CONTRAST,
    PAGES,
    Visit,
    load,
    open_page,
    screenshot,
)
from test_site_html import PLAYER_PARAMS, parsed

from posenc import plots

#: Pages with images (figures or player frames): on the others these checks
#: could find nothing.
ILLUSTRATED = [p for p in PAGES if BUILT and parsed(p).images]


def wait_for_new_frame(image, before: str) -> None:
    image.evaluate(
        """(img, before) => new Promise((done, fail) => {
          const ready = () => img.src !== before && img.complete && img.naturalWidth;
          const check = () => ready() ? done() : setTimeout(check, 20);
          setTimeout(() => fail(new Error("frame did not load")), 10000);
          check();
        })""",
        before,
    )


def frame_indices(player) -> str:
    """The frame name the controls of ``player`` ask for: ``2_0_1``."""
    return player.evaluate(
        """p => [...p.querySelectorAll("[data-kind]")].map(c =>
          c.dataset.kind === "choice" ? c.dataset.index : c.value).join("_")"""
    )


def live_text(player) -> str:
    """What the player's live region last told a screen reader."""
    return player.locator(".posenc-live").text_content()


def move(page, player, slider) -> dict:
    """Move ``slider`` one step by keyboard (Tab to it, an arrow); wait
    until its frame shows."""
    image = player.locator("img.posenc-frame")
    before = image.evaluate("img => img.src")  # absolute, as img.src
    value, top = int(slider.input_value()), int(slider.get_attribute("max"))
    tab_to(page, slider)
    page.keyboard.press("ArrowLeft" if value == top else "ArrowRight")
    wait_for_new_frame(image, before)
    labels = json.loads(slider.get_attribute("data-labels"))
    moved = int(slider.input_value())
    output = slider.evaluate("s => s.parentElement.querySelector('output').textContent")
    return {
        "from": value,
        "to": moved,
        "src": image.evaluate("img => img.src"),
        "output": output,
        "label": labels[moved],
        "live": live_text(player),
    }


def press(page, player, button, key: str) -> None:
    """Tab to ``button`` of ``player``, press ``key``; wait for the frame."""
    image = player.locator("img.posenc-frame")
    before = image.evaluate("img => img.src")  # absolute, as img.src
    tab_to(page, button)
    page.keyboard.press(key)
    wait_for_new_frame(image, before)


def play_by_keyboard(page, player) -> None:
    """The player's first play button, by Space: it plays (its slider moves
    on, and the live region keeps quiet meanwhile), and Space stops it,
    when the live region says the values it stopped at."""
    button = player.locator(".posenc-play").first
    slider = button.locator("xpath=ancestor::label[1]//input[@type='range']")
    tab_to(page, button)
    start = int(slider.input_value())
    told = live_text(player)
    page.keyboard.press("Space")
    assert button.get_attribute("aria-pressed") == "true"
    slider.evaluate(
        """(s, start) => new Promise((done, fail) => {
          const check = () =>
            Number(s.value) !== start ? done() : setTimeout(check, 50);
          setTimeout(() => fail(new Error("it did not play")), 5000);
          check();
        })""",
        start,
    )
    assert live_text(player) == told, "announced while playing"
    page.keyboard.press("Space")
    assert button.get_attribute("aria-pressed") == "false"
    label = json.loads(slider.get_attribute("data-labels"))[int(slider.input_value())]
    assert f"= {label}" in live_text(player)


def check_dark_mode(page, path: str) -> None:
    """The first player in the theme's dark mode (switched as its button
    does): its frame is not inverted, and its labels and notes have a
    contrast of at least 4.5 on what is behind them."""
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    player = page.locator(".posenc-player").first
    player.scroll_into_view_if_needed()
    image = player.locator("img.posenc-frame")
    assert "invert" not in image.evaluate("img => getComputedStyle(img).filter")
    for element in (
        *player.locator(".posenc-label").all(),
        player.locator("p:visible"),
    ):
        ratio = element.evaluate(CONTRAST)
        assert ratio >= 4.5, f"contrast {ratio:.1f} of {element.inner_text()!r}"
    screenshot(player, path, "__player_dark")


def open_folds_with_players(page) -> None:
    """Open, as a reader does (a click on its title, which needs no script),
    each closed dropdown that holds a player: a chapter's deeper layer may
    hold one (_ext/folding.py)."""
    closed = page.locator("details:not([open]):has(.posenc-player) > summary")
    while closed.count():
        closed.first.click()


@pytest.mark.parametrize("path", PLAYER_PARAMS)
def test_moving_a_slider_shows_its_precomputed_frame(browser, base_url, path):
    """Each slider and button of each player, driven by the keyboard alone
    (Tab to it; an arrow moves a slider, Enter presses a button, Space
    plays and stops), shows the frame computed for its values, says the
    value it is at, and a player's caption ("Shown: ...") follows it: it
    never names values the figure no longer shows. A live region (role
    "status") tells a screen reader the values of each new frame. Then the
    page is switched to dark mode (check_dark_mode)."""
    visit = Visit()
    page = open_page(browser, base_url, visit)
    load(page, base_url + path)
    open_folds_with_players(page)
    for k in range(page.locator(".posenc-player").count()):
        player = page.locator(".posenc-player").nth(k)
        player.scroll_into_view_if_needed()
        if k == 0:
            screenshot(player, path, "__player_before")
        sliders = player.locator("input[type=range]")
        assert sliders.count() >= 1 and sliders.first.is_visible()
        name = player.get_attribute("data-explorer")
        caption = player.locator("xpath=ancestor::figure[1]//figcaption")
        shown = caption.locator(".posenc-caption-values")
        for j in range(sliders.count()):
            before = shown.inner_text().strip() if caption.count() else None
            step = move(page, player, sliders.nth(j))
            assert step["to"] == step["from"] + (1 if step["to"] > step["from"] else -1)
            expected = f"_static/explorers/{name}/{frame_indices(player)}.png"
            assert urlsplit(step["src"]).path == "/" + expected
            assert step["output"] == step["label"]
            assert step["live"].startswith("Shown: ")
            assert f"= {step['label']}" in step["live"], step["live"]
            if before is not None:
                # the caption's "Shown: ..." follows the slider
                after = shown.inner_text().strip()
                assert before.startswith("Shown:") and after.startswith("Shown:")
                assert after != before and f"= {step['label']}" in after, after
        if player.locator(".posenc-play").count():
            play_by_keyboard(page, player)
        for group in player.locator('[data-kind="choice"]').all():
            image = player.locator("img.posenc-frame")
            index = group.locator('button[aria-pressed="false"]').first.get_attribute(
                "data-index"
            )
            button = group.locator(f'button[data-index="{index}"]')
            text = button.inner_text()
            press(page, player, button, "Enter")
            assert button.get_attribute("aria-pressed") == "true"
            expected = f"_static/explorers/{name}/{frame_indices(player)}.png"
            assert urlsplit(image.evaluate("img => img.src")).path == "/" + expected
            assert f"= {text}" in live_text(player)
        if k == 0:
            screenshot(player, path, "__player_after")
    check_dark_mode(page, path)
    page.wait_for_load_state("networkidle")
    assert visit.outside == [] and visit.errors == []
    page.context.close()


@pytest.mark.parametrize("path", tiers.sampled(ILLUSTRATED, tiers.BOOK[:2]))
def test_figures_show_without_javascript(browser, base_url, path):
    visit = Visit()
    page = open_page(browser, base_url, visit, java_script_enabled=False)
    load(page, base_url + path)
    open_folds_with_players(page)
    assert page.evaluate(BROKEN_IMAGES) == []
    figures = page.locator("figure img")
    for k in range(figures.count()):
        assert figures.nth(k).evaluate("img => img.complete && img.naturalWidth > 0")
    for k in range(page.locator(".posenc-player").count()):
        player = page.locator(".posenc-player").nth(k)
        assert player.locator("img.posenc-frame").is_visible()
        assert not player.locator(".posenc-controls").is_visible()
        assert player.locator(".posenc-note-static").is_visible()
        if k == 0:
            screenshot(player, path, "__player_nojs")
    assert visit.outside == []
    page.context.close()


#: Where figures are checked: (a size of test_site.SIZES, CSS px per device
#: px, the least size of figure text there in device px, or None for the
#: scale alone). The projector's 1.25 is applied by arithmetic (its layout is
#: measured at a ratio of 1: test_site.LOADED_IN). The phone's width is a
#: desktop window at 390 px: in Chromium's phone emulation (is_mobile) a
#: figure's height comes out up to 2.3 % off its aspect ratio at full width
#: (253 px for 247 on the_encoding's first figure; a window 390 px wide
#: shows it within 0.1 %).
SCREENS = [("desktop", 1.0, 12.0), ("narrow", 1.0, None), ("projector", 1.25, 16.0)]
#: The least scale of a figure (shown width over design width), everywhere.
LEAST_SCALE = 0.75


def image_bytes(site, src: str) -> bytes:
    """The file behind ``src``: a data URI, or a file of the served site. A
    figure loaded as WebP (_ext/page_weight.py) records no dpi: its PNG,
    beside it with the same pixels (tests/test_site_weight.py), does."""
    if src.startswith("data:"):
        return base64.b64decode(src.split(",", 1)[1])
    path = site / unquote(urlsplit(src).path).lstrip("/")
    if path.suffix == ".webp" and path.with_suffix(".png").is_file():
        path = path.with_suffix(".png")
    return path.read_bytes()


def design_width(data: bytes, natural: int) -> float:
    """The width (CSS px) an image's font sizes were designed for: its pixel
    width times ``plots.DESIGN_DPI`` over the dpi it records (a PNG's pHYs
    chunk); an image that records none was drawn at ``DESIGN_DPI``."""
    dpi = Image.open(io.BytesIO(data)).info.get("dpi")
    return natural * plots.DESIGN_DPI / dpi[0] if dpi else float(natural)


@pytest.mark.parametrize("path", tiers.sampled(ILLUSTRATED, tiers.BOOK[:2]))
def test_figures_are_shown_at_their_design_width(layouts, site, path):
    """No figure or player frame is shown at less than 0.75 of the width its
    font sizes were designed for (a high-resolution PNG counts at its design
    width), at 1280 px and on a phone (390 px), so its text keeps about its
    designed size, nor cut sideways by a box around it; and its smallest
    text (``plots.SMALLEST_TEXT_PT``, which tests/test_plots.py holds every
    figure to) is at least 12 px on a desktop and 16 px on a projector
    (1024 x 768 at 125 %). None is squeezed either: each is shown at its
    natural aspect ratio within 2 %, at each of these sizes. The pages are
    laid out by test_site's ``layouts`` (dropdowns opened)."""
    smallest = plots.SMALLEST_TEXT_PT * plots.DESIGN_DPI / 72  # CSS px
    designs: dict[str, float] = {}
    for size, ratio, least_text in SCREENS:
        images = layouts(path, size).images
        squeezed = [i["src"][-50:] for i in images if abs(i["aspect"] - 1) > 0.02]
        assert squeezed == [], f"squeezed on a {size}"
        for image in images:
            src = image["src"]
            if src not in designs:
                designs[src] = design_width(image_bytes(site, src), image["natural"])
            scale = image["shown"] / designs[src]
            where = f"{src[-40:]} on a {size}"
            assert scale >= LEAST_SCALE, f"{where}: shown at {scale:.2f}"
            assert image["cut"] is None, f"{where}: cut by {image['cut']}"
            if least_text is not None:
                text = smallest * scale * ratio
                assert text >= least_text, f"{where}: text {text:.1f} px"
    # A click on a static figure opens it (PNG or WebP), at twice its
    # design width.
    for image in layouts(path, "desktop").images:
        if image["static"]:
            assert image["link"] == image["src"], image["src"][-40:]
            assert image["natural"] >= 1.9 * designs[image["src"]], image["src"][-40:]


@pytest.mark.parametrize("width", [390, 819])
def test_back_to_top_covers_no_text(browser, base_url, width):
    """On a phone and a projector (no sidebar) the theme's "back to top"
    button sits in the sticky header bar, clear of the header's buttons,
    not over the text (where it covered captions)."""
    visit = Visit()
    page = open_page(browser, base_url, visit, viewport={"width": width, "height": 700})
    load(page, base_url + "book/decay_integral.html")
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(300)
    page.mouse.wheel(0, -300)  # the theme shows the button on the way up
    button = page.locator("#pst-back-to-top")
    button.wait_for(state="visible", timeout=5000)
    box = button.bounding_box()
    header = page.locator(".bd-header-article").bounding_box()
    assert header["y"] == 0 and box["y"] >= 0
    assert box["y"] + box["height"] <= header["height"], (box, header)
    others = page.locator(".bd-header-article :is(button, a):visible").all()
    for other in others:
        near = other.bounding_box()
        apart = (
            near["x"] >= box["x"] + box["width"]
            or near["x"] + near["width"] <= box["x"]
        )
        assert apart, (box, near)
    assert visit.errors == []
    page.context.close()
