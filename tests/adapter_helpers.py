"""Shared by the adapter tests: the games they run on, positions reached by random play, hidden twins."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from interpreter.adapters.common import engine_of
from interpreter.core.engine import SECRET_OPTIONS, Engine
from interpreter.core.state import copy_state
from interpreter.load.loader import shipped_games

HARBOUR = str(Path(__file__).resolve().parents[1] / "examples" / "harbour")
GAMES = [*shipped_games(), HARBOUR]
# The games with secret choices (answered by several seats at once, each unseen by the others).
SECRET_GAMES = [g for g in GAMES if any(c.secret for c in engine_of(g, None).program.chooses)]


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


def backs_of(engine: Engine, f: Any) -> tuple[Any, ...] | None:
    """What the back of each item shows, for a field holding items of a kind that declares a back."""
    return engine.game.item_backs(f.type_text.replace("list[", "").rstrip("]?"))


def _alike(item: int, backs: tuple[Any, ...]) -> int:
    """The next item whose back shows what `item`'s does (every seat can tell them apart from others)."""
    order = [*range(item + 1, len(backs)), *range(item + 1)]
    return next(other for other in order if backs[other] == backs[item])


def _altered(value: Any, pick: random.Random, backs: tuple[Any, ...] | None = None) -> Any:
    """Another value of the same shape: the elements of lists reordered (nesting and sizes kept, they
    may be public), numbers and yes/no changed; items whose kind declares a back (`backs`) each
    changed for another of the same back, in place."""
    if backs is not None and isinstance(value, list):
        return _refill(_shape(value), [_alike(item, backs) for item in _leaves(value)][::-1])
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
            twin["global"][f.name] = _altered(twin["global"][f.name], pick, backs_of(engine, f))
            changed += 1
    for f in g.seat_fields:
        for owner in range(state["seats"]):
            if _hidden_from(f.visible, owner, seat):
                twin["seat"][f.name][owner] = _altered(twin["seat"][f.name][owner], pick, backs_of(engine, f))
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
    changed += change_secret_answers(engine, twin, seat, pick, secret_only=False)
    others = [s for s in range(state["seats"]) if s != seat]
    twin["log"] = list(twin["log"]) + [{"kind": "secret", "text": "a line only another seat may read",
                                         "seats": others, "data": {}, "to": others}]
    return twin, changed + 1


def change_secret_answers(engine: Engine, state: dict[str, Any], seat: int, pick: random.Random,
                          secret_only: bool = True) -> int:
    """Change, in place, the answers other seats gave that `seat` may not know; how many were changed.

    These are the answers given so far to the open simultaneous choice (to a secret one only, unless
    `secret_only` is False), and the answers of finished secret choices that running phases still
    hold in their variables (next to the options each seat had, under SECRET_OPTIONS keys).
    """
    changed = 0
    p = state["pending"]
    if p is not None and (not secret_only or engine.program.chooses[p["spec"]].secret):
        for i, s in enumerate(p["seats"]):
            if s != seat and p["done"][i] and len(p["options"][i]) > 1:
                p["answers"][i] = pick.choice([o for o in p["options"][i] if o != p["answers"][i]])
                changed += 1
    for frame in state["stack"]:
        L = frame[2]
        for key in [k for k in L if k.startswith(SECRET_OPTIONS)]:
            var = key[len(SECRET_OPTIONS):]
            each, asked = L[key]
            for s, options in enumerate(asked):
                if s == seat or options is None or len(options) < 2 or not each:
                    continue
                L[var][s] = pick.choice([o for o in options if o != L[var][s]])
                changed += 1
    return changed


def secret_twins(engine: Engine, seats: int, seed: int, limit: int = 250
                 ) -> list[tuple[dict[str, Any], int, dict[str, Any]]]:
    """(state, seat, twin) at the decisions of a random game where other seats' secret answers are
    unknown to `seat`; the twin differs from the state in those answers only."""
    found = []
    for state in positions(engine, seats, seed, limit=limit):
        for seat in range(seats):
            twin = copy_state(state)
            if change_secret_answers(engine, twin, seat, random.Random(seat)):
                found.append((state, seat, twin))
    return found
