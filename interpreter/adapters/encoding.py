"""One seat's view as a fixed-length tensor of floats, laid out from the game's declared field types.

Only what the seat sees is read: the fields come from `interpreter.core.view.field_readers` (each
field as `view.visible_fields` gives it) for the observing seat, where a field it may not see is HIDDEN (or only the shape of its lists, when
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

The parts every seat sees alike (a field that is not a seat's, a seat field shown to all, the other
seats' entries of a field shown to its owner: what a spectator sees of them) are encoded once for all
seats, unless their values name a seat; the rest per seat. Each part keeps the value it encoded last,
and only what changed (an entry of a column, a key of a map, a run of a list) is encoded again; each
seat's tensor is kept too, and only the shared parts that changed since are brought into it.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ruledsl.types import Type

from ..core.engine import Engine
from ..core.view import (
    HIDDEN,
    FieldReader,
    GroupReader,
    field_readers,
    own_entries_reader,
    own_entry_readers,
    public_reader,
    spectator_readers,
)
from .kept import KeptByValue

# Writes a value into its (zeroed) slots; `me` is the observing seat (seat values are counted from it).
Writer = Callable[[Any, np.ndarray, int], None]
# Brings the slots at `base` from the encoding of `old` (_UNSET: not known) to that of the value:
# (value, old, out, base, me). True when it has also brought `old` itself to the value, in place (the
# changed entries of a column, the changed run of a list): `old` is then kept as the value's copy.
# The values an update is given as old are the encoder's own (copies, or values made anew for it).
Update = Callable[[Any, Any, np.ndarray, int, int], bool]
_UNSET = object()
# How a part's slots are shared between seats (see TensorEncoder.encode).
_SHARED, _TURNED, _OWN = 0, 1, 2
_SCALARS = (int, bool, str, float, type(None))
KEPT_CODES = 20_000   # the slots of options kept, by the options (see TensorEncoder._option_codes)


def _is_hidden(value: Any) -> bool:
    if isinstance(value, list):
        if not value:
            return False
        first = value[0]
        if not isinstance(first, list) and first != HIDDEN:   # the usual answer for a list shown
            return False
        return value.count(HIDDEN) == len(value) or all(_is_hidden(v) for v in value)
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
        if value.count(HIDDEN) == len(value):
            return len(value)
        return sum(_leaves(v) if isinstance(v, list) else 1 for v in value)
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
        self._decision = 6 + 2 * players + 1   # the slot of the first decision's one-hot
        readers = field_readers(engine)
        # Per sharing (_SHARED, _TURNED, _OWN): (index among its parts, reader, update, start, width).
        self.parts: tuple[list[tuple[int, FieldReader, Update, int, int]], ...] = ([], [], [])
        # The shared parts of fields every seat sees whole, and the own parts of a seat's own entries of fields
        # their owner sees whole (see _layout): by index, their places in the state, keys, and whether their
        # values are scalars (a value equal to the last of another type, 1 and true, is encoded again).
        self._public: dict[int, tuple[str, str, bool]] = {}
        self._own_entries: dict[int, tuple[str, str, bool]] = {}
        self._constant: set[int] = set()
        for f in game.global_fields:
            t = world.global_fields[f.name].type
            self._part(f"global.{f.name}", readers[f"global.{f.name}"], t, f.initial, f.visible != "all",
                       [f"global.{f.name}"], _OWN if _uses_seat(t) else _SHARED,
                       constant=f.visible != "all" and not f.public_size)
        own_entries = own_entry_readers(engine)
        spectators = spectator_readers(engine)
        for f in game.seat_fields:
            t = world.seat_fields[f.name].type
            key = f"seat.{f.name}"
            labels = [f"seat.{f.name}[+{offset}]" for offset in range(players)]
            if _uses_seat(t):
                self._part(key, _turned(readers[key]), t, f.initial, f.visible != "all", labels, _OWN, column=True)
            elif f.visible == "owner":
                # The others' entries as every seat but their owner sees them (as a spectator does), and
                # over the observer's own entry, its own as it sees it.
                self._part(key, spectators[key], t, f.initial, True, labels, _TURNED, column=True,
                           own_entry=own_entries[key], constant=not f.public_size)
            else:
                self._part(key, readers[key], t, f.initial, f.visible != "all", labels, _TURNED, column=True,
                           constant=f.visible != "all" and not f.public_size)
        for f in game.node_fields:
            t = world.node_fields[f.name].type
            self._part(f"node.{f.name}", readers[f"node.{f.name}"], t, f.initial, f.visible != "all",
                       [f"node.{f.name}[{n}]" for n in world.node_ids], _OWN if _uses_seat(t) else _SHARED,
                       column=True, constant=f.visible != "all" and not f.public_size)
        for kind, fields in game.component_fields.items():
            for f in fields:
                t = world.components[kind].fields[f.name].type
                self._part(f"item.{kind}.{f.name}", readers[f"item.{kind}.{f.name}"], t, f.initial, f.visible != "all",
                           [f"item.{kind}.{f.name}[{i}]" for i in world.components[kind].ids],
                           _OWN if _uses_seat(t) else _SHARED, column=True,
                           constant=f.visible != "all" and not f.public_size)
        self.option_start = len(self.names)
        self.names += [f"option:{k}" for k in range(max_actions)]
        self.size = len(self.names)
        self.option_writers = [self._option_writer(i, spec.elem) for i, spec in enumerate(engine.program.chooses)]
        self._layout()

    def _layout(self) -> None:
        """What `encode` needs to put a seat's tensor together from the shared and its own slots."""
        # The slots shared by every seat: their values last encoded, their slots, and the moment they were
        # encoded at (see `encode`).
        self._shared_seen: list[Any] = [_UNSET] * (len(self.parts[_SHARED]) + len(self.parts[_TURNED]))
        self._shared = np.zeros(self.size, np.float32)
        self._moment: object = None
        self._pending: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self._codes: KeptByValue[np.ndarray] = KeptByValue(KEPT_CODES)
        # Per shared part (by index) and seat: the (to, from) slices that copy its slots into the seat's tensor.
        # A turned part holds its seats in seat order; seat s reads them from its own seat on. The slots of
        # the seat's own parts laid over them (its own entry of a seat column) are left out: a seat's own
        # parts are encoded into its tensor itself.
        n = self.players
        own = [(start, start + width) for _, _, _, start, width in self.parts[_OWN]]
        self._copies: list[list[list[tuple[slice, slice]]]] = [[] for _ in self._shared_seen]
        for sharing in (_SHARED, _TURNED):
            for index, _, _, start, width in self.parts[sharing]:
                self._copies[index] = [_without(own, start, start + width,
                                                width // n * s if sharing == _TURNED else 0) for s in range(n)]
        self._seats: dict[int, _SeatSlots] = {}
        # The shared parts of fields every seat sees whole are read and compared a place of the state at a
        # time (most of them are the same from one step to the next); the others one by one. The others hide
        # their fields from every seat: what they read is a stand-in, never the state's own, kept as it is read
        # (see _part). A seat's own entries of fields it sees whole are read at once too.
        shared = self.parts[_SHARED] + self.parts[_TURNED]
        # A constant part is encoded once (until `forget`).
        self._constants = [part for part in shared if part[0] in self._constant]
        self._constants_done = False
        self._singles, groups = _grouped([part for part in shared if part[0] not in self._constant], self._public,
                                         lambda keys: public_reader(self.engine, keys))
        self._shared_groups = [_Group(read, members, scalar) for read, members, scalar in groups]
        self._own_singles, self._own_groups = _grouped(self.parts[_OWN], self._own_entries,
                                                       lambda keys: own_entries_reader(self.engine, keys))

    # ------------------------------------------------------------ layout
    def _part(self, key: str, read: FieldReader, t: Type, initial: Any, may_hide: bool, labels: list[str], sharing: int,
              column: bool = False, own_entry: FieldReader | None = None, constant: bool = False) -> None:
        """A field's slots: one entry, or one per seat, node or item (a column hidden whole hides each entry);
        `own_entry` reads the observer's own entry of a seat column, laid over the first. A `constant` part
        (shared) reads the same at every step: all its field shows to any seat is HIDDEN."""
        width, write, update = self._writer(key, t, initial)
        # A shared part that may hide its field hides it from every seat: what it reads is a stand-in (see
        # view.field_readers), kept as it is read, which may be read again: never changed in place.
        fresh = sharing != _OWN and may_hide
        own_update = update
        if may_hide:
            write, width = _hideable(write), width + 3
            own_update = _hideable_update(write, update, width)
            update = _hideable_update(write, None if fresh else update, width)
        start = len(self.names)
        for label in labels:
            self.names += [label] if width == 1 else [f"{label}#{k}" for k in range(width)]
        scalar = t.kind not in ("list", "map")
        if own_entry is not None:
            self._own_entries[len(self.parts[_OWN])] = "seat", key, scalar
            self.parts[_OWN].append((len(self.parts[_OWN]), own_entry, own_update, start, width))
        if column:
            update = _column_update(write, update, width, len(labels), None if fresh else _copy)
        parts = self.parts[sharing]
        index = len(parts) if sharing == _OWN else len(self.parts[_SHARED]) + len(self.parts[_TURNED])
        parts.append((index, read, update, start, width * len(labels)))
        if sharing != _OWN and not may_hide:
            self._public[index] = key.rsplit(".", 1)[0], key, scalar and not column
        if sharing != _OWN and constant:
            self._constant.add(index)

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

    def _writer(self, key: str, t: Type, initial: Any) -> tuple[int, Writer, Update]:
        """The width of a value of type t, how to write it into zeroed slots, and how to bring its slots
        from an old value's encoding to a new one's (only the slots that change, where that is cheap)."""
        kind = t.kind
        if kind == "list":
            leaf = t.args[0]
            while leaf.kind == "list":
                leaf = leaf.args[0]
            domain = self._domain(key, leaf)
            if domain is not None:
                size, slot = domain

                def write_counts(v: Any, out: np.ndarray, me: int) -> None:
                    _counts(v, slot, out, me)
                return 2 + size, write_counts, _counts_update(write_counts, slot, 2 + size)
            return 2, _numbers, _rewrite(_numbers, 2)
        if kind == "map":
            if isinstance(initial, dict) and initial:
                return self._map_writer(key, t, initial)
            return _whole(1, lambda v, out, me: out.__setitem__(0, len(v) if isinstance(v, dict) else 0))
        if kind == "int":
            if t.nullable:
                return _whole(2, _nullable_number)
            return 1, _number, _update_number
        if kind == "bool":
            return 1, _flag, _update_flag
        domain = self._domain(key, t)
        if domain is not None:
            size, slot = domain

            def write_hot(v: Any, out: np.ndarray, me: int) -> None:
                out[slot(v, me)] = 1.0

            def update_hot(v: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
                if old is _UNSET:
                    out[base:base + size] = 0.0
                else:
                    out[base + slot(old, me)] = 0.0
                out[base + slot(v, me)] = 1.0
                return False
            return size, write_hot, update_hot
        return _whole(1, lambda v, out, me: out.__setitem__(0, 0.0 if v is None else 1.0))

    def _map_writer(self, key: str, t: Type, initial: dict[Any, Any]) -> tuple[int, Writer, Update]:
        """A map with keys known from its initial value: its length, then one part per key (sorted)."""
        keys = sorted(initial, key=str)
        inner = [self._writer(key, t.args[1], initial[k]) for k in keys]
        starts = np.cumsum([1] + [w for w, _, _ in inner]).tolist()
        width = starts[-1]

        def write_map(v: Any, out: np.ndarray, me: int) -> None:
            if not isinstance(v, dict):
                return
            out[0] = len(v)
            for k, (w, inner_write, _), at in zip(keys, inner, starts):
                if k in v:
                    inner_write(v[k], out[at:at + w], me)

        def update_map(v: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
            if not isinstance(v, dict) or not isinstance(old, dict):
                segment = out[base:base + width]
                segment[:] = 0.0
                write_map(v, segment, me)
                return False
            out[base] = len(v)
            for k, (w, _, inner_update), at in zip(keys, inner, starts):
                now, was = v.get(k, _UNSET), old.get(k, _UNSET)
                if now == was and type(now) is type(was):
                    continue
                if now is _UNSET:
                    out[base + at:base + at + w] = 0.0
                else:
                    inner_update(now, was, out, base + at, me)
            return False
        return width, write_map, update_map

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
    def forget(self) -> None:
        """Forget every value encoded so far: the next tensor of each seat is encoded whole."""
        self._shared_seen = [_UNSET] * len(self._shared_seen)
        self._shared[:] = 0.0
        self._moment = None
        self._constants_done = False
        self._seats.clear()
        for group in self._shared_groups:
            group.last = ()

    def blank(self, seat: int, chance_steps: int) -> np.ndarray:
        """The tensor before the game's setup is dealt (OpenSpiel's chance nodes of the setup)."""
        out = np.zeros(self.size, np.float32)
        out[0], out[5], out[6 + 2 * self.players] = self.players, chance_steps, 1.0
        return out

    def encode(self, state: dict[str, Any], seat: int, decisions: int, over: bool, pending: dict[str, Any] | None,
               options: Sequence[Any] | None, chance_steps: int = 0, moment: object = None) -> np.ndarray:
        """The tensor of what `seat` sees of the state: its fields as `view.field_readers` give them, the public
        facts of the open decision (`pending`: who is waited for, who has answered; and its spec, read
        only when the seat is asked) and the values of the seat's own options (None when it is not asked).
        A new array each call.

        The parts every seat sees alike (a field that is not a seat's, or a seat field shown to all, whose
        value names no seat) are encoded once for all seats; `moment`, when given, names the state: a
        later call with the same moment is of the same, unchanged state, and does not look at them again.
        """
        if moment is None or moment != self._moment:
            self._refresh_shared(state, seat)
            # What the headers depend on of the open decision, as a key of each seat's header (see _SeatSlots).
            self._pending = None if pending is None else (tuple(pending["waiting_for"]), tuple(pending["answered"]))
        self._moment = moment
        mine = self._seats.get(seat)
        if mine is None:
            mine = self._seats[seat] = _SeatSlots(self, seat)
        asked = pending is not None and bool(options)
        facts = (over, chance_steps, self._pending, asked)
        if facts != mine.facts:
            self._head(mine.head, seat, over, chance_steps, pending, asked)
            mine.facts = facts
        # The seat's own parts, then the shared parts that changed since its tensor was last put together
        # (the usual case, nothing changed, without a call: this runs for every seat at every step).
        body = mine.body
        if self._own_singles:
            _refresh(self._own_singles, mine.seen, body, state, seat)
        for group in mine.groups:
            values = group.read(state, seat)
            if values != group.last or group.scalar and tuple(map(type, values)) != group.types:
                group.encode(values, mine.seen, body, seat, [])
        if mine.stale:
            copies = mine.copies
            for index in mine.stale:
                for to, source in copies[index]:
                    to[...] = source
            mine.stale.clear()
        out = body.copy()
        out[1] = float(decisions)
        if options:
            spec = -1
            if pending is not None:   # asked: how many options, which decision
                spec = pending["spec"]
                out[4] = float(len(options))
                out[self._decision + spec] = 1.0
            codes = self._option_codes(spec, options, seat)
            at = self.option_start
            out[at:at + len(codes)] = codes
        return out

    def _option_codes(self, spec: int, options: Sequence[Any], seat: int) -> np.ndarray:
        """The slots of the options of choice `spec` (-1: not known) for `seat`."""
        # A decision's options are often offered again (the same cards, the same moves): their slots
        # are kept, by the options.
        def make() -> np.ndarray:
            code = self.option_writers[spec] if spec >= 0 else _option_number
            return np.array([code(value, seat) for value in options[:self.max_actions]], np.float32)
        if type(options) is not list:
            return make()
        return self._codes.get((spec, seat), options, make)

    def _refresh_shared(self, state: dict[str, Any], seat: int) -> None:
        """Encode the shared parts whose values changed, and mark them stale in every seat's tensor."""
        shared, seen = self._shared, self._shared_seen
        changed = _refresh(self._singles, seen, shared, state, seat, fresh=True)
        if not self._constants_done:
            changed += _refresh(self._constants, seen, shared, state, seat, fresh=True)
            self._constants_done = True
        for group in self._shared_groups:
            values = group.read(state, seat)
            if values != group.last or group.scalar and tuple(map(type, values)) != group.types:
                group.encode(values, seen, shared, seat, changed)
        if changed:
            for other in self._seats.values():
                other.stale.update(changed)

    def _head(self, head: np.ndarray, seat: int, over: bool, chance_steps: int, pending: dict[str, Any] | None,
              asked: bool) -> None:
        """Write the header of a seat's tensor, but for the answers given so far and, to a seat asked, its
        number of options and which decision it is (see `encode`)."""
        n = self.players
        head[:] = 0.0
        head[0], head[2], head[5] = n, float(over), chance_steps
        if pending is not None:
            for s in pending["waiting_for"]:
                head[6 + (s - seat) % n] = 1.0
            for s in pending["answered"]:
                head[6 + n + (s - seat) % n] = 1.0
        if asked:
            head[3] = 1.0
        else:
            head[6 + 2 * n] = 1.0


Part = tuple[int, FieldReader, Update, int, int]   # index, reader, update, start, width
Member = tuple[int, Update, int]                  # a grouped part: index, update, start


def _grouped(parts: list[Part], grouped: dict[int, tuple[str, str, bool]], reader: Callable[[list[str]], GroupReader]
             ) -> tuple[list[Part], list[tuple[GroupReader, list[Member], bool]]]:
    """The parts not in `grouped`, and the others by place in the state and whether their values are
    scalars: a reader of their values at once (from `reader`, given their keys), their members, and
    whether they are scalars."""
    singles = []
    places: dict[tuple[str, bool], list[Member]] = {}
    keys: dict[tuple[str, bool], list[str]] = {}
    for index, read, update, start, width in parts:
        if index not in grouped:
            singles.append((index, read, update, start, width))
            continue
        place, key, scalar = grouped[index]
        places.setdefault((place, scalar), []).append((index, update, start))
        keys.setdefault((place, scalar), []).append(key)
    return singles, [(reader(keys[at]), members, at[1]) for at, members in places.items()]


class _Group:
    """Parts of fields kept in one place of the state (see `_grouped`): read at once, and left alone at
    once when all are as they were last encoded."""

    __slots__ = ("read", "parts", "scalar", "last", "types")

    def __init__(self, read: GroupReader, parts: list[Member], scalar: bool):
        self.read = read
        self.parts = parts
        self.scalar = scalar      # whether a value may be equal to the last of another type
        self.last: tuple[Any, ...] = ()     # the values last encoded (copies)
        self.types: tuple[type, ...] = ()

    def encode(self, values: tuple[Any, ...], seen: list[Any], out: np.ndarray, seat: int, changed: list[int]) -> None:
        """Encode into `out` each part whose value in `values` (as read now, not all as they were last)
        differs from the one `seen` last, remember it, and add its index to `changed`."""
        kept = True   # every value last encoded still in `last`, changed in place
        for (i, update, start), value in zip(self.parts, values):
            before = seen[i]
            if value == before and type(value) is type(before):
                continue
            if not update(value, before, out, start, seat):
                seen[i] = _copy(value)
                kept = False
            changed.append(i)
        if not kept or not self.last:
            self.last = tuple([seen[i] for i, _, _ in self.parts])
            self.types = tuple(map(type, self.last))


class _SeatSlots:
    """One seat's part of the encoder: its own parts' last values, and its tensor (the body) of the shared
    parts as last brought in and its own parts, with the shared parts that changed since (`stale`)."""

    __slots__ = ("seen", "body", "stale", "copies", "head", "facts", "groups")

    def __init__(self, encoder: TensorEncoder, seat: int):
        self.seen: list[Any] = [_UNSET] * len(encoder.parts[_OWN])
        self.body = body = np.zeros(encoder.size, np.float32)
        self.stale: set[int] = set(range(len(encoder._copies)))
        # Per shared part: (to, from) views that bring its slots into the body.
        shared = encoder._shared
        self.copies = [[(body[to], shared[source]) for to, source in copies[seat]] for copies in encoder._copies]
        # The header in the body, and the facts it was written from (see TensorEncoder.encode).
        self.head = body[:encoder.header]
        self.groups = [_Group(read, members, scalar) for read, members, scalar in encoder._own_groups]
        self.facts: tuple[Any, ...] = ()


def _without(own: list[tuple[int, int]], start: int, end: int, first: int) -> list[tuple[slice, slice]]:
    """The (to, from) slices that copy the slots start..end, turned to begin `first` slots in, but for
    the slots in `own` (start, end) ranges."""
    runs = [(start, end - first, first)] + ([(end - first, end, first - (end - start))] if first else [])
    copies = []
    for a, b, shift in runs:   # to a..b, from a + shift..b + shift
        pieces = [(a, b)]
        for lo, hi in own:
            pieces = [piece for x, y in pieces for piece in ((x, min(y, lo)), (max(x, hi), y)) if piece[0] < piece[1]]
        copies += [(slice(x, y), slice(x + shift, y + shift)) for x, y in pieces]
    return copies


def _refresh(parts: list[tuple[int, FieldReader, Update, int, int]], seen: list[Any], out: np.ndarray,
             state: dict[str, Any], seat: int, fresh: bool = False) -> list[int]:
    """Encode into `out` each part whose value differs from the one `seen` last, and remember it (a copy,
    unless the values are `fresh`: stand-ins, never the state's own); the indexes of the parts encoded."""
    changed = []
    for i, read, update, start, _ in parts:
        value = read(state, seat)
        before = seen[i]
        if value == before and type(value) is type(before):
            continue
        if not update(value, before, out, start, seat):
            seen[i] = value if fresh else _copy(value)
        changed.append(i)
    return changed


def _turned(read: FieldReader) -> FieldReader:
    """A seat field's column turned for the observing seat: its own entry first, the others in turn order after it."""

    def read_turned(state: dict[str, Any], seat: int | None) -> Any:
        column = read(state, seat)
        return column[seat:] + column[:seat] if seat else column

    return read_turned


def _uses_seat(t: Type) -> bool:
    """Whether a value of type t may name a seat (its encoding then depends on the observing seat)."""
    return t.kind == "seat" or any(_uses_seat(a) for a in t.args)


def _rewrite(write: Writer, width: int) -> Update:
    """The update that zeroes the slots and writes the value again."""

    def update(value: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
        segment = out[base:base + width]
        segment[:] = 0.0
        write(value, segment, me)
        return False

    return update


def _whole(width: int, write: Writer) -> tuple[int, Writer, Update]:
    return width, write, _rewrite(write, width)


def _column_update(write: Writer, update: Update, entry: int, count: int, keep: Callable[[Any], Any] | None
                   ) -> Update:
    """The update of a seat, node or item column: only its entries that changed, each with `update`, each
    kept in the old column as `keep` gives it (None: the old column is left as it is; every entry written
    again after a change of shape: a column hidden whole stands for each entry)."""
    width = entry * count

    def update_column(column: Any, before: Any, out: np.ndarray, base: int, me: int) -> bool:
        if isinstance(column, list) and isinstance(before, list):
            for j, (value, old) in enumerate(zip(column, before)):
                if value == old and type(value) is type(old):
                    continue
                if not update(value, old, out, base + j * entry, me) and keep is not None:
                    before[j] = keep(value)
            return keep is not None and len(column) == len(before)
        segment = out[base:base + width]
        segment[:] = 0.0
        entries = column if isinstance(column, list) else [column] * count
        for j in range(count):
            write(entries[j], segment[j * entry:(j + 1) * entry], me)
        return False

    return update_column


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


def _hideable_update(write: Writer, inner: Update | None, width: int) -> Update:
    """The update of a field that may be hidden (`write` from `_hideable`): from shown to shown, the
    inner update (None: every slot written again); from hidden to hidden, only the size slots; otherwise
    every slot written again."""
    rewrite = _rewrite(write, width)

    def update(value: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
        if old is _UNSET:
            return rewrite(value, old, out, base, me)
        hidden = _is_hidden(value)
        if hidden != _is_hidden(old):
            return rewrite(value, old, out, base, me)
        if not hidden:
            return inner(value, old, out, base + 3, me) if inner is not None else rewrite(value, old, out, base, me)
        if isinstance(value, list):
            out[base + 1], out[base + 2] = len(value), _leaves(value)
        else:
            out[base + 1] = out[base + 2] = 0.0
        return False

    return update


def _number(v: Any, out: np.ndarray, me: int) -> None:
    if type(v) is int or type(v) is float:
        out[0] = v


def _update_number(v: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
    out[base] = v if type(v) is int or type(v) is float else 0.0
    return False


def _flag(v: Any, out: np.ndarray, me: int) -> None:
    out[0] = 1.0 if v is True else 0.0


def _update_flag(v: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
    out[base] = 1.0 if v is True else 0.0
    return False


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


def _counts_update(write: Writer, slot: Callable[[Any, int], int], width: int) -> Update:
    """The update of a list's counts: where the elements between the common start and end of the old and
    the new list are numbers, texts, yes/no or none, only their counts change (and in the old list, those
    elements); otherwise every slot is written again."""
    rewrite = _rewrite(write, width)

    def update(value: Any, old: Any, out: np.ndarray, base: int, me: int) -> bool:
        if type(value) is not list or type(old) is not list:
            return rewrite(value, old, out, base, me)
        n, m = len(value), len(old)
        top = min(n, m)
        i = 0
        while i < top:   # an element alike in both (same type, same value, no list) counts alike
            a, b = value[i], old[i]
            if a != b or type(a) is not type(b) or isinstance(a, list):
                break
            i += 1
        j = 0
        while j < top - i:
            a, b = value[n - 1 - j], old[m - 1 - j]
            if a != b or type(a) is not type(b) or isinstance(a, list):
                break
            j += 1
        added, removed = value[i:n - j], old[i:m - j]
        for v in added + removed:
            if type(v) not in _SCALARS:   # a list counts its elements; anything else is kept only as a copy
                return rewrite(value, old, out, base, me)
        out[base] = n
        out[base + 1] = n   # no element is a list: each is one
        for v in removed:
            out[base + 2 + slot(v, me)] -= 1.0
        for v in added:
            out[base + 2 + slot(v, me)] += 1.0
        old[i:m - j] = added
        return True

    return update


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
