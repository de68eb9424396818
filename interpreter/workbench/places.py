"""Setting fields that hold the pieces of a component kind without losing or doubling a piece.

A kind's `places` (game.yaml) are the fields that together hold each of its items exactly once.
When a scenario puts items into one of them (`Ana.hand: [grain-1]`), each is first taken out of
wherever it was; items the change leaves nowhere (the hand's old cards) go to the end of the
kind's first place, its deck in most games. An inner list emptied by taking an item out (a pile of
a list of piles) is dropped. Fields the game derives from these (London's visible tops) are the
scenario's to set.
"""

from __future__ import annotations

from typing import Any

from ruledsl.types import Type

from ..core.game import Game
from .names import Names, Target
from .where import Problem, Y


def holds(t: Type, kind: str) -> bool:
    """Can a value of type t contain items of the kind?"""
    return t.kind == kind or any(holds(a, kind) for a in t.args)


def items_in(value: Any, t: Type, kind: str) -> list[int]:
    """The items of the kind inside a value of type t, in order, with repeats."""
    if value is None:
        return []
    if t.kind == kind:
        return [value]
    if t.kind == "list":
        return [i for v in value for i in items_in(v, t.args[0], kind)]
    if t.kind == "tuple":
        return [i for v, a in zip(value, t.args) for i in items_in(v, a, kind)]
    if t.kind == "map":
        return [i for v in value.values() for i in items_in(v, t.args[1], kind)]
    return []


def _without(value: Any, t: Type, kind: str, item: int) -> tuple[Any, bool]:
    """The value with the item taken out (an emptied inner list dropped), and whether it was there."""
    if value is None:
        return value, False
    if t.kind == kind:
        return (None, True) if value == item else (value, False)
    if t.kind == "list":
        elem = t.args[0]
        if elem.kind == kind:
            return [v for v in value if v != item], item in value
        out, found = [], False
        for v in value:
            new, hit = _without(v, elem, kind, item)
            found = found or hit
            if not (hit and elem.kind == "list" and new == []):
                out.append(new)
        return out, found
    if t.kind == "map":
        found = False
        out_map = {}
        for k, v in value.items():
            out_map[k], hit = _without(v, t.args[1], kind, item)
            found = found or hit
        return out_map, found
    return value, False


class Placer:
    """Sets fields for a scenario, keeping every item of a kind with places in exactly one of them."""

    def __init__(self, game: Game, names: Names):
        self.game = game
        self.names = names
        world = game.world
        self.places: dict[str, list[Target]] = {}
        for kind, fields in game.component_places.items():
            spots: list[Target] = []
            for field in fields:
                if field in world.global_fields:
                    spots.append(Target(field, "global", field, None, (), world.global_fields[field].type))
                else:
                    t = world.seat_fields[field].type
                    spots += [Target(f"{n}.{field}", "seat", field, s, (), t) for s, n in enumerate(names.seats)]
            self.places[kind] = spots

    def kinds_of(self, target: Target) -> list[str]:
        """The kinds whose places this target is (or is inside of)."""
        return [kind for kind, spots in self.places.items()
                if any(s.owner == target.owner and s.field == target.field for s in spots)
                and holds(target.type, kind)]

    def assign(self, state: dict[str, Any], target: Target, value: Any, y: Y, placed: dict[tuple[str, int], Y]) -> None:
        """Store the value; items it holds leave their old places, items it drops go to the first place.

        `placed` remembers the items this step has put somewhere, to report one named twice.
        """
        kinds = self.kinds_of(target)
        if not kinds:
            target.set(state, value)
            return
        old = target.get(state)
        for kind in kinds:
            for item in items_in(value, target.type, kind):
                if (kind, item) in placed:
                    first = placed[(kind, item)].span
                    raise Problem(y.span, "type", f"{self.names.show(item, Type(kind))} is put in two places by "
                                  f"this step (first at line {first.line})")
                placed[(kind, item)] = y
                self._take_out(state, kind, item)
        target.set(state, value)
        for kind in kinds:
            dropped = [i for i in items_in(old, target.type, kind) if i not in items_in(value, target.type, kind)]
            for item in dropped:
                if not self._anywhere(state, kind, item):
                    self._home(state, kind, item, y)

    def _take_out(self, state: dict[str, Any], kind: str, item: int) -> None:
        for spot in self.places[kind]:
            new, found = _without(spot.get(state), spot.type, kind, item)
            if found:
                spot.set(state, new)

    def _anywhere(self, state: dict[str, Any], kind: str, item: int) -> bool:
        return any(item in items_in(spot.get(state), spot.type, kind) for spot in self.places[kind])

    def _home(self, state: dict[str, Any], kind: str, item: int, y: Y) -> None:
        first = self.places[kind][0]
        if first.owner != "global" or first.type.kind != "list" or first.type.args[0].kind != kind:
            raise Problem(y.span, "type", f"{self.names.show(item, Type(kind))} would be left nowhere: "
                          f"say where it goes (the first place, {first.field}, is not a list of {kind})")
        first.get(state).append(item)

    def misplaced(self, state: dict[str, Any]) -> list[str]:
        """Items that are in none of their kind's places, or in more than one (empty when all is well)."""
        found = []
        for kind, spots in self.places.items():
            where: dict[int, list[str]] = {}
            for spot in spots:
                for item in items_in(spot.get(state), spot.type, kind):
                    where.setdefault(item, []).append(spot.text)
            for item in range(len(self.names.ids[kind])):
                seen = where.get(item, [])
                if len(seen) != 1:
                    name = self.names.show(item, Type(kind))
                    found.append(f"{name} is in {' and '.join(seen)}" if seen else f"{name} is nowhere")
        return found
