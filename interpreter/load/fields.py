"""State fields: their declared types, visibility and initial values checked against the type."""

from __future__ import annotations

from typing import Any, Callable

from ruledsl.diagnostics import an, copies_hint
from ruledsl.types import Type, TypeSyntaxError, parse_type
from ruledsl.world import Field

from ..core.game import FieldSpec
from .base import LoaderBase
from .yamlsource import PositionMap


class FieldsMixin(LoaderBase):
    """Declares the seat, global, node and component fields of a game."""

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
        return result

    def convert(self, value: Any, t: Type, path: tuple[Any, ...], pos: PositionMap, index: dict[Any, int]) -> Any:
        """Check an initial value against its declared type; node ids become node indexes."""
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
            self.diags.error(span, "type", f"the initial value {value!r} is not {an(t)}{extra}", hint)
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
