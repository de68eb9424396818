"""Journals: a game as its game, seats, seed and every choice by option id; replayed exactly."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import Engine

FORMAT = "cityrules-journal"
VERSION = 1


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

    def save(self, path: Path) -> None:
        """Write atomically, so a session killed mid-write never leaves a broken journal."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.dumps(), encoding="utf-8")
        os.replace(tmp, path)

    @staticmethod
    def load(path: Path) -> "Journal":
        """Read a journal file; raises ValueError with the reason when it is not one."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise ValueError(f"{path}: not a readable journal ({err})") from None
        return Journal.load_text(text, str(path))

    @staticmethod
    def load_text(text: str, where: str = "journal") -> "Journal":
        """Read a journal from its JSON text."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"{where}: not a readable journal ({err})") from None
        path = where
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{path}: not a cityrules journal")
        try:
            return Journal(str(data["game"]), int(data["seats"]), int(data["seed"]), list(data["names"]),
                           list(data.get("agents", [])), [(int(s), str(c)) for s, c in data["choices"]],
                           data.get("result"), data.get("variant"))
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path}: journal is missing or has a bad '{err}'") from None


def replay(engine: Engine, journal: Journal) -> dict[str, Any]:
    """The state after replaying every choice of the journal (raises IllegalChoice if one fails)."""
    state = engine.new_game(journal.seats, journal.seed, journal.names)
    for seat, option in journal.choices:
        engine.apply_inplace(state, option, seat)
    return state
