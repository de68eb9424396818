"""Puts this checkout first on the import path, before anything imports the interpreter.

The project is installed in its environment as an editable package, whose import hook finds the
installed folder's `interpreter` from any working directory. A benchmark run from another checkout
(a worktree of the commit a change is compared against) would then measure the installed code
while reading its own games. Every benchmark script imports this module first.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def child_env() -> dict[str, str]:
    """The environment of a child process that runs this checkout's code (`python -m interpreter.cli`):
    the editable install's import hook would otherwise find the installed folder's."""
    path = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
