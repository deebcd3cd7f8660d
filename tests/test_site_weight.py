"""What each page of the built site leaves out to weigh less (issue 22), in
pure Python: no browser. The weights themselves are measured by ``make
bench`` (benchmarks/pages.py, benchmarks/phone.py), not tested.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "_ext"))

import offline_site  # noqa: E402  (_ext/offline_site.py)
import sitetools  # noqa: E402  (scripts/sitetools.py)

SITE = sitetools.site_dir()
BUILT = (SITE / "index.html").exists()
PAGES = sitetools.html_pages(SITE) if BUILT else ["(no site)"]


@pytest.fixture(scope="module")
def site() -> Path:
    if not BUILT:
        pytest.skip(f"no built site at {SITE} (run make book)")
    return SITE


@pytest.mark.parametrize("path", PAGES)
def test_only_the_search_page_loads_the_search(site, path):
    """The search's index (145 kB) and scripts load on the search page only."""
    scripts = re.findall(r'<script[^>]*src="([^"]*)"', (site / path).read_text())
    search = [s for s in scripts if re.search(r"searchindex|searchtools", s)]
    assert search == (
        ["_static/searchtools.js", "searchindex.js"] if path == "search.html" else []
    )


@pytest.mark.parametrize("path", PAGES)
def test_code_keeps_only_spans_that_colour_it(site, path):
    """No token of a code block is wrapped in a span whose colour is the
    block's own, in light or dark mode; every other token keeps its span."""
    plain = offline_site.plain_token_classes(site / "_static")
    assert {"n", "p"} <= plain and not {"k", "o", "mi", "s1", "c1"} & plain
    text = (site / path).read_text(encoding="utf-8")
    blocks = offline_site.CODE.findall(text)
    classes = {c for _, code, _ in blocks for c in re.findall(r'class="(\w+)"', code)}
    assert classes & plain == set()
    if "import numpy" in " ".join(code for _, code, _ in blocks):
        assert "kn" in classes  # "import" is still highlighted
