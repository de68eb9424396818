"""One seat's view as a fixed-length vector of whole numbers, laid out from the game's declared field types.

Only the view is read (`interpreter.core.view.view`): a field the seat may not see is HIDDEN there
(or only the shape of its lists, when its size is public), and its slots say so. The layout:

- a header: the observing seat, the number of seats, answers given so far, whether the game is
  over, whether this seat is asked now, and its number of options;
- every global field; every seat field once per seat, the observing seat first and the others in
  turn order after it (so a policy reads "me, the next seat, ..." whatever its seat); every node
  field once per node; every item field once per item of its kind;
- the ids of this seat's options, hashed, one slot per action (0 where there is none).

A field takes slots by its type: a number, a yes/no, a text (hashed), a seat, node or item (its
index + 1, 0 for none) take one (a number that may be none takes two: present, value). A list of
seats, nodes, items or yes/no values takes its length, its number of elements at any depth, and
one count per possible element (the list's order is not kept); any other list its length and a
hash of its contents. A map takes one part per key of the field's initial value, and its length.
A field that may be hidden starts with a slot that is 1 when it is. Texts and anything else
without a fixed layout are hashed (CRC-32): equal values give equal numbers.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from ruledsl.types import Type

from ..core.engine import Engine
from ..core.view import HIDDEN

LOW, HIGH = -(2 ** 31), 2 ** 31 - 1
Writer = Callable[[Any, list[int]], None]


def stable_hash(value: Any) -> int:
    """A non-negative 31-bit number for any JSON value, the same on every run and machine."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) & 0x7FFFFFFF


def _clip(n: int) -> int:
    return max(LOW, min(HIGH, n))


def _is_hidden(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_is_hidden(v) for v in value)
    return bool(value == HIDDEN)


class ViewEncoder:
    """Turns the views of one game at one number of seats into vectors of `size` numbers."""

    def __init__(self, engine: Engine, players: int, max_actions: int):
        game = engine.game
        world = game.world
        self.players = players
        self.max_actions = max_actions
        self.domains = {"seat": players, "node": len(world.node_ids), "bool": 2,
                        **{kind: len(c.ids) for kind, c in world.components.items()}}
        self.parts: list[tuple[Reader, Writer, int]] = []
        for f in game.global_fields:
            self._part(_reader("global", f.name), world.global_fields[f.name].type, f.initial, f.visible != "all")
        for f in game.seat_fields:
            for offset in range(players):
                self._part(_seat_reader(f.name, offset, players), world.seat_fields[f.name].type, f.initial,
                           f.visible != "all")
        for f in game.node_fields:
            for i in range(len(world.node_ids)):
                self._part(_reader("node", f.name, i), world.node_fields[f.name].type, f.initial, f.visible != "all")
        for kind, fields in game.component_fields.items():
            for f in fields:
                for i in range(len(world.components[kind].ids)):
                    self._part(_reader("components", kind, f.name, i), world.components[kind].fields[f.name].type,
                               f.initial, f.visible != "all")
        self.size = 6 + sum(width for _, _, width in self.parts) + max_actions

    # ------------------------------------------------------------ layout
    def _part(self, read: Reader, t: Type, initial: Any, may_hide: bool) -> None:
        width, write = self._writer(t, initial)
        if may_hide:
            write, width = _hideable(write, width), width + 1
        self.parts.append((read, write, width))

    def _writer(self, t: Type, initial: Any) -> tuple[int, Writer]:
        kind = t.kind
        if kind == "list":
            domain = _finite(t.args[0], self.domains)
            if domain is not None:
                size = self.domains[domain]
                return 2 + size, lambda v, out, size=size: _counts(v, size, out)
            return 2, lambda v, out: out.extend([len(v), stable_hash(v)] if isinstance(v, list) else [0, 0])
        if kind == "map" and isinstance(initial, dict) and initial:
            keys = sorted(initial, key=str)
            inner = [self._writer(t.args[1], initial[k]) for k in keys]

            def write_map(v: Any, out: list[int]) -> None:
                v = v if isinstance(v, dict) else {}
                out.append(len(v))
                for key, (_, w) in zip(keys, inner):
                    w(v.get(key), out)
            return 1 + sum(width for width, _ in inner), write_map
        if kind == "int":
            if t.nullable:
                return 2, lambda v, out: out.extend([0, 0] if v is None else [1, _clip(int(v))])
            return 1, lambda v, out: out.append(_clip(int(v)) if isinstance(v, (int, bool)) else 0)
        if kind == "bool":
            return 1, lambda v, out: out.append(0 if v is None else 2 if v else 1)
        if kind in self.domains:
            return 1, lambda v, out: out.append(v + 1 if isinstance(v, int) and not isinstance(v, bool) else 0)
        return 1, lambda v, out: out.append(0 if v is None else stable_hash(v))

    # ------------------------------------------------------------ encoding
    def encode(self, view: dict[str, Any], option_ids: list[str]) -> np.ndarray:
        """The vector of a view (of seat view["seat"]) and the ids of that seat's options now."""
        seat = view["seat"]
        out: list[int] = [seat, self.players, _clip(view["decisions"]), int(view["result"] is not None),
                          int(bool(option_ids)), len(option_ids)]
        for read, write, _ in self.parts:
            write(read(view, seat), out)
        out.extend(stable_hash(i) for i in option_ids[:self.max_actions])
        out.extend([0] * (self.size - len(out)))
        return np.asarray(out, dtype=np.int64)


Reader = Callable[[dict[str, Any], int], Any]


def _reader(*path: Any) -> Reader:
    """Reads view[path...]; a node or item column hidden whole stands for each of its entries."""

    def read(view: dict[str, Any], seat: int) -> Any:
        value: Any = view
        for key in path:
            if not isinstance(value, (dict, list)):
                return value
            value = value[key]
        return value

    return read


def _seat_reader(name: str, offset: int, players: int) -> Reader:
    """Reads a seat field of the seat `offset` places after the observing one."""
    return lambda view, seat: view["seats"][name][(seat + offset) % players]


def _hideable(inner: Writer, width: int) -> Writer:
    """A writer with a leading slot that says whether the value is hidden from the seat."""

    def write(value: Any, out: list[int]) -> None:
        if not _is_hidden(value):
            out.append(0)
            inner(value, out)
            return
        out.append(1)
        # A hidden list whose size is public still shows its length and its number of elements.
        shown = value if isinstance(value, list) else []
        head = [len(shown), _leaves(shown)][:width]
        out.extend(head + [0] * (width - len(head)))

    return write


def _finite(t: Type, domains: dict[str, int]) -> str | None:
    """The finite set a list's elements come from (seats, nodes, items, yes/no), looking into nested lists."""
    while t.kind == "list":
        t = t.args[0]
    return t.kind if t.kind in domains else None


def _leaves(value: Any) -> int:
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


def _counts(value: Any, size: int, out: list[int]) -> None:
    counts = [0] * size
    if not isinstance(value, list):
        out.extend([0, 0] + counts)
        return
    stack = list(value)
    total = 0
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
            continue
        total += 1
        if isinstance(v, bool):
            counts[int(v)] += 1
        elif isinstance(v, int) and 0 <= v < size:
            counts[v] += 1
    out.extend([len(value), total] + counts)
