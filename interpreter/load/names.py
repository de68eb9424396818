"""Sets of names declared in game.yaml (`names:`): read, and the data said to hold them checked.

    names:
      colour: [red, green, blue, purple]
      landmark:
        values: [station, mall, park, tower]
        tables: [landmark_cost]        # its keys are landmarks
        attributes: [card.needs]       # so is every card's `needs`

A set's name is a type of text for fields and parameters (`list[landmark]`); the rules pass
(`ruledsl/check/namecheck.py`) checks the texts the rules write against it. Here the data is checked:
every name a declared table or attribute holds must be one of the set's.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from ruledsl.diagnostics import Span, did_you_mean
from ruledsl.world import DataSource, NameSet

from .base import LoaderBase
from .yamlsource import PositionMap

_BUILT_IN = {"int", "bool", "str", "seat", "node", "list", "map", "tuple", "any", "none"}


class NamesMixin(LoaderBase):
    """Reads `names:` and checks the tables and attributes it names."""

    def read_names(self, data: dict[str, Any], pos: PositionMap) -> dict[str, NameSet]:
        """The declared sets of names (after the component kinds, before the fields that use them)."""
        result: dict[str, NameSet] = {}
        for name, spec in (data.get("names") or {}).items():
            span = pos.key_span(("names", name)) or pos.nearest(("names", name))
            if name in _BUILT_IN or name in self.kinds:
                what = "a built-in type" if name in _BUILT_IN else "a component kind"
                self.diags.error(span, "reserved-word", f"'{name}' is {what} and cannot name a set of names")
                continue
            long = isinstance(spec, dict)
            values = spec["values"] if long else spec
            where = ("names", name, "values") if long else ("names", name)
            for i, value in enumerate(values):
                if value in values[:i]:
                    self.diags.error(pos.nearest(where + (i,)), "duplicate", f"'{value}' is listed twice in '{name}'")
            tables = tuple(spec.get("tables") or ()) if long else ()
            attributes = tuple((a.split(".", 1)[0], a.split(".", 1)[1]) for a in spec.get("attributes") or ()) if long else ()
            result[name] = NameSet(name, tuple(dict.fromkeys(values)), span, tables, attributes)
        return result

    def check_named_data(self, sets: Mapping[str, NameSet], pos: PositionMap, tables: Mapping[str, Any],
                         node_attrs: Mapping[str, DataSource], kinds: Mapping[str, tuple[Any, ...]]) -> None:
        """Every text of a table or attribute declared to hold names of a set is one of them."""
        for ns in sets.values():
            for i, table in enumerate(ns.tables):
                if table not in tables:
                    self.diags.error(pos.nearest(("names", ns.name, "tables", i)), "unknown-name",
                                     f"'{table}' is not a table", did_you_mean(table, list(tables)))
                    continue
                for path, value in _held(tables[table][1], keys=True):
                    where = pos.key_span(("tables", table) + path) or pos.nearest(("tables", table) + path)
                    self.check_name(ns, value, where)
            for i, (kind, attr) in enumerate(ns.attributes):
                at = pos.nearest(("names", ns.name, "attributes", i))
                columns = node_attrs if kind == "node" else kinds[kind][4] if kind in kinds else None
                if columns is None:
                    self.diags.error(at, "unknown-name", f"'{kind}' is neither node nor a component kind",
                                     did_you_mean(kind, ["node", *kinds]))
                elif attr not in columns:
                    self.diags.error(at, "unknown-field", f"{'board nodes have' if kind == 'node' else kind + 's have'} "
                                     f"no attribute '{attr}'", did_you_mean(attr, list(columns)))
                else:
                    source = columns[attr]
                    reported: set[Span | None] = set()
                    for row, value in enumerate(source.value):  # type: ignore[arg-type]
                        line = source.locate((row,))
                        if line not in reported:  # copies of an item share their line
                            reported.add(line)
                            for path, text in _held(value, keys=False):
                                self.check_name(ns, text, source.locate((row,) + path) or line or ns.span)

    def check_name(self, ns: NameSet, value: object, where: Span) -> None:
        """Report a value of the data that is not one of the set's names."""
        if value not in ns.values:
            self.diags.error(where, "unknown-value", *ns.missing(value))


def _held(value: object, keys: bool) -> Iterator[tuple[tuple[object, ...], object]]:
    """(path, value) of the names a value holds: its texts (or numbers, which are no names), or
    with `keys` a map's keys."""
    if isinstance(value, dict) and keys:
        for k in value:
            yield (k,), k
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            for path, text in _held(item, keys=False):
                yield (i,) + path, text
    elif value is not None:
        yield (), value
