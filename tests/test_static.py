"""The static player of the website (posenc.static), in pure Python: no browser.

What the page must hold for the player to work and to degrade well: the
current frame inline, one labelled slider per choice with the formatted
values, controls and their note hidden until the script reveals them, and
frames named by option indices. The browser side is tests/test_site.py.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html.parser import HTMLParser

import pytest

from posenc import explorer as explorer_module
from posenc import plots, static, widgets


class Element:
    """A parsed start tag, with the text inside it."""

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tag = tag
        self.attrs = dict(attrs)
        self.text = ""

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())


class Collector(HTMLParser):
    """Every element of an HTML fragment, in document order."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.feed(source)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs)
        self.elements.append(element)
        if tag not in ("img", "input"):
            self.open.append(element)

    def handle_endtag(self, tag):
        while self.open and self.open.pop().tag != tag:
            pass

    def handle_data(self, data):
        for element in self.open:
            element.text += data

    def find(self, tag: str, cls: str | None = None) -> list[Element]:
        return [
            e
            for e in self.elements
            if e.tag == tag and (cls is None or cls in e.classes)
        ]


def parse(explorer: widgets.Explorer) -> Collector:
    return Collector(explorer.player_html())


@pytest.fixture(scope="module")
def explorer():
    return widgets.EncodingExplorer()


@pytest.fixture(scope="module")
def page(explorer):
    return parse(explorer)


def inline_png(image: Element) -> bytes:
    prefix = "data:image/png;base64,"
    assert image.attrs["src"].startswith(prefix)
    return base64.b64decode(image.attrs["src"][len(prefix) :])


def digest(png: bytes) -> str:
    """A short fingerprint of an image, to compare PNGs by. (Comparing the
    bytes themselves makes pytest explain a mismatch with a text diff of the
    two files, which can take minutes.)"""
    return hashlib.sha256(png).hexdigest()


# ------------------------------------------------------------- frame names


@pytest.mark.parametrize(
    "indices, name",
    [((2, 0, 1), "2_0_1.png"), ((0,), "0.png"), ((11, 3), "11_3.png")],
)
def test_frames_are_named_by_option_indices(indices, name):
    assert static.frame_name(indices) == name


@pytest.mark.parametrize("indices", [(), (1, -1)])
def test_frame_names_need_non_negative_indices(indices):
    with pytest.raises(ValueError, match="indices"):
        static.frame_name(indices)


def test_every_combination_of_options_has_one_frame():
    combos = list(static.all_indices(widgets.EncodingExplorer))
    sizes = [len(c.options) for c in widgets.EncodingExplorer.choices]
    assert len(combos) == sizes[0] * sizes[1] * sizes[2] == 96
    assert len({static.frame_name(c) for c in combos}) == len(combos)
    assert all(
        0 <= i < n for combo in combos for i, n in zip(combo, sizes, strict=True)
    )


# ------------------------------------------------------------- the player


def test_default_frame_is_inline_and_is_the_explorers_figure(explorer, page):
    (image,) = page.find("img")
    assert digest(inline_png(image)) == digest(explorer.png())
    assert image.attrs["alt"] == explorer.description
    # the figure's design size (plots.FIGURE_WIDTH), at one pixel a CSS px
    assert (image.attrs["width"], image.attrs["height"]) == ("480", "390")


def test_player_names_its_explorer_class(page):
    (player,) = page.find("div", "posenc-player")
    assert player.attrs["data-explorer"] == "EncodingExplorer"


def controls(page: Collector) -> list[Element]:
    """The controls: range inputs and button groups, in order."""
    return [e for e in page.elements if e.attrs.get("data-kind")]


def test_one_labelled_control_per_choice(explorer, page):
    found = controls(page)
    assert len(found) == len(explorer.choices)
    labels = page.find("span", "posenc-label")
    for choice, control, label in zip(explorer.choices, found, labels, strict=True):
        index = choice.options.index(choice.default)
        assert label.text == choice.label
        assert control.attrs["data-name"] == choice.name
        names = [choice.format(option) for option in choice.options]
        assert json.loads(control.attrs["data-labels"]) == names
        if control.tag == "input":
            assert control.attrs["type"] == "range"
            assert (control.attrs["min"], control.attrs["step"]) == ("0", "1")
            assert control.attrs["max"] == str(len(choice.options) - 1)
            assert control.attrs["value"] == str(index)
            assert control.attrs["aria-valuetext"] == names[index]
        else:
            assert control.attrs["data-index"] == str(index)


def test_numbers_are_ranges_and_named_options_are_buttons(page):
    kinds = [control.attrs["data-kind"] for control in controls(page)]
    assert kinds == ["range", "range", "choice"]
    buttons = page.find("button")
    assert [b.text for b in buttons] == ["interleaved", "halves"]
    assert [b.attrs["aria-pressed"] for b in buttons] == ["true", "false"]


def test_sliders_show_formatted_values(page):
    values = [output.text for output in page.find("output", "posenc-value")]
    assert values == ["64", "10⁴", "interleaved"]


def test_ranges_say_how_their_steps_are_spaced():
    page = parse(widgets.ClockExplorer())
    scales = [span.text for span in page.find("span", "posenc-scale")]
    assert scales == [
        "0 … 500, uneven steps",
        "4 … 32, ×2 per step",
        "10¹ … 10⁴, ×10 per step",
    ]


def test_only_animated_sliders_get_a_play_button(page):
    assert not page.find("button", "posenc-play")
    (play,) = parse(widgets.ClockExplorer()).find("button", "posenc-play")
    assert play.attrs["aria-label"] == "play position m"


@pytest.mark.parametrize(
    "changes, message",
    [({"kind": "slider"}, "kind"), ({"index": 3}, "index"), ({"index": -1}, "index")],
)
def test_a_slider_description_is_checked(changes, message):
    fields = {"name": "d", "label": "d", "labels": ("4", "8", "16"), "index": 0}
    with pytest.raises(ValueError, match=message):
        static.Slider(**(fields | changes))


def test_controls_and_their_note_are_hidden_until_the_script_runs(page):
    (controls,) = page.find("div", "posenc-controls")
    (live,) = page.find("p", "posenc-note-live")
    (fallback,) = page.find("p", "posenc-note-static")
    assert "hidden" in controls.attrs and "hidden" in live.attrs
    assert "hidden" not in fallback.attrs
    assert live.text == static.NOTE_LIVE
    assert "computed when the book was built" in live.text
    assert "d = 64, base = 10⁴, layout = interleaved" in fallback.text


def test_player_starts_at_the_explorers_current_values():
    explorer = widgets.EncodingExplorer()
    explorer.update(d=16, layout="halves")
    page = parse(explorer)
    values = [
        control.attrs.get("value", control.attrs.get("data-index"))
        for control in controls(page)
    ]
    assert values == ["2", "3", "1"]
    assert digest(inline_png(page.find("img")[0])) == digest(explorer.png())
    assert "d = 16" in page.find("p", "posenc-note-static")[0].text


class _Unlisted(widgets.Explorer):
    """An explorer whose frames the build does not render."""

    description = 'A "level" <line>'
    choices = (
        widgets.Choice("level", "level <&>", (0.2, 0.8), 0.2, format="{:.0%}".format),
    )

    def build(self):
        figure, ax = plots.new_figure(3, 2)
        (self.line,) = ax.plot([0, 1], [0.2, 0.2])
        self.dynamic(self.line)
        return figure

    def draw(self, level):
        self.line.set_ydata([level, level])


def test_explorer_without_frames_is_a_plain_figure():
    page = parse(_Unlisted())
    assert not page.find("input") and not page.find("div", "posenc-player")
    (image,) = page.find("img")
    assert image.attrs["alt"] == 'A "level" <line>'


def test_labels_and_values_are_escaped(monkeypatch):
    # listed as posenc.widgets lists its EXPLORERS (posenc.explorer.LISTED)
    monkeypatch.setattr(explorer_module, "LISTED", {*explorer_module.LISTED, _Unlisted})
    source = _Unlisted().player_html()
    assert "level &lt;&amp;&gt;" in source and "<&>" not in source
    page = Collector(source)
    assert page.find("span", "posenc-label")[0].text == "level <&>"
    assert json.loads(page.find("input")[0].attrs["data-labels"]) == ["20%", "80%"]


# ------------------------------------------------------------- rendering


def test_rendered_frames_match_the_explorer_at_those_values(tmp_path):
    indices = [(0, 0, 0), (4, 3, 0), (7, 5, 1)]
    count, size, seconds = static.render_frames(
        widgets.EncodingExplorer, indices, tmp_path
    )
    assert count == 3 and seconds > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "0_0_0.png",
        "4_3_0.png",
        "7_5_1.png",
    ]
    assert size == sum(p.stat().st_size for p in tmp_path.iterdir())
    reference = widgets.EncodingExplorer()
    reference.update(d=512, base=1e6, layout="halves")
    assert digest((tmp_path / "7_5_1.png").read_bytes()) == digest(reference.png())
    default = widgets.EncodingExplorer().png()
    assert digest((tmp_path / "4_3_0.png").read_bytes()) == digest(default)


def test_cache_key_follows_the_code(tmp_path):
    (tmp_path / "core.py").write_text("x = 1\n")
    before = static.code_hash(tmp_path)
    assert static.code_hash(tmp_path) == before
    (tmp_path / "notes.txt").write_text("not a source")
    assert static.code_hash(tmp_path) == before
    (tmp_path / "core.py").write_text("x = 2\n")
    assert static.code_hash(tmp_path) != before


def test_cache_key_ignores_docstrings_comments_and_layout(tmp_path):
    source = tmp_path / "core.py"
    source.write_text('def f(x):\n    """Square."""\n    return x * x\n')
    before = static.code_hash(tmp_path)
    source.write_text(
        '"""A module docstring."""\n\n\ndef f(x):\n'
        '    """The square of x: a longer docstring."""\n'
        "    # a comment\n    return x * x  # why\n"
    )
    assert static.code_hash(tmp_path) == before
    source.write_text('def f(x):\n    """Square."""\n    return x * x * 1\n')
    assert static.code_hash(tmp_path) != before
    source.write_text('def f(x):\n    return "x * x"\n')  # a string, not a docstring
    assert static.code_hash(tmp_path) != before


def test_cache_key_follows_the_libraries(tmp_path):
    (tmp_path / "core.py").write_text("x = 1\n")
    assert static.code_hash(tmp_path, ()) != static.code_hash(tmp_path)


@pytest.mark.parametrize("explorer_class", widgets.EXPLORERS, ids=lambda c: c.__name__)
def test_every_explorer_stays_within_the_frame_cap(explorer_class):
    frames = len(list(static.all_indices(explorer_class)))
    assert 1 <= frames <= static.MAX_FRAMES, (
        f"{explorer_class.__name__} has {frames} frames; at most "
        f"{static.MAX_FRAMES} (coarser slider options, or fewer sliders)"
    )


def test_the_player_is_a_leaf_module():
    """posenc.static imports nothing of posenc: it is handed what it renders."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(static.__file__).read_text())
    relative = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.level or "posenc" in (node.module or ""))
    ]
    assert not relative


def test_the_caps_are_those_contributing_promises():
    """CONTRIBUTING.md: at most 200 frames and 10 MB of frames per explorer."""
    assert static.MAX_FRAMES <= 200
    assert static.MAX_FRAME_BYTES <= 10_000_000
