# ruff: noqa: F811  (the fixtures imported below are test arguments)
"""The website's players and figures in a real browser (the other half of
the browser tests, tests/test_site.py, whose fixtures and helpers this file
uses; two files so that pytest-xdist runs the two halves side by side).

Moving a slider or pressing a button shows the frame rendered for those
values, and the figure's caption names them; every figure keeps its aspect
ratio on a desktop and on a phone; figures show without JavaScript; players
read well in dark mode.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from test_site import (  # noqa: F401  (base_url, browser, site: fixtures)
    BROKEN_IMAGES,
    CONTRAST,
    PAGES,
    PLAYER_PAGES,
    Visit,
    base_url,
    browser,
    load,
    open_page,
    screenshot,
    site,
)


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


def move(page, player, slider) -> dict:
    """Move ``slider`` one step (by keyboard); wait until its frame shows."""
    image = player.locator("img.posenc-frame")
    before = image.evaluate("img => img.src")  # absolute, as img.src
    value, top = int(slider.input_value()), int(slider.get_attribute("max"))
    slider.focus()
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
    }


@pytest.mark.parametrize("path", PLAYER_PAGES)
def test_moving_a_slider_shows_its_precomputed_frame(browser, base_url, path):
    visit = Visit()
    page = open_page(browser, base_url, visit)
    load(page, base_url + path)
    for k in range(page.locator(".posenc-player").count()):
        player = page.locator(".posenc-player").nth(k)
        player.scroll_into_view_if_needed()
        if k == 0:
            screenshot(player, path, "__player_before")
        sliders = player.locator("input[type=range]")
        assert sliders.count() >= 1 and sliders.first.is_visible()
        name = player.get_attribute("data-explorer")
        for j in range(sliders.count()):
            step = move(page, player, sliders.nth(j))
            assert step["to"] == step["from"] + (1 if step["to"] > step["from"] else -1)
            expected = f"_static/explorers/{name}/{frame_indices(player)}.png"
            assert urlsplit(step["src"]).path == "/" + expected
            assert step["output"] == step["label"]
        for group in player.locator('[data-kind="choice"]').all():
            image = player.locator("img.posenc-frame")
            before = image.evaluate("img => img.src")  # absolute, as img.src
            group.locator('button[aria-pressed="false"]').first.click()
            wait_for_new_frame(image, before)
            expected = f"_static/explorers/{name}/{frame_indices(player)}.png"
            assert urlsplit(image.evaluate("img => img.src")).path == "/" + expected
        if k == 0:
            screenshot(player, path, "__player_after")
    page.wait_for_load_state("networkidle")
    assert visit.outside == [] and visit.errors == []
    page.context.close()


@pytest.mark.parametrize("path", PLAYER_PAGES)
def test_captions_name_the_values_shown(browser, base_url, path):
    """A player's caption says which values its figure shows, and follows a
    slider: it never names values the figure no longer shows."""
    visit = Visit()
    page = open_page(browser, base_url, visit)
    load(page, base_url + path)
    for player in page.locator("figure .posenc-player").all():
        player.scroll_into_view_if_needed()
        caption = player.locator("xpath=ancestor::figure[1]//figcaption")
        shown = caption.locator(".posenc-caption-values")
        before = shown.inner_text().strip()
        assert before.startswith("Shown:")
        slider = player.locator("input[type=range]").first
        step = move(page, player, slider)
        after = shown.inner_text().strip()
        assert after != before and f"= {step['label']}" in after
    assert visit.errors == []
    page.context.close()


#: JavaScript: each shown image's displayed aspect ratio over its natural one.
ASPECTS = """() => [...document.querySelectorAll("article img")]
  .filter(img => img.naturalWidth > 0 && img.offsetWidth > 0)
  .map(img => ({
    image: (img.currentSrc || img.src).slice(-50),
    ratio: (img.offsetWidth / img.offsetHeight)
      / (img.naturalWidth / img.naturalHeight),
  }))"""


@pytest.mark.parametrize("path", PAGES)
def test_figures_keep_their_aspect_ratio(browser, base_url, path):
    """No figure or player frame is squeezed: shown at its natural aspect
    ratio within 2 %, on a desktop (1280 px) and on a phone (390 px)."""
    visit = Visit()
    page = open_page(browser, base_url, visit)
    load(page, base_url + path)
    page.evaluate(
        """() => Promise.all([...document.images].map(img => img.complete ? 0 :
          new Promise(done => { img.onload = img.onerror = done; })))"""
    )
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        squeezed = [a for a in page.evaluate(ASPECTS) if abs(a["ratio"] - 1) > 0.02]
        assert squeezed == [], f"at {width} px"
    page.context.close()


@pytest.mark.parametrize("path", PAGES)
def test_figures_show_without_javascript(browser, base_url, path):
    visit = Visit()
    page = open_page(browser, base_url, visit, java_script_enabled=False)
    load(page, base_url + path)
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


@pytest.mark.parametrize("path", PLAYER_PAGES)
def test_players_read_well_in_dark_mode(browser, base_url, path):
    visit = Visit()
    page = open_page(browser, base_url, visit, color_scheme="dark")
    load(page, base_url + path)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
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
    assert visit.errors == []
    page.context.close()
