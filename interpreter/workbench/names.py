"""What a scenario names, read against one game: seats by name, nodes and items by id, field paths.

A field path reads like the rules: `round` (a global field), `Ana.money` (a seat's field),
`8.plaque` (a node's), `hospital-b.face_up` (an item's), then map keys and list positions
(`piles.west`, `supply.housing.square`, `Ana.piles.0`). `seats.FIELD`, `nodes.FIELD` and
`COLLECTION.FIELD` (such as `all_cards.face_up`) name the field of every seat, node or item.
Values are written as in the game's YAML: node and item ids, seats by name (or number), `null`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ruledsl.diagnostics import an, copies_hint, did_you_mean
from ruledsl.types import Type
from ruledsl.world import Field

from ..core.game import Game
from .where import Problem, Y, kind_of

Key = str | int


@dataclass(frozen=True)
class Target:
    """One place in the state: a field of the game, a seat, a node or an item, and keys inside it."""

    text: str
    owner: str                 # "global", "seat", "node" or a component kind
    field: str
    index: int | None          # the seat, node or item (None for a global field)
    keys: tuple[Key, ...]
    type: Type

    def _holder(self, state: dict[str, Any]) -> tuple[Any, Key]:
        """The container holding the value, and its key there."""
        holder: Any
        key: Key
        if self.owner == "global":
            holder, key = state["global"], self.field
        elif self.owner in ("seat", "node"):
            holder, key = state[self.owner][self.field], self.index or 0
        else:
            holder, key = state["components"][self.owner][self.field], self.index or 0
        for k in self.keys:
            holder, key = holder[key], k
        return holder, key

    def get(self, state: dict[str, Any]) -> Any:
        """The value now (KeyError or IndexError when a key is missing)."""
        holder, key = self._holder(state)
        return holder[key]

    def set(self, state: dict[str, Any], value: Any) -> None:
        """Store a value (the state's own plain data; nothing is checked here)."""
        holder, key = self._holder(state)
        holder[key] = value


class Names:
    """The names of one game, for a scenario with these seat names."""

    def __init__(self, game: Game, seat_names: list[str]):
        self.game = game
        self.seats = list(seat_names)
        world = game.world
        self.ids: dict[str, dict[str, int]] = {"node": {str(n): i for i, n in enumerate(world.node_ids)}}
        self.kind_fields: dict[str, dict[str, Field]] = {}
        self.collections: dict[str, str] = {}
        for kind, comp in world.components.items():
            self.ids[kind] = {str(n): i for i, n in enumerate(comp.ids)}
            self.kind_fields[kind] = dict(comp.fields)
            self.collections[comp.collection] = kind
        self.id_lists: dict[str, tuple[Any, ...]] = {"node": world.node_ids,
                                                     **{k: c.ids for k, c in world.components.items()}}

    # ------------------------------------------------------------------ seats
    def seat(self, value: Any) -> int | None:
        """A seat from its name or number, or None."""
        if isinstance(value, str) and value in self.seats:
            return self.seats.index(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(self.seats):
            return value
        return None

    def seat_of(self, y: Y) -> int:
        """A seat written in the scenario; a Problem when there is no such seat."""
        found = self.seat(y.value)
        if found is None:
            raise Problem(y.span, "unknown-name", f"no seat called {_shown(y.value)} in this scenario "
                          f"(seats: {', '.join(self.seats)})", did_you_mean(str(y.value), self.seats))
        return found

    # ------------------------------------------------------------------ paths
    def targets(self, y: Y) -> list[Target]:
        """The places a field path names (several for `seats.`, `nodes.` or a collection)."""
        text = str(y.value)
        parts = text.split(".")
        head, rest = parts[0], parts[1:]
        world = self.game.world
        if head in world.global_fields:
            return [self._walk(y, "global", head, None, rest, world.global_fields[head].type)]
        if not rest:
            raise Problem(y.span, "unknown-field", f"no global field '{head}'",
                          did_you_mean(head, list(world.global_fields))
                          or "a seat's, node's or item's field is written WHO.FIELD, like Ana.money")
        field, keys = rest[0], rest[1:]
        owners = self._owners(head)
        if not owners and "+" in head:
            owners = self._several(y, head)
        if not owners:
            items = [i for kind, ids in self.ids.items() if kind != "node" for i in ids]
            raise Problem(y.span, "unknown-name", f"'{head}' is not a field, a seat, a node or an item",
                          copies_hint(head, items) or did_you_mean(head, [*world.global_fields, *self.seats, "seats", "nodes",
                                              *self.collections, *self.ids["node"]]))
        matches = [(owner, index) for owner, index in owners if field in self._fields(owner)]
        if not matches:
            owner = owners[0][0]
            raise Problem(y.span, "unknown-field", f"{_plural(owner)} have no field '{field}'",
                          did_you_mean(field, list(self._fields(owner))))
        if len({owner for owner, _ in matches}) > 1:
            kinds = " and ".join(f"{an(owner)}" for owner, _ in matches)
            raise Problem(y.span, "unknown-name", f"'{head}' is {kinds}, each with a field '{field}'",
                          "name them all with seats., nodes. or the collection's name")
        owner = matches[0][0]
        t = self._fields(owner)[field].type
        return [self._walk(y, owner, field, index, keys, t) for _, index in matches]

    def who(self, owner: str, index: int | None) -> str:
        """How a path names a seat, a node or an item: its name or id."""
        if index is None:
            return ""
        if owner == "seat":
            return self.seats[index]
        return str(self.id_lists[owner][index])

    def _several(self, y: Y, head: str) -> list[tuple[str, int | None]]:
        """The owners of a path naming several seats, nodes or items joined by '+' (`a1+a2+a3.owner`)."""
        found: list[tuple[str, int | None]] = []
        for part in head.split("+"):
            owners = self._owners(part) if part not in ("seats", "nodes", *self.collections) else []
            if not owners:
                raise Problem(y.span, "unknown-name", f"'{part}' (in '{head}') is not a seat, a node or an item",
                              did_you_mean(part, [*self.seats, *self.ids["node"],
                                                  *(i for k, ids in self.ids.items() if k != "node" for i in ids)])
                              or "ids joined by '+' name several seats, nodes or items")
            found += [o for o in owners if o not in found]
        return found

    def _owners(self, head: str) -> list[tuple[str, int | None]]:
        """Who a path's first part may be: (owner, index) pairs; every one for seats./nodes./collections."""
        if head == "seats":
            return [("seat", i) for i in range(len(self.seats))]
        if head == "nodes":
            return [("node", i) for i in range(len(self.game.world.node_ids))]
        if head in self.collections:
            kind = self.collections[head]
            return [(kind, i) for i in range(len(self.ids[kind]))]
        found: list[tuple[str, int | None]] = []
        if head in self.seats:
            found.append(("seat", self.seats.index(head)))
        for owner, ids in self.ids.items():
            if head in ids:
                found.append((owner, ids[head]))
        return found

    def _fields(self, owner: str) -> dict[str, Field]:
        world = self.game.world
        if owner == "seat":
            return dict(world.seat_fields)
        if owner == "node":
            return dict(world.node_fields)
        return self.kind_fields[owner]

    def _walk(self, y: Y, owner: str, field: str, index: int | None, keys: list[str], t: Type) -> Target:
        """Follow map keys and list positions from a field to the part a path names."""
        walked: list[Key] = []
        for key in keys:
            if t.kind == "map":
                walked.append(key)
                t = t.args[1]
            elif t.kind in ("list", "tuple"):
                try:
                    position = int(key)
                except ValueError:
                    raise Problem(y.span, "type", f"'{key}': {an(t)} is read by position, a number from 0",
                                  None) from None
                if t.kind == "tuple" and not -len(t.args) <= position < len(t.args):
                    raise Problem(y.span, "unknown-key", f"{t} has no part {position}")
                walked.append(position)
                t = t.args[0] if t.kind == "list" else t.args[position]
            else:
                raise Problem(y.span, "type", f"'{key}': {field} is {an(t)}, which has no parts")
        text = ".".join([self.who(owner, index), field, *keys] if index is not None else [field, *keys])
        return Target(text, owner, field, index, tuple(walked), t)

    # ------------------------------------------------------------------ values
    def value(self, y: Y, t: Type) -> Any:
        """A value written in the scenario, as the state holds it (node and item ids become indexes)."""
        v = y.value
        if v is None:
            if t.nullable or t.kind in ("any", "none"):
                return None
            raise Problem(y.span, "type", f"this must be {an(t)}, not null", f"the field's type is {t}")
        kind = t.kind
        if kind == "any":
            return v
        if kind == "int" and isinstance(v, int) and not isinstance(v, bool):
            return v
        if kind == "bool":
            if isinstance(v, bool):
                return v
            if v in ("yes", "no"):
                return v == "yes"
        if kind == "str" and isinstance(v, str):
            declared = self.game.world.name_sets.get(t.names)
            if declared is not None and v not in declared.values:
                raise Problem(y.span, "unknown-value", *declared.missing(v))
            return v
        if kind == "seat":
            return self.seat_of(y)
        if kind in self.ids:
            found = self.ids[kind].get(str(v)) if isinstance(v, (int, str)) and not isinstance(v, bool) else None
            if found is None:
                raise Problem(y.span, "unknown-name", f"no {kind} has the id {_shown(v)}",
                              copies_hint(str(v), self.ids[kind]) or did_you_mean(str(v), list(self.ids[kind])))
            return found
        if kind == "list" and isinstance(v, list):
            return [self.value(e, t.args[0]) for e in y.elements()]
        if kind == "tuple" and isinstance(v, list) and len(v) == len(t.args):
            return [self.value(e, a) for e, a in zip(y.elements(), t.args)]
        if kind == "map" and isinstance(v, dict):
            return {str(k.value): self.value(part, t.args[1]) for k, part in y.items()}
        hint = "quote it to make it a text" if kind == "str" else None
        raise Problem(y.span, "type", f"this must be {an(t)}, not {kind_of(v)} ({_shown(v)})", hint)

    def show(self, value: Any, t: Type) -> str:
        """A state value as a scenario would write it: ids, seat names, null."""
        if value is None:
            return "null"
        kind = t.kind
        if kind == "bool" or isinstance(value, bool):
            return "true" if value else "false"
        if kind == "seat" and isinstance(value, int) and 0 <= value < len(self.seats):
            return self.seats[value]
        if kind in self.id_lists and isinstance(value, int) and 0 <= value < len(self.id_lists[kind]):
            return str(self.id_lists[kind][value])
        if kind == "list" and isinstance(value, list):
            return "[" + ", ".join(self.show(v, t.args[0]) for v in value) + "]"
        if kind == "tuple" and isinstance(value, list):
            return "[" + ", ".join(self.show(v, a) for v, a in zip(value, t.args)) + "]"
        if kind == "map" and isinstance(value, dict):
            return "{" + ", ".join(f"{k}: {self.show(v, t.args[1])}" for k, v in value.items()) + "}"
        return _shown(value)


def _plural(owner: str) -> str:
    return {"seat": "seats", "node": "nodes", "global": "the game's fields"}.get(owner, f"{owner} items")


def _shown(value: Any) -> str:
    """Plain YAML values as a person reads them."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value and value.strip() == value else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


shown = _shown
