"""What one seat may see of a state: the only door through which hidden information leaves."""

from __future__ import annotations

import functools
import marshal
import operator
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

from .decision import Decision
from .engine import Engine
from .game import FieldSpec, back_of
from .state import copy_state

HIDDEN = "hidden"


def _seat_value(f: FieldSpec, owner: int, seat: int | None, value: Any) -> Any:
    if f.visible == "all" or (f.visible == "owner" and seat == owner):
        return value
    return _hidden(f, value)


def _hidden(f: FieldSpec, value: Any) -> Any:
    """What a seat that may not see the field gets: HIDDEN, or only the list's shape when its size is public."""
    return _hider(f)(value)


_DEPTHS: dict[str, int] = {}


def _depth(type_text: str) -> int:
    """How deep a field's lists nest when the elements at the bottom are never lists (0: not known so)."""
    depth = _DEPTHS.get(type_text)
    if depth is None:
        elem, depth = type_text, 0
        while elem.startswith("list[") and elem.endswith("]"):
            elem, depth = elem[len("list["):-1].removesuffix("?"), depth + 1
        if not elem.isidentifier() or elem in ("any", "tuple", "list", "map"):
            depth = 0
        _DEPTHS[type_text] = depth
    return depth


def shape(value: Any) -> Any:
    """A list's shape: the same nesting of lists, with HIDDEN for every element that is not a list."""
    if isinstance(value, list):
        return [shape(v) if isinstance(v, list) else HIDDEN for v in value]
    return HIDDEN


def reveals_nothing(shown: Any) -> bool:
    """True when a viewed value shows nothing but (at most) its shape: HIDDEN, or lists of HIDDEN."""
    if isinstance(shown, list):
        return all(reveals_nothing(v) for v in shown)
    return bool(shown == HIDDEN)


def _blank(type_text: str) -> Any:
    """A harmless stand-in of the field's type for something the seat may not see."""
    blank = _BLANKS.get(type_text, _UNKNOWN)
    if blank is _UNKNOWN:
        blank = _BLANKS[type_text] = _blank_of(type_text)
    # A fresh container each time: a masked copy's lists are its own.
    return [] if blank is _LIST else {} if blank is _MAP else blank


def _blank_of(type_text: str) -> Any:
    if type_text.endswith("?"):
        return None
    return {"int": 0, "bool": False, "str": ""}.get(type_text, _LIST if type_text.startswith("list") else
                                                   _MAP if type_text.startswith("map") else None)


# Each type's blank, read once per type text (a bot masks a state at every position it judges).
_BLANKS: dict[str, Any] = {}
_UNKNOWN, _LIST, _MAP = object(), object(), object()


def _masked(f: FieldSpec, value: Any) -> Any:
    """The stand-in of a hidden value: blank, or for a public size, blanks in the list's shape."""
    if f.public_size and isinstance(value, list):
        return _blank_shape(f.type_text[len("list["):-1], value)
    return _blank(f.type_text)


def _blank_shape(elem_type: str, value: list[Any]) -> list[Any]:
    shaper = _SHAPERS.get(elem_type)
    if shaper is None:
        shaper = _SHAPERS[elem_type] = _shaper(elem_type)
    return shaper(value)


def _shaper(elem_type: str) -> Callable[[list[Any]], list[Any]]:
    """What makes the blanks of a list of `elem_type` in the list's shape (worked out once per type)."""
    if elem_type.startswith("list["):
        inner = elem_type[len("list["):-1]
        return lambda value: [_blank_shape(inner, v) if isinstance(v, list) else None for v in value]
    blank = _blank(elem_type)
    if isinstance(blank, (list, dict)):
        return lambda value: [_blank(elem_type) for _ in value]
    return lambda value: [blank] * len(value)  # an immutable blank may be shared


# Each element type's shaper (a bot masks a state at every position it judges).
_SHAPERS: dict[str, Callable[[list[Any]], list[Any]]] = {}


def masked_state(engine: Engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A copy of the state with everything hidden from `seat` blanked out.

    Code that shows a state to a person (e.g. the game's display formulas) runs on this copy,
    so it cannot reveal what the seat may not see, however the formulas are written.
    """
    # The copy's own columns: a masked reading of it shares nothing with `state`.
    return masked_reading(engine, copy_state(state), seat)


def masked_reading(engine: Engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """What `masked_state` gives, without copying what `seat` may see: the visible columns are the
    state's own. Only for code that reads and never changes a state (formulas, a bot's judgement)."""
    hiding = _hiding(engine)
    shallow = dict(state)
    if hiding.seat:
        seats = shallow["seat"] = dict(state["seat"])
        for f in hiding.seat:
            column = seats[f.name] = list(seats[f.name])
            for owner in range(len(column)):
                if not (f.visible == "owner" and owner == seat):
                    column[owner] = _masked(f, column[owner])
    if hiding.glob:
        glob = shallow["global"] = dict(state["global"])
        for f in hiding.glob:
            glob[f.name] = _masked(f, glob[f.name])
    if hiding.node:
        node = shallow["node"] = dict(state["node"])
        for f in hiding.node:
            node[f.name] = [_masked(f, v) for v in node[f.name]]
    if hiding.components:
        components = shallow["components"] = dict(state["components"])
        for kind, fields in hiding.components:
            own = components[kind] = dict(components[kind])
            for f in fields:
                own[f.name] = [_masked(f, v) for v in own[f.name]]
    shallow["stack"] = []
    shallow["pending"] = None
    shallow["log"] = []
    return shallow


@dataclass(frozen=True)
class _Hiding:
    """The fields of a game some seat may not see (the rest are never copied for a masked reading)."""

    glob: list[FieldSpec]
    seat: list[FieldSpec]
    node: list[FieldSpec]
    components: list[tuple[str, list[FieldSpec]]]


_HIDING: "weakref.WeakKeyDictionary[Engine, _Hiding]" = weakref.WeakKeyDictionary()


def _hiding(engine: Engine) -> _Hiding:
    """The game's fields hidden from some seat, worked out once per engine (a bot masks a state at
    every position it judges)."""
    found = _HIDING.get(engine)
    if found is None:
        game = engine.game

        def hidden(fields: Sequence[FieldSpec]) -> list[FieldSpec]:
            return [f for f in fields if f.visible != "all"]

        found = _HIDING[engine] = _Hiding(
            hidden(game.global_fields), hidden(game.seat_fields), hidden(game.node_fields),
            [(kind, hidden(fields)) for kind, fields in game.component_fields.items() if hidden(fields)])
    return found


def masked_from_view(engine: Engine, shown: dict[str, Any]) -> dict[str, Any]:
    """The masked state a seat's view stands for: what `masked_state` gives for that seat, rebuilt
    from the view alone (a network client has nothing else), for formulas that write screens."""
    game = engine.game

    def back(f: FieldSpec, value: Any) -> Any:
        if f.visible == "all":
            return value
        if value == HIDDEN or (f.public_size and isinstance(value, list) and value and reveals_nothing(value)):
            return _masked(f, value)
        return value

    def column(f: FieldSpec, values: Any, size: int) -> list[Any]:
        if values == HIDDEN:
            return [_blank(f.type_text) for _ in range(size)]
        return [back(f, v) for v in values]

    n = len(shown["names"])
    state: dict[str, Any] = {
        "game": shown["game"], "seats": n, "names": list(shown["names"]), "seed": 0, "rng": 0,
        "seat": {f.name: [back(f, v) for v in shown["seats"][f.name]] for f in game.seat_fields},
        "global": {f.name: back(f, shown["global"][f.name]) for f in game.global_fields},
        "node": {f.name: column(f, shown["node"][f.name], len(game.node_ids)) for f in game.node_fields},
        "components": {kind: {f.name: column(f, shown["components"][kind][f.name],
                                             len(game.world.components[kind].ids)) for f in fields}
                       for kind, fields in game.component_fields.items()},
        "stack": [], "pending": None, "ledger": {}, "log": [], "result": shown["result"],
        "decisions": shown["decisions"],
    }
    return state


def _hidden_column(f: FieldSpec, column: list[Any]) -> Any:
    """A hidden node or item field: HIDDEN whole, or each entry's shape when sizes are public."""
    return [shape(v) for v in column] if f.public_size else HIDDEN


Shown = tuple[dict[str, list[Any]], dict[str, Any], dict[str, Any], dict[str, dict[str, Any]]]


def visible_fields(engine: Engine, state: dict[str, Any], seat: int | None) -> Shown:
    """The game's own data as `seat` sees it: (seat fields, global fields, node fields, item fields),
    each by field name, hidden values as in `view` (which adds the decision, the log and the result)."""
    game = engine.game
    n = state["seats"]
    seats = {f.name: list(state["seat"][f.name]) if f.visible == "all" else
             [_seat_value(f, i, seat, state["seat"][f.name][i]) for i in range(n)] for f in game.seat_fields}
    glob = {f.name: state["global"][f.name] if f.visible == "all" else _hidden(f, state["global"][f.name])
            for f in game.global_fields}
    nodes = {f.name: state["node"][f.name] if f.visible == "all" else _hidden_column(f, state["node"][f.name])
             for f in game.node_fields}
    components = {kind: {f.name: state["components"][kind][f.name] if f.visible == "all"
                         else _hidden_column(f, state["components"][kind][f.name])
                         for f in fields} for kind, fields in game.component_fields.items()}
    return seats, glob, nodes, components


# One field as a seat sees it: (state, seat) -> the field's value or column.
FieldReader = Callable[[dict[str, Any], "int | None"], Any]


def field_readers(engine: Engine) -> dict[str, FieldReader]:
    """Each field of the game as `seat` sees it, read alone: what `visible_fields` gives for it (a seat
    field's column over the seats), by key: `seat.money`, `global.round`, `node.plaque`, `item.card.face_up`.

    For code that reads some fields only, or each at its own time. What a seat may see of the state's
    own lists and maps is the state's own object: read it, never change it. What it may not see is a
    stand-in (HIDDEN, or lists of HIDDEN), never the state's own; a later read may give the same stand-in
    again while the field is unchanged: never change it either.
    """
    game = engine.game
    readers: dict[str, FieldReader] = {}
    for f in game.seat_fields:
        readers[f"seat.{f.name}"] = _seat_column_reader(f)
    for f in game.global_fields:
        readers[f"global.{f.name}"] = _global_reader(f)
    for f in game.node_fields:
        readers[f"node.{f.name}"] = _column_reader(f, ("node",))
    for kind, fields in game.component_fields.items():
        for f in fields:
            readers[f"item.{kind}.{f.name}"] = _column_reader(f, ("components", kind))
    return readers


# Several fields as one seat sees them, read at once: (state, seat) -> their values, in the order asked.
GroupReader = Callable[[dict[str, Any], "int | None"], tuple[Any, ...]]


def public_reader(engine: Engine, keys: Sequence[str]) -> GroupReader:
    """Fields every seat sees whole (`visible: all`), kept in one place of the state (global, seat, node,
    or one kind's item fields), read at once: a tuple of what each one's reader in `field_readers` gives
    (for any seat), in the order of `keys`. Their lists and maps are the state's own: read them, never
    change them. A key of a field some seat may not see whole, or in another place, is refused."""
    game = engine.game
    places: dict[str, tuple[str, ...]] = {}
    for f in game.seat_fields:
        places[f"seat.{f.name}"] = ("seat",) if f.visible == "all" else ()
    for f in game.global_fields:
        places[f"global.{f.name}"] = ("global",) if f.visible == "all" else ()
    for f in game.node_fields:
        places[f"node.{f.name}"] = ("node",) if f.visible == "all" else ()
    for kind, fields in game.component_fields.items():
        for f in fields:
            places[f"item.{kind}.{f.name}"] = ("components", kind) if f.visible == "all" else ()
    where = {places.get(key, ()) for key in keys}
    place = where.pop() if len(where) == 1 else ()
    if not place:
        raise ValueError(f"not fields every seat sees whole, kept in one place: {', '.join(keys)}")
    get = _getter(keys)
    if len(place) == 1:
        top = place[0]
        return lambda state, seat: get(state[top])
    kind = place[1]
    return lambda state, seat: get(state["components"][kind])


def own_entries_reader(engine: Engine, keys: Sequence[str]) -> GroupReader:
    """Seat fields whose owner sees its own entry whole (`visible: owner` or `all`), the seat's own entries
    read at once (`seat` must be a seat): a tuple of what each one's reader in `own_entry_readers` gives,
    in the order of `keys`, the state's own objects (read them, never change them). Another key is refused."""
    whole = {f"seat.{f.name}" for f in engine.game.seat_fields if f.visible in ("all", "owner")}
    if not keys or not whole.issuperset(keys):
        raise ValueError(f"not seat fields whose owner sees its entry whole: {', '.join(keys)}")
    names = [key.rsplit(".", 1)[1] for key in keys]
    if len(names) == 1:   # one or two fields, the usual case, read without a loop (at every step of an agent)
        name = names[0]
        return lambda state, seat: (state["seat"][name][seat],)
    if len(names) == 2:
        first, second = names

        def read_two(state: dict[str, Any], seat: int | None) -> tuple[Any, ...]:
            columns = state["seat"]
            return columns[first][seat], columns[second][seat]
        return read_two
    get = _getter(keys)
    return lambda state, seat: tuple([column[seat] for column in get(state["seat"])])


def _getter(keys: Sequence[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The values of the fields named by the keys' last parts, from one of the state's dicts of fields, as a tuple."""
    names = [key.rsplit(".", 1)[1] for key in keys]
    get = operator.itemgetter(*names)
    if len(names) == 1:
        return lambda fields: (get(fields),)
    return get


def spectator_readers(engine: Engine) -> dict[str, FieldReader]:
    """Each seat field's column as a spectator sees it, whoever reads: what `field_readers` gives for seat
    None, by key (`seat.hand`: every hand hidden, or its size)."""
    return {f"seat.{f.name}": _spectator_reader(f) for f in engine.game.seat_fields}


def own_entry_readers(engine: Engine) -> dict[str, FieldReader]:
    """Each seat field's entry of the seat that reads it, as that seat sees it, by key (`seat.hand`: the
    seat's own hand); `seat` must be a seat. The same as its entry in `field_readers`' column."""
    readers: dict[str, FieldReader] = {}
    for f in engine.game.seat_fields:
        readers[f"seat.{f.name}"] = _own_entry_reader(f)
    return readers


def _hider(f: FieldSpec) -> Callable[[Any], Any]:
    """`_hidden` for one field, its type read once (the readers call it at every step of an agent)."""
    return _stand_in(f.public_size, f.type_text)


@functools.cache
def _stand_in(public_size: bool, type_text: str) -> Callable[[Any], Any]:
    """What a seat that may not see a field of this type gets of its value (see `_hidden`)."""
    if not public_size:
        return lambda value: HIDDEN
    depth = _depth(type_text)
    if depth == 1:
        return lambda value: [HIDDEN] * len(value) if type(value) is list else shape(value)
    if depth == 2:
        return lambda value: ([[HIDDEN] * len(v) if type(v) is list else HIDDEN for v in value]
                              if type(value) is list else shape(value))
    return shape


def _kept(f: FieldSpec, many: bool, make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`make` (the stand-ins of a hidden field's value), made again only when the value has changed since
    the last call, where comparing costs less than making: for a field with a public size whose lists nest,
    or a column of `many` (nodes, items). A reader makes its stand-ins at every step of an agent, and they
    seldom change; a later call may give the same ones again: never change them."""
    if not f.public_size or _depth(f.type_text) == 1 and not many:
        return make
    kept: list[Any] = [_UNKNOWN, None]   # a copy of the value last made from, and what was made

    def made(value: Any) -> Any:
        was = kept[0]
        if value == was and type(value) is type(was):
            return kept[1]
        shown = make(value)
        try:
            kept[0] = marshal.loads(marshal.dumps(value))
        except ValueError:   # not plain data: not kept
            kept[0] = _UNKNOWN
        kept[1] = shown
        return shown

    return made


def _own_entry_reader(f: FieldSpec) -> FieldReader:
    name = f.name
    if f.visible in ("all", "owner"):
        return lambda state, seat: state["seat"][name][seat]
    hide = _hider(f)
    return lambda state, seat: hide(state["seat"][name][seat])


def _spectate(f: FieldSpec) -> Callable[[list[Any]], list[Any]]:
    """A seat field's column as a spectator sees it: each entry as `_hidden` gives it."""
    if f.public_size and _depth(f.type_text) == 1:   # the usual hand, without a call per entry
        return lambda column: [[HIDDEN] * len(v) if type(v) is list else shape(v) for v in column]
    hide = _hider(f)
    return _kept(f, False, lambda column: list(map(hide, column)))


def _spectator_reader(f: FieldSpec) -> FieldReader:
    name = f.name
    if f.visible == "all":
        return lambda state, seat: state["seat"][name]
    spectate = _spectate(f)
    return lambda state, seat: spectate(state["seat"][name])


def _seat_column_reader(f: FieldSpec) -> FieldReader:
    name = f.name
    if f.visible == "all":
        return lambda state, seat: state["seat"][name]
    hide = _hider(f)
    spectate = _spectate(f)
    if f.visible == "owner":
        def read_owned(state: dict[str, Any], seat: int | None) -> Any:
            column = state["seat"][name]
            if seat is None:
                return spectate(column)
            return [v if owner == seat else hide(v) for owner, v in enumerate(column)]
        return read_owned
    return lambda state, seat: spectate(state["seat"][name])


def _global_reader(f: FieldSpec) -> FieldReader:
    name = f.name
    if f.visible == "all":
        return lambda state, seat: state["global"][name]
    hide = _kept(f, False, _hider(f))
    return lambda state, seat: hide(state["global"][name])


def _column_reader(f: FieldSpec, where: tuple[str, ...]) -> FieldReader:
    """A node field (where: ("node",)) or an item field (("components", kind)) as a seat sees it."""
    name = f.name
    hide = _kept(f, True, lambda column: _hidden_column(f, column))
    if len(where) == 1:
        if f.visible == "all":
            return lambda state, seat: state["node"][name]
        return lambda state, seat: hide(state["node"][name])
    kind = where[1]
    if f.visible == "all":
        return lambda state, seat: state["components"][kind][name]
    return lambda state, seat: hide(state["components"][kind][name])


def _backs_readers(engine: Engine) -> list[tuple[str, FieldSpec, tuple[Any, ...]]]:
    """The hidden lists of items whose kind declares a back, with what each item's back shows:
    ("seat" or "global", field, backs by item)."""
    game = engine.game
    found = []
    for part, fields in (("seat", game.seat_fields), ("global", game.global_fields)):
        for f in fields:
            backs = game.item_backs(f.type_text[len("list["):-1]) if f.type_text.startswith("list[") else None
            if f.visible != "all" and f.public_size and backs is not None:
                found.append((part, f, backs))
    return found


def _backs_of(items: list[Any], backs: tuple[Any, ...]) -> list[list[Any]]:
    """How many of the items show each back: [[back, count], ...] in the backs' order."""
    counts: dict[Any, int] = {}
    for item in items:
        back = back_of(backs, item)
        counts[back] = counts.get(back, 0) + 1
    return [[b, counts[b]] for b in sorted(counts, key=repr)]


def backs_shown(engine: Engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """What every seat can tell of the hidden lists of items whose kind declares a `back` (a deck,
    the others' hands): how many items of each back they hold, as `view` gives it ("global.deck":
    [[back, count], ...]; "seat.hand": one such list per seat, None for a hand the seat sees)."""
    shown: dict[str, Any] = {}
    for part, f, backs in _backs_readers(engine):
        if part == "global":
            shown[f"global.{f.name}"] = _backs_of(state["global"][f.name], backs)
        else:
            shown[f"seat.{f.name}"] = [None if f.visible == "owner" and owner == seat else _backs_of(items, backs)
                                       for owner, items in enumerate(state["seat"][f.name])]
    return shown


def view(engine: Engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The state as `seat` sees it (None: a spectator who sees only public information).

    Fields declared `visible: owner` show only to their seat, `visible: nobody` to no one (as
    HIDDEN; a hidden list declared `public_size` shows its shape, see `shape`, and under "backs"
    what the backs of its items show, where their kind declares a `back`); the rules' paused
    position, pending answers of other seats and private log lines never appear.
    """
    seats, glob, nodes, components = visible_fields(engine, state, seat)
    log = [e["text"] for e in state["log"] if e["to"] is None or (seat is not None and seat in e["to"])]
    pending: dict[str, Any] | None = None
    p = state["pending"]
    if p is not None:
        open_seats = engine.open_seats(state)
        answered = [s for s, d in zip(p["seats"], p["done"]) if d]
        pending = {"waiting_for": open_seats, "answered": answered}
        decision = engine.pending(state) if seat in open_seats else None
        if seat is not None and isinstance(decision, Decision):
            pending["prompt"] = decision.prompt(seat)
            pending["options"] = [(o.id, o.label) for o in decision.options(seat)]
            pending["details"] = [o.detail for o in decision.options(seat)]
    return {
        "game": state["game"], "seat": seat, "names": list(state["names"]), "seats": seats, "global": glob,
        "node": nodes, "components": components, "log": log, "pending": pending,
        "result": state["result"], "decisions": state["decisions"], "backs": backs_shown(engine, state, seat),
    }
