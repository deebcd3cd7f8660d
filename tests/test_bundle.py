"""The notebooks a student downloads (``notebooks.zip``) run on a fresh machine.

The zip is built with the site (``_ext/notebook_bundle.py``); the site is
``POSENC_SITE``, else ``_build/html`` (build it first: ``make book``; the
student edition's zip: ``POSENC_SITE=_build/student/html``). The quick
tests read the zip: every chapter, in book order, byte for byte the
notebook its page offers; posenc as in the repository; requirements pinned
as in the lock, with nothing of the build or the tests.

``test_every_notebook_runs_in_a_fresh_venv`` does what the zip's README
tells a student: unzip, ``python -m venv .venv``, install the zip's
``requirements.txt`` into it (with uv, the lock's installer: the same pins
as ``pip install -r requirements.txt``, in seconds where pip took 80), then
runs notebooks from a clean kernel of that environment
(``scripts/run_notebooks.py``): those of :data:`PINNED_SAMPLE`, or every
one with ``POSENC_BUNDLE_ALL=1``. A failing cell is reported by notebook,
cell and, for a book chapter, its line in ``book/<name>.md``. The build
has run every chapter with the same pins (from a clean kernel, failing on
any error), and the hosted runs below run every notebook of the zip again
(posenc from its wheel); what only this run sees is the zip's own folder
and requirements, which the sample exercises. These runs are marked
``fresh_venv`` and run in ``make bundle-test`` (CI runs it after ``make
test`` and ``make mutants``), not in ``make test``.
"""

from __future__ import annotations

import io
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
#: uv, from the venv that runs the tests (the lock pins it).
UV = Path(sys.executable).parent / "uv"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import chapter_notebooks  # noqa: E402  (scripts/chapter_notebooks.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)
from notebook_bundle import BUNDLE, FOLDER, lock_pins  # noqa: E402
from test_grader_bundle import grade_the_answer_key  # noqa: E402

SITE = sitetools.site_dir()

#: The notebooks run in the pinned fresh venv (the fresh-venv test below):
#: the first chapter, and the two that read the trained models shipped
#: inside posenc (posenc/models/*.npz, the package data a folder could
#: lose). ``POSENC_BUNDLE_ALL=1`` runs every notebook.
PINNED_SAMPLE = ("the_encoding", "assumptions", "trained_models")
ZIP = SITE / BUNDLE
#: The student edition beside it (make student: _build/student/html), whose
#: zip must hold its own notebooks, without solutions (_ext/editions.py).
STUDENT_ZIP = SITE.parent / "student" / "html" / BUNDLE
#: What only the build or the tests use: never in the student's install.
NOT_FOR_STUDENTS = {
    "jupyter-book",
    "sphinx",
    "myst-nb",
    "jupytext",
    "pytest",
    "nbval",
    "hypothesis",
    "ruff",
    "playwright",
    "django-static-mathjax",
}
#: What the notebooks import or run in.
NEEDED = {
    "numpy",
    "scipy",
    "sympy",
    "mpmath",
    "matplotlib",
    "pillow",
    "ipywidgets",
    "jupyterlab",
    "ipykernel",
}


@pytest.fixture(scope="module")
def bundle() -> zipfile.ZipFile:
    if not (SITE / "index.html").exists():
        pytest.fail(f"no built site at {SITE}: build the book first: make book")
    if not ZIP.is_file():
        pytest.fail(f"the site at {SITE} offers no {BUNDLE}")
    with zipfile.ZipFile(ZIP) as archive:
        yield archive


def members(bundle: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The zip's files, by their path inside the bundle's folder."""
    found = {}
    for info in bundle.infolist():
        folder, _, name = info.filename.partition("/")
        assert folder == FOLDER, f"{info.filename} is outside {FOLDER}/"
        found[name] = info
    return found


def book_order() -> list[tuple[str, str]]:
    """(file name in the zip, chapter) for the chapters of ``_toc.yml``:
    the root page 00 (if it is a notebook), numbered parts count on from part
    to part, the appendix is A."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    letters = config["sphinx"]["config"]["appendix_prefixes"]
    chapters = {f"book/{p.stem}" for p in chapter_notebooks.chapters()}
    order, number = [], 0
    if toc["root"] in chapters:
        stem = toc["root"].removeprefix("book/")
        order.append((f"00_{stem}.ipynb", stem))
    for part in toc["parts"]:
        for entry in part["chapters"]:
            if part.get("numbered"):
                number += 1
            if entry["file"] not in chapters:
                continue
            if not part.get("numbered") and entry["file"] not in letters:
                continue  # not a chapter (the instructor section)
            stem = entry["file"].removeprefix("book/")
            prefix = f"{number:02d}" if part.get("numbered") else letters[entry["file"]]
            order.append((f"{prefix}_{stem}.ipynb", stem))
    return order


def test_bundle_holds_every_chapter_in_book_order(bundle):
    # At the top of the folder; files other extensions add (homework) may
    # sit in folders of their own.
    notebooks = sorted(
        n for n in members(bundle) if n.endswith(".ipynb") and "/" not in n
    )
    expected = [name for name, _ in book_order()]
    assert notebooks == expected
    assert len(expected) == len(chapter_notebooks.chapters()) >= 12


def test_notebooks_are_the_downloads_of_their_pages(bundle):
    """The zip holds the very files the chapter pages offer (an edition's
    notebooks in its own zip), executed (test_site_html.py checks their
    figures)."""
    found = members(bundle)
    for name, stem in book_order():
        data = bundle.read(found[name])
        assert data == (SITE / "_sources" / "book" / f"{stem}.ipynb").read_bytes(), name
        code = [c for c in json.loads(data)["cells"] if c["cell_type"] == "code"]
        assert code and all(c["execution_count"] for c in code), name


def test_posenc_is_the_module_the_book_was_built_with(bundle):
    found = members(bundle)
    shipped = {n for n in found if n.startswith("posenc/")}
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "posenc").glob("*.py")}
    # and the trained models posenc.trained reads (the chapter "What trained
    # models do with the encoding" and the assumptions chapter load them)
    models = {
        p.relative_to(ROOT).as_posix()
        for pattern in ("*.npz", "*.json")
        for p in (ROOT / "posenc" / "models").glob(pattern)
    }
    assert models and "posenc/models/manifest.json" in models
    assert shipped == sources | models
    for name in shipped:
        assert bundle.read(found[name]) == (ROOT / name).read_bytes(), name


def code_cells(data: bytes) -> list[str]:
    """The sources of a notebook's code cells."""
    cells = json.loads(data)["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def student_notebooks_to_run(bundle: zipfile.ZipFile) -> dict[str, bytes]:
    """The student edition's notebooks that running the default edition's
    does not vouch for, by name. A student notebook whose code cells are
    the first ones of the default notebook (the solutions' code cells, cut
    out, all came after them) runs exactly as the default one began to; any
    other must be run itself."""
    if not STUDENT_ZIP.is_file():
        return {}
    found = members(bundle)
    with zipfile.ZipFile(STUDENT_ZIP) as student:
        to_run = {}
        for name, info in members(student).items():
            if not name.endswith(".ipynb"):
                continue
            ours, theirs = student.read(info), bundle.read(found[name])
            code = code_cells(ours)
            if code != code_cells(theirs)[: len(code)]:
                to_run[f"student_{name}"] = ours
    return to_run


@pytest.mark.skipif(not STUDENT_ZIP.is_file(), reason="no student edition built")
def test_student_zip_is_the_same_bundle_with_the_student_notebooks(bundle):
    """Every file of the default zip is in the student's, the same but for
    the notebooks (the student pages' downloads) and the README (which lists
    any files the edition adds), and the lecturer's grader, which the
    student's has not (``test_grader_bundle.py``)."""
    with zipfile.ZipFile(STUDENT_ZIP) as student:
        theirs, ours = members(student), members(bundle)
        ours = {k: v for k, v in ours.items() if not k.startswith("grader/")}
        assert set(ours) <= set(theirs)
        for name, info in ours.items():
            data = student.read(theirs[name])
            if name.startswith("activities/"):  # as the edition publishes it
                assert data == (STUDENT_ZIP.parent / name).read_bytes(), name
            elif name.endswith(".ipynb"):
                page = STUDENT_ZIP.parent / "_sources" / "book" / name.split("_", 1)[1]
                assert data == page.read_bytes(), name
            elif name != "README.md":
                assert data == bundle.read(info), name


def requirement_lines(bundle) -> list[str]:
    text = bundle.read(f"{FOLDER}/requirements.txt").decode()
    return [
        line.strip()
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    ]


def test_requirements_pin_what_the_notebooks_need_as_the_lock_does(bundle):
    lines = requirement_lines(bundle)
    assert lines[-1] == "-e .", "posenc is installed from the folder, last"
    pins = lock_pins(ROOT / "requirements.txt")
    names = set()
    for line in lines[:-1]:
        name, version = pin(line)
        names.add(name)
        assert pins[name][1] == version, f"{line}: the lock pins {pins[name][1]}"
    assert names >= NEEDED
    assert not names & NOT_FOR_STUDENTS


def test_a_package_for_some_platforms_only_keeps_its_marker(bundle):
    """ipython needs pexpect except on Windows: a student on Windows must not
    be asked for it (pip evaluates the marker on the student's machine)."""
    markers = {
        pin(line)[0]: Requirement(line).marker
        for line in requirement_lines(bundle)[:-1]
    }
    assert markers["numpy"] is None
    assert markers["pexpect"] is not None
    assert not markers["pexpect"].evaluate({"sys_platform": "win32"})
    assert markers["pexpect"].evaluate({"sys_platform": "linux"})


def test_readme_says_how_to_run_and_what_is_inside(bundle):
    text = bundle.read(f"{FOLDER}/README.md").decode()
    for command in (
        "python3 -m venv .venv",
        ".venv/bin/pip install -r requirements.txt",
        ".venv/bin/jupyter lab",
    ):
        assert command in text
    for name, _ in book_order():
        assert f"`{name}`" in text


def test_pyproject_makes_posenc_installable(bundle):
    project = tomllib.loads(bundle.read(f"{FOLDER}/pyproject.toml").decode())
    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"] == ours["project"]
    assert project["build-system"] == ours["build-system"]
    assert project["tool"] == {"setuptools": ours["tool"]["setuptools"]}


# ------------------------------------------------------------ a fresh venv


def run(command: list, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        pytest.fail(
            f"{' '.join(map(str, command))} failed ({result.returncode}):\n"
            f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
    return result


def pin(line: str) -> tuple[str, str]:
    """(canonical name, version) of a ``name==version`` requirement."""
    requirement = Requirement(line)
    (version,) = [s.version for s in requirement.specifier if s.operator == "=="]
    return canonicalize_name(requirement.name), version


def where_in_the_book(name: str, cell: int | None) -> str:
    """``book/<chapter>.md:<line>`` of cell ``cell`` of the zip's notebook
    ``name``, or "" if it is not a chapter's code cell."""
    source = ROOT / "book" / (name.split("_", 1)[-1].removesuffix(".ipynb") + ".md")
    if cell is None or not source.is_file():
        return ""
    notebook = json.loads(
        (SITE / "_sources" / "book" / f"{source.stem}.ipynb").read_text()
    )
    code = [i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"]
    lines = chapter_notebooks.code_cell_lines(source)
    if cell not in code or len(code) != len(lines):
        return ""
    return f" (book/{source.name}:{lines[code.index(cell)]})"


class Clock:
    """Wall time and the CPU time of finished child processes (their own
    children included), since the last lap."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), self.children()

    @staticmethod
    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), self.children()
        lap = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return lap


def clean_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a student's shell: no kernel, profile, settings
    or pip configuration of this machine's user."""
    env = {
        **os.environ,
        "JUPYTER_PATH": "",
        "JUPYTER_DATA_DIR": str(tmp_path / "jupyter-data"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter-config"),
        "IPYTHONDIR": str(tmp_path / "ipython"),
        "PYTHONNOUSERSITE": "1",
        "PIP_CONFIG_FILE": os.devnull,
    }
    # This machine's pip also looks in a local folder of wheels, and under
    # constraints (the certificate of the way out to the index stays).
    for name in [n for n in env if n.startswith("PIP_") and n != "PIP_CERT"]:
        env.pop(name)
    env["PIP_CONFIG_FILE"] = os.devnull
    # What a student's shell would not have. PYTHONDONTWRITEBYTECODE too:
    # the install compiles no bytecode (most modules are never imported), so
    # each module is compiled when first imported, once; with the variable
    # set, every kernel compiled numpy, scipy, sympy and matplotlib again
    # (about 5 CPU-seconds a notebook).
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    return env


def run_folder(python: Path, folder: Path, env: dict) -> tuple[list[dict], str]:
    """Every notebook at the top of ``folder``, each from a clean kernel of
    ``python``, one per core (scripts/run_notebooks.py): the reports, and
    what the runner wrote to stderr (its end)."""
    result = subprocess.run(
        [python, ROOT / "scripts" / "run_notebooks.py", folder],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    reports = [json.loads(line) for line in result.stdout.splitlines() if line]
    return reports, result.stderr[-3000:]


def failures_of(reports: list[dict]) -> list[str]:
    """Each failing notebook: its name, the cell, the chapter's line, the
    error and its traceback."""
    failures = []
    for report in reports:
        failure = report["failure"]
        if failure is not None:
            where = where_in_the_book(report["notebook"], failure["cell"])
            failures.append(
                f"{report['notebook']}, cell {failure['cell']}{where}: "
                f"{failure['error']}\n{failure['traceback']}"
            )
    return failures


def timing_line(name: str, timings: dict, reports: list[dict]) -> str:
    slowest = max(reports, key=lambda r: r["seconds"])
    return (
        f"{name}: "
        + ", ".join(
            f"{k} {wall:.0f} s ({cpu:.0f} CPU-s)" for k, (wall, cpu) in timings.items()
        )
        + f"; slowest notebook {slowest['notebook']} {slowest['seconds']} s"
    )


@pytest.mark.fresh_venv
def test_every_notebook_runs_in_a_fresh_venv(bundle, tmp_path):
    bundle.extractall(tmp_path)
    folder = tmp_path / FOLDER
    python = folder / ".venv" / "bin" / "python"
    env = clean_env(tmp_path)
    timings = {}
    clock = Clock()

    run([sys.executable, "-m", "venv", ".venv"], folder, env=env)
    # The student's pip install, done by uv (UV, in seconds where pip took
    # 80): the same pinned requirements.txt into the same venv, with no
    # bytecode compiled (as pip's --no-compile).
    run(
        [UV, "pip", "install", "--python", python, "-r", "requirements.txt"],
        folder,
        env=env,
    )
    timings["venv and install"] = clock.lap()

    # Exactly the pinned packages (nothing unpinned pulled in), and posenc.
    freeze = [python, "-m", "pip", "freeze", "--exclude-editable"]
    frozen = run(freeze, folder, env=env).stdout
    installed = {pin(line) for line in frozen.splitlines() if "==" in line}
    pinned = {
        pin(line)
        for line in requirement_lines(bundle)[:-1]
        if Requirement(line).marker is None or Requirement(line).marker.evaluate()
    }
    assert installed == pinned
    # A chapter downloaded alone, opened in another folder, finds posenc.
    elsewhere = run(
        [python, "-c", "import posenc, posenc.widgets; print(posenc.__file__)"],
        tmp_path,
        env=env,
    )
    assert Path(elsewhere.stdout.strip()) == folder / "posenc" / "__init__.py"

    # The student edition's notebooks, where the default ones do not vouch
    # for them (today none: their solutions' code comes last).
    student = student_notebooks_to_run(bundle)
    for name, data in student.items():
        (folder / name).write_bytes(data)
    # The sample (PINNED_SAMPLE), unless every notebook is asked for.
    expected = sorted([*(name for name, _ in book_order()), *student])
    if not os.environ.get("POSENC_BUNDLE_ALL"):
        # a chapter's notebook is named by its place: 01_the_encoding.ipynb
        sample = [
            n for n in expected if Path(n).stem.split("_", 1)[-1] in PINNED_SAMPLE
        ]
        assert len(sample) == len(PINNED_SAMPLE), f"PINNED_SAMPLE: found {sample}"
        for name in set(expected) - set(sample) - set(student):
            (folder / name).unlink()
        expected = sorted({*sample, *student})

    clock.lap()
    reports, stderr = run_folder(python, folder, env)
    timings["notebooks"] = clock.lap()
    ran = sorted(r["notebook"] for r in reports)
    assert ran == expected, stderr
    failures = failures_of(reports)
    for report in reports:
        if report["failure"] is None:
            # The kernel was the bundle's Python, importing the folder's posenc.
            assert Path(report["prefix"]) == folder / ".venv", report
            assert Path(report["posenc"]) == folder / "posenc" / "__init__.py", report
    print(timing_line("bundle", timings, reports))
    assert not failures, "\n\n".join(failures)
    # The lecturer's grader, from the zip, in the zip's environment.
    grade_the_answer_key(python, folder, env)
    shutil.rmtree(folder / ".venv")  # 0.5 GB; kept when a check failed


# ------------------------------------------------------------ a hosted service

#: What a hosted Jupyter service has preinstalled and the chapters use
#: (the README's list; pillow and mpmath come with matplotlib and sympy),
#: then what runs notebooks without a browser there: a kernel, and the
#: client JupyterLab itself drives it with.
HOSTED = ["numpy", "scipy", "matplotlib", "sympy", "ipywidgets"]
HEADLESS = ["ipykernel", "nbclient", "nbformat"]
#: The services the hosted run imitates, each a Python version and what it
#: has installed: the newest releases of HOSTED (on Colab's Python of 2026.07),
#: and Colab's runtime as googlecolab/backend-info lists it in November 2026
#: (older than the book's pins; its ipywidgets 7 once broke every player, see
#: posenc/explorer.py). The machine's own Python stands in for a missing one.
SERVICES = {
    "newest": ("3.12", [*HOSTED, *HEADLESS]),
    "colab": (
        "3.13",
        [
            "numpy==2.1.3",
            "scipy==1.16.3",
            "matplotlib==3.10.0",
            "sympy==1.14.0",
            "ipywidgets==7.7.1",
            "ipython==7.34.0",
            "pillow==11.3.0",
            *HEADLESS,
        ],
    ),
}


def hosted_python(version: str) -> Path:
    """A Python ``version`` (on the PATH or installed by pyenv), else the one
    running the tests."""
    candidates = [shutil.which(f"python{version}")]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates += sorted(pyenv.glob(f"{version}.*/bin/python{version}"))
    for candidate in candidates:
        if (
            candidate
            and subprocess.run([candidate, "-V"], capture_output=True).returncode == 0
        ):
            return Path(candidate)
    return Path(sys.executable)


def wheel_name(bundle) -> str:
    (name,) = [n for n in members(bundle) if n.endswith(".whl")]
    return name


def versions(python: Path, env: dict) -> dict[str, str]:
    """Installed distributions by canonical name: their versions."""
    frozen = run(
        [UV, "pip", "list", "--python", python, "--format", "json"], Path("/"), env=env
    ).stdout
    return {canonicalize_name(d["name"]): d["version"] for d in json.loads(frozen)}


def test_the_wheel_is_posenc_and_pins_nothing(bundle):
    """The wheel holds the repository's posenc, and its dependencies are
    pyproject.toml's, with no version bound: installed over a service's
    newest releases, it changes none of them."""
    name = wheel_name(bundle)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert name == f"posenc-{version}-py3-none-any.whl"
    with zipfile.ZipFile(io.BytesIO(bundle.read(f"{FOLDER}/{name}"))) as wheel:
        files = set(wheel.namelist())
        sources = {
            p.relative_to(ROOT).as_posix() for p in (ROOT / "posenc").glob("*.py")
        }
        # and posenc's package data, the trained models (as in the zip)
        models = {
            p.relative_to(ROOT).as_posix()
            for pattern in ("*.npz", "*.json")
            for p in (ROOT / "posenc" / "models").glob(pattern)
        }
        assert {f for f in files if f.startswith("posenc/")} == sources | models
        for model in models:
            assert wheel.read(model) == (ROOT / model).read_bytes(), model
        for source in sources:
            assert wheel.read(source) == (ROOT / source).read_bytes(), source
        info = f"posenc-{version}.dist-info"
        text = wheel.read(f"{info}/METADATA").decode()
    needs = [
        Requirement(line.removeprefix("Requires-Dist: "))
        for line in text.splitlines()
        if line.startswith("Requires-Dist: ")
    ]
    always = [str(r) for r in needs if r.marker is None]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert always == project["dependencies"]
    assert {canonicalize_name(r) for r in always} >= set(HOSTED) - {"sympy"}
    for requirement in needs:
        assert not str(requirement.specifier), f"{requirement}: a version bound"


def test_the_guide_names_the_wheel_of_this_version():
    """The instructor's guide spells out the hosted route's commands."""
    from notebook_bundle import posenc_wheel

    name, _ = posenc_wheel(ROOT)
    guide = (ROOT / "book" / "instructor" / "guide.md").read_text()
    section = guide[guide.index("## Running the notebooks") :]
    section = section[: section.index("\n## ", 5)]
    names = set(re.findall(r"posenc-[\w.]+-py3-none-any\.whl", section))
    assert names == {name}


def test_readme_says_how_to_run_on_a_hosted_service(bundle):
    text = bundle.read(f"{FOLDER}/README.md").decode()
    name = wheel_name(bundle)
    for step in (
        f"!unzip -q -o {BUNDLE}",
        f"%pip install {FOLDER}/{name}",  # JupyterHub
        f"%pip install {name}",  # Colab, the wheel uploaded alone
    ):
        assert step in text, step
    for library in HOSTED:
        assert library in text, library


#: The services to imitate: every one of SERVICES, or those named in
#: ``POSENC_HOSTED`` (comma-separated; CI names one, .ci/run, to keep to its
#: time).
HOSTED_RUNS = [
    name
    for name in (os.environ.get("POSENC_HOSTED") or ",".join(SERVICES)).split(",")
    if name
]


def test_the_hosted_runs_named_exist():
    assert HOSTED_RUNS and set(HOSTED_RUNS) <= set(SERVICES), (
        f"POSENC_HOSTED names {HOSTED_RUNS}: each must be one of {list(SERVICES)}"
    )


@pytest.mark.fresh_venv
@pytest.mark.parametrize("releases", [r for r in HOSTED_RUNS if r in SERVICES])
def test_every_notebook_runs_as_on_a_hosted_service(bundle, tmp_path, releases):
    """What the README's hosted route does: a Python with a service's
    releases of HOSTED (and HEADLESS) preinstalled (SERVICES: the newest, or
    Colab's), posenc installed from the
    zip's wheel alone (pip with no index: nothing downloaded, nothing
    changed), every notebook run from a folder that holds no posenc/ (the
    kernel imports the installed one)."""
    bundle.extractall(tmp_path)
    folder = tmp_path / FOLDER
    service = tmp_path / "service"
    python = service / "bin" / "python"
    env = clean_env(tmp_path)
    timings = {}
    clock = Clock()

    version, packages = SERVICES[releases]
    host = hosted_python(version)
    run([host, "-m", "venv", service], tmp_path, env=env)
    # the service's releases: the newest (no pin, no lock), or Colab's pins
    run(
        [UV, "pip", "install", "--python", python, *packages],
        tmp_path,
        env=env,
    )
    timings["service"] = clock.lap()
    newest = versions(python, env)
    pins = lock_pins(ROOT / "requirements.txt")
    for name in HOSTED:
        if releases == "newest":  # the newest is at least what the book pins
            assert Version(newest[name]) >= Version(pins[name][1]), name
        else:  # the service's own releases, as listed
            assert f"{name}=={newest[name]}" in packages, name

    wheel = folder / wheel_name(bundle)
    install = [python, "-m", "pip", "install", "--no-index", "--no-cache-dir"]
    run([*install, "--disable-pip-version-check", wheel], tmp_path, env=env)
    timings["posenc"] = clock.lap()
    after = versions(python, env)
    assert after.pop("posenc") == wheel.name.split("-")[1]
    assert after == newest, "installing the wheel changed the service's packages"

    notebooks = tmp_path / "notebooks"  # as Colab's /content: no posenc/
    notebooks.mkdir()
    for name, _ in book_order():
        shutil.copy(folder / name, notebooks / name)
    reports, stderr = run_folder(python, notebooks, env)
    timings["notebooks"] = clock.lap()
    assert sorted(r["notebook"] for r in reports) == sorted(
        name for name, _ in book_order()
    ), stderr
    failures = failures_of(reports)
    site_packages = run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        tmp_path,
        env=env,
    ).stdout.strip()
    for report in reports:
        if report["failure"] is None:
            assert Path(report["posenc"]).parent == Path(site_packages) / "posenc"
    shown = ", ".join(f"{n} {newest[n]}" for n in [*HOSTED, "pillow", "ipykernel"])
    print(f"hosted ({releases}): Python {host.name}, {shown}")
    print(timing_line(f"hosted ({releases})", timings, reports))
    assert not failures, "\n\n".join(failures)
    shutil.rmtree(service)  # kept when a check failed


def test_where_in_the_book_names_the_chapter_line():
    """A failure report leads to the chapter's line (the helper above)."""
    name, stem = book_order()[0]
    source = ROOT / "book" / f"{stem}.md"
    notebook = json.loads((SITE / "_sources" / "book" / f"{stem}.ipynb").read_text())
    first = next(i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code")
    line = chapter_notebooks.code_cell_lines(source)[0]
    assert where_in_the_book(name, first) == f" (book/{stem}.md:{line})"
    assert re.fullmatch(
        r"```\{code-cell\}.*", source.read_text().splitlines()[line - 1]
    )


def test_the_probe_is_read_when_its_line_comes_in_two_messages():
    """The kernel may send the probe's line and its newline apart (seen once
    under load in CI: the newline alone was read, and the run crashed)."""
    import nbformat
    import run_notebooks

    line = '{"prefix": "/x/.venv", "posenc": "/x/posenc/__init__.py"}'
    cell = nbformat.v4.new_code_cell(run_notebooks.PROBE)
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text=line),
        nbformat.v4.new_output("stream", name="stdout", text="\n"),
    ]
    assert run_notebooks.probed(cell) == json.loads(line)
    cell.outputs = []
    assert run_notebooks.probed(cell) == {}
