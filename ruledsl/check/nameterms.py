"""The values the names pass follows: texts grouped into classes that must hold the same names.

Each value of the rules gets a `Term` shaped like its type (a text, a list of..., a map from...
to..., a tuple, or something opaque such as a number or a node). Two terms are unified when the
rules make their values meet: compared with `==`, stored one in the other, passed as an argument.
Unified texts form one class (union-find), and a class gathers what it knows of its names:

- `data`: the texts of read-only data (board and item attributes, tables, edge attributes): a
  complete list of what such a value can be;
- `declared`: the names of a set declared in game.yaml;
- `initial`: the texts a state field starts with (a field may later hold others);
- `stores`: texts the rules themselves create (`let k = "stop"`, a list of options, a returned
  text): always fine;
- `open`: the class also receives texts the pass cannot see (joined texts, `str(...)`, seat names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..diagnostics import Related
from ..world import not_a_name


@dataclass(frozen=True)
class Source:
    """Where a class's names come from, for messages: what it is, and whether it is complete."""

    kind: str  # "node", "item", "edge", "keys", "values", "declared", "field"
    name: str  # the attribute, table, set or field
    owner: str = ""  # the component kind of an item attribute

    def missing(self, text: str) -> str:
        """The error message for a text that none of these names is."""
        if self.kind == "node":
            return f"no board node has {self.name} {text!r}"
        if self.kind == "item":
            return f"no {self.owner} has {self.name} {text!r}"
        if self.kind == "edge":
            return f"no edge of the board has {self.name} {text!r}"
        if self.kind == "keys":
            return f"table {self.name} has no entry {text!r}"
        if self.kind == "values":
            return f"table {self.name} holds no {text!r}"
        if self.kind == "declared":
            return not_a_name(self.name, text)
        return f"{self.name} never holds {text!r}"


@dataclass
class Names:
    """What one class of texts may hold (see the module docstring)."""

    data: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)
    initial: set[str] = field(default_factory=set)
    stores: set[str] = field(default_factory=set)
    sources: list[Source] = field(default_factory=list)
    open: bool = False
    # The names of `data` by the table or attribute that holds them (data is their union).
    by_source: dict[Source, set[str]] = field(default_factory=dict, compare=False)

    def merge(self, other: "Names") -> None:
        """Take in what another class knows."""
        for mine, theirs in ((self.data, other.data), (self.declared, other.declared),
                             (self.initial, other.initial), (self.stores, other.stores)):
            mine |= theirs
        self.sources += [s for s in other.sources if s not in self.sources]
        self.open = self.open or other.open
        for source, names in other.by_source.items():
            self.by_source.setdefault(source, set()).update(names)

    @property
    def known(self) -> bool:
        """Has the class names from data, a declaration or a field's initial value?"""
        return bool(self.data or self.declared or self.initial)


class Term:
    """A value's shape with union-find links: `shape` is None (not known yet), "str", "list",
    "map", "tuple" or an opaque kind ("int", "bool", "seat", "node", a component kind)."""

    __slots__ = ("up", "shape", "args", "parts", "names", "link")

    def __init__(self, shape: str | None = None, args: Iterable["Term"] = (),
                 parts: dict[object, "Term"] | None = None):
        self.up: Term | None = None
        self.shape = shape
        self.args = list(args)
        # A map written in the data keeps each entry's own shape (a row's `min` is a number, its
        # `neighbour` a text): picked with a key written in the rules, an entry has its own term.
        self.parts = parts or {}
        self.names = Names() if shape == "str" else None
        # Where this term's class, knowing no names, joined one that does (see `unify`).
        self.link: Related | None = None

    def find(self) -> "Term":
        """The representative of the term's class.

        Without path compression: the chain from a term to its root passes the places where
        its class joined others, which notes point at (classes stay small).
        """
        root = self
        while root.up is not None:
            root = root.up
        return root

    def joined(self) -> Related | None:
        """The first place on the way to the root where this term's class met names."""
        term: Term | None = self
        while term is not None:
            if term.link is not None:
                return term.link
            term = term.up
        return None


def text(names: Names | None = None) -> Term:
    """A new text term, optionally knowing some names already."""
    t = Term("str")
    if names is not None:
        t.names = names
    return t


def unify(a: Term, b: Term, site: Related | None = None) -> None:
    """Make two values one class (structurally: lists' elements, maps' keys and values...).

    Values of different shapes are left apart: the type checker reports those. `site` says where
    the values meet, kept on a class that gets its names from the other one (for notes).
    """
    ra, rb = a.find(), b.find()
    if ra is rb:
        return
    if ra.shape is None:
        ra.up = rb
        return
    if rb.shape is None:
        rb.up = ra
        return
    if ra.shape != rb.shape or (ra.shape == "tuple" and len(ra.args) != len(rb.args)):
        return
    if ra.names is not None and rb.names is not None and ra.names.known and not rb.names.known:
        ra, rb = rb, ra  # the class that knows no names goes under, keeping where it met them
    ra.up = rb  # linked first: a value that contains itself ends here
    if ra.names is not None and rb.names is not None:
        if site is not None and rb.names.known and not ra.names.known:
            ra.link = site
        rb.names.merge(ra.names)
    for x, y in zip(ra.args, rb.args):
        unify(x, y, site)
    for k, part in ra.parts.items():
        if k in rb.parts:
            unify(part, rb.parts[k], site)
        else:
            rb.parts[k] = part


def as_text(t: Term) -> Names | None:
    """What the class of a text value knows (a value not known yet becomes a text); None otherwise."""
    root = t.find()
    if root.shape is None:
        root.shape, root.names = "str", Names()
    return root.names


def element(t: Term) -> Term | None:
    """The element term of a list (None when the value is not known to be a list)."""
    root = t.find()
    if root.shape is None:
        root.shape, root.args = "list", [Term()]
    return root.args[0] if root.shape == "list" else None


def key_of(t: Term) -> Term | None:
    """The key term of a map, the element term of a list (what `in` looks for), else None."""
    root = t.find()
    if root.shape == "map":
        return root.args[0]
    return element(root)


def value_of(t: Term, key: object = None) -> Term | None:
    """The value term of a map: the entry written in the data for `key` when there is one."""
    root = t.find()
    if root.shape != "map":
        return None
    return root.parts.get(key, root.args[1]) if key is not None else root.args[1]


def list_of(elem: Term) -> Term:
    """A list term."""
    return Term("list", [elem])


def opaque(kind: str) -> Term:
    """A value whose texts, if any, the pass does not follow (a number, a node...)."""
    return Term(kind)


def from_data(value: object, source: Source) -> Term:
    """The term of fixed data (a table, an attribute's values): every text in it is a name of
    its place, complete; maps keep their keys' terms and each entry's own shape."""
    if isinstance(value, str):
        return text(Names(data={value}, sources=[source], by_source={source: {value}}))
    if isinstance(value, bool):
        return opaque("bool")
    if isinstance(value, int):
        return opaque("int")
    if isinstance(value, (list, tuple)):
        elem = Term()
        for item in value:
            unify(elem, from_data(item, source))
        return list_of(elem)
    if isinstance(value, dict):
        keys = Term()
        values = Term()
        parts: dict[object, Term] = {}
        for k, v in value.items():
            unify(keys, from_data(k, Source("keys", source.name) if source.kind == "values" else source))
            parts[k] = from_data(v, source)
            unify(values, parts[k])
        return Term("map", [keys, values], parts)
    return Term()


def column(values: Iterable[object], source: Source) -> Term:
    """The term of an attribute: one value per node or item, all of one class."""
    elem = Term()
    seen: set[tuple[type, object]] = set()
    for v in values:
        if isinstance(v, (str, int)):
            # A text or number met again adds nothing to the class (most items share their values).
            # Its type is part of the key: True == 1, but a flag is not a number.
            if (type(v), v) in seen:
                continue
            seen.add((type(v), v))
        if v is not None:
            unify(elem, from_data(v, source))
    return elem
