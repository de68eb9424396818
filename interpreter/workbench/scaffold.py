"""A new game folder (placeholder)."""
from __future__ import annotations
from pathlib import Path


class ScaffoldError(Exception):
    """The folder cannot be written."""


def write_game(folder: Path, title: str | None = None) -> Path:
    raise ScaffoldError("not yet")
