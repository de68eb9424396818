"""What the rules can see of a game: its state fields, board attributes and tables.

The loader (in `interpreter`) builds a World from the YAML files; the compiler checks names and
types against it. Keeping it here lets `ruledsl` stay independent of the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .diagnostics import Span
from .types import Type


@dataclass(frozen=True)
class Field:
    """A piece of game state declared in YAML: per seat, per node, or global."""

    name: str
    type: Type
    span: Span
    ledger: bool = False
    visible: str = "all"


@dataclass(frozen=True)
class Component:
    """A kind of game piece listed in its own file (cards, tiles...): a type of its own."""

    name: str
    ids: tuple[object, ...]
    attrs: Mapping[str, Type]
    attr_values: Mapping[str, tuple[object, ...]]
    fields: Mapping[str, Field]
    collection: str


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

    def ids_by_kind(self) -> dict[str, tuple[object, ...]]:
        """The ids of every kind of thing whose values are indexes (board nodes and components)."""
        ids = {name: c.ids for name, c in self.components.items()}
        ids["node"] = self.node_ids
        return ids
