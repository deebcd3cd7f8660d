"""Players and figures on slides, drawn for a slide.

A page's player (``posenc.static.player_html``) names its explorer in
``data-explorer`` and holds its first frame inline. On a slide, a player
whose explorer has a form drawn for a slide (``posenc.widgets_slides``:
the same sliders and data, a figure laid out for 1.8 times its design
width with its sliders under it) plays that form's frames instead, which
the build renders with every explorer's (``posenc.widgets.EXPLORERS``).

Likewise a static figure (a ``<figure>`` whose id is a name of
``posenc.figures_slides.SLIDE_FIGURES``) shows, on a slide, that figure
drawn for a slide: the same data, laid out for 1.8 times its design width.
Each is drawn once, when a deck that shows it is written, into the site's
``_static/slide-figures/<name>.png`` (at the pages' pixel density, its
resolution recorded in the PNG), and drawn again only when that file is
older than the newest module of ``posenc`` (four figures, about 2 s of a cold
build; the chapter pages do not load them).
Used by ``_ext/slides.py`` when it writes a deck.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.errors import ExtensionError

#: The folder of the site's figures drawn for a slide.
SLIDE_FIGURES_DIR = Path("_static") / "slide-figures"
#: The package whose code draws them (``figures_slides`` and the page's
#: figure functions it calls): a figure older than its newest module is
#: drawn again.
POSENC = Path(__file__).resolve().parents[1] / "posenc"


def posenc_changed() -> float:
    """When the newest module of ``posenc`` was written (its mtime)."""
    return max(path.stat().st_mtime for path in POSENC.glob("*.py"))


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
    frames.update(draw_slide_figures(element, site))
    return frames


def slide_figure(site: Path, name: str) -> Path:
    """The file of figure ``name`` drawn for a slide
    (``posenc.figures_slides.SLIDE_FIGURES``), drawn now unless it is
    newer than every module of ``posenc``."""
    target = site / SLIDE_FIGURES_DIR / f"{name}.png"
    if target.exists() and target.stat().st_mtime > posenc_changed():
        return target
    import matplotlib

    matplotlib.use("Agg")
    from posenc.figures_slides import SLIDE_FIGURES

    target.parent.mkdir(parents=True, exist_ok=True)
    figure = SLIDE_FIGURES[name]()
    # as the pages' figures are saved (posenc.figure_style.BookFigure)
    figure.savefig(target, format="png", dpi=figure.dpi, bbox_inches="tight")
    return target


def draw_slide_figures(element, site: Path) -> dict[int, Path]:
    """Each figure in ``element`` drawn for a slide shows that drawing (see
    the module's docstring); returns each swapped picture's file, by the
    picture's ``id``."""
    from posenc.figures_slides import SLIDE_FIGURES

    figures = element.find_all("figure", id=True)
    if element.name == "figure" and element.get("id"):
        figures.insert(0, element)
    swapped = {}
    for figure in figures:
        if figure["id"] not in SLIDE_FIGURES:
            continue
        path = slide_figure(site, figure["id"])
        image = figure.find("img")
        image["src"] = f"../{SLIDE_FIGURES_DIR.as_posix()}/{path.name}"
        image["class"] = [*image.get("class", []), "posenc-slide-figure"]
        swapped[id(image)] = path
    return swapped
