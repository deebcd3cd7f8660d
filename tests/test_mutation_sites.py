"""Every mutant of the mutation suites still finds its site: the text it
replaces occurs exactly once in its module of ``posenc``.

The suites themselves run in ``make mutants`` (slow, and left out of CI
when ``make test`` has used most of its time); this check runs in ``make
test`` in a second, so that an edit to ``posenc`` that moves a mutation
site fails at once rather than at the next ``make mutants``.
"""

from __future__ import annotations

import pytest
import test_conventions_mutants
import test_mutants
import test_static_mutants
from mutation import ROOT, Mutant


def every_mutant() -> dict[str, Mutant]:
    found = {}
    for suite in (test_mutants, test_conventions_mutants, test_static_mutants):
        for name, entry in suite.MUTANTS.items():
            mutant = entry if isinstance(entry, Mutant) else entry[0]
            found[f"{suite.__name__}: {name}"] = mutant
    return found


MUTANTS = every_mutant()


@pytest.mark.parametrize("name", MUTANTS)
def test_mutation_site_occurs_once(name):
    mutant = MUTANTS[name]
    text = (ROOT / "posenc" / mutant.module).read_text()
    assert text.count(mutant.original) == 1, mutant.original
