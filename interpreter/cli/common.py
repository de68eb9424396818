"""What every sub-command shares: exit codes, loading a game, where sessions are saved."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.engine import Engine

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def sessions_dir() -> Path:
    """Where play sessions are saved by default."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cityrules" / "sessions"


def load_engine(name: str, variant: str | None = None) -> "Engine":
    """An engine for a shipped game's name or a game folder."""
    from ..core.engine import Engine  # (imported when needed: see COMMANDS in __init__.py)
    from ..load.loader import load_game

    return Engine(load_game(name, variant))
