"""State fields: their declared types, visibility and initial values checked against the type.

An initial value may name a table (`money: {type: int, initial: start_money}`) when the field's
values are not text or ids: it starts with the table's value, the variant's when one is played, so a
variant or `tune` that changes the table changes where the game starts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from ruledsl.diagnostics import an, copies_hint, did_you_mean
from ruledsl.types import Type, TypeSyntaxError, parse_type
from ruledsl.world import Field

from ..core.game import FieldSpec
from .base import LoaderBase
from .yamlsource import PositionMap


@dataclass(frozen=True)
class _TableInitial:
    """A field whose initial value names a table: read once the tables (and the variant) are known."""

    fields: dict[str, tuple[Field, FieldSpec]]
    name: str
    table: str
    type: Type
    path: tuple[Any, ...]


class FieldsMixin(LoaderBase):
    """Declares the seat, global, node and component fields of a game."""

    table_names: list[str]
    table_initials: list[_TableInitial]

    def fields(self, specs: dict[str, Any], where: tuple[str, ...], pos: PositionMap, index: dict[Any, int],
               owner: str) -> dict[str, tuple[Field, FieldSpec]]:
        result = {}
        for name, spec in specs.items():
            path = where + (name,)
            try:
                t = parse_type(spec["type"], self.kinds, self.name_sets)
            except TypeSyntaxError as err:
                self.diags.error(pos.nearest(path + ("type",)), "type", str(err))
                continue
            table = None
            initial = None
            if self._may_name_table(spec["initial"], t):
                table = self._named_table(spec["initial"], t, path + ("initial",), pos)
            else:
                initial = self.convert(spec["initial"], t, path + ("initial",), pos, index)
            if t.kind == "map" and _has_int_keys(t):
                self.diags.error(pos.nearest(path + ("type",)), "type",
                                 "state maps need text keys (they are saved as JSON)")
            visible = spec.get("visible", "all")
            if visible == "owner" and owner != "seat":
                self.diags.error(pos.nearest(path + ("visible",)), "schema",
                                 "'owner' visibility only applies to seat fields")
            public_size = bool(spec.get("public_size"))
            if public_size and (visible == "all" or t.kind != "list"):
                self.diags.error(pos.nearest(path + ("public_size",)), "schema",
                                 "'public_size' applies to a hidden list: "
                                 + ("this field is visible to all already" if visible == "all" else f"not {an(t)}"),
                                 "declare it on a field with 'visible: owner' or 'visible: nobody' whose type is list[...]")
            field = Field(name, t, pos.nearest(path), bool(spec.get("ledger")), visible, pos.span(path + ("type",)),
                          initial)
            show = spec.get("show", True)
            if show == "count" and t.kind != "list":
                self.diags.error(pos.nearest(path + ("show",)), "schema",
                                 f"'show: count' shows a list by its length: this field is {an(t)}",
                                 "write 'show: false' to leave it off the main screen")
            shown = "count" if show == "count" else ("yes" if show else "no")
            result[name] = (field, FieldSpec(name, str(t), initial, visible, bool(spec.get("ledger")), public_size,
                                             shown, str(spec.get("title", "")), str(spec.get("text", ""))))
            if table is not None:
                self.table_initials.append(_TableInitial(result, name, table, t, path + ("initial",)))
        return result

    def _may_name_table(self, value: Any, t: Type) -> bool:
        """Whether an initial value is a word naming a table: only for a field whose values are never
        text (for a text, node or item field a word is its value)."""
        # "none" is the rules' word for nothing, which YAML reads as text: convert's message says so.
        return (isinstance(value, str) and value != "none" and t.kind not in ("str", "any")
                and t.kind not in self.indexes)

    def _named_table(self, word: str, t: Type, path: tuple[Any, ...], pos: PositionMap) -> str | None:
        """The table a word names, or None after reporting, where it is written, that none has it."""
        if word in self.table_names:
            return word
        self.diags.error(pos.nearest(path), "type", f"the initial value {word!r} is not {an(t)}, nor a table's name",
                         did_you_mean(word, self.table_names)
                         or "an initial value is written as a value of the field's type, or as a table's name")
        return None

    def read_table_initials(self, tables: dict[str, tuple[Type, Any]], pos: PositionMap,
                            index: dict[Any, int]) -> None:
        """Give the fields whose initial value names a table that table's value (after the variant),
        checked against the field's type where the name is written."""
        for named in self.table_initials:
            value = self.convert(tables[named.table][1], named.type, named.path, pos, index,
                                 f"'{named.table}' (a table holding {tables[named.table][1]!r})")
            field, spec = named.fields[named.name]
            named.fields[named.name] = (replace(field, initial=value), replace(spec, initial=value))
        self.table_initials = []

    def convert(self, value: Any, t: Type, path: tuple[Any, ...], pos: PositionMap, index: dict[Any, int],
                shown: str | None = None) -> Any:
        """Check an initial value against its declared type; node ids become node indexes. `shown`
        is how a message names the value (a table it was read from), when not by itself."""
        span = pos.nearest(path)
        if value is None:
            if not t.nullable and t.kind != "any":
                self.diags.error(span, "type", f"the initial value must be {t}, not none",
                                 f"write the type as '{t}?' to allow none")
            return None
        kind = t.kind
        ok: Callable[[Any], bool] = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "bool": lambda v: isinstance(v, bool), "str": lambda v: isinstance(v, str),
              "seat": lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
              "list": lambda v: isinstance(v, list), "map": lambda v: isinstance(v, dict),
              "tuple": lambda v: isinstance(v, list) and len(v) == len(t.args),
              "any": lambda v: True}.get(kind, lambda v: isinstance(v, (int, str)) and v in self.indexes.get(kind, {}))
        if not ok(value):
            extra = f" (no {kind} has this id)" if kind in self.indexes else ""
            hint = copies_hint(str(value), self.indexes[kind]) if kind in self.indexes else None
            self.diags.error(span, "type", f"the initial value {shown or repr(value)} is not {an(t)}{extra}", hint)
            return None
        if kind == "int":
            self.bounded_number(value, span)
        if kind in self.indexes:
            return self.indexes[kind][value]
        if kind == "tuple":
            return [self.convert(v, a, path + (i,), pos, index) for i, (v, a) in enumerate(zip(value, t.args))]
        if t.names:
            self.check_name(self.name_sets[t.names], value, span)
        if kind == "seat" and value >= self.min_seats:
            self.diags.error(span, "type", f"seat {value} does not exist in a game of {self.min_seats} seats",
                             "seats are numbered from 0")
            return None
        if kind == "list":
            return [self.convert(v, t.args[0], path + (i,), pos, index) for i, v in enumerate(value)]
        if kind == "map":
            keys = t.args[0].names
            for k in value if keys else ():
                self.check_name(self.name_sets[keys], k, pos.key_span(path + (k,)) or pos.nearest(path + (k,)))
            return {str(k): self.convert(v, t.args[1], path + (k,), pos, index) for k, v in value.items()}
        return value


def _has_int_keys(t: Type) -> bool:
    if t.kind == "map":
        return t.args[0].kind == "int" or _has_int_keys(t.args[1])
    if t.kind == "list":
        return _has_int_keys(t.args[0])
    return False
