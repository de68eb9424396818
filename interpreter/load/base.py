"""What every part of the loader shares: the folder, the diagnostics, the files read, YAML reading."""

from __future__ import annotations

import copy
import marshal
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruledsl.check.provenance import describe, shown
from ruledsl.diagnostics import Diagnostic, DiagnosticBag, Span
from ruledsl.program import AbilityCode
from ruledsl.types import NONE, Type, type_of_data, unify
from ruledsl.world import DataSource, NameSet

from .check_cache import schema_checked
from .files import Unreadable, read_game_file, real_folder
from .schema_check import check_schema
from .yamlsource import MAX_FILE_BYTES, PositionMap, load_yaml_bytes, load_yaml_text

_YAML_KEPT = 24
_YAML_READ: dict[tuple[str, str, bytes], tuple[Any, PositionMap, list[Diagnostic]]] = {}

MAX_RULES_BYTES = 1024 * 1024
MAX_DATA_NUMBER = 1_000_000_000
"""The largest number (either sign) a table, attribute or initial value may hold."""


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
    name_sets: dict[str, NameSet]

    def __init__(self, folder: Path, variant: str | None = None, texts: Mapping[Path, str] | None = None):
        self.folder = folder
        self.real_folder = real_folder(folder)
        self.variant = variant
        # Texts that stand for files of the folder (an editor's unsaved buffers), by resolved path.
        self.texts = {real_folder(path): text for path, text in (texts or {}).items()}
        self.ability_code: list[AbilityCode] = []
        self.check_only = False   # only the diagnostics are wanted (see loader.check_game)
        self.memo: DataMemo | None = None   # the game's data as last read (see DataMemo)
        # While not None: every file read, by (name, limit), with what was found (see DataMemo).
        self.reads: dict[tuple[str, int], bytes | Unreadable] | None = None
        self.diags = DiagnosticBag()
        self.sources: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}

    def given_text(self, name: str) -> str | None:
        """The text given for a file of the game in place of the disk's (see `texts`), or None.

        Only a name that resolves inside the game folder can be given, as only such a file may be
        read (files.py): a name leading out of it is read, and refused, as always.
        """
        if not self.texts:
            return None
        try:
            path = (self.real_folder / name).resolve()
        except (OSError, RuntimeError):   # a loop of links: reported by the reading
            return None
        return self.texts.get(path) if path.is_relative_to(self.real_folder) else None

    def shown(self, name: str) -> str:
        """How diagnostics name a file of the game."""
        return display_name(self.real_folder, name)

    def fetch(self, name: str, limit: int) -> bytes | Unreadable:
        """The bytes of a file of the game (at most `limit` + 1), the text given for it in place of
        the disk's, or why it cannot be read; nothing is reported."""
        given = self.given_text(name)
        if given is not None:
            return given.encode("utf-8", "surrogatepass")[:limit + 1]
        return read_game_file(self.real_folder, name, limit)

    def read(self, name: str, limit: int, named_at: Span, missing: str) -> bytes | None:
        """The bytes of a file of the game (at most `limit` + 1), or None after reporting why not.

        A text given for the file (an editor's unsaved buffer) is read in place of the disk's.

        `named_at` is where the name is written (where problems are reported); `missing` is the
        message for a file that does not exist.
        """
        found = self.fetch(name, limit)
        if self.reads is not None:
            self.reads[(name, limit)] = found
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
        key = (shown, schema, raw)
        known = _YAML_READ.pop(key, None)
        if known is None:
            data, positions, diags = load_yaml_bytes(raw, shown)
            if data is not None and not any(d.severity == "error" for d in diags):
                def check() -> list[Diagnostic]:
                    return check_schema(data, positions, schema, shown)  # type: ignore[arg-type]

                diags = diags + schema_checked(schema, raw, check)
            known = (data, positions, diags)
        # The last few files read, for the next check of the same game (an editor checks at every
        # keystroke; most files did not change). The loaders only read what a file holds.
        _YAML_READ[key] = known
        while len(_YAML_READ) > _YAML_KEPT:
            del _YAML_READ[next(iter(_YAML_READ))]
        data, positions, diags = known
        self.diags.extend(diags)
        if data is None and not diags:
            # An empty file (or only comments) holds none of the keys the schema requires.
            self.diags.error(Span(shown, 1, 1), "schema", f"'{name}' is empty",
                             "see docs/language.md, section 1, for what this file holds")
        return data, positions, shown

    def check_name(self, ns: NameSet, value: object, where: Span) -> None:
        """names.py"""
        raise NotImplementedError

    def positions_later(self, shown: str) -> "LaterPositions":
        """Where the values of a YAML file already read are, for a note at a data line."""
        return LaterPositions(self.sources.get(shown, "").removeprefix("\ufeff"), shown)

    def whole_numbers(self, value: Any, path: tuple[Any, ...], pos: PositionMap) -> None:
        """The rules count in whole numbers: a fraction in the data is a mistake to report."""
        if isinstance(value, float):
            self.diags.error(pos.nearest(path), "type", f"{value} is not a whole number",
                             "the rules language counts in whole numbers")
        elif isinstance(value, int):
            self.bounded_number(value, pos.nearest(path))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.whole_numbers(item, path + (i,), pos)
        elif isinstance(value, dict):
            for key, item in value.items():
                self.whole_numbers(item, path + (key,), pos)


    def bounded_number(self, value: int, where: Span) -> None:
        """A number of the data may count rounds, lengths or loops: one beyond any game's needs
        would validate clean and then make the engine work (or keep records) without end."""
        if abs(value) > MAX_DATA_NUMBER:
            digits = len(str(abs(value)))
            shown = str(value) if digits <= 15 else f"this {digits}-digit number"
            self.diags.error(where, "too-large", f"{shown} is too large for a number of the game's data",
                             f"numbers in the data are at most {MAX_DATA_NUMBER:,} either way")

    def column_type(self, kind: str, attr: str, column: tuple[Any, ...], ids: Sequence[Any],
                    source: DataSource, file_start: Span) -> Type:
        """The type of an attribute, worked out from every node's or item's value.

        The rules read one attribute with one type: a value of another kind than the others'
        (`money: Fire` where the other cards have numbers) is reported at its line, before any
        rule can stumble on it while the game is played.
        """
        types = [type_of_data(v) for v in column]
        t: Type = NONE
        for x in dict.fromkeys(types):  # each distinct type once, in the order first seen
            t = unify(t, x)
        counts = Counter(x for x in types if x.kind != "none")
        if len(counts) < 2:
            return t
        usual = max(counts, key=lambda x: counts[x])  # the most common; the first seen on a tie
        reported: set[object] = set()
        for i, x in enumerate(types):
            where = source.locate((i,))
            if x.kind == "none" or not _clash(usual, x) or where in reported:
                continue
            reported.add(where)  # once per line of the file, not once per copy
            self.diags.error(where or file_start, "type",
                             f"{kind} {ids[i]!r}: `{attr}` is {describe(x)} ({shown(column[i])}), where the "
                             f"others have {describe(usual)}",
                             f"give every {kind} the same kind of value for {attr} (0, false or \"\" for nothing)")
        return t


class LaterPositions:
    """The positions of a YAML file's values, worked out again from its text when first asked.

    Only a type error about data needs them, and a game keeps its tables and attributes for its
    whole life: keeping every position of every file with them would cost memory, and collector
    time on every load, for the rare load that has a note to write.
    """

    def __init__(self, text: str, shown: str) -> None:
        self._text = text
        self._shown = shown
        self._positions: PositionMap | None = None

    def span(self, path: Iterable[object]) -> Span | None:
        """The span of the value at `path`, or None."""
        if self._positions is None:
            _, self._positions, _ = load_yaml_text(self._text, self._shown)
        return self._positions.span(tuple(path))


def _clash(a: Type, b: Type) -> bool:
    """Do two types worked out from data disagree (a text where a number is, a list of texts
    where lists of numbers are)? Values that are none or unknown agree with anything."""
    if a.kind in ("none", "any") or b.kind in ("none", "any"):
        return False
    if a.kind != b.kind:
        return True
    return any(_clash(x, y) for x, y in zip(a.args, b.args))


def _freeze(value: Any) -> Any:
    """Tables and attributes are read-only data; a private copy keeps YAML objects unshared."""
    return marshal.loads(marshal.dumps(value))


# What a loader is given rather than reads: never part of what is kept.
_INPUTS = frozenset({"folder", "real_folder", "variant", "texts", "check_only", "memo", "reads", "diags"})


@dataclass(frozen=True)
class KeptRead:
    """One reading of a game's data: where, what it read, what it found and left in the loader."""

    place: tuple[str, str, str | None, str]
    reads: dict[tuple[str, int], bytes | Unreadable]   # (file name, limit) -> its bytes, or why none
    diagnostics: tuple[Diagnostic, ...]
    state: dict[str, Any]
    result: Any

    def restore(self, loader: LoaderBase) -> Any:
        """Leave the loader as the reading left its own, and give what the reading gave."""
        vars(loader).update({name: _copy(value) for name, value in self.state.items()})
        loader.diags.extend(self.diagnostics)
        return self.result


class DataMemo:
    """A game's data as last read, per variant, for the next check of the same folder (an editor
    checks at every keystroke).

    Reading a game's data (game.yaml, the board, the component files with their abilities' code,
    and the world the rules are checked against) is all the loader does before the rules files,
    and it depends on nothing but the bytes of the files it read (or why one could not be read),
    the folder, the variant and the working folder (messages name files relative to it). A loader
    given a memo records what it read; the next loader of the same folder and variant fetches those
    files again (an editor's texts in place of the disk's, as always) and, when each holds the same
    bytes, takes the data as it was: its diagnostics, the loader's state and the world itself,
    shared (nothing changes them once made). The rules files are not data: they are checked again
    every time.
    """

    def __init__(self) -> None:
        self._kept: dict[str | None, KeptRead] = {}

    def find(self, loader: LoaderBase) -> KeptRead | None:
        """The last reading for this loader's folder and variant, when every file it read is the
        same now; None otherwise."""
        kept = self._kept.get(loader.variant)
        if kept is None or kept.place != _place(loader):
            return None
        for (name, limit), found in kept.reads.items():
            if loader.fetch(name, limit) != found:
                return None
        return kept

    def keep(self, loader: LoaderBase, result: Any) -> None:
        """Remember a reading the loader has just done (with `reads` recording): its files, its
        diagnostics (all the loader has, since it reads its data first) and its state."""
        if loader.reads is None:
            raise ValueError("the loader did not record what it read")
        state = {name: _copy(value) for name, value in vars(loader).items() if name not in _INPUTS}
        self._kept[loader.variant] = KeptRead(_place(loader), dict(loader.reads), tuple(loader.diags.items),
                                              state, result)


def _place(loader: LoaderBase) -> tuple[str, str, str | None, str]:
    return str(loader.folder), str(loader.real_folder), loader.variant, os.getcwd()


def _copy(value: Any) -> Any:
    """A container of the loader's own, copied (the next steps add to some: sources, lines read)."""
    return copy.copy(value) if isinstance(value, (dict, list, set)) else value
