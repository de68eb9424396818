"""The game state: plain JSON-ready data, cheap to copy, including where the rules are paused.

Layout:
  game, seats, names, seed      who plays what
  rng                           the seeded generator (one integer)
  seat / node / global          the game's own data, by field (seat and node fields are lists)
  components                    per component kind, its fields (a list per field, by item)
  stack                         running phases: [phase, block, locals] each
  pending                       the decision being collected (answers stay here until complete)
  ledger                        per field: amounts paid and gained by each seat
  log                           events, oldest first; never changed once written
  result, decisions             the end of the game, and how many answers were given
"""

from __future__ import annotations

import json
import marshal
from typing import TYPE_CHECKING, Any

from . import rng

if TYPE_CHECKING:
    from .game import Game

_DEEP = ("seat", "node", "global", "components", "stack", "pending", "ledger", "result")


def default_names(seats: int) -> list[str]:
    """Seat names used when none are given."""
    pool = ["Ana", "Ben", "Chloé", "Dev", "Eli", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
    return [pool[i] if i < len(pool) else f"Seat {i + 1}" for i in range(seats)]


def initial_state(game: "Game", seats: int, seed: int, names: list[str] | None = None,
                  start: bytes | None = None) -> dict[str, Any]:
    """The state before any rule has run; `start`: the game's data for this many seats, from `start_data`."""
    names = list(names) if names else default_names(seats)
    if len(names) != seats:
        raise ValueError(f"{seats} seats need {seats} names, got {len(names)}")
    data = _start(game, seats) if start is None else marshal.loads(start)
    return {
        "game": game.name,
        "variant": game.variant,
        "seats": seats,
        "names": names,
        "seed": seed,
        "rng": rng.seed_state(seed),
        "seat": data["seat"],
        "node": data["node"],
        "global": data["global"],
        "components": data["components"],
        "stack": [],
        "pending": None,
        "ledger": {},
        "log": [],
        "result": None,
        "decisions": 0,
    }


def start_data(game: "Game", seats: int) -> bytes | None:
    """The game's own data before any rule has run, for this many seats, marshalled: each load of it
    is a fresh copy (an engine keeps it, so that starting a game is one load instead of a build).
    None when some initial value is not plain data."""
    try:
        return marshal.dumps(_start(game, seats))
    except ValueError:
        return None


def _start(game: "Game", seats: int) -> dict[str, Any]:
    nodes = len(game.node_ids)
    return {
        "seat": {f.name: _column(f.initial, seats) for f in game.seat_fields},
        "node": {f.name: _column(f.initial, nodes) for f in game.node_fields},
        "global": {f.name: _column(f.initial, 1)[0] for f in game.global_fields},
        "components": {kind: {f.name: _column(f.initial, len(game.world.components[kind].ids)) for f in fields}
                       for kind, fields in game.component_fields.items()},
    }


def _column(value: Any, count: int) -> list[Any]:
    """`count` independent copies of a field's initial value (one value shared when it cannot change).

    Built a column at a time: a simulation starts thousands of games and this was a few percent of each.
    """
    if type(value) is list and not value:
        return [[] for _ in range(count)]
    if type(value) in (list, dict):
        data = marshal.dumps(value)
        return [marshal.loads(data) for _ in range(count)]
    return [value] * count


def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """An independent copy; log events are shared because they are never changed."""
    new = dict(state)
    # One round trip for every deep part (a bot copies a state at every position it judges).
    for key, part in zip(_DEEP, marshal.loads(marshal.dumps([state[key] for key in _DEEP]))):
        new[key] = part
    new["log"] = list(state["log"])
    return new


def to_json(state: dict[str, Any]) -> str:
    """The state as JSON text (stable key order)."""
    return json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def from_json(text: str) -> dict[str, Any]:
    """A state read back from `to_json`."""
    state: dict[str, Any] = json.loads(text)
    return state
