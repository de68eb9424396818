"""Setting fields that hold the pieces of a component kind without losing or doubling a piece.

A kind's `places` (game.yaml) are the fields that together hold each of its items exactly once.
When a scenario puts items into one of them (`Ana.hand: [grain-1]`), each is first taken out of
wherever it was. Items a step leaves nowhere (the hand's old cards) go, once the step is done, to
the end of the first place (in the order of `places`) that the step did not give a whole new
value: the deck in most games, unless the step emptied it. An inner list emptied by taking an
item out (a pile of a list of piles) is dropped. Fields the game derives from these (the visible
top card of each pile, say) are the scenario's to set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass
class PlacingStep:
    """What one `set` step has done so far to the pieces."""

    named: dict[tuple[str, int], Y] = field(default_factory=dict)     # items it wrote, and where
    replaced: set[tuple[str, str]] = field(default_factory=set)       # places given a whole new value
    dropped: list[tuple[str, int, Y]] = field(default_factory=list)   # items taken off a field it set


class Placer:
    """Sets fields for a scenario, keeping every item of a kind with places in exactly one of them."""

    def __init__(self, game: Game, names: Names):
        self.game = game
        self.names = names
        world = game.world
        self.places: dict[str, list[Target]] = {}
        for kind, fields in game.component_places.items():
            spots: list[Target] = []
            for place in fields:
                if place in world.global_fields:
                    spots.append(Target(place, "global", place, None, (), world.global_fields[place].type))
                else:
                    t = world.seat_fields[place].type
                    spots += [Target(f"{n}.{place}", "seat", place, s, (), t) for s, n in enumerate(names.seats)]
            self.places[kind] = spots

    def kinds_of(self, target: Target) -> list[str]:
        """The kinds whose places this target is (or is inside of)."""
        return [kind for kind, spots in self.places.items()
                if any(s.owner == target.owner and s.field == target.field for s in spots)
                and holds(target.type, kind)]

    def assign(self, state: dict[str, Any], target: Target, value: Any, y: Y, step: "PlacingStep",
               named: list[Any] | None = None) -> None:
        """Store the value: the items it names leave their old places, the items it drops are
        kept for `step.finish` (named: the items the scenario wrote; all those in the value if None)."""
        kinds = self.kinds_of(target)
        if not kinds:
            target.set(state, value)
            return
        old = target.get(state)
        if named is None and not target.keys:
            step.replaced.add((target.owner, target.field))
        for kind in kinds:
            for item in items_in(value, target.type, kind) if named is None else named:
                if (kind, item) in step.named:
                    first = step.named[(kind, item)].span
                    raise Problem(y.span, "type", f"{self.names.show(item, Type(kind))} is put in two places by "
                                  f"this step (first at line {first.line})")
                step.named[(kind, item)] = y
                self._take_out(state, kind, item)
        target.set(state, value)
        for kind in kinds:
            kept = items_in(value, target.type, kind)
            step.dropped += [(kind, i, y) for i in items_in(old, target.type, kind) if i not in kept]

    def finish(self, state: dict[str, Any], step: "PlacingStep") -> None:
        """Put the items a step left nowhere at the end of the first place it did not replace."""
        for kind, item, y in step.dropped:
            if self._anywhere(state, kind, item):
                continue
            home = next((p for p in self.places[kind] if p.owner == "global" and p.type.kind == "list"
                         and p.type.args[0].kind == kind and (p.owner, p.field) not in step.replaced), None)
            if home is None:
                raise Problem(y.span, "type", f"{self.names.show(item, Type(kind))} is left nowhere: "
                              f"put it in one of {', '.join(dict.fromkeys(p.field for p in self.places[kind]))}")
            home.get(state).append(item)

    def _take_out(self, state: dict[str, Any], kind: str, item: int) -> None:
        for spot in self.places[kind]:
            new, found = _without(spot.get(state), spot.type, kind, item)
            if found:
                spot.set(state, new)

    def _anywhere(self, state: dict[str, Any], kind: str, item: int) -> bool:
        return any(item in items_in(spot.get(state), spot.type, kind) for spot in self.places[kind])

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
