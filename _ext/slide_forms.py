"""Players on slides play the frames of explorers drawn for a slide.

A page's player (``posenc.static.player_html``) names its explorer in
``data-explorer`` and holds its first frame inline. On a slide, a player
whose explorer has a form drawn for a slide (``posenc.widgets_slides``:
the same sliders and data, a figure laid out for 1.8 times its design
width with its sliders under it) plays that form's frames instead, which
the build renders with every explorer's (``posenc.widgets.EXPLORERS``).
Used by ``_ext/slides.py`` when it writes a deck.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.errors import ExtensionError


def slide_forms() -> dict[str, str]:
    """The explorers drawn for a slide: the page explorer's class name ->
    the name of its slide form (``posenc.widgets_slides.SLIDE_FORMS``)."""
    from posenc.widgets_slides import SLIDE_FORMS

    return {page: form.__name__ for page, form in SLIDE_FORMS.items()}


def _frame_indices(player) -> list[str]:
    """The option index of each of a player's controls, in order, as the
    player's script names a frame (a range's value, a group's index)."""
    indices = []
    for control in player.select("[data-kind]"):
        if control.get("data-kind") == "choice":
            indices.append(control["data-index"])
        else:
            indices.append(control["value"])
    return indices


def play_slide_forms(element, site: Path, where: str) -> dict[int, Path]:
    """Each player in ``element`` whose explorer has a form drawn for a
    slide (:func:`slide_forms`) plays that form's frames instead: its
    ``data-explorer`` is the slide form's, its picture that form's frame at
    the same slider values, from the site's ``_static/explorers`` (the
    deck's script then fetches the slide form's frames). Returns the
    file of each swapped picture's frame, by the picture's ``id``."""
    forms = slide_forms()
    players = element.find_all(class_="posenc-player")
    if "posenc-player" in element.get("class", []):
        players.insert(0, element)
    frames = {}
    for player in players:
        form = forms.get(player.get("data-explorer", ""))
        if form is None:
            continue
        name = "_".join(_frame_indices(player)) + ".png"
        frame = site / "_static" / "explorers" / form / name
        if not frame.exists():
            raise ExtensionError(
                f"{where}: the slide's player needs the frame {frame}, "
                "which the build did not render (posenc.widgets.EXPLORERS)"
            )
        player["data-explorer"] = form
        image = player.find("img", class_="posenc-frame")
        image["src"] = f"../_static/explorers/{form}/{name}"
        frames[id(image)] = frame
    return frames
