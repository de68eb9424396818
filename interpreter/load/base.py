"""What every part of the loader shares: the folder, the diagnostics, the files read, YAML reading."""

from __future__ import annotations

import marshal
from pathlib import Path
from typing import Any

from ruledsl.compiler import AbilityCode
from ruledsl.diagnostics import DiagnosticBag, Span

from .schema_check import check_schema
from .files import read_game_file, real_folder
from .yamlsource import MAX_FILE_BYTES, PositionMap, load_yaml_bytes

MAX_RULES_BYTES = 1024 * 1024


def display_name(folder: Path, name: str) -> str:
    """The file name shown in diagnostics: relative to the working folder when possible.

    `folder` is already resolved; the file's own name is kept even when it is a link, so that a
    link's target never shows up in a message.
    """
    full = folder / name
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(full)


class LoaderBase:
    """The loading of one game folder; each part of the work is a mixin of its own module."""

    indexes: dict[str, dict[Any, int]]
    kinds: set[str]
    min_seats: int

    def __init__(self, folder: Path, variant: str | None = None):
        self.folder = folder
        self.real_folder = real_folder(folder)
        self.variant = variant
        self.ability_code: list[AbilityCode] = []
        self.diags = DiagnosticBag()
        self.sources: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}

    def shown(self, name: str) -> str:
        """How diagnostics name a file of the game."""
        return display_name(self.real_folder, name)

    def read(self, name: str, limit: int, named_at: Span, missing: str) -> bytes | None:
        """The bytes of a file of the game (at most `limit` + 1), or None after reporting why not.

        `named_at` is where the name is written (where problems are reported); `missing` is the
        message for a file that does not exist.
        """
        found = read_game_file(self.real_folder, name, limit)
        if isinstance(found, bytes):
            return found
        message = missing if found.code == "missing-file" else found.message
        self.diags.error(named_at, found.code, message, found.hint)
        return None

    def yaml(self, name: str, schema: str, named_at: Span, missing: str) -> tuple[Any, PositionMap | None, str]:
        """Read, load and schema-check a YAML file of the game; positions are None when it cannot be read."""
        shown = self.shown(name)
        raw = self.read(name, MAX_FILE_BYTES, named_at, missing)
        if raw is None:
            return None, None, shown
        self.sources[shown] = raw.decode("utf-8", errors="replace")[:MAX_RULES_BYTES]
        data, positions, diags = load_yaml_bytes(raw, shown)
        self.diags.extend(diags)
        if data is None and not diags:
            # An empty file (or only comments) holds none of the keys the schema requires.
            self.diags.error(Span(shown, 1, 1), "schema", f"'{name}' is empty",
                             "see docs/language.md, section 1, for what this file holds")
        if data is not None and not any(d.severity == "error" for d in diags):
            self.diags.extend(check_schema(data, positions, schema, shown))  # type: ignore[arg-type]
        return data, positions, shown

    def whole_numbers(self, value: Any, path: tuple[Any, ...], pos: PositionMap) -> None:
        """The rules count in whole numbers: a fraction in the data is a mistake to report."""
        if isinstance(value, float):
            self.diags.error(pos.nearest(path), "type", f"{value} is not a whole number",
                             "the rules language counts in whole numbers")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.whole_numbers(item, path + (i,), pos)
        elif isinstance(value, dict):
            for key, item in value.items():
                self.whole_numbers(item, path + (key,), pos)


def _freeze(value: Any) -> Any:
    """Tables and attributes are read-only data; a private copy keeps YAML objects unshared."""
    return marshal.loads(marshal.dumps(value))
