"""One seat's view as a fixed-length tensor of floats, laid out from the game's declared field types.

Only what the seat sees is read: the fields come from `interpreter.core.view.visible_fields` of
the observing seat, where a field it may not see is HIDDEN (or only the shape of its lists, when
its size is public), and the options are the seat's own. The layout (`TensorEncoder.names` says
which slot is which):

- a header: the number of seats, answers given so far, whether the game is over, whether this
  seat is asked now and its number of options, chance steps drawn in a run (OpenSpiel), which
  seats the open decision still waits for and which have answered (the observing seat first),
  and, to a seat that is asked, which decision it is (one-hot over the rules' `choose` statements;
  a seat not asked is not told, as its view does not say);
- every global field; every seat field once per seat, the observing seat first and the others in
  turn order after it (so a policy reads "me, the next seat, ..." whatever its seat); every node
  field once per node; every item field once per item of its kind;
- one slot per action: the value of the option that index stands for (0 where there is none).

A field takes slots by its type:

- a number: its value (a number that may be none: present, value); a yes/no: 0 or 1;
- a seat, node, item or text: one-hot, slot 0 for none; seats counted from the observing seat;
  texts over the values seen in the survey's games (`common.survey`), with a last slot for any other;
- a list of those: its length, its number of elements at any depth, and one count per possible
  element (order is not kept); a list of numbers: its length and its sum;
- a map with keys known from the field's initial value: one part per key; any other map its length;
- a field that may be hidden starts with a slot that is 1 when it is hidden, followed (for a list
  whose size is public) by its length and number of elements.

Building a tensor costs little: each part keeps the last value it encoded per seat, and only a
part whose value changed is encoded again.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ruledsl.types import Type

from ..core.engine import Engine
from ..core.view import HIDDEN, Shown

# Writes a value into its (zeroed) slots; `me` is the observing seat (seat values are counted from it).
Writer = Callable[[Any, np.ndarray, int], None]
Reader = Callable[[Shown, int], Any]
_UNSET = object()
_SCALARS = (int, bool, str, float, type(None))


def _is_hidden(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(_is_hidden(v) for v in value)
    return bool(value == HIDDEN)


def _copy(value: Any) -> Any:
    """A copy deep enough that later changes to the state's lists and maps do not reach it."""
    if type(value) in _SCALARS:
        return value
    try:   # plain data (the usual case): copied at once
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        pass
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _leaves(value: Any) -> int:
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


def text_paths(engine: Engine) -> dict[str, Type]:
    """The fields (by survey key) whose values hold texts, with their types: their vocabularies are surveyed."""
    game = engine.game
    world = game.world
    found: dict[str, Type] = {}
    for f in game.global_fields:
        found[f"global.{f.name}"] = world.global_fields[f.name].type
    for f in game.seat_fields:
        found[f"seat.{f.name}"] = world.seat_fields[f.name].type
    for f in game.node_fields:
        found[f"node.{f.name}"] = world.node_fields[f.name].type
    for kind, fields in game.component_fields.items():
        for f in fields:
            found[f"item.{kind}.{f.name}"] = world.components[kind].fields[f.name].type
    for i, spec in enumerate(engine.program.chooses):
        found[f"choose.{i}"] = spec.elem
    return {key: t for key, t in found.items() if _has_text(t)}


def _has_text(t: Type) -> bool:
    if t.kind == "str":
        return True
    if t.kind == "map":
        return _has_text(t.args[1])
    return t.kind == "list" and _has_text(t.args[0])


def texts_in(value: Any, found: set[str]) -> None:
    """Add every text a value holds (as a map's value or a list's element, at any depth) to `found`."""
    if isinstance(value, str):
        if value != HIDDEN:
            found.add(value)
    elif isinstance(value, list):
        for v in value:
            texts_in(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            texts_in(v, found)


class TensorEncoder:
    """Turns what one seat sees of a game at a fixed number of seats into float32 tensors of `size`."""

    def __init__(self, engine: Engine, players: int, max_actions: int, texts: dict[str, tuple[str, ...]]):
        game = engine.game
        world = game.world
        self.engine = engine
        self.players = players
        self.max_actions = max_actions
        self.texts = texts
        self.specs = len(engine.program.chooses)
        self.domains = {"seat": players, "node": len(world.node_ids), "bool": 2,
                        **{kind: len(c.ids) for kind, c in world.components.items()}}
        self.names: list[str] = ["seats", "decisions", "over", "asked", "options", "chance_steps"]
        self.names += [f"waiting:{k}" for k in range(players)] + [f"answered:{k}" for k in range(players)]
        self.names += ["decision:not_asked"] + [f"decision:{s.var}" for s in engine.program.chooses]
        self.header = len(self.names)
        # reader, writer, start, width, and for a node or item column the width of one entry (0 for a field)
        self.parts: list[tuple[Reader, Writer, int, int, int]] = []
        for f in game.global_fields:
            self._part(f"global.{f.name}", _reader(1, f.name), world.global_fields[f.name].type, f.initial,
                       f.visible != "all")
        for f in game.seat_fields:
            self._column(f"seat.{f.name}", _seat_reader(f.name), world.seat_fields[f.name].type, f.initial,
                         f.visible != "all", [f"seat.{f.name}[+{offset}]" for offset in range(players)])
        for f in game.node_fields:
            self._column(f"node.{f.name}", _reader(2, f.name), world.node_fields[f.name].type, f.initial,
                         f.visible != "all", [f"node.{f.name}[{n}]" for n in world.node_ids])
        for kind, fields in game.component_fields.items():
            for f in fields:
                self._column(f"item.{kind}.{f.name}", _item_reader(kind, f.name), world.components[kind].fields[f.name].type,
                             f.initial, f.visible != "all", [f"item.{kind}.{f.name}[{i}]" for i in world.components[kind].ids])
        self.option_start = len(self.names)
        self.names += [f"option:{k}" for k in range(max_actions)]
        self.size = len(self.names)
        self.option_writers = [self._option_writer(i, spec.elem) for i, spec in enumerate(engine.program.chooses)]
        # Per seat: the last value each part encoded, and the tensor they gave.
        self._last: dict[int, tuple[list[Any], np.ndarray]] = {}

    # ------------------------------------------------------------ layout
    def _part(self, key: str, read: Reader, t: Type, initial: Any, may_hide: bool, label: str | None = None) -> None:
        width, write = self._writer(key, t, initial)
        if may_hide:
            write, width = _hideable(write), width + 3
        start = len(self.names)
        label = label or key
        self.names += [label] if width == 1 else [f"{label}#{k}" for k in range(width)]
        self.parts.append((read, write, start, width, 0))

    def _column(self, key: str, read: Reader, t: Type, initial: Any, may_hide: bool, labels: list[str]) -> None:
        """A node or item field: one part per entry, encoded together (a column hidden whole hides each entry)."""
        width, write = self._writer(key, t, initial)
        if may_hide:
            write, width = _hideable(write), width + 3
        start = len(self.names)
        for label in labels:
            self.names += [label] if width == 1 else [f"{label}#{k}" for k in range(width)]
        self.parts.append((read, write, start, width * len(labels), width))

    def _domain(self, key: str, t: Type) -> tuple[int, Callable[[Any, int], int]] | None:
        """The number of one-hot slots for a scalar type (slot 0: none) and the slot of a value; None for numbers."""
        kind = t.kind
        if kind == "seat":
            n = self.players
            return n + 1, lambda v, me: (v - me) % n + 1 if type(v) is int else 0
        if kind == "bool":
            return 3, lambda v, me: 0 if v is None else 2 if v else 1
        if kind in self.domains:
            size = self.domains[kind]
            return size + 1, lambda v, me: v + 1 if type(v) is int and 0 <= v < size else 0
        if kind == "str":
            vocab = {text: k + 1 for k, text in enumerate(self.texts.get(key, ()))}
            other = len(vocab) + 1
            return other + 1, lambda v, me: 0 if v is None else vocab.get(v, other)
        return None

    def _writer(self, key: str, t: Type, initial: Any) -> tuple[int, Writer]:
        kind = t.kind
        if kind == "list":
            leaf = t.args[0]
            while leaf.kind == "list":
                leaf = leaf.args[0]
            domain = self._domain(key, leaf)
            if domain is not None:
                size, slot = domain
                return 2 + size, lambda v, out, me: _counts(v, slot, out, me)
            return 2, _numbers
        if kind == "map":
            if isinstance(initial, dict) and initial:
                keys = sorted(initial, key=str)
                inner = [self._writer(key, t.args[1], initial[k]) for k in keys]
                starts = np.cumsum([1] + [w for w, _ in inner]).tolist()

                def write_map(v: Any, out: np.ndarray, me: int) -> None:
                    if not isinstance(v, dict):
                        return
                    out[0] = len(v)
                    for k, (w, inner_write), at in zip(keys, inner, starts):
                        if k in v:
                            inner_write(v[k], out[at:at + w], me)
                return starts[-1], write_map
            return 1, lambda v, out, me: out.__setitem__(0, len(v) if isinstance(v, dict) else 0)
        if kind == "int":
            if t.nullable:
                return 2, _nullable_number
            return 1, _number
        if kind == "bool":
            return 1, lambda v, out, me: out.__setitem__(0, 1.0 if v is True else 0.0)
        domain = self._domain(key, t)
        if domain is not None:
            size, slot = domain
            return size, lambda v, out, me: out.__setitem__(slot(v, me), 1.0)
        return 1, lambda v, out, me: out.__setitem__(0, 0.0 if v is None else 1.0)

    def _option_writer(self, spec: int, t: Type) -> Callable[[Any, int], float]:
        """An option's value as one number: a seat, node or item its index + 1 (seats from the observer),
        a text its place in the surveyed vocabulary + 1, a number itself, a yes/no 1 or 2, a list its length."""
        kind = t.kind
        if kind == "seat":
            n = self.players
            return lambda v, me: float((v - me) % n + 1) if type(v) is int else 0.0
        if kind in self.domains and kind != "bool":
            return lambda v, me: float(v + 1) if type(v) is int else 0.0
        if kind == "str":
            vocab = {text: k + 1 for k, text in enumerate(self.texts.get(f"choose.{spec}", ()))}
            other = float(len(vocab) + 1)
            return lambda v, me: float(vocab.get(v, other)) if isinstance(v, str) else 0.0
        return _option_number

    # ------------------------------------------------------------ encoding
    def blank(self, seat: int, chance_steps: int) -> np.ndarray:
        """The tensor before the game's setup is dealt (OpenSpiel's chance nodes of the setup)."""
        out = np.zeros(self.size, np.float32)
        out[0], out[5], out[6 + 2 * self.players] = self.players, chance_steps, 1.0
        return out

    def encode(self, shown: Shown, seat: int, decisions: int, over: bool, pending: dict[str, Any] | None,
               options: Sequence[Any] | None, chance_steps: int = 0) -> np.ndarray:
        """The tensor of what `seat` sees: its visible fields (`view.visible_fields` of the seat), the public
        facts of the open decision (`pending`: who is waited for, who has answered; and its spec, read
        only when the seat is asked) and the values of the seat's own options (None when it is not asked).
        A new array each call."""
        last = self._last.get(seat)
        if last is None:
            last = ([_UNSET] * len(self.parts), np.zeros(self.size, np.float32))
            self._last[seat] = last
        seen, out = last
        n = self.players
        head = [0.0] * self.header
        head[0], head[1], head[2], head[5] = n, decisions, float(over), chance_steps
        if pending is not None:
            for s in pending["waiting_for"]:
                head[6 + (s - seat) % n] = 1.0
            for s in pending["answered"]:
                head[6 + n + (s - seat) % n] = 1.0
        if pending is not None and options:
            head[3], head[4] = 1.0, len(options)
            head[6 + 2 * n + 1 + pending["spec"]] = 1.0
        else:
            head[6 + 2 * n] = 1.0
        out[:self.header] = head
        for i, (read, write, start, width, entry) in enumerate(self.parts):
            value = read(shown, seat)
            before = seen[i]
            if value == before and type(value) is type(before):
                continue
            if entry:
                seen[i] = _write_column(value, before, write, out, start, width, entry, seat)
            else:
                segment = out[start:start + width]
                segment[:] = 0.0
                write(value, segment, seat)
                seen[i] = _copy(value)
        at = self.option_start
        out[at:] = 0.0
        if options:
            code = self.option_writers[pending["spec"]] if pending is not None else _option_number
            codes = [code(value, seat) for value in options[:self.max_actions]]
            out[at:at + len(codes)] = codes
        return out.copy()


def _reader(at: int, name: str) -> Reader:
    return lambda shown, seat: shown[at][name]


def _seat_reader(name: str) -> Reader:
    """Reads a seat field of every seat, the observing seat first and the others in turn order after it."""

    def read(shown: Shown, seat: int) -> Any:
        column = shown[0][name]
        return column[seat:] + column[:seat] if seat else column

    return read


def _item_reader(kind: str, name: str) -> Reader:
    return lambda shown, seat: shown[3][kind][name]


def _write_column(column: Any, before: Any, write: Writer, out: np.ndarray, start: int, width: int, entry: int,
                  me: int) -> list[Any]:
    """Encode the entries of a seat, node or item column that changed since `before` (all of them after a
    change of shape: a column hidden whole stands for each of its entries); the column as now encoded."""
    count = width // entry
    entries = column if isinstance(column, list) else [column] * count
    olds = before if isinstance(before, list) and isinstance(column, list) else [_UNSET] * count
    kept = list(olds)
    for j in range(count):
        value = entries[j]
        old = olds[j]
        if value == old and type(value) is type(old):
            continue
        segment = out[start + j * entry:start + (j + 1) * entry]
        segment[:] = 0.0
        write(value, segment, me)
        kept[j] = _copy(value)
    return kept


def _hideable(inner: Writer) -> Writer:
    """A writer with leading slots: hidden from the seat (1/0), and a public size's length and elements."""

    def write(value: Any, out: np.ndarray, me: int) -> None:
        if not _is_hidden(value):
            inner(value, out[3:], me)
            return
        out[0] = 1.0
        if isinstance(value, list):
            out[1], out[2] = len(value), _leaves(value)

    return write


def _number(v: Any, out: np.ndarray, me: int) -> None:
    if type(v) is int or type(v) is float:
        out[0] = v


def _nullable_number(v: Any, out: np.ndarray, me: int) -> None:
    if type(v) is int or type(v) is float:
        out[0], out[1] = 1.0, v


def _numbers(v: Any, out: np.ndarray, me: int) -> None:
    if isinstance(v, list):
        out[0] = len(v)
        out[1] = sum(x for x in v if type(x) is int or type(x) is float)


def _option_number(v: Any, me: int) -> float:
    if type(v) is bool:
        return 2.0 if v else 1.0
    if type(v) is int or type(v) is float:
        return float(v)
    if isinstance(v, (list, tuple, dict)):
        return float(len(v))
    return 0.0 if v is None else 1.0


def _counts(value: Any, slot: Callable[[Any, int], int], out: np.ndarray, me: int) -> None:
    if not isinstance(value, list):
        return
    out[0] = len(value)
    stack = list(value)
    total = 0
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
            continue
        total += 1
        out[2 + slot(v, me)] += 1.0
    out[1] = total
