"""Write the homework notebooks: ``make homework`` → ``_build/homework/``.

One assignment per derivation chapter and for RoPE, generated from its
exercises and ``posenc.homework.TASKS`` (``_ext/homework_notebooks.py`` says how; every
HTML build also publishes them in the site's ``homework/`` folder).

    python scripts/homework.py [FOLDER]
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT))

from homework_notebooks import write_assignments  # noqa: E402

if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "homework"
    for path in write_assignments(folder):
        print(path)
