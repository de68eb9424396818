"""What every part of the loader shares: the folder, the diagnostics, the files read, YAML reading."""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruledsl.compiler import AbilityCode
from ruledsl.diagnostics import DiagnosticBag, Span

from .schema_check import check_schema
from .yamlsource import PositionMap, load_yaml, load_yaml_text

MAX_RULES_BYTES = 1024 * 1024


def _display(folder: Path, name: str) -> str:
    """The file name shown in diagnostics: relative to the working folder when possible."""
    full = (folder / name).resolve()
    try:
        return str(full.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(full)


class LoaderBase:
    """The loading of one game folder; each part of the work is a mixin of its own module."""

    indexes: dict[str, dict[Any, int]]
    kinds: set[str]
    min_seats: int

    def __init__(self, folder: Path, variant: str | None = None, texts: Mapping[Path, str] | None = None):
        self.folder = folder
        self.variant = variant
        # Texts that stand for files of the folder (an editor's unsaved buffers), by resolved path.
        self.texts = {path.resolve(): text for path, text in (texts or {}).items()}
        self.ability_code: list[AbilityCode] = []
        self.diags = DiagnosticBag()
        self.sources: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}

    def given_text(self, name: str) -> str | None:
        """The text given for a file of the game in place of the disk's (see `texts`), or None."""
        return self.texts.get((self.folder / name).resolve()) if self.texts else None

    def yaml(self, name: str, schema: str) -> tuple[Any, PositionMap | None, str]:
        shown = _display(self.folder, name)
        path = self.folder / name
        given = self.given_text(name)
        if given is None and not path.is_file():
            return None, None, shown
        if given is not None:
            self.sources[shown] = given[:MAX_RULES_BYTES]
            data, positions, diags = load_yaml_text(given, shown)
        else:
            try:
                self.sources[shown] = path.read_text(encoding="utf-8", errors="replace")[:MAX_RULES_BYTES]
            except OSError:
                pass
            data, positions, diags = load_yaml(path, shown)
        self.diags.extend(diags)
        if data is None and not diags:
            # An empty file (or only comments) holds none of the keys the schema requires.
            self.diags.error(Span(shown, 1, 1), "schema", f"'{name}' is empty",
                             "see docs/language.md, section 1, for what this file holds")
        if data is not None and not diags:
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
