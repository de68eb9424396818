"""Undo: taking back a person's last choice, and deciding, for any game, whether that would let them
use something they have learnt since.

A choice may be taken back only when the person has learnt nothing since that they did not know
when they made it. That is decided from the states and views before the choice ("then") and now,
without knowing the game:

1. chance: the generator's state changed (a shuffle or a roll happened);
2. hidden fields: a field this seat cannot see changed (a draw from a hidden pile, another
   player's hand or private count);
3. secret answers: another seat's answer to a secret choice was held by the rules at the time of
   the choice or has been given since (it may have been revealed, as votes are once all are in);
4. new sights: an item (a card, a tile) is now visible to the seat that it could see nowhere then;
5. people: another person plays at this table (only choices among bots can be replayed unseen).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from ruledsl.types import Type, TypeSyntaxError, parse_type

from ..core.engine import Engine
from ..core.game import FieldSpec, Game
from ..core.view import HIDDEN

MAX_CHECKPOINTS = 200
"""How many of a person's choices can be taken back one after another."""


@dataclass
class Checkpoint:
    """The table just before a person answered: enough to put everything back."""

    seat: int
    state: dict[str, Any]          # a copy of the state before the answer
    choices: int                   # how many choices the journal held
    held: list[tuple[int, str]]    # answers to a secret choice in progress, not yet journaled
    view: dict[str, Any]           # what the seat saw
    secret_flags: int = 0          # how many entries the session's list of secret answers had
    marks: int = 0                 # how many explain marks the session had


def refusal(engine: Engine, then: Checkpoint, now: dict[str, Any], now_view: dict[str, Any],
            secret_since: list[int]) -> str | None:
    """Why the seat may not take back the choice made at `then` (None: it may). `secret_since`
    lists the seats (other than this one) that answered a secret choice since then. (Rule 5, other
    people at the table, is the session's to check: it keeps no checkpoint then.)"""
    seat = then.seat
    state = then.state
    if state["rng"] != now["rng"]:
        return "chance has spoken since (a shuffle or a roll): taking the choice back would let you play it again"
    changed = hidden_changes(engine.game, state, now, seat)
    if changed:
        return f"hidden information has changed since ({changed[0]}): you may have learnt from it"
    held = held_secret_answers(engine, state, seat)
    if held or secret_since:
        return ("other players' secret answers were made or known to the rules since that choice "
                "(and may have been shown): it stands")
    seen = new_items(engine.game, then.view, now_view)
    if seen:
        return f"you have seen {seen[0]} since: it stands"
    return None


def hidden_changes(game: Game, then: dict[str, Any], now: dict[str, Any], seat: int) -> list[str]:
    """The fields hidden from `seat` (entirely or another seat's part) whose real value changed."""
    found = []
    for f in game.global_fields:
        if f.visible != "all" and then["global"][f.name] != now["global"][f.name]:
            found.append(_title(f))
    for f in game.seat_fields:
        if f.visible == "all":
            continue
        for owner in range(then["seats"]):
            if (f.visible == "nobody" or owner != seat) and then["seat"][f.name][owner] != now["seat"][f.name][owner]:
                found.append(f"{then['names'][owner]}'s {_title(f)}")
    for f in game.node_fields:
        if f.visible != "all" and then["node"][f.name] != now["node"][f.name]:
            found.append(_title(f))
    for kind, fields in game.component_fields.items():
        for f in fields:
            if f.visible != "all" and then["components"][kind][f.name] != now["components"][kind][f.name]:
                found.append(f"the {kind}s' {_title(f)}")
    return found


def held_secret_answers(engine: Engine, state: dict[str, Any], seat: int) -> bool:
    """True when, in `state`, the rules hold another seat's answer to a secret choice: given to the
    pending choice, or kept in a variable of a running phase named after a secret choice."""
    chooses = engine.program.chooses
    p = state["pending"]
    if p is not None and chooses[p["spec"]].secret:
        if any(done and s != seat for s, done in zip(p["seats"], p["done"])):
            return True
    secret_names = {spec.var for spec in chooses if spec.secret}
    for frame in state["stack"]:
        local = frame[2] if isinstance(frame, (list, tuple)) and len(frame) > 2 else None
        if isinstance(local, dict) and secret_names & set(local):
            return True
    return False


def new_items(game: Game, then: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Items (of component kinds) the seat's view shows now and showed nowhere then, by name."""
    before = set(_items_in_view(game, then))
    fresh = [atom for atom in _items_in_view(game, now) if atom not in before]
    names = []
    for kind, index in fresh:
        component = game.world.components[kind]
        column = component.attr_values.get("name")
        names.append(str(column[index]) if column is not None else str(component.ids[index]))
    return names


def _items_in_view(game: Game, shown: dict[str, Any]) -> Iterator[tuple[str, int]]:
    kinds = game.world.components
    for f in game.global_fields:
        yield from _items(_type(f, kinds), shown["global"][f.name])
    for f in game.seat_fields:
        for value in shown["seats"][f.name]:
            yield from _items(_type(f, kinds), value)
    for f in game.node_fields:
        column = shown["node"][f.name]
        if column != HIDDEN:
            for value in column:
                yield from _items(_type(f, kinds), value)


def _type(f: FieldSpec, kinds: Any) -> Type | None:
    try:
        return parse_type(f.type_text, kinds)
    except TypeSyntaxError:
        return None


def _items(t: Type | None, value: Any) -> Iterator[tuple[str, int]]:
    """(kind, index) of every item a value of type `t` holds (hidden parts hold none)."""
    if t is None or value is None or value == HIDDEN:
        return
    if t.kind in ("list",) and isinstance(value, list):
        for v in value:
            yield from _items(t.args[0], v)
    elif t.kind == "map" and isinstance(value, dict):
        for v in value.values():
            yield from _items(t.args[1], v)
    elif t.kind == "tuple" and isinstance(value, list):
        for a, v in zip(t.args, value):
            yield from _items(a, v)
    elif t.kind not in ("int", "str", "bool", "seat", "node", "none", "any") and isinstance(value, int):
        yield (t.kind, value)


def _title(f: FieldSpec) -> str:
    return f.title or f.name.replace("_", " ")
