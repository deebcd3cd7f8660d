"""The README is a front door (issue 22, item 5): short, with the two
commands (``.ci/run`` runs "the README's test command") and the table of
what we use; the machinery is in ``docs/maintainers.md``. Every relative
link of the README, the maintainers' guide and CONTRIBUTING.md leads to a
file, and every ``#anchor`` to a heading of it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = [README, ROOT / "docs" / "maintainers.md", ROOT / "CONTRIBUTING.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of the Markdown headings of ``path``."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
    slugs = (re.sub(r"[^\w\- ]", "", h.strip().lower()) for h in headings)
    return {slug.replace(" ", "-") for slug in slugs}


def broken_links(path: Path) -> list[str]:
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        destination = (path.parent / file).resolve() if file else path
        if not destination.exists():
            broken.append(target)
        elif anchor and destination.suffix == ".md":
            if anchor not in anchors(destination):
                broken.append(target)
    return broken


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_relative_link_resolves(path):
    assert broken_links(path) == []


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 170
    for command in ("make book", "make test"):
        assert f"\n{command}" in text  # in the commands' code block
    assert "docs/maintainers.md" in text
    table = text.split("## What we use, and why", 1)[1].split("\n## ", 1)[0]
    assert "| `torch` 2.13 on the CPU" in table  # required by the developers' guide
