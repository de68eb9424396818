"""What the rules can see of a game: its state fields, board attributes and tables.

The loader (in `interpreter`) builds a World from the YAML files; the compiler checks names and
types against it. Keeping it here lets `ruledsl` stay independent of the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Protocol

from .diagnostics import Span, did_you_mean
from .types import Type


class Locator(Protocol):
    """Where the values of a data file are written (the loader's map of YAML positions)."""

    def span(self, path: Iterable[object]) -> Span | None:
        """The span of the value at `path` (mapping keys and list indexes), or None."""


@dataclass(frozen=True)
class DataSource:
    """Data whose type was worked out from the values written (a table, an attribute column),
    and where each of its values stands, so that a type error can point at the data line.

    For a table, a part of `value` at path p is written at `prefix + p`. For an attribute column
    (`rows` given), `value` holds one value per node or item: row i is written at
    `prefix + (rows[i],) + suffix`, where rows[i] is the place of its node or item in the file.
    """

    value: object
    where: Locator
    prefix: tuple[object, ...]
    rows: tuple[int, ...] | None = None
    suffix: tuple[object, ...] = ()

    def locate(self, path: tuple[object, ...]) -> Span | None:
        """Where the part of `value` at `path` is written, when the file says."""
        if self.rows is None:
            return self.where.span(self.prefix + path)
        if not path or not isinstance(path[0], int) or not 0 <= path[0] < len(self.rows):
            return None
        return self.where.span(self.prefix + (self.rows[path[0]],) + self.suffix + path[1:])


@dataclass(frozen=True)
class Field:
    """A piece of game state declared in YAML: per seat, per node, or global."""

    name: str
    type: Type
    span: Span
    ledger: bool = False
    visible: str = "all"
    type_span: Span | None = None  # where its type is written, when the file says
    initial: object = None  # the value it starts with (node and item ids as indexes)


@dataclass(frozen=True)
class Component:
    """A kind of game piece listed in its own file (cards, tiles...): a type of its own."""

    name: str
    ids: tuple[object, ...]
    attrs: Mapping[str, Type]
    attr_values: Mapping[str, tuple[object, ...]]
    fields: Mapping[str, Field]
    collection: str
    attr_sources: Mapping[str, DataSource] = field(default_factory=dict)


@dataclass(frozen=True)
class NameSet:
    """A set of names declared in game.yaml (`names:`), usable as a type of text: `list[landmark]`.

    `tables` and `attributes` ((kind, attribute), kind `node` or a component kind) hold such names
    in the data: the keys of a map table, the texts of a list table, the values of an attribute.
    """

    name: str
    values: tuple[str, ...]
    span: Span
    tables: tuple[str, ...] = ()
    attributes: tuple[tuple[str, str], ...] = ()

    def missing(self, value: object) -> tuple[str, str]:
        """The message and hint for a value that is not one of the names."""
        return (not_a_name(self.name, value),
                did_you_mean(str(value), self.values) or f"its names are {', '.join(self.values)}")


def not_a_name(name_set: str, value: object) -> str:
    """The message for a value that is not one of the names of a declared set."""
    return f"{value!r} is not one of the names of '{name_set}'"


@dataclass(frozen=True)
class World:
    """Everything the rules may name besides their own formulas, phases and locals."""

    seat_fields: Mapping[str, Field]
    global_fields: Mapping[str, Field]
    node_fields: Mapping[str, Field]
    node_attrs: Mapping[str, Type]
    node_attr_values: Mapping[str, tuple[object, ...]]
    node_ids: tuple[object, ...]
    adjacency: tuple[tuple[int, ...], ...]
    tables: Mapping[str, tuple[Type, object]]
    table_spans: Mapping[str, Span] = field(default_factory=dict)
    # For each edge attribute: per node index, the (successor index, attribute value) pairs.
    edges: Mapping[str, tuple[tuple[list[object], ...], ...]] = field(default_factory=dict)
    edge_types: Mapping[str, Type] = field(default_factory=dict)
    components: Mapping[str, Component] = field(default_factory=dict)
    # Where the data behind the types worked out from values is written (see DataSource).
    table_sources: Mapping[str, DataSource] = field(default_factory=dict)
    node_attr_sources: Mapping[str, DataSource] = field(default_factory=dict)
    name_sets: Mapping[str, NameSet] = field(default_factory=dict)

    def ids_by_kind(self) -> dict[str, tuple[object, ...]]:
        """The ids of every kind of thing whose values are indexes (board nodes and components)."""
        ids = {name: c.ids for name, c in self.components.items()}
        ids["node"] = self.node_ids
        return ids
