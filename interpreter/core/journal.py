"""Journals: a game as its game, seats, seed and every choice by option id; replayed exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Engine
from .savefile import SaveError, read_text, write_atomic

FORMAT = "cityrules-journal"
VERSION = 1
MAX_SEATS = 64
MAX_SEED = 2 ** 64
MAX_NAME = 40
MAX_AGENT = 4096  # a seat's agent may be a custom player named by its file's path


@dataclass
class Journal:
    """Everything needed to reproduce a game byte for byte."""

    game: str
    seats: int
    seed: int
    names: list[str]
    agents: list[str] = field(default_factory=list)
    choices: list[tuple[int, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    variant: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {"format": FORMAT, "version": VERSION, "game": self.game, "seats": self.seats,
                "seed": self.seed, "names": self.names, "agents": self.agents, "variant": self.variant,
                "choices": [[s, c] for s, c in self.choices], "result": self.result}

    def dumps(self) -> str:
        """JSON text, one choice per line so diffs stay readable."""
        d = self.to_dict()
        choices = d.pop("choices")
        head = json.dumps(d, ensure_ascii=False, sort_keys=True)[:-1]
        body = ",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in choices)
        return f'{head}, "choices": [\n{body}\n]}}\n' if choices else f'{head}, "choices": []}}\n'

    def save(self, path: Path, new: bool = False) -> None:
        """Write atomically and owner-only: a kill at any moment leaves the old journal or the new one.

        With `new`, an existing file is never replaced (SaveError).
        """
        write_atomic(path, self.dumps(), new=new)

    @staticmethod
    def load(path: Path) -> "Journal":
        """Read a journal file; raises ValueError with the reason, on one line, when it is not one."""
        try:
            text = read_text(path)
        except SaveError as err:
            raise ValueError(f"not a readable journal: {err}") from None
        return Journal.load_text(text, str(path))

    @staticmethod
    def load_text(text: str, where: str = "journal") -> "Journal":
        """Read a journal from its JSON text, refusing any value a journal cannot hold."""
        try:
            data = json.loads(text, parse_constant=_no_constant, parse_float=_no_float)
        except json.JSONDecodeError as err:
            raise ValueError(f"{where}: not a readable journal (line {err.lineno}, column {err.colno}: "
                             f"{err.msg})") from None
        except RecursionError:
            raise ValueError(f"{where}: not a readable journal (nested too deeply)") from None
        except ValueError as err:  # a float or constant refused above, or a number of too many digits
            raise ValueError(f"{where}: not a readable journal ({err})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{where}: not a cityrules journal")
        try:
            return _from_dict(data)
        except _Bad as err:
            raise ValueError(f"{where}: {err}") from None


class _Bad(Exception):
    """A value of the journal that is not what the format allows."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"'{name}' is not a number a journal holds")


def _no_float(text: str) -> Any:
    raise ValueError(f"'{text[:20]}' is not a whole number")


def _whole(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise _Bad(f"'{key}' must be a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise _Bad(f"'{key}' is {value}: it must be from {low} to {high}")
    return value


def _text_list(data: dict[str, Any], key: str, seats: int, allow_empty: bool = False,
               longest: int = MAX_NAME) -> list[str]:
    value = data.get(key, [] if allow_empty else None)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"'{key}' must be a list of texts, not {_shown(value)}")
    if value == [] and allow_empty:
        return []
    if len(value) != seats:
        raise _Bad(f"'{key}' lists {len(value)} entries for {seats} seats")
    if any(not v.strip() or len(v) > longest for v in value):
        raise _Bad(f"'{key}' holds an empty name or one longer than {longest} characters")
    return list(value)


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 30 else text[:27] + "..."


def _from_dict(data: dict[str, Any]) -> Journal:
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise _Bad(f"journal format version {_shown(version)}: this cityrules reads version {VERSION}")
    game = data.get("game")
    if not isinstance(game, str) or not game or len(game) > 4096:
        raise _Bad(f"'game' must name a game or a game folder, not {_shown(game)}")
    seats = _whole(data, "seats", 1, MAX_SEATS)
    seed = _whole(data, "seed", -MAX_SEED, MAX_SEED)
    names = _text_list(data, "names", seats)
    if len(set(names)) != len(names):
        raise _Bad("'names' gives two seats the same name")
    agents = _text_list(data, "agents", seats, allow_empty=True, longest=MAX_AGENT)
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise _Bad(f"'variant' must be a text or null, not {_shown(variant)}")
    raw = data.get("choices")
    if not isinstance(raw, list):
        raise _Bad(f"'choices' must be a list, not {_shown(raw)}")
    choices = []
    for k, entry in enumerate(raw):
        if (not isinstance(entry, list) or len(entry) != 2 or type(entry[0]) is not int
                or not 0 <= entry[0] < seats or not isinstance(entry[1], str)):
            raise _Bad(f"choice {k + 1} must be [seat number, option id], not {_shown(entry)}")
        choices.append((entry[0], entry[1]))
    result = data.get("result")
    if result is not None:
        winners = result.get("winners") if isinstance(result, dict) else None
        if not isinstance(winners, list) or not all(type(w) is int and 0 <= w < seats for w in winners):
            raise _Bad(f"'result' must be null or hold the winners' seat numbers, not {_shown(result)}")
    return Journal(game, seats, seed, names, agents, choices, result, variant)


def replay(engine: Engine, journal: Journal) -> dict[str, Any]:
    """The state after replaying every choice of the journal (raises IllegalChoice if one fails)."""
    state = engine.new_game(journal.seats, journal.seed, journal.names)
    for seat, option in journal.choices:
        engine.apply_inplace(state, option, seat)
    return state
