"""Shared by the adapter tests: the games they run on, positions reached by random play, hidden twins."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from interpreter.core.engine import Engine
from interpreter.core.state import copy_state
from interpreter.load.loader import shipped_games

HARBOUR = str(Path(__file__).resolve().parents[1] / "examples" / "harbour")
GAMES = [*shipped_games(), HARBOUR]


def positions(engine: Engine, seats: int, seed: int, every: int = 1, limit: int = 400) -> list[dict[str, Any]]:
    """States at decisions of one random game (every `every`-th, at most `limit` answers in)."""
    pick = random.Random(seed)
    state = engine.new_game(seats, seed)
    found = []
    while state["result"] is None and state["decisions"] < limit:
        if state["decisions"] % every == 0:
            found.append(copy_state(state))
        seat = engine.first_open_seat(state)
        engine.apply_index(state, seat, pick.randrange(engine.option_count(state, seat)))
    return found


def _hidden_from(visible: str, owner: int | None, seat: int) -> bool:
    return visible == "nobody" or (visible == "owner" and owner != seat)


def _shape(value: Any) -> Any:
    return [_shape(v) for v in value] if isinstance(value, list) else None


def _leaves(value: Any) -> list[Any]:
    return [leaf for v in value for leaf in _leaves(v)] if isinstance(value, list) else [value]


def _refill(shape: Any, leaves: list[Any]) -> Any:
    return [_refill(s, leaves) for s in shape] if isinstance(shape, list) else leaves.pop()


def _altered(value: Any, pick: random.Random) -> Any:
    """Another value of the same shape: the elements of lists reordered (nesting and sizes kept, they
    may be public), numbers and yes/no changed."""
    if isinstance(value, list):
        leaves = [_altered(v, pick) for v in _leaves(value)]
        pick.shuffle(leaves)
        if len(set(map(repr, leaves))) > 1 and leaves == _leaves(value):
            leaves = leaves[1:] + leaves[:1]
        return _refill(_shape(value), leaves[::-1])
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, dict):
        return {k: _altered(v, pick) for k, v in value.items()}
    return value


def hidden_twin(engine: Engine, state: dict[str, Any], seat: int, seed: int = 0) -> tuple[dict[str, Any], int]:
    """A copy of the state that differs only in what `seat` may not see; and how many parts were changed.

    Hidden fields are reordered or changed (lists keep their shapes, which may be public); the
    contents of hidden lists are also exchanged with other hidden lists of the same shape; answers
    other seats gave to an open simultaneous choice are changed; a private log line is added.
    """
    pick = random.Random(seed)
    twin = copy_state(state)
    g = engine.game
    changed = 0
    hidden_lists: list[tuple[list[Any], int]] = []
    for f in g.global_fields:
        if _hidden_from(f.visible, None, seat):
            twin["global"][f.name] = _altered(twin["global"][f.name], pick)
            changed += 1
    for f in g.seat_fields:
        for owner in range(state["seats"]):
            if _hidden_from(f.visible, owner, seat):
                twin["seat"][f.name][owner] = _altered(twin["seat"][f.name][owner], pick)
                changed += 1
                if isinstance(twin["seat"][f.name][owner], list):
                    hidden_lists.append((twin["seat"][f.name], owner))
    for f in g.node_fields:
        if f.visible != "all":
            twin["node"][f.name] = [_altered(v, pick) for v in twin["node"][f.name]]
            changed += 1
    for kind, fields in g.component_fields.items():
        for f in fields:
            if f.visible != "all":
                twin["components"][kind][f.name] = [_altered(v, pick) for v in twin["components"][kind][f.name]]
                changed += 1
    # Exchange the contents of hidden lists of the same size (another seat's hand for a third's).
    for (a, i), (b, j) in zip(hidden_lists, hidden_lists[1:]):
        if _shape(a[i]) == _shape(b[j]) and a[i] != b[j]:
            a[i], b[j] = b[j], a[i]
            changed += 1
    p = twin["pending"]
    if p is not None:
        for i, s in enumerate(p["seats"]):
            if s != seat and p["done"][i] and len(p["options"][i]) > 1:
                others = [o for o in p["options"][i] if o != p["answers"][i]]
                p["answers"][i] = pick.choice(others)
                changed += 1
    others = [s for s in range(state["seats"]) if s != seat]
    twin["log"] = list(twin["log"]) + [{"kind": "secret", "text": "a line only another seat may read",
                                         "seats": others, "data": {}, "to": others}]
    return twin, changed + 1
