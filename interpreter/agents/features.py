"""What a learned value reads of a position: numbers derived from the game's declared state, as one
seat sees it.

Nothing here knows a game. The features come from the field declarations alone:

- every number a seat field holds (ints, yes/no, lengths of lists, a map's numbers by key, and for
  lists of items the sums and counts of the items' attributes), per seat;
- what each seat owns on the board or among the items: nodes and items whose field names a seat
  (an owner, a list of markers), counted, with the numbers those nodes carry summed;
- what each seat owns where the state points (`_Reach`): for every node a public global field
  names (where a piece stands, the lots in play), the seat's nodes on it and one edge away, counted,
  with their numbers and yes/no attributes and the products of the two summed (a piece standing
  in front of a seat's shop, and how many tokens that shop carries);
- every public number of the game (global fields, counts of node values by kind), once;
- the game's declared evaluation (`bots:` in game.yaml), when there is one, per seat.

A per-seat number becomes three features from the deciding seat's side: its own value, the best
of the others', and the others' mean; so one value fits any number of seats and any seat.

`FeatureSpace.extract` reads only `view.visible_fields` of the deciding seat and the game's formulas
run on `view.masked_reading` of it: what the seat may not see cannot reach a feature.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from ruledsl.types import Type

from ..core.engine import Engine
from ..core.view import HIDDEN, Shown, masked_reading, visible_fields
from .evaluation import seat_formula

# A text field or attribute is counted by value when it takes at most this many values.
MAX_KINDS = 12
# Contents of an ownership's carried columns kept at once (each a small array); all are let go when full.
KEPT_PARTS = 256


@dataclass(frozen=True)
class _SeatRead:
    """A number per seat from a seat field: the value, a list's size (or how many lists it holds),
    or a map's entry."""

    field: str
    how: str
    key: Any = None
    depth: int = 0      # how deep the field's lists nest, as declared (1: a list of things)

    def __call__(self, shown: Shown, n: int) -> list[float | None]:
        column = shown[0][self.field]
        how = self.how
        if how == "number":
            return [_number(v) for v in column]
        if how == "count":
            depth = self.depth
            return [_count(v, depth) for v in column]
        if how == "lists":
            return [None if v == HIDDEN else float(sum(1 for x in v if x)) for v in column]
        return [None if v == HIDDEN else _number(_get(v, self.key)) for v in column]


@dataclass(frozen=True)
class _PublicRead:
    """One public number: a global value (or an entry of a map), a column's sum, count or matches.
    `_compile_public` turns the reads of a game into one function."""

    path: tuple[Any, ...]
    how: str
    arg: Any = None
    depth: int = 0      # how deep the lists it counts nest, as declared (1: a list of things)

    @property
    def per_seat(self) -> bool:
        """Whether the number depends on the deciding seat (is it that seat, how far after it)."""
        return self.how in ("is_seat", "after")


# What each kind of read makes of the value its path leads to (`{v}`): an expression, with the
# read's `{arg}` and `{depth}`, the deciding seat `seat` and the number of seats `n`.
_PUBLIC_EXPRESSIONS = {
    "number": "(_number({v}) or 0.0)",
    "count": "(_count({v}, {depth}) or 0.0)",
    "is_seat": "float({v} == seat)",
    "after": "_after({v}, seat, n)",
    "equals": "float({v} == {arg})",
    "sum": "_sum({v})",
    "matches": "_matches({v}, {arg})",
    "counts": "_counts({v}, {depth})",
}


def _compile_public(reads: list[_PublicRead], wanted: tuple[bool, ...]) -> Callable[[Shown, int, int], list[float]]:
    """One function `(shown, seat, n) -> numbers` reading every wanted public number at once, 0 for
    the others. The paths' shared beginnings are walked once and each read is an expression rather
    than a call: a bot reads these at every position it judges (a game's twenty-odd cost a fifth
    of a position's features read one by one)."""
    walked: dict[tuple[Any, ...], str] = {}
    lines: list[str] = []
    constants: dict[str, Any] = {}

    def walk(path: tuple[Any, ...]) -> str:
        if path not in walked:
            if len(path) == 1:
                line = f"shown[{int(path[0])}]"
            else:
                parent = walk(path[:-1])
                key = f"k{len(constants)}"
                constants[key] = path[-1]
                line = f"{parent}.get({key}) if isinstance({parent}, dict) else None"
            walked[path] = f"v{len(walked)}"
            lines.append(f"{walked[path]} = {line}")
        return walked[path]

    numbers = []
    for i, (read, want) in enumerate(zip(reads, wanted)):
        if not want:
            numbers.append("0.0")
            continue
        constants[f"a{i}"] = read.arg
        numbers.append(_PUBLIC_EXPRESSIONS[read.how].format(v=walk(read.path), arg=f"a{i}", depth=int(read.depth)))
    body = "".join(f"    {line}\n" for line in lines)
    source = f"def read(shown, seat, n):\n{body}    return [{', '.join(numbers)}]\n"
    namespace: dict[str, Any] = {**constants, "_number": _number, "_count": _count, "_after": _after,
                                 "_sum": _sum, "_matches": _matches, "_counts": _counts}
    exec(compile(source, "<public numbers>", "exec"), namespace)
    compiled: Callable[[Shown, int, int], list[float]] = namespace["read"]
    return compiled


def _counts(column: Any, depth: int) -> float:
    """How many things the lists of a column hold together (`depth`: how deep they nest)."""
    if depth == 1:
        try:    # lists of things (the usual case): their lengths less their empty places, at C speed
            return float(sum(map(len, column)) - sum(map(list.count, column, repeat(None))))
        except TypeError:   # not a column of lists (hidden, or some entries hidden)
            pass
    return _sum([_count(v, depth) for v in _each(column)])


class _Ownership:
    """Per seat, sums over the entries of a seat-valued column (a node's owner, a lot's markers) it
    holds: one matrix product of who holds what by what each entry carries."""

    def __init__(self, names: list[str], path: tuple[Any, ...], dynamic: list[tuple[tuple[Any, ...], Any]],
                 static: np.ndarray | None, flags: list[int] | None = None):
        self.names = names
        self.path = path
        self.dynamic = dynamic
        self.static = static
        # The columns that are a yes/no attribute's "yes" (a store, a corner), by index in `names`.
        self.flags = flags or []
        self._last: tuple[Shown | None, tuple[np.ndarray, np.ndarray] | None] = (None, None)
        # What each entry carries, by column: a count (1), the number fields, the text fields' kinds
        # (each text column read once), then the static attributes.
        self.width = 1 + len(dynamic) + (0 if static is None else static.shape[1])
        self.numbers = [(j, path) for j, (path, k) in enumerate(dynamic, start=1) if k is None]
        texts: dict[tuple[Any, ...], dict[Any, int]] = {}
        for j, (path, k) in enumerate(dynamic, start=1):
            if k is not None:
                texts.setdefault(path, {})[k] = j
        self.texts = list(texts.items())
        # The columns what the entries carry is read from, each once, and what they gave, by content.
        self.paths = list(dict.fromkeys(path for path, _ in dynamic))
        self._kept: dict[bytes, np.ndarray] = {}

    @staticmethod
    def _column(shown: Shown, path: tuple[Any, ...]) -> Any:
        value: Any = shown[path[0]]
        for key in path[1:]:
            value = _get(value, key)
        return value

    def read(self, shown: Shown, n: int) -> np.ndarray:
        """Per-seat values (names x seats; NaN where unknown)."""
        found = self.held(shown, n)
        if found is None:                       # hidden from this seat: nothing is known
            return np.full((len(self.names), n), np.nan)
        held, parts = found
        sums: np.ndarray = (held.T @ parts).T          # names x seats
        return sums

    def held(self, shown: Shown, n: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Who holds each entry (entries x seats, a count of markers) and what each entry carries
        (entries x names); None when the column is hidden from this seat. Read once per position
        (the ownership's sums and the reach both use it)."""
        if self._last[0] is shown:
            return self._last[1]
        found = self._held(shown, n)
        self._last = (shown, found)
        return found

    def _held(self, shown: Shown, n: int) -> tuple[np.ndarray, np.ndarray] | None:
        entries = self._column(shown, self.path)
        if not isinstance(entries, list):
            return None
        held = np.zeros((len(entries), n))
        for i, v in enumerate(entries):
            for owner in (v if isinstance(v, list) else (v,)):
                if type(owner) is int and 0 <= owner < n:
                    held[i, owner] += 1.0
        return held, self._parts(shown, len(entries))

    def _parts(self, shown: Shown, size: int) -> np.ndarray:
        """What each entry carries (entries x names), kept by the content of the columns it is read from:
        the positions a bot judges in a decision mostly share them (about five positions to a content,
        measured), where who holds what changes more often."""
        columns = {path: self._column(shown, path) for path in self.paths}
        try:
            key: bytes | None = marshal.dumps([size, *columns.values()])
        except ValueError:     # something marshal cannot write: not kept
            key = None
        found = self._kept.get(key) if key is not None else None
        if found is None:
            found = self._read_parts(columns, size)
            if key is not None:
                if len(self._kept) >= KEPT_PARTS:
                    self._kept.clear()
                found.flags.writeable = False      # shared by the positions that read it
                self._kept[key] = found
        return found

    def _read_parts(self, columns: dict[tuple[Any, ...], Any], size: int) -> np.ndarray:
        """`_parts` from the columns read (by path)."""
        parts = np.zeros((size, self.width))
        parts[:, 0] = 1.0
        if self.numbers:
            read = [columns[path] for _, path in self.numbers]
            try:    # whole numbers and yes/no (the usual case) convert at once
                numbers = np.array([c if isinstance(c, list) else [0.0] * size for c in read], dtype=float)
                parts[:, [j for j, _ in self.numbers]] = np.where(numbers != numbers, 0.0, numbers).T
            except (TypeError, ValueError):
                for (j, _), col in zip(self.numbers, read):
                    parts[:, j] = _numbers(col) if isinstance(col, list) else 0.0
        for path, kinds in self.texts:
            col = columns[path]
            if isinstance(col, list):
                try:
                    marks = [(i, kinds[x]) for i, x in enumerate(col) if x in kinds]
                except TypeError:    # something unhashable: compared one by one
                    marks = [(i, j) for i, x in enumerate(col) for k, j in kinds.items() if x == k]
                if marks:
                    rows, places = zip(*marks)
                    parts[list(rows), list(places)] = 1.0
        if self.static is not None:
            parts[:, self.width - self.static.shape[1]:] = self.static
        return parts


def _numbers(column: list[Any]) -> Any:
    """A column of numbers and yes/no as floats, none and anything else as 0."""
    try:
        numbers = np.asarray(column, dtype=float)
        return np.where(numbers != numbers, 0.0, numbers)
    except (TypeError, ValueError):
        return [_number(x) or 0.0 for x in column]


class _Reach:
    """Per seat, what it owns at and next to the nodes that public global fields point at: for each
    such node (`refs`, one per field or map entry) and each of `near` (the node itself, and its
    neighbours along any edge), sums over the seat's nodes there of the ownership's `columns`, and
    of the products `pairs` of two of them (a number carried times a yes/no attribute)."""

    def __init__(self, names: list[str], owner: _Ownership, refs: list[tuple[str, Any]],
                 near: np.ndarray, columns: list[int], pairs: list[tuple[int, int]], totals: np.ndarray):
        self.names = names
        self.owner = owner
        self.refs = refs
        self.totals = totals        # what is reported x refs: the weight of each ref in each total
        self.near = near            # nodes x (groups x nodes): 1 where a group reaches the second node from the first
        self.columns = columns
        self.firsts = [a for a, _ in pairs]
        self.seconds = [b for _, b in pairs]

    def read(self, shown: Shown, n: int) -> np.ndarray:
        """Per-seat values (names x seats; NaN where the owners are hidden)."""
        found = self.owner.held(shown, n)
        if found is None:
            return np.full((len(self.names), n), np.nan)
        held, parts = found
        nodes = len(held)
        pointed = np.zeros((len(self.refs), nodes))
        glob = shown[1]
        for r, (field, key) in enumerate(self.refs):
            value = glob[field] if key is None else _get(glob[field], key)
            for node in (_leaves(value) if isinstance(value, list) else (value,)):
                if type(node) is int and 0 <= node < nodes:
                    pointed[r, node] += 1.0
        carried = parts[:, self.columns]
        if self.firsts:
            carried = np.hstack([carried, parts[:, self.firsts] * parts[:, self.seconds]])
        c = carried.shape[1]
        reached = (pointed @ self.near).reshape(-1, nodes)                 # (refs x groups) x nodes
        each = (held[:, :, None] * carried[:, None, :]).reshape(nodes, -1)  # nodes x (seats x columns)
        sums = (reached @ each).reshape(len(self.refs), -1)                # refs x (groups x seats x columns)
        totals = (self.totals @ sums).reshape(-1, n, c).transpose(0, 2, 1)  # (totals x groups) x columns x seats
        out: np.ndarray = totals.reshape(-1, n)
        return out


@dataclass(frozen=True)
class _Item:
    """How the items of one component kind count: a name per column of `matrix` (items x columns):
    an attribute's number, or 1 where the attribute has one value (a colour, a kind)."""

    names: list[str]
    matrix: np.ndarray


@dataclass(frozen=True)
class Needed:
    """Which parts of a row a fitted value reads: a reader, group or public number whose features
    all weigh exactly 0 in it is not read (its features are left at 0, which changes nothing)."""

    per_seat: tuple[bool, ...]
    groups: tuple[bool, ...]
    evaluations: bool
    public: tuple[bool, ...]
    rows: tuple[int, ...]     # the rows of the per-seat table whose sides are read
    size: int                 # the rows of the per-seat table

    @property
    def shown(self) -> bool:
        """Whether anything is read from the seat's visible fields (else only evaluations are)."""
        return any(self.per_seat) or any(self.groups) or any(self.public)

    def sides(self, table: np.ndarray, seat: int) -> list[float]:
        """`_sides` of the rows read, 0 for the others."""
        if len(self.rows) == self.size:         # every row is read (the usual case)
            return _sides(table, seat)
        rows = list(self.rows)
        out = np.zeros((self.size, 3))
        out[rows] = _sides_array(table[rows], seat)
        found: list[float] = out.ravel().tolist()
        return found

    def placed(self, found: list[float]) -> list[float]:
        """The sides of the rows read (`found`, in their order) in the places of a whole table's, 0
        in the others'."""
        out = [0.0] * (3 * self.size)
        for i, r in enumerate(self.rows):
            out[3 * r:3 * r + 3] = found[3 * i:3 * i + 3]
        return out


class _Holding:
    """Per seat, the sums of item attributes over the items a seat field's (nested) list holds."""

    def __init__(self, names: list[str], field: str, matrix: np.ndarray):
        self.names = names
        self.field = field
        self.matrix = matrix

    def read(self, shown: Shown, n: int) -> np.ndarray:
        """Per-seat values (names x seats; NaN where the seat may not see the list)."""
        items = len(self.matrix)
        counts = np.zeros((n, items))
        seen = [False] * n
        for s, held in enumerate(shown[0][self.field]):
            if held == HIDDEN:
                continue
            seen[s] = True
            row = counts[s]
            for x in (_leaves(held) if any(isinstance(x, list) for x in held) else held):
                if type(x) is int and 0 <= x < items:
                    row[x] += 1.0
        sums: np.ndarray = (counts @ self.matrix).T          # names x seats
        sums[:, [s for s in range(n) if not seen[s]]] = np.nan
        return sums


_NUMBERS = (int, float, bool)


def _number(value: Any) -> float | None:
    """A number or yes/no as a float; None for anything else (a hidden value, none)."""
    return float(value) if type(value) in _NUMBERS else None


def _leaves(value: Any) -> Iterator[Any]:
    """Every element of a (nested) list that is not a list."""
    if isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _count(value: Any, depth: int = 0) -> float | None:
    """How many things a (nested) list holds, or None for a value the seat may not see (`depth`: how
    deep its lists nest, as declared; 1 is a list of things, 0 unknown)."""
    if value == HIDDEN:
        return None
    if depth == 1 and type(value) is list:
        return float(len(value) - value.count(None))
    return float(_size(value))


def _size(value: Any) -> int:
    if not isinstance(value, list):
        return 0 if value is None else 1
    return sum(_size(v) if isinstance(v, list) else v is not None for v in value)


def _leaf_type(t: Type) -> Type:
    while t.kind == "list":
        t = t.args[0]
    return t


def _depth(t: Type) -> int:
    return 1 + _depth(t.args[0]) if t.kind == "list" else 0


def _flat_depth(t: Type) -> int:
    """How deep a type's lists nest when what they hold at the bottom is never a list; 0 when it may be
    (a tuple is held as a list, `any` may be one): how the readers know when counting is `len`."""
    return 0 if _leaf_type(t).kind in ("tuple", "any") else _depth(t)


def _kinds(values: Iterable[Any]) -> list[Any]:
    distinct = sorted({v for v in values if isinstance(v, (str, bool)) and v is not None}, key=repr)
    return distinct if 0 < len(distinct) <= MAX_KINDS else []


class FeatureSpace:
    """The features of one game, in a fixed order (`names`), and how to read them from a position.

    `vocab` holds the texts seen in text-valued state fields while training (their values are not
    declared anywhere), so a trained value and the game agree on what each feature means.
    """

    def __init__(self, engine: Engine, vocab: dict[str, list[str]] | None = None,
                 evaluations: dict[str, tuple[tuple[str, float], ...]] | None = None):
        self.engine = engine
        self.vocab = vocab or {}
        game = engine.game
        world = game.world
        self.items = {kind: self._item_readers(kind) for kind in world.components}
        self.per_seat: list[tuple[str, _SeatRead]] = []
        self.owners: list[_Ownership] = []
        self.holdings: list[_Holding] = []
        self.groups: list[_Holding | _Ownership | _Reach] = []
        self.public: list[tuple[str, _PublicRead]] = []
        self._public_reads: dict[tuple[bool, ...], Callable[[Shown, int, int], list[float]]] = {}
        for f in game.seat_fields:
            self._seat_field(f.name, world.seat_fields[f.name].type)
        for f in game.node_fields:
            self._board_field("node", f.name, world.node_fields[f.name].type, None)
        for kind, fields in game.component_fields.items():
            for f in fields:
                self._board_field("components", f.name, world.components[kind].fields[f.name].type, kind)
        for f in game.global_fields:
            self._global_field(f.name, world.global_fields[f.name].type)
        # Every field some seat may not see (views blank them), by name.
        self.hidden = frozenset(f.name for fields in (game.global_fields, game.seat_fields, game.node_fields,
                                                       *game.component_fields.values())
                                for f in fields if f.visible != "all")
        self.evaluations: list[tuple[str, list[tuple[Callable[..., Any], float]]]] = [
            (name, self.evaluation_terms(terms)) for name, terms in (evaluations or {}).items() if terms]
        # Whether the declared evaluations read nothing a seat may be kept from seeing: then every
        # seat's view gives them the same values, and they are read once for all seats.
        self.evaluations_alike = all(self.seen_alike(terms) for terms in (evaluations or {}).values())
        self.reaches = [r for r in (self._reach(o) for o in self.owners if o.path[0] == 2) if r is not None]
        self.groups = [*self.holdings, *self.owners, *self.reaches]
        # Which of the rules' questions is being asked (by the name it binds): where in the rules the
        # position stands, say in the middle of a loop whose cost is paid when it ends.
        self.asked = sorted({spec.var for spec in engine.program.chooses})
        self._asked_column = [self.asked.index(spec.var) for spec in engine.program.chooses]
        # Whether some field is shown to its owner alone: then seats see different things.
        self.private = any(f.visible == "owner" for f in game.seat_fields)
        self.names = ([f"{name}:{side}" for name, _ in self.per_seat for side in ("own", "best_other", "others")]
                      + [f"{name}:{side}" for h in self.holdings for name in h.names for side in ("own", "best_other", "others")]
                      + [f"{name}:{side}" for o in self.owners for name in o.names for side in ("own", "best_other", "others")]
                      + [f"{name}:{side}" for r in self.reaches for name in r.names for side in ("own", "best_other", "others")]
                      + [f"{name}:{side}" for name, _ in self.evaluations for side in ("own", "best_other", "others")]
                      + [name for name, _ in self.public] + [f"asked={var}" for var in self.asked] + ["seats", "bias"])

    def declared_columns(self) -> list[int]:
        """Where the game's declared evaluations are among the features (every side of each)."""
        declared = {name for name, _ in self.evaluations}
        return [i for i, name in enumerate(self.names) if name.rsplit(":", 1)[0] in declared]

    # ------------------------------------------------------------ building the readers
    def _item_readers(self, kind: str) -> _Item:
        component = self.engine.game.world.components[kind]
        names: list[str] = []
        columns: list[list[float]] = []
        for attr, t in component.attrs.items():
            values = component.attr_values[attr]
            if t.kind == "int" and len(set(values)) < len(values):   # numbers, not identifiers
                names.append(attr)
                columns.append([float(v or 0) for v in values])   # type: ignore[arg-type]
            elif t.kind in ("str", "bool"):
                for kind_value in _kinds(values):
                    names.append(f"{attr}={kind_value}")
                    columns.append([float(v == kind_value) for v in values])
        return _Item(names, np.asarray(columns, dtype=float).T if columns else np.zeros((len(component.ids), 0)))

    def _seat_field(self, name: str, t: Type) -> None:
        add = self.per_seat.append
        if t.kind in ("int", "bool"):
            add((name, _SeatRead(name, "number")))
        elif t.kind == "list":
            add((f"{name}.count", _SeatRead(name, "count", depth=_flat_depth(t))))
            if _depth(t) > 1:
                add((f"{name}.lists", _SeatRead(name, "lists")))
            leaf = _leaf_type(t).kind
            if leaf in self.items and self.items[leaf].names:
                item = self.items[leaf]
                self.holdings.append(_Holding([f"{name}.{a}" for a in item.names], name, item.matrix))
        elif t.kind == "map" and t.args[1].kind in ("int", "bool"):
            for key in self._map_keys("seat", name):
                add((f"{name}[{key}]", _SeatRead(name, "key", key=key)))

    def _map_keys(self, where: str, name: str) -> list[Any]:
        """The keys of a map field, from its initial value (a map's keys are the game's own names)."""
        fields = {"seat": self.engine.game.seat_fields, "global": self.engine.game.global_fields}[where]
        for f in fields:
            if f.name == name and isinstance(f.initial, dict):
                return sorted(f.initial, key=repr)
        return []

    def _board_field(self, where: str, name: str, t: Type, kind: str | None) -> None:
        """A node or item field: who owns what (seat-valued), and public counts and sums."""
        path: tuple[Any, ...] = (2, name) if kind is None else (3, kind, name)
        label = name if kind is None else f"{kind}.{name}"
        if t.kind == "seat" or (t.kind == "list" and t.args[0].kind == "seat"):
            self.owners.append(self._ownership(label, name, path, kind))
        elif t.kind in ("int", "bool"):
            self.public.append((f"{label}.sum", _PublicRead(path, "sum")))
        elif t.kind == "str":
            for k in self.vocab.get(f"{where}.{label}", []):
                self.public.append((f"{label}={k}", _PublicRead(path, "matches", k)))
        elif t.kind == "list":
            self.public.append((f"{label}.count", _PublicRead(path, "counts", depth=_flat_depth(t))))

    def _ownership(self, label: str, name: str, path: tuple[Any, ...], kind: str | None) -> "_Ownership":
        """What each seat owns through a seat-valued node or item field: how many entries, and the sums
        of the numbers and kinds those entries carry (their other fields and their attributes)."""
        game = self.engine.game
        world = game.world
        names = [f"{label}.owned"]
        dynamic: list[tuple[tuple[Any, ...], Any]] = []
        siblings = game.node_fields if kind is None else game.component_fields[kind]
        where = "node" if kind is None else f"components.{kind}"
        for other in siblings:
            other_type = (world.node_fields[other.name].type if kind is None
                          else world.components[kind].fields[other.name].type)
            if other.visible != "all" or other.name == name:
                continue
            other_path = path[:-1] + (other.name,)
            if other_type.kind in ("int", "bool"):
                names.append(f"{label}.owned.{other.name}")
                dynamic.append((other_path, None))
            elif other_type.kind == "str":
                for k in self.vocab.get(f"{where}.{other.name}", []):
                    names.append(f"{label}.owned.{other.name}={k}")
                    dynamic.append((other_path, k))
        attrs = world.node_attrs if kind is None else world.components[kind].attrs
        attr_values = world.node_attr_values if kind is None else world.components[kind].attr_values
        static: list[list[float]] = []
        flags: list[int] = []
        for attr, at in attrs.items():
            values = attr_values[attr]
            if at.kind == "int" and len(set(values)) < len(values):   # numbers, not identifiers
                names.append(f"{label}.owned.{attr}")
                static.append([float(v or 0) for v in values])   # type: ignore[arg-type]
            elif at.kind in ("str", "bool"):
                for k in _kinds(values):
                    if k is True:
                        flags.append(len(names))
                    names.append(f"{label}.owned.{attr}={k}")
                    static.append([float(v == k) for v in values])
        return _Ownership(names, path, dynamic, np.asarray(static, dtype=float).T if static else None, flags)

    def _node_refs(self) -> list[tuple[str, str, Any]]:
        """The nodes public global fields point at: (label, field, map key or None), one per field
        of type node or list of nodes, and one per entry of a map of them."""
        world = self.engine.game.world
        refs: list[tuple[str, str, Any]] = []
        for f in self.engine.game.global_fields:
            if f.visible != "all":
                continue
            t = world.global_fields[f.name].type
            if _leaf_type(t).kind == "node":
                refs.append((f.name, f.name, None))
            elif t.kind == "map" and _leaf_type(t.args[1]).kind == "node":
                refs += [(f"{f.name}[{key}]", f.name, key) for key in self._map_keys("global", f.name)]
        return refs

    def _reach(self, owner: _Ownership) -> "_Reach | None":
        """What a seat owns where the state points, through a node ownership (None: nothing points)."""
        refs = self._node_refs()
        if not refs:
            return None
        graph = self.engine.game.graph
        index = {node: i for i, node in enumerate(self.engine.game.node_ids)}
        nodes = len(index)
        next_to = np.zeros((nodes, nodes))
        for a, b in graph.edges():
            next_to[index[a], index[b]] = next_to[index[b], index[a]] = 1.0
        near = np.hstack([np.eye(nodes), next_to])       # the node itself, then its neighbours
        numbers = list(range(1, 1 + len(owner.dynamic)))
        columns = [0, *numbers, *owner.flags]
        pairs = [(d, f) for d in numbers for f in owner.flags]
        carried = ([owner.names[0]] + [owner.names[c] for c in numbers + owner.flags]
                   + [f"{owner.names[d]}*{owner.names[f].rsplit('.', 1)[-1]}" for d, f in pairs])
        labels, weights = self._reach_totals(refs)
        names = [f"{label}.{where}:{c}" for label in labels for where in ("on", "next") for c in carried]
        return _Reach(names, owner, [(field, key) for _, field, key in refs], near, columns, pairs, weights)

    def _reach_totals(self, refs: list[tuple[str, str, Any]]) -> tuple[list[str], np.ndarray]:
        """What the reach reports (a label each) as weights over `refs`: a field that points at one
        place by itself; the entries of a map of places together, as their plain sum and their sum
        weighted by each table of numbers that has the map's keys (what each piece is worth), so that
        the value learns what a piece standing there means once, not once per piece."""
        tables = self.engine.game.world.tables
        labels: list[str] = []
        rows: list[list[float]] = []
        by_field: dict[str, list[int]] = {}
        for r, (label, field, key) in enumerate(refs):
            if key is None:
                labels.append(label)
                rows.append([float(i == r) for i in range(len(refs))])
            else:
                by_field.setdefault(field, []).append(r)
        for field, entries in by_field.items():
            keys = [refs[r][2] for r in entries]
            labels.append(f"{field}[*]")
            rows.append([float(i in entries) for i in range(len(refs))])
            for name, (_, table) in sorted(tables.items()):
                if (isinstance(table, dict) and set(table) == set(keys)
                        and all(type(v) in (int, float) for v in table.values())):
                    weight = dict(zip(entries, (float(table[k]) for k in keys)))
                    labels.append(f"{field}[*]*{name}")
                    rows.append([weight.get(i, 0.0) for i in range(len(refs))])
        return labels, np.asarray(rows, dtype=float)

    def _global_field(self, name: str, t: Type) -> None:
        path: tuple[Any, ...] = (1, name)
        add = self.public.append
        if t.kind in ("int", "bool"):
            add((name, _PublicRead(path, "number")))
        elif t.kind == "seat":
            # Whether it is the deciding seat, and how many turns away it is (a first player, a mayor).
            add((f"{name}=own", _PublicRead(path, "is_seat")))
            add((f"{name}.after", _PublicRead(path, "after")))
        elif t.kind == "str":
            for k in self.vocab.get(f"global.{name}", []):
                add((f"{name}={k}", _PublicRead(path, "equals", k)))
        elif t.kind == "list":
            add((f"{name}.count", _PublicRead(path, "count", depth=_flat_depth(t))))
        elif t.kind == "map":
            inner = t.args[1]
            initial = next(f.initial for f in self.engine.game.global_fields if f.name == name)
            for key in self._map_keys("global", name):
                if inner.kind in ("int", "bool"):
                    add((f"{name}[{key}]", _PublicRead(path + (key,), "number")))
                elif inner.kind == "map":
                    for key2 in sorted(initial.get(key) or {}, key=repr):
                        add((f"{name}[{key}][{key2}]", _PublicRead(path + (key, key2), "number")))
                else:
                    add((f"{name}[{key}].count", _PublicRead(path + (key,), "count", depth=_flat_depth(inner))))

    # ------------------------------------------------------------ reading a position
    def needed(self, used: list[bool]) -> Needed:
        """What a value reads, from which of the features (in `names` order) it uses."""
        at = 0

        def take(width: int) -> bool:
            nonlocal at
            found = any(used[at:at + width])
            at += width
            return found

        per_seat = tuple(take(3) for _ in self.per_seat)
        groups = tuple(take(3 * len(group.names)) for group in self.groups)
        evaluations = take(3 * len(self.evaluations))
        public = tuple(take(1) for _ in self.public)
        size = len(self.per_seat) + sum(len(group.names) for group in self.groups) + len(self.evaluations)
        rows = tuple(r for r in range(size) if any(used[3 * r:3 * r + 3]))
        return Needed(per_seat, groups, evaluations, public, rows, size)

    def extract(self, state: dict[str, Any], seat: int, needed: Needed | None = None,
                judged: list[list[float | None]] | None = None) -> list[float]:
        """The features of `state` from `seat`'s side, from what that seat may see only (with
        `needed`, only what a value reads: the others are 0; with `judged`, the declared
        evaluations' values, when they are the same from every seat's side)."""
        if needed is not None and not needed.shown:
            return self._evaluations_row(state, seat, needed, judged)
        shown = visible_fields(self.engine, state, seat)
        return self._row(shown, self._table(state, seat, shown, needed, judged), seat, state["seats"],
                         self._question(state), needed)

    def _evaluations_row(self, state: dict[str, Any], seat: int, needed: Needed,
                         judged: list[list[float | None]] | None) -> list[float]:
        """`extract` for a value that reads the declared evaluations alone (run on the seat's masked
        reading): nothing of the seat's visible fields, and of the per-seat table only their rows."""
        out = [0.0] * (3 * needed.size)
        if needed.evaluations and self.evaluations and needed.rows:
            if judged is None:
                judged = self.judged(state, seat, self.evaluations)
            first = needed.size - len(self.evaluations)
            out = needed.placed(_sides_of_rows([judged[r - first] for r in needed.rows], seat))
        return [*out, *([0.0] * len(self.public)), *self._question(state), float(state["seats"]), 1.0]

    def extract_all(self, state: dict[str, Any], needed: Needed | None = None) -> list[list[float]]:
        """The features of `state` from every seat's side (each from what that seat may see only).

        In a game where no field is shown to its owner alone, every seat sees the same: the table
        of per-seat numbers is then read once for all of them."""
        n = state["seats"]
        judged = self._judged_alike(state, needed)
        if needed is not None and not needed.shown:
            return [self._evaluations_row(state, s, needed, judged) for s in range(n)]
        if self.private:
            return [self.extract(state, s, needed, judged) for s in range(n)]
        shown = visible_fields(self.engine, state, 0)
        table = self._table(state, 0, shown, needed, judged)
        asking = self._question(state)
        # What every seat reads alike is read once: the public numbers that do not depend on the
        # seat, and the three sides of the per-seat table for every seat in one pass.
        wanted = needed.public if needed is not None else (True,) * len(self.public)
        per_seat = tuple(want and read.per_seat for want, (_, read) in zip(wanted, self.public))
        common = self._public_numbers(tuple(want and not mine for want, mine in zip(wanted, per_seat)))(shown, 0, n)
        seat_read = self._public_numbers(per_seat)
        places = [i for i, mine in enumerate(per_seat) if mine]
        tail = [*asking, float(n), 1.0]
        rows = []
        every = _sides_all(table) if needed is None else [needed.sides(table, s) for s in range(n)]
        for s, sides in enumerate(every):
            public = list(common)
            if places:
                mine = seat_read(shown, s, n)
                for i in places:
                    public[i] = mine[i]
            rows.append([*sides, *public, *tail])
        return rows

    def _public_numbers(self, wanted: tuple[bool, ...] | None = None) -> Callable[[Shown, int, int], list[float]]:
        """The function reading the wanted public numbers (all without `wanted`), compiled once."""
        key = wanted if wanted is not None else (True,) * len(self.public)
        compiled = self._public_reads.get(key)
        if compiled is None:
            compiled = self._public_reads[key] = _compile_public([read for _, read in self.public], key)
        return compiled

    def _judged_alike(self, state: dict[str, Any], needed: Needed | None) -> list[list[float | None]] | None:
        """The declared evaluations' values, read once, where they are the same from every seat's view
        (every seat sees the same, or they read nothing hidden); None where they are not, or not read."""
        if not self.evaluations or (needed is not None and not needed.evaluations):
            return None
        if not self.private:
            return self.judged(state, 0, self.evaluations)
        return self.judged(state, None, self.evaluations) if self.evaluations_alike else None

    def _table(self, state: dict[str, Any], seat: int, shown: Shown, needed: Needed | None = None,
               judged: list[list[float | None]] | None = None) -> np.ndarray:
        """Every per-seat number, one row each (seats in columns, NaN where `seat` may not see it;
        0 where `needed` says the value does not read it; the evaluations' from `judged` if given)."""
        n = state["seats"]
        if needed is None:
            blocks = [np.array([reader(shown, n) for _, reader in self.per_seat], dtype=float).reshape(-1, n)]
            blocks += [group.read(shown, n) for group in self.groups]
        else:
            blocks = [np.array([reader(shown, n) if want else [0.0] * n
                                for want, (_, reader) in zip(needed.per_seat, self.per_seat)],
                               dtype=float).reshape(-1, n)]
            blocks += [group.read(shown, n) if want else np.zeros((len(group.names), n))
                       for want, group in zip(needed.groups, self.groups)]
        if self.evaluations:
            if needed is None or needed.evaluations:
                if judged is None:
                    judged = self.judged(state, seat, self.evaluations)
                blocks.append(np.array(judged, dtype=float))
            else:
                blocks.append(np.zeros((len(self.evaluations), n)))
        return np.vstack(blocks)

    def _question(self, state: dict[str, Any]) -> list[float]:
        """One-hot of the question the rules are asking (every seat sees what is asked, if not the answers)."""
        asked = [0.0] * len(self.asked)
        pending = state.get("pending")
        if pending is not None and 0 <= pending["spec"] < len(self._asked_column):
            asked[self._asked_column[pending["spec"]]] = 1.0
        return asked

    def _row(self, shown: Shown, table: np.ndarray, seat: int, n: int, asking: list[float],
             needed: Needed | None = None) -> list[float]:
        public = self._public_numbers(None if needed is None else needed.public)(shown, seat, n)
        sides = _sides(table, seat) if needed is None else needed.sides(table, seat)
        return [*sides, *public, *asking, float(n), 1.0]

    def judged(self, state: dict[str, Any], seat: int | None,
               evaluations: list[tuple[str, list[tuple[Callable[..., Any], float]]]]) -> list[list[float | None]]:
        """Each seat's value by each of the game's evaluations, run on what `seat` may see only
        (None: what every seat sees)."""
        if not evaluations:
            return []
        runtime = self.engine.runtime
        runtime.bind(masked_reading(self.engine, state, seat))
        seats = range(state["seats"])
        return [[_judge(runtime, terms, s) for s in seats] for _, terms in evaluations]

    def seen_alike(self, terms: tuple[tuple[str, float], ...]) -> bool:
        """Whether an evaluation's formulas read no field hidden from some seat (the compiler says
        which fields each formula may read): its values are then the same from every seat's view."""
        reads = self.engine.program.formula_reads
        return all(formula in reads and not reads[formula] & self.hidden for formula, _ in terms)

    def evaluation_terms(self, terms: tuple[tuple[str, float], ...]) -> list[tuple[Callable[..., Any], float]]:
        """A declared evaluation's formulas, compiled, with their weights."""
        return [(seat_formula(self.engine, formula), w) for formula, w in terms]


def _judge(runtime: Any, terms: list[tuple[Callable[..., Any], float]], seat: int) -> float | None:
    """A seat's value by an evaluation, or None when the formulas cannot be computed from what is seen.

    The formulas were written for whole states: on one where another seat's hand is blanked they may
    fail (a table looked up with a blank card). That seat's value is then unknown, like any hidden
    number, rather than guessed.
    """
    try:
        return float(sum(w * f(runtime, seat) for f, w in terms))
    except Exception:
        return None


def lead(values: list[float | None], seat: int) -> float:
    """The seat's value minus the best other seat's."""
    others = [v for s, v in enumerate(values) if s != seat and v is not None]
    return (values[seat] or 0.0) - (max(others) if others else 0.0)


def vocabulary(engine: Engine, states: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """The texts seen in text-valued node, item and global fields of the states (public ones only)."""
    game = engine.game
    world = game.world
    # (the key a FeatureSpace looks a field up by, where its values are in a state)
    wanted: list[tuple[str, tuple[str, ...], bool]] = []
    for f in game.node_fields:
        if world.node_fields[f.name].type.kind == "str" and f.visible == "all":
            wanted.append((f"node.{f.name}", ("node", f.name), True))
    for kind, fields in game.component_fields.items():
        for f in fields:
            if world.components[kind].fields[f.name].type.kind == "str" and f.visible == "all":
                wanted.append((f"components.{kind}.{f.name}", ("components", kind, f.name), True))
    for f in game.global_fields:
        if world.global_fields[f.name].type.kind == "str" and f.visible == "all":
            wanted.append((f"global.{f.name}", ("global", f.name), False))
    seen: dict[str, set[str]] = {key: set() for key, _, _ in wanted}
    for state in states:
        for key, path, column in wanted:
            value: Any = state
            for part in path:
                value = value[part]
            seen[key].update(v for v in (value if column else [value]) if isinstance(v, str))
    return {key: sorted(values)[:MAX_KINDS] for key, values in seen.items() if values}


def _sides(table: np.ndarray, seat: int) -> list[float]:
    """For each row of per-seat numbers (NaN: unknown), the seat's own, the best of the others' and
    the others' mean, side by side (0 where nothing is known)."""
    out: list[float] = _sides_array(table, seat).ravel().tolist()
    return out


def _sides_array(table: np.ndarray, seat: int) -> np.ndarray:
    """`_sides` as an array, a row of three per row of the table."""
    n = table.shape[1]
    own = table[:, seat]
    total = table.sum()
    if 1 < n <= _PLAIN_SEATS and total == total:
        # Everything known (the usual case: a NaN anywhere makes the total one): the others'
        # columns alone, summed in the same order (numpy adds fewer than 8 numbers one by one),
        # the same numbers in half the operations.
        others = table[:, _OTHERS[n][seat]]
        out = np.empty((table.shape[0], 3))
        out[:, 0] = own
        others.max(axis=1, out=out[:, 1])
        others.sum(axis=1, out=out[:, 2])
        out[:, 2] /= n - 1
        return out
    unknown = np.isnan(table)
    unknown[:, seat] = True                 # the others' figures leave the seat's own out
    count = table.shape[1] - unknown.sum(axis=1)
    best = np.where(unknown, -np.inf, table).max(axis=1, initial=-np.inf)
    best[count == 0] = 0.0
    mean = np.where(unknown, 0.0, table).sum(axis=1) / np.maximum(count, 1)
    return np.stack([np.where(np.isnan(own), 0.0, own), best, mean], axis=1)


# Seats up to which `_sides_of_rows` adds in plain Python: numpy adds a row of fewer than 8 numbers one
# by one in order too, so the sums agree exactly (from 8 on it keeps 8 running sums and adds them).
_PLAIN_SEATS = 7
# The other seats' columns, by number of seats and seat.
_OTHERS = [[[c for c in range(n) if c != seat] for seat in range(n)] for n in range(_PLAIN_SEATS + 1)]


def _sides_of_rows(rows: list[list[float | None]], seat: int) -> list[float]:
    """`_sides` of a few rows given as lists (None: unknown), the same numbers (a zero's sign aside): a value
    that reads the declared evaluations alone has a row or two, for which numpy's arrays cost more
    than the arithmetic (a fifth of such a decision, profiled)."""
    if any(len(row) > _PLAIN_SEATS for row in rows):
        return _sides(np.array(rows, dtype=float), seat)
    out: list[float] = []
    for row in rows:
        own = row[seat]
        known = [v for s, v in enumerate(row) if s != seat and v is not None and v == v]
        out += [0.0 if own is None or own != own else float(own),
                float(max(known)) if known else 0.0, sum(known, 0.0) / max(len(known), 1)]
    return out


def _sides_all(table: np.ndarray) -> list[list[float]]:
    """`_sides` for every seat at once (seats in the table's columns), the same numbers to the bit."""
    rows, n = table.shape
    if n < 2 or np.isnan(table).any():
        return [_sides(table, seat) for seat in range(n)]
    # others[s] is the table with seat s's column masked: its best and its mean, summed in column
    # order with a zero in the seat's place as `_sides` does.
    mask = np.eye(n, dtype=bool)[:, None, :]                       # seat x 1 x column
    wide = np.broadcast_to(table, (n, rows, n))
    best = np.where(mask, -np.inf, wide).max(axis=2)               # seat x row
    mean = np.where(mask, 0.0, wide).sum(axis=2) / float(n - 1)
    sides = np.stack([table.T, best, mean], axis=2)                # seat x row x 3
    out: list[list[float]] = sides.reshape(n, -1).tolist()
    return out


def _each(column: Any) -> list[Any]:
    return column if isinstance(column, list) else []


def _sum(values: Any) -> float:
    """The sum of the numbers among `values` (nothing for a hidden column)."""
    if isinstance(values, str):
        return 0.0
    try:    # numbers only, the usual case: the same additions in the same order, at C speed
        return float(sum(values))
    except TypeError:
        return float(sum(v for v in values if type(v) in _NUMBERS))


def _matches(column: Any, k: str) -> float:
    return float(column.count(k)) if isinstance(column, list) else 0.0


def _after(value: Any, seat: int, n: int) -> float:
    return float((value - seat) % n) / n if isinstance(value, int) and not isinstance(value, bool) else 0.0


def _get(value: Any, key: Any) -> Any:
    if isinstance(value, dict):
        return value.get(key)
    return None
