"""The whole book as notebooks a student can run: ``notebooks.zip``.

Each chapter page offers its chapter as an executed notebook,
``_sources/<page>.ipynb`` (``_ext/notebook_downloads.py``). When an HTML
build has finished, this extension packs those same files, in the order of
the table of contents, into ``notebooks.zip`` at the root of the site, with
what running them needs::

    why-sines-notebooks/
      README.md              how to run them, what is inside, the website
      requirements.txt       the packages, pinned as in the book's lock
      pyproject.toml         makes posenc installable (pip install -e .)
      posenc/                the companion module the book was built with
      posenc-<version>-py3-none-any.whl
                             the same module as a wheel, for a hosted service
      01_the_encoding.ipynb  ... one notebook per chapter, numbered as in
      A_appendix_sqrt_d.ipynb    the book (the appendix is A; the
                                 introduction, if a notebook, is 00)

A student unzips it and runs, in ``why-sines-notebooks/``::

    python3 -m venv .venv
    .venv/bin/pip install -r requirements.txt
    .venv/bin/jupyter lab

On a hosted Jupyter service (a university's JupyterHub, Colab), which has
numpy, scipy, matplotlib, sympy and ipywidgets already, at their newest
releases, a student uploads the zip, unzips it and installs only posenc,
from the wheel: ``%pip install why-sines-notebooks/posenc-<version>-py3-
none-any.whl``. A wheel needs no build backend and no download: its
dependencies are posenc's, unpinned (``pyproject.toml``), so pip finds them
installed and changes nothing (:func:`posenc_wheel`; the README says how).

``requirements.txt`` lists what running the notebooks needs and nothing of
the build or the tests: the dependencies of posenc and its ``notebooks``
extra (``pyproject.toml``), with everything they pull in, each at the
version of the book's lock (``requirements.txt`` of the repository, which
the build's environment was installed from). Its last line installs posenc
from the folder, editable: a notebook opened from the folder and one
downloaded alone from a chapter page both import the folder's posenc.

The notebooks are read from the site being built, never recomputed: an
edition that publishes other notebooks in its ``_sources`` (the student
edition, without solutions) gets a zip of its own notebooks with nothing
to configure. Another extension adds files (an edition's homework) from
the event ``notebook-bundle-extra-files``; code that makes notebooks in
another way calls :func:`write_bundle` with them.

Every page links to the zip from the theme's download menu, and a page can
link to it in its text with the role ``{bundle}`link text```.
``tests/test_bundle.py`` installs the zip in a fresh virtual environment and
runs every notebook in it, once with the pinned requirements and once as on
a hosted service: the newest releases, then the wheel alone, from no index.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tomllib
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path

from docutils import nodes
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from parallel_execution import is_text_notebook
from plain_titles import plain
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

logger = logging.getLogger(__name__)

#: The zip's name, at the root of the site.
BUNDLE = "notebooks.zip"
#: The one folder the zip holds (unzipping spills nothing else).
FOLDER = "why-sines-notebooks"
#: Sphinx event: a listener ``(app) -> dict[str, bytes]`` adds files to the
#: bundle (path in its folder: contents), e.g. an edition's homework.
EXTRA_FILES_EVENT = "notebook-bundle-extra-files"
#: The extra of ``pyproject.toml`` that names what the notebooks need beyond
#: posenc's own dependencies.
EXTRA = "notebooks"
#: Environment markers that depend on where the bundle is installed; an
#: ``extra`` marker is decided here, when the dependencies are walked.
PLACE_MARKERS = ("sys_platform", "platform_", "os_name", "implementation_")


@dataclass(frozen=True)
class Chapter:
    """One notebook of the bundle: its file name in the zip, the chapter's
    title (plain text) and its ``.ipynb`` file."""

    name: str
    title: str
    notebook: Path


# ------------------------------------------------------------ requirements


def lock_pins(lock: Path) -> dict[str, tuple[str, str]]:
    """``name==version`` lines of a pip lock file, by canonical name:
    (name as written, version)."""
    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line and not line.startswith("-"):
            name, version = (part.strip() for part in line.split("==", 1))
            pins[canonicalize_name(name)] = (name, version)
    return pins


def notebook_roots(pyproject: Path) -> list[str]:
    """What running the notebooks needs: posenc's dependencies and those of
    its ``notebooks`` extra, as written in ``pyproject.toml``."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    extra = project.get("optional-dependencies", {}).get(EXTRA)
    if extra is None:
        raise ExtensionError(
            f"{pyproject.name}: no optional dependency group {EXTRA!r}, which "
            "names what the notebooks need beyond posenc"
        )
    return [*project["dependencies"], *extra]


def _place_marker(requirement: Requirement) -> str | None:
    """The part of ``requirement``'s marker that the student's machine
    decides: its platform clauses (None if it has none). An ``extra`` clause
    is decided while the dependencies are walked."""
    if requirement.marker is None:
        return None
    text = str(requirement.marker)
    if not any(key in text for key in PLACE_MARKERS):
        return None
    if "extra" in text:
        raise ExtensionError(
            f"cannot pin {requirement}: its marker mixes an extra with the platform"
        )
    return text


#: A condition: alternatives, each a set of markers that must all hold.
#: ALWAYS has one alternative with nothing to hold.
ALWAYS = frozenset({frozenset()})


def _and(condition: frozenset, marker: str | None) -> frozenset:
    if marker is None:
        return condition
    return frozenset(each | {marker} for each in condition)


def _or(one: frozenset, other: frozenset) -> frozenset:
    either = one | other
    return ALWAYS if frozenset() in either else either


def _marker(condition: frozenset) -> str | None:
    """``condition`` as one environment marker; None if it always holds."""
    if frozenset() in condition:
        return None
    alternatives = sorted(
        " and ".join(f"({m})" if " or " in m else m for m in sorted(each))
        for each in condition
    )
    if len(alternatives) == 1:
        return alternatives[0]
    return " or ".join(f"({a})" for a in alternatives)


def requirement_closure(roots: Iterable[str]) -> dict[str, str | None]:
    """Every distribution that ``roots`` need, with the marker under which
    it is needed (None: everywhere), read from the metadata of the
    environment that runs the build (installed from the lock).

    A requirement whose marker is false here is not followed (another
    Python, another platform, an extra nobody asked for): the lock, made
    here, pins none of its packages. One that holds here only by a platform
    clause (``pexpect; sys_platform != "win32"``) keeps the clause, so a
    student on another platform does not install it.
    """
    condition: dict[str, frozenset] = {}
    extras: dict[str, frozenset] = {}
    todo = [(Requirement(root), ALWAYS) for root in roots]
    while todo:
        requirement, inherited = todo.pop()
        name = canonicalize_name(requirement.name)
        was = (condition.get(name), extras.get(name))
        condition[name] = _or(condition.get(name, frozenset()), inherited)
        extras[name] = extras.get(name, frozenset()) | set(requirement.extras)
        if (condition[name], extras[name]) == was:
            continue
        asked = [{"extra": extra} for extra in ("", *sorted(extras[name]))]
        for line in metadata.distribution(name).requires or []:
            child = Requirement(line)
            if child.marker is not None and not any(
                child.marker.evaluate(env) for env in asked
            ):
                continue
            todo.append((child, _and(condition[name], _place_marker(child))))
    return {name: _marker(each) for name, each in condition.items()}


def student_requirements(lock: Path, pyproject: Path) -> str:
    """``requirements.txt`` of the bundle: what the notebooks need, each at
    the version of ``lock``, then posenc from the folder (editable).

    Raises ExtensionError if a package the notebooks need is not in the lock,
    or if the build's environment has another version than the lock (then
    the closure read from it may be wrong): ``make book`` reinstalls.
    """
    pins = lock_pins(lock)
    closure = requirement_closure(notebook_roots(pyproject))
    lines = []
    for name in sorted(closure):
        if name not in pins:
            raise ExtensionError(f"{name} (needed by the notebooks) is not in {lock}")
        written, version = pins[name]
        installed = metadata.version(name)
        if installed != version:
            raise ExtensionError(
                f"{name} {installed} is installed, {lock.name} pins {version}: "
                "reinstall the environment (make book)"
            )
        marker = closure[name]
        lines.append(f"{written}=={version}" + (f" ; {marker}" if marker else ""))
    return "\n".join(
        [
            "# What running the notebooks needs, at the versions the book was",
            "# built and tested with (Python 3.11). Generated from the book's",
            "# lock file when the website was built. In this folder:",
            "#     python3 -m venv .venv",
            "#     .venv/bin/pip install -r requirements.txt",
            *lines,
            "",
            "# posenc, the book's companion module, from this folder (editable:",
            "# a notebook opened anywhere imports the posenc/ next to this file).",
            "-e .",
            "",
        ]
    )


# ------------------------------------------------------------ pyproject


def _toml_value(value) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise ExtensionError(f"pyproject.toml: cannot write {value!r}")


def bundle_pyproject(pyproject: Path) -> str:
    """The packaging tables of ``pyproject`` (build system, project,
    setuptools), without the project's tool settings (ruff, pytest)."""
    source = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    wanted = {
        "build-system": source["build-system"],
        "project": source["project"],
        "tool": {"setuptools": source.get("tool", {}).get("setuptools", {})},
    }
    out = [
        "# posenc, the companion module of the book: pip install -e .",
        "# (requirements.txt does it). Written from the book's pyproject.toml.",
    ]

    def table(name: str, body: dict) -> None:
        scalars = {k: v for k, v in body.items() if not isinstance(v, dict)}
        tables = {k: v for k, v in body.items() if isinstance(v, dict)}
        if scalars:
            out.extend(["", f"[{name}]"])
            out.extend(f"{k} = {_toml_value(v)}" for k, v in scalars.items())
        for key, sub in tables.items():
            table(f"{name}.{key}", sub)

    for name, body in wanted.items():
        table(name, body)
    text = "\n".join(out) + "\n"
    if tomllib.loads(text) != wanted:
        raise ExtensionError("the bundle's pyproject.toml does not read back")
    return text


# ------------------------------------------------------------ the wheel

#: A wheel's files carry this date (the earliest a zip can hold), so the
#: same module gives the same bytes in every build and both editions.
WHEEL_DATE = (1980, 1, 1, 0, 0, 0)


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "sha256=" + digest.rstrip(b"=").decode()


def wheel_metadata(project: dict) -> str:
    """The ``METADATA`` of posenc's wheel (core metadata 2.1): its
    dependencies as ``pyproject.toml`` writes them (unpinned, so pip keeps
    the releases a service has), its extras with their markers."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Requires-Dist: {Requirement(r)}" for r in project["dependencies"]]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        for line in requirements:
            requirement = Requirement(line)
            marker = f'extra == "{extra}"'
            if requirement.marker is not None:
                marker = f"({requirement.marker}) and {marker}"
            requirement.marker = None
            lines.append(f"Requires-Dist: {requirement}; {marker}")
    return "\n".join(lines) + "\n"


def posenc_wheel(root: Path) -> tuple[str, bytes]:
    """posenc as a pure-Python wheel: (file name, bytes), written here
    rather than by a build backend (nothing to download at build time, and
    the same bytes for the same sources). ``pip install`` of it needs no
    backend and, where posenc's dependencies are installed, no index."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    project = project["project"]
    name = canonicalize_name(project["name"]).replace("-", "_")
    dist = f"{name}-{project['version']}"
    info = f"{dist}.dist-info"
    files = {
        p.relative_to(root).as_posix(): p.read_bytes() for p in _posenc_files(root)
    }
    files[f"{info}/METADATA"] = wheel_metadata(project).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: posenc notebook_bundle\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [
        f"{path},{_record_hash(data)},{len(data)}" for path, data in files.items()
    ]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, date_time=WHEEL_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data)
    return f"{dist}-py3-none-any.whl", buffer.getvalue()


# ------------------------------------------------------------ README


def readme(
    chapters: list[Chapter],
    site_url: str,
    version: str,
    packages: int,
    extra: Iterable[str] = (),
    wheel: str = "",
) -> str:
    """The bundle's ``README.md``: how to run (on the student's computer and
    on a hosted service, from ``wheel``), what is inside, the website."""
    website = (
        f"It comes from the book's website, <{site_url}>"
        if site_url
        else "It comes from the book's website"
    )
    table = "\n".join(f"| `{c.name}` | {c.title} |" for c in chapters)
    more = "".join(f"\n- `{name}`" for name in sorted(extra))
    return f"""\
# Why Sines? The sinusoidal position encoding, as notebooks

Every chapter of the book *Why Sines? The Sinusoidal Position Encoding,
Derived and Checked* as a Jupyter notebook you can run, with the outputs
the book shows, and `posenc` (version {version}), the small module every
chapter imports. {website}, where every page offers this zip
(`{BUNDLE}`) in its download menu (the arrow at the top of the page), and
each chapter's page its chapter alone, as an `.ipynb`.

## Run the notebooks

You need Python 3.11 (the versions in `requirements.txt` are those the book
was built and tested with, on Python 3.11) and access to the Python package
index, PyPI, for the install ({packages} packages).
In a terminal, in this folder:

```bash
python3 -m venv .venv
.venv/bin/pip install -r requirements.txt
.venv/bin/jupyter lab
```

On Windows: `py -3.11 -m venv .venv`, then `.venv\\Scripts\\pip install -r
requirements.txt` and `.venv\\Scripts\\jupyter lab`. Run `pip` in this
folder: the last line of `requirements.txt`, `-e .`, installs `posenc` from
here.

JupyterLab opens in your browser. Open a chapter and choose *Run > Restart
Kernel and Run All Cells*: every cell runs again, top to bottom. The
figures with sliders become live once their cell has run. Every check in a
chapter is an `assert`: if you change a number and a claim no longer holds,
its cell says so. The text cells are the book's source, MyST Markdown:
JupyterLab typesets their maths, but shows directives (an exercise, a
theorem, a cross-reference) as the source text that the website typesets.

A chapter downloaded alone from the website runs in the same environment:
open it in this JupyterLab, or run this folder's `.venv/bin/jupyter lab`
in the folder where you saved it. It imports the `posenc` of this folder,
which `pip` installed.

## On a hosted Jupyter service: nothing to install on your computer

A university's JupyterHub, Google Colab and similar services already have
what the chapters use: numpy, scipy, matplotlib, sympy and ipywidgets.
There you install only `posenc`, from the file `{wheel}` of this folder.
Its dependencies are not pinned, so `pip` finds them installed, keeps the
versions the service has and downloads nothing. `posenc` needs Python 3.11
or newer.

**JupyterHub or any JupyterLab.** Upload `{BUNDLE}` with the upload button
(the arrow) above the file browser. Open a new notebook in the same folder
and run, in one cell:

```
!unzip -q -o {BUNDLE}
%pip install why-sines-notebooks/{wheel}
```

Then open a chapter in `why-sines-notebooks/` and choose *Run > Restart
Kernel and Run All Cells*. If `import posenc` fails with
`ModuleNotFoundError`, restart the kernel once: where the service's Python
is read-only, `pip` installs for your user alone, in a folder that Python
adds to its path only when it starts.

**Google Colab.** Colab opens notebooks from your computer, one at a time.
Unzip `{BUNDLE}` on your computer. In Colab, choose *File > Upload
notebook* and pick a chapter. Upload `{wheel}` with the file pane (the
folder icon on the left, then the upload button). Add a first cell and run
it:

```
%pip install {wheel}
```

Then choose *Runtime > Run all*. Colab forgets the files when it
disconnects: upload the file and run that cell again next time. Keep
Colab's own ipywidgets (do not upgrade it) and do not turn on its custom
widget manager: the sliders use only core widgets, which Colab shows.

The chapters were run with the newest releases of these libraries when
this zip was made; the services themselves were not tried.

## What is inside

| file | chapter |
|---|---|
{table}

- `posenc/`: the companion module. `core.py` holds the maths, each function
  naming the chapter that derives it; `plots.py` the figures; `widgets.py`
  the sliders.
- `requirements.txt`: the packages the notebooks need, each pinned.
- `pyproject.toml`: makes `posenc` installable (`pip install -e .`).
- `{wheel}`: the same `posenc`, ready to install on a hosted service
  (`pip install {wheel}`).{more}
"""


# ------------------------------------------------------------ the zip


def _posenc_files(root: Path) -> list[Path]:
    """The module's files, as setuptools would package them: its sources and
    its package data (``[tool.setuptools.package-data]``: the trained models
    ``posenc/models/*``, which ``posenc.trained`` reads)."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = project.get("tool", {}).get("setuptools", {})
    data = setuptools.get("package-data", {})
    files = []
    for package in setuptools.get("packages", []):
        folder = root / package.replace(".", "/")
        files.extend(sorted(folder.glob("*.py")))
        for pattern in data.get(package, []):
            files.extend(sorted(folder.glob(pattern)))
    return files


def bundle_members(
    chapters: list[Chapter],
    root: Path,
    site_url: str = "",
    extra: dict[str, bytes] | None = None,
) -> dict[str, bytes]:
    """Every file of the bundle, by its path in the zip; ``extra`` adds
    files by their path in the bundle's folder (the README lists them)."""
    extra = extra or {}
    pyproject = root / "pyproject.toml"
    version = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    requirements = student_requirements(root / "requirements.txt", pyproject)
    packages = sum("==" in line for line in requirements.splitlines())
    wheel, wheel_bytes = posenc_wheel(root)
    text = readme(chapters, site_url, version, packages, extra, wheel)
    members = {
        "README.md": text.encode(),
        "requirements.txt": requirements.encode(),
        "pyproject.toml": bundle_pyproject(pyproject).encode(),
        wheel: wheel_bytes,
    }
    for path in _posenc_files(root):
        members[path.relative_to(root).as_posix()] = path.read_bytes()
    for chapter in chapters:
        members[chapter.name] = chapter.notebook.read_bytes()
    for name, data in extra.items():
        if name in members:
            raise ExtensionError(f"{BUNDLE}: {name} is in the bundle already")
        members[name] = data
    return {f"{FOLDER}/{name}": data for name, data in members.items()}


def write_bundle(
    target: Path,
    chapters: list[Chapter],
    root: Path,
    site_url: str = "",
    extra: dict[str, bytes] | None = None,
) -> bool:
    """Write the bundle of ``chapters`` (notebooks in book order) to
    ``target``, with posenc, requirements.txt and pyproject.toml from the
    repository ``root``, and the ``extra`` files (path in the bundle's
    folder: bytes). Returns False if ``target`` already held exactly these
    files (it is left as it is)."""
    members = bundle_members(chapters, root, site_url, extra)
    digest = hashlib.sha256()
    for name, data in members.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    stamp = f"posenc-bundle sha256 {digest.hexdigest()}".encode()
    if target.is_file():
        try:
            with zipfile.ZipFile(target) as old:
                if old.comment == stamp:
                    return False
        except zipfile.BadZipFile:
            pass
    now = datetime.now().timetuple()[:6]
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as out:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=now)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)
        out.comment = stamp
    partial.replace(target)
    return True


def book_chapters(app: Sphinx) -> list[Chapter]:
    """The chapters this build published as notebooks, in book order: the
    root page, the numbered chapters and the appendices (pages without a
    number, such as the instructor section, are not chapters)."""
    env = app.env
    order: list[str] = []

    def walk(docname: str) -> None:
        for child in env.toctree_includes.get(docname, []):
            if child not in order:
                order.append(child)
                walk(child)

    root = app.config.root_doc
    walk(root)
    appendix = getattr(app.config, "appendix_prefixes", {}) or {}
    chapters = []
    for docname in [root, *order]:
        if not is_text_notebook(Path(env.doc2path(docname))):
            continue
        number = env.toc_secnumbers.get(docname, {}).get("")
        if docname == root:
            prefix = "00"
        elif number:
            prefix = f"{number[0]:02d}"
        elif docname in appendix:
            prefix = appendix[docname]
        else:
            continue  # not a chapter: back matter, the instructor section
        published = Path(app.outdir) / "_sources" / f"{docname}.ipynb"
        if not published.is_file():
            logger.warning(f"{BUNDLE} leaves out {docname}: no executed notebook")
            continue
        title = plain(env.titles[docname].astext())
        name = f"{prefix}_{Path(docname).name}.ipynb"
        chapters.append(Chapter(name, title, published))
    return chapters


def build_bundle(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    chapters = book_chapters(app)
    if not chapters:
        return
    # Other extensions add files (path in the bundle's folder: bytes) by
    # connecting to this event; e.g. homework notebooks in a folder of
    # their own (the bundle test runs the notebooks at the top only).
    extra: dict[str, bytes] = {}
    for files in app.emit(EXTRA_FILES_EVENT):
        extra.update(files or {})
    target = Path(app.outdir) / BUNDLE
    site = app.config.html_baseurl
    if write_bundle(target, chapters, Path(app.srcdir), site, extra):
        logger.info(f"{BUNDLE}: {len(chapters)} notebooks, posenc, requirements")


# ------------------------------------------------------------ links


def add_bundle_button(app: Sphinx, pagename, templatename, context, doctree) -> None:
    """The zip in the theme's download menu of every page."""
    if app.builder.name != "html":
        return
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].insert(
                0,
                {
                    "type": "link",
                    "url": context["pathto"](BUNDLE, 1),
                    "text": BUNDLE,
                    "tooltip": "Every chapter as a notebook, to run",
                    "icon": "fas fa-file-zipper",
                    "label": "download-bundle-button",
                },
            )


class bundle_link(nodes.Inline, nodes.TextElement):
    """A link to the zip, resolved for the page once its builder is known."""


def bundle_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [bundle_link(rawtext, text)], []


class ResolveBundleLinks(SphinxPostTransform):
    """A relative link to the zip in an HTML build; plain text elsewhere
    (the one-page build for the PDF has no zip beside it)."""

    default_priority = 5

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(bundle_link)):
            if self.app.builder.name == "html":
                here = self.app.builder.get_target_uri(self.env.docname)
                link = nodes.reference(
                    node.rawsource,
                    node.astext(),
                    refuri=relative_uri(here, BUNDLE),
                    classes=["bundle-link"],
                )
                node.replace_self(link)
            else:
                node.replace_self(nodes.literal(node.rawsource, BUNDLE))


def setup(app: Sphinx) -> dict:
    app.add_event(EXTRA_FILES_EVENT)
    # The in-class activities (_ext/activities.py) add their notebooks to
    # the zip through that event, so they come with it.
    app.setup_extension("activities")
    app.add_node(bundle_link)
    app.add_role("bundle", bundle_role)
    app.add_post_transform(ResolveBundleLinks)
    # After the theme has built its header buttons (priority 501).
    app.connect("html-page-context", add_bundle_button, priority=510)
    app.connect("build-finished", build_bundle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
