"""Make the built site self-contained: MathJax is served from the site itself.

Sphinx loads MathJax from a CDN by default, so a page read offline (in a
classroom, on a train) shows raw TeX. MathJax 3.2.2 comes from PyPI instead,
in the package ``django-static-mathjax`` (which despite its name holds only
MathJax's files and needs no Django; Apache-2.0, its LICENSE is copied too).
After an HTML build this extension copies the part of it a browser needs into
``_static/mathjax``, and ``_config.yml`` points ``mathjax_path`` there.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

# What the combined TeX -> CommonHTML bundle loads: itself, the TeX extensions
# it autoloads on demand (\boldsymbol, \cancel, ...), its menu, its fonts.
# Left out: the speech-rule engine (sre, ~20 MB) and the other bundles.
WANTED = [
    "tex-mml-chtml.js",
    "input/tex/extensions",
    "output/chtml/fonts/woff-v2",
    "ui",
    "a11y",
    "adaptors",
]


def mathjax_source() -> Path:
    root = resources.files("mathjax") / "static" / "mathjax"
    return Path(str(root))


def copy_mathjax(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    source = mathjax_source()
    target = Path(app.outdir) / "_static" / "mathjax"
    stamp = target / ".version"
    version = (source / "package.json").read_text()
    if stamp.exists() and stamp.read_text() == version:
        return  # already copied by an earlier build
    if target.exists():
        shutil.rmtree(target)
    for entry in WANTED:
        origin = source / "es5" / entry
        if origin.is_dir():
            shutil.copytree(origin, target / entry)
        else:
            (target / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, target / entry)
    shutil.copy2(source / "LICENSE", target / "LICENSE")
    stamp.write_text(version)


def setup(app):
    app.connect("build-finished", copy_mathjax)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
